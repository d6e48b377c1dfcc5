// Runs inside Deno (spawned by deno.test.ts): the core's TypeScript imported directly, as Deno
// runs it natively. Reads a case list (JSON file given as the first argument), verifies each case
// exactly as harness.ts's nodeReport does in Node, and prints one JSON line per case; then checks
// both SHA-256 loaders (hash-wasm from bytes, and initSha256 with the extracted module's bytes)
// against WebCrypto on random inputs, runs Zaxy's signature vectors, and prints a summary line.
import { verify } from '../../src/verify.ts';
import { toHex } from '../../src/encoding/hex.ts';
import { initSha256, loadSha256 } from '../../wasm/sha256.ts';
import type { Sha256 } from '../../src/crypto/sha256.ts';
import { chunkedStream } from './chunked.ts';
import { sigverMismatches } from './sigver.ts';

declare const Deno: {
  args: string[];
  readFile(path: string): Promise<Uint8Array>;
  readTextFile(path: string): Promise<string>;
  stdout: { write(bytes: Uint8Array): Promise<number> };
  version: { deno: string; v8: string };
};

interface DenoCase {
  readonly file: string;
  readonly path: string;
  readonly expectPublicKey?: string;
}

const encoder = new TextEncoder();
async function print(value: unknown): Promise<void> {
  const bytes = encoder.encode(`${JSON.stringify(value)}\n`);
  for (let offset = 0; offset < bytes.byteLength;) offset += await Deno.stdout.write(bytes.subarray(offset));
}

const [casesFile, wasmFile] = Deno.args;
const cases = JSON.parse(await Deno.readTextFile(casesFile!)) as DenoCase[];
for (const fixture of cases) {
  const report = await verify(chunkedStream(await Deno.readFile(fixture.path)), {
    name: fixture.file,
    ...(fixture.expectPublicKey === undefined ? {} : { expectPublicKey: fixture.expectPublicKey }),
  });
  await print({ file: fixture.path, report });
}

/** Hashes random inputs one-shot and in random pieces; returns the sizes that disagreed. */
async function sha256Mismatches(sha256: Sha256): Promise<number[]> {
  const wrong: number[] = [];
  const sizes = [0, 1, 55, 56, 63, 64, 65, 16383, 16384, 16385, 1 << 20];
  for (let i = 0; i < 40; i++) sizes.push(Math.floor(Math.random() * 300_000));
  for (const size of sizes) {
    const data = new Uint8Array(size);
    for (let offset = 0; offset < size; offset += 65536)
      crypto.getRandomValues(data.subarray(offset, Math.min(size, offset + 65536)));
    const expected = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));
    const hasher = sha256.create();
    const cut = Math.floor(Math.random() * (size + 1));
    hasher.update(data.subarray(0, cut)).update(data.subarray(cut));
    if (toHex(sha256.digest(data)) !== expected || toHex(hasher.digest()) !== expected) wrong.push(size);
  }
  return wrong;
}

const sigver: Record<string, { ran: number; wrong: number[] }> = {};
for (const fixture of cases.filter((c) => c.file.startsWith('sigver-'))) {
  sigver[fixture.file] = await sigverMismatches(JSON.parse(await Deno.readTextFile(fixture.path)));
}

const fromBytes = await sha256Mismatches(await loadSha256());
const fromModule = await sha256Mismatches(await initSha256(await Deno.readFile(wasmFile!)));
await print({
  summary: {
    cases: cases.length,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    sha256: { fromBytes, fromModule },
    sigver,
  },
});
