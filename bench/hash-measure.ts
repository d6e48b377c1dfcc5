// The measurements behind BULK_DIGEST_MIN_BYTES (src/crypto/bulk-digest.ts), the same code in
// every runtime: `hash.bench.ts` runs it in Node, Chromium and Deno and times workerd's from
// outside (workerd's clock stands still while a request computes).
import { bulkDigest } from '../src/crypto/bulk-digest.ts';
import { sha256Digest } from '../src/crypto/sha256-digest.ts';
import { loadSha256 } from '#sha256';

/**
 * How each size is hashed: the WASM `Sha256`, WebCrypto awaited one at a time or 16 in flight,
 * and the kit's interface (`sha256Digest`: WebCrypto from BULK_DIGEST_MIN_BYTES on, else the WASM).
 */
export const METHODS = ['wasm', 'webcrypto', 'webcrypto16', 'kit'] as const;
export type Method = (typeof METHODS)[number];
export const SIZES = [64, 1024, 4096, 8192, 16384, 65536, 262144, 1 << 20, 16 << 20];

/** Enough repetitions to hash ~48 MiB (at least one, at most 20,000 calls). */
export function repsFor(size: number): number {
  return Math.max(1, Math.min(20_000, Math.floor((48 << 20) / size)));
}

/** A buffer of `size` bytes (content does not change SHA-256's speed). */
export function bufferOf(size: number): Uint8Array {
  const data = new Uint8Array(size);
  for (let i = 0; i < size; i++) data[i] = (i * 2654435761) >>> 24;
  return data;
}

/** Hashes `data` `reps` times with `method`; resolves to a digest byte (so nothing is optimised away). */
export async function run(method: Method, data: Uint8Array, reps: number): Promise<number> {
  const sha256 = await loadSha256();
  const bulk = bulkDigest({})!;
  let sink = 0;
  if (method === 'wasm') for (let r = 0; r < reps; r++) sink ^= sha256.digest(data)[0]!;
  else if (method === 'webcrypto') for (let r = 0; r < reps; r++) sink ^= new Uint8Array(await bulk(data))[0]!;
  else if (method === 'kit') for (let r = 0; r < reps; r++) sink ^= (await sha256Digest(data))[0]!;
  else {
    const flying: Promise<ArrayBuffer>[] = [];
    for (let r = 0; r < reps; r++) {
      flying.push(bulk(data));
      if (flying.length === 16) sink ^= new Uint8Array(await flying.shift()!)[0]!;
    }
    for (const digest of await Promise.all(flying)) sink ^= new Uint8Array(digest)[0]!;
  }
  return sink;
}

/** MB/s of every method at every size, timed with `now` (best of `rounds`). */
export async function measureAll(now: () => number, rounds = 3): Promise<Record<string, Record<Method, number>>> {
  const table: Record<string, Record<Method, number>> = {};
  for (const size of SIZES) {
    const data = bufferOf(size);
    const reps = repsFor(size);
    const row = {} as Record<Method, number>;
    for (const method of METHODS) {
      let best = Infinity;
      await run(method, data, 1);
      for (let round = 0; round < rounds; round++) {
        const start = now();
        await run(method, data, reps);
        best = Math.min(best, now() - start);
      }
      row[method] = Math.round((size * reps) / 1e3 / best);
    }
    table[size] = row;
  }
  return table;
}

/** Median MB/s of `runs` single hashes of one `size`-byte buffer with `method` (after one unmeasured). */
export async function medianSingle(method: Method, size: number, runs: number, now: () => number): Promise<number> {
  const data = bufferOf(size);
  await run(method, data, 1);
  const rates: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = now();
    await run(method, data, 1);
    rates.push(size / 1e3 / Math.max(0.001, now() - start));
  }
  rates.sort((a, b) => a - b);
  return Math.round(rates[rates.length >> 1]!);
}
