// The 4-lane WebAssembly SIMD SHA-256 (wasm/sha256-lanes.ts): FIPS 180-4's constants derived
// from their definition, NIST's example vectors, and node:crypto's digests for random sets of
// messages of any lengths (biased to the padding boundaries), anywhere in a buffer, overlapping,
// through one hasher call after call; long messages hashed over several windows; the module
// generated alike every time; undefined where WebAssembly is refused, missing or without SIMD.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { H0, K, loadSha256Many, sha256LanesModule, type Sha256Many } from '../../wasm/sha256-lanes.ts';
import { SHA256_VECTORS as VECTORS } from '../helpers/sha256-vectors.ts';

const many = await loadSha256Many();
assert.ok(many, 'the 4-lane hasher loads in Node');
const hasher: Sha256Many = many;

const nodeHex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** The messages' digests through one `digestMany` call, as hex. */
function digestAll(data: Uint8Array, ranges: readonly (readonly [number, number])[]): string[] {
  const out = new Uint8Array(32 * ranges.length);
  hasher.digestMany(
    data,
    Uint32Array.from(ranges, ([start]) => start),
    Uint32Array.from(ranges, ([, end]) => end),
    out,
  );
  return ranges.map((_, k) => hex(out.subarray(32 * k, 32 * k + 32)));
}

/** Pseudo-random bytes (xorshift32), the same for the same seed. */
function bytesFrom(seed: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed | 1;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state;
  }
  return bytes;
}

/** floor(n^(1/k)) for a BigInt n ≥ 0, by bisection. */
function integerRoot(n: bigint, k: bigint): bigint {
  let [low, high] = [0n, 1n];
  while (high ** k <= n) high *= 2n;
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (middle ** k <= n) low = middle;
    else high = middle;
  }
  return low;
}

const PRIMES = Array.from({ length: 400 }, (_, n) => n).filter(
  (n) => n > 1 && Array.from({ length: n - 2 }, (_, i) => i + 2).every((d) => n % d !== 0),
);

test('K and H(0) are the first 32 bits of the fractional parts of the primes’ cube and square roots (FIPS 180-4 §4.2.2, §5.3.3)', () => {
  // frac(p^(1/3)) · 2^32 = floor((p · 2^96)^(1/3)) mod 2^32, computed exactly.
  assert.deepEqual(
    [...K],
    PRIMES.slice(0, 64).map((p) => Number(integerRoot(BigInt(p) << 96n, 3n) % 2n ** 32n)),
  );
  assert.deepEqual(
    [...H0],
    PRIMES.slice(0, 8).map((p) => Number(integerRoot(BigInt(p) << 64n, 2n) % 2n ** 32n)),
  );
});

const encoder = new TextEncoder();

test('NIST example vectors, each alone and all in one call', () => {
  const messages = VECTORS.map(([text]) => encoder.encode(text));
  messages.forEach((message, k) => {
    assert.deepEqual(digestAll(message, [[0, message.length]]), [VECTORS[k]![1]], `vector ${k}`);
  });
  const data = new Uint8Array(messages.reduce((sum, message) => sum + message.length, 0));
  const ranges: [number, number][] = [];
  let at = 0;
  for (const message of messages) {
    data.set(message, at);
    ranges.push([at, (at += message.length)]);
  }
  assert.deepEqual(
    digestAll(data, ranges),
    VECTORS.map(([, digest]) => digest),
  );
});

/** Lengths at the padding boundaries (§5.1.1: 55/56 bytes left, whole blocks), others up to ~3,000, rarely 200 KB. */
const length = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 3000 }) },
  { weight: 1, arbitrary: fc.constantFrom(200_000, 200_001, 199_999) },
);

test('random sets of messages anywhere in a view at an odd offset equal node:crypto, call after call', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(length, fc.nat(), fc.boolean()), { maxLength: 40 }),
      fc.integer({ min: 0, max: 1000 }),
      fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      (messages, slack, seed) => {
        const size = messages.reduce((sum, [bytes]) => sum + bytes, 0) + slack;
        const buffer = bytesFrom(seed, size + 7);
        const data = buffer.subarray(3, 3 + size); // a view at an odd byte offset of its buffer
        // Each message either right after the previous one or at a random place (overlaps allowed).
        let next = 0;
        const ranges = messages.map(([bytes, where, packed]): [number, number] => {
          const start = packed && next + bytes <= size ? next : where % (size - bytes + 1);
          next = start + bytes;
          return [start, start + bytes];
        });
        assert.deepEqual(
          digestAll(data, ranges),
          ranges.map(([start, end]) => nodeHex(data.subarray(start, end))),
        );
      },
    ),
    { numRuns: 150 },
  );
});

test('many windows: 12,000 messages (more jobs and bytes than one window holds), in order, reversed and scattered', () => {
  const data = bytesFrom(7, 8_000_000);
  const lengths = Array.from(bytesFrom(11, 12_000), (byte, k) => (byte * 7 + k) % 700);
  const inOrder: [number, number][] = [];
  let at = 0;
  for (const bytes of lengths) inOrder.push([at, (at += bytes)]);
  const reversed = [...inOrder].reverse();
  // Gaps of 0 to 400 bytes between messages: some copied with the gap, some as pieces of their own.
  const scattered: [number, number][] = [];
  at = 0;
  for (const [k, bytes] of lengths.entries()) {
    at += (k * 37) % 401;
    scattered.push([at, (at += bytes)]);
  }
  // Leaves and ids as hashEntries asks for them: every message, then each without its first byte.
  const leavesThenIds = [...inOrder, ...inOrder.filter(([start, end]) => end > start).map(([s, e]) => [s + 1, e])];
  for (const ranges of [inOrder, reversed, scattered, leavesThenIds] as [number, number][][]) {
    assert.deepEqual(
      digestAll(data, ranges),
      ranges.map(([start, end]) => nodeHex(data.subarray(start, end))),
    );
  }
});

test('long messages (hashed a 256 KiB segment per window, four at a time) among short ones', () => {
  const SEGMENT = 256 * 1024;
  const data = bytesFrom(99, 6_000_000);
  const lengths = [
    SEGMENT + 1,
    100,
    2 * SEGMENT,
    0,
    2 * SEGMENT - 1,
    2 * SEGMENT + 55,
    64,
    SEGMENT,
    3 * SEGMENT + 56,
    5_000_000,
    SEGMENT + 64,
    7,
  ];
  const ranges: [number, number][] = lengths.map((bytes, k) => [k * 1000, k * 1000 + bytes]);
  ranges.push(...ranges.map(([start, end]): [number, number] => [start, end]).reverse());
  assert.deepEqual(
    digestAll(data, ranges),
    ranges.map(([start, end]) => nodeHex(data.subarray(start, end))),
  );
});

test('one hasher, many calls: nothing carries over (before and after a long message, an empty call)', () => {
  const data = bytesFrom(5, 3_000_000);
  const calls: [number, number][][] = [
    [[0, 1000]],
    [
      [5, 2_900_000],
      [0, 3],
    ],
    [],
    [
      [17, 17],
      [100, 163],
      [100, 164],
    ],
    [[0, 1000]],
  ];
  for (const ranges of calls) {
    assert.deepEqual(
      digestAll(data, ranges),
      ranges.map(([start, end]) => nodeHex(data.subarray(start, end))),
    );
  }
  const out = new Uint8Array(32).fill(0xaa);
  hasher.digestMany(new Uint8Array(0), new Uint32Array(0), new Uint32Array(0), out);
  assert.deepEqual(out, new Uint8Array(32).fill(0xaa), 'an empty call writes nothing');
  // Digests land at out[32k..], out longer than needed and a view into a larger buffer.
  const wide = new Uint8Array(200);
  hasher.digestMany(encoder.encode('abc'), Uint32Array.of(0), Uint32Array.of(3), wide.subarray(10, 80));
  assert.equal(hex(wide.subarray(10, 42)), VECTORS[1]![1]);
  assert.ok(wide.subarray(0, 10).every((byte) => byte === 0) && wide.subarray(42).every((byte) => byte === 0));
});

test('API misuse throws RangeError before anything is written', () => {
  const data = new Uint8Array(10);
  const out = new Uint8Array(64);
  const call =
    (starts: number[], ends: number[], into = out) =>
    () =>
      hasher.digestMany(data, Uint32Array.from(starts), Uint32Array.from(ends), into);
  assert.throws(call([0, 1], [1]), RangeError);
  assert.throws(call([0], [11]), RangeError);
  assert.throws(call([5], [4]), RangeError);
  assert.throws(call([0, 0], [1, 1], new Uint8Array(63)), RangeError);
  assert.ok(out.every((byte) => byte === 0));
});

test('the module is generated alike every time, and loads once', async () => {
  assert.deepEqual(sha256LanesModule(), sha256LanesModule());
  assert.ok(WebAssembly.validate(sha256LanesModule()));
  assert.equal(await loadSha256Many(), hasher);
});

test('undefined, never a rejection, where WebAssembly is refused, missing or without SIMD', async (t) => {
  const fresh = async () =>
    ((await import(`../../wasm/sha256-lanes.ts?fresh=${Math.random()}`)) as typeof import('../../wasm/sha256-lanes.ts'))
      .loadSha256Many;
  const { instantiate, validate } = WebAssembly;
  t.after(() => {
    WebAssembly.instantiate = instantiate;
    WebAssembly.validate = validate;
  });
  // As workerd and a CSP without 'wasm-unsafe-eval' refuse.
  const load = await fresh();
  WebAssembly.instantiate = (() =>
    Promise.reject(
      new WebAssembly.CompileError('WebAssembly.instantiate(): Wasm code generation disallowed by embedder'),
    )) as unknown as typeof WebAssembly.instantiate;
  assert.equal(await load(), undefined);
  WebAssembly.instantiate = instantiate;
  assert.equal(await load(), undefined, 'the outcome is kept');
  // An engine without SIMD does not validate the module.
  const noSimd = await fresh();
  WebAssembly.validate = () => false;
  assert.equal(await noSimd(), undefined);
  WebAssembly.validate = validate;
  // No WebAssembly at all.
  const none = await fresh();
  const saved = globalThis.WebAssembly;
  Reflect.deleteProperty(globalThis, 'WebAssembly');
  try {
    assert.equal(await none(), undefined);
  } finally {
    globalThis.WebAssembly = saved;
  }
  assert.ok(await (await fresh())(), 'loads again once WebAssembly is back');
});
