// The browser's default decompressor (src/stream/gunzip/native.ts on DecompressionStream) keeps
// the gzip error contract of the fflate one (src/stream/gunzip/members.ts): same output for good
// input, same codes for damaged input, every chunking alike.
import { gzipSync } from 'fflate';
import { DEFAULT_LIMITS, resolveLimits, type Limits } from '../../src/limits.ts';
import {
  createNativeGunzipCore,
  gunzipStream,
  nativeGunzipStream,
  nativeGunzipUsable,
  type GunzipFactory,
} from '../../src/stream/gunzip/index.ts';
import { streamFromPushCore } from '../../src/stream/push-core.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

interface Outcome {
  readonly length: number;
  readonly hash: number;
  readonly code: string;
}

async function run(
  factory: GunzipFactory,
  input: Uint8Array,
  chunk: number,
  limits: Limits = DEFAULT_LIMITS,
): Promise<Outcome> {
  let offset = 0;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= input.byteLength) return controller.close();
      controller.enqueue(input.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
  const reader = source.pipeThrough(factory({ limits })).getReader();
  let length = 0;
  let hash = 0;
  let code = 'ok';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const byte of value) hash = (hash * 31 + byte) | 0;
      length += value.byteLength;
    }
  } catch (error) {
    code = (error as { code?: string }).code ?? String(error);
  }
  return { length, hash, code };
}

const encoder = new TextEncoder();
const text = (n: number, seed: string): Uint8Array =>
  encoder.encode(Array.from({ length: n }, (_, i) => `${seed} ${i} ${'x'.repeat(i % 37)}\n`).join(''));
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
};

describe('native gunzip in Chromium', () => {
  it('is usable here (DecompressionStream stops at the end of a member)', async () => {
    assert(await nativeGunzipUsable(), 'the probe failed: Chromium would fall back to fflate');
  });

  it('agrees with the fflate decompressor on good and damaged input, for any chunking', async () => {
    const a = gzipSync(text(4000, 'alpha'));
    const b = gzipSync(text(50, 'beta'));
    const flip = (bytes: Uint8Array, at: number, mask: number): Uint8Array => {
      const copy = bytes.slice();
      copy[at]! ^= mask;
      return copy;
    };
    const method = b.slice();
    method[2] = 7;
    const cases: [string, Uint8Array, boolean][] = [
      ['one member', a, true],
      ['three members', concat(a, b, a), true],
      ['CRC-32', flip(a, a.byteLength - 8, 0xff), false],
      ['ISIZE', concat(b, flip(a, a.byteLength - 1, 1)), false],
      ['truncated data', a.subarray(0, a.byteLength - 100), true],
      ['truncated trailer', a.subarray(0, a.byteLength - 3), true],
      ['trailing text', concat(a, b, encoder.encode('garbage')), true],
      ['trailing zeros', concat(a, new Uint8Array(16)), true],
      ['a lone 1f', concat(a, Uint8Array.of(0x1f)), true],
      ['bad method in member 2', concat(a, method), true],
    ];
    for (const [name, bytes, sameOutput] of cases) {
      const reference = await run(gunzipStream, bytes, 1 << 20);
      let first: Outcome | undefined;
      for (const chunk of [1, 7, 4096, 1 << 20]) {
        const native = await run(nativeGunzipStream, bytes, chunk);
        assert(native.code === reference.code, `${name}, chunks of ${chunk}: ${native.code} vs ${reference.code}`);
        // On CRC-32 / ISIZE damage Chromium drops the failing slice's output: less, but always the same.
        if (sameOutput)
          assert(
            native.length === reference.length && native.hash === reference.hash,
            `${name}, chunks of ${chunk}: output differs`,
          );
        first ??= native;
        assert(native.length === first.length && native.hash === first.hash, `${name}: output depends on chunking`);
      }
    }
  });

  it('stops at the size limit exactly', async () => {
    const outcome = await run(
      nativeGunzipStream,
      gzipSync(text(4000, 'alpha')),
      4096,
      resolveLimits({ maxDecompressedBytes: 1000 }),
    );
    assert(outcome.code === 'limit.decompressed_bytes' && outcome.length === 1000, JSON.stringify(outcome));
  });

  it('refuses a member whose end is ambiguous (a copy of its trailer inside the DEFLATE data)', async () => {
    // DEFLATE: a stored block holding X = (CRC-32, size) of the whole output, then a final stored
    // block holding 4 bytes Y chosen so that the CRC-32 of X‖Y is the CRC written in X. The real
    // trailer follows, then a second member (so the native decoder reports "junk").
    const target = 0x11223344;
    const x = Uint8Array.of(0x44, 0x33, 0x22, 0x11, 12, 0, 0, 0);
    const y = forgeCrc32(x, target);
    assert(crc32(concat(x, y)) === target, 'forged CRC');
    const header = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3);
    const deflate = concat(Uint8Array.of(0, 8, 0, 0xf7, 0xff), x, Uint8Array.of(1, 4, 0, 0xfb, 0xff), y);
    const member = concat(header, deflate, x);
    const input = concat(member, gzipSync(encoder.encode('second\n')));
    assert((await run(gunzipStream, input, 1 << 20)).code === 'ok', 'fflate reads it exactly');
    for (const chunk of [1, 1 << 20]) {
      const native = await run(nativeGunzipStream, input, chunk);
      assert(native.code === 'gzip.bad_data', `native: ${native.code}`);
    }
  });
});

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

function crc32(bytes: Uint8Array): number {
  let c = -1;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** Four bytes that, appended to `prefix`, make its CRC-32 equal `target` (table reversal). */
function forgeCrc32(prefix: Uint8Array, target: number): Uint8Array {
  const indices: number[] = [];
  let state = ~target >>> 0;
  for (let k = 0; k < 4; k++) {
    const j = CRC_TABLE.findIndex((entry) => entry >>> 24 === state >>> 24);
    indices.unshift(j);
    state = ((state ^ CRC_TABLE[j]!) << 8) >>> 0;
  }
  let forward = ~crc32(prefix) >>> 0;
  const out = new Uint8Array(4);
  indices.forEach((j, k) => {
    out[k] = (forward ^ j) & 0xff;
    forward = (CRC_TABLE[j]! ^ (forward >>> 8)) >>> 0;
  });
  return out;
}

describe('native gunzip: a member whose size appears in its own data', () => {
  // DEFLATE: a stored block of 8 bytes whose last 4 are the output's size (12), then a final stored
  // block of 4 more. Where the size appears inside the data is a second place a trailer could end,
  // told apart from the real end only by the CRC-32 before it. A second member follows, so the
  // native decoder reports "junk" and the member's end must be found.
  const header = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3);
  const output = Uint8Array.of(0xaa, 0xbb, 0xcc, 0xdd, 12, 0, 0, 0, 0x74, 0x61, 0x69, 0x6c);
  const deflate = concat(Uint8Array.of(0, 8, 0, 0xf7, 0xff), output.subarray(0, 8), Uint8Array.of(1, 4, 0, 0xfb, 0xff));
  const trailer = new Uint8Array(8);
  new DataView(trailer.buffer).setUint32(0, crc32(output), true);
  new DataView(trailer.buffer).setUint32(4, 12, true);
  const member = concat(header, deflate, output.subarray(8), trailer);
  const input = concat(member, gzipSync(encoder.encode('second\n')));

  it('finds the end from the CRC-32 of the member, decoded again, and reads what fflate reads', async () => {
    const reference = await run(gunzipStream, input, 1 << 20);
    assert(reference.code === 'ok', `fflate: ${reference.code}`);
    for (const chunk of [1, 5, 1 << 20]) {
      const native = await run(nativeGunzipStream, input, chunk);
      assert(
        native.code === 'ok' && native.length === reference.length && native.hash === reference.hash,
        `chunks of ${chunk}: ${JSON.stringify(native)} vs ${JSON.stringify(reference)}`,
      );
    }
  });

  it('refuses the tie when the member was too large to keep', async () => {
    const keepingNothing: GunzipFactory = (options) =>
      streamFromPushCore((emit) => createNativeGunzipCore(options, emit, 0));
    const native = await run(keepingNothing, input, 1 << 20);
    assert(native.code === 'gzip.bad_data', `native: ${native.code}`);
    // Without the tie, nothing needs keeping.
    const plain = concat(gzipSync(text(300, 'gamma')), gzipSync(encoder.encode('second\n')));
    const reference = await run(gunzipStream, plain, 1 << 20);
    const kept = await run(keepingNothing, plain, 4096);
    assert(
      kept.code === 'ok' && kept.length === reference.length && kept.hash === reference.hash,
      `no tie: ${JSON.stringify(kept)}`,
    );
  });
});
