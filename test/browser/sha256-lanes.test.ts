/// <reference types="mocha" />
// The 4-lane WebAssembly SIMD SHA-256 (wasm/sha256-lanes.ts) in Chromium: it loads (the module
// generated and compiled from bytes on the page), hashes NIST's example vectors, and equals
// WebCrypto's `crypto.subtle.digest` for a few hundred messages of random lengths at random
// places of one buffer, in one call, and again in many calls to the same hasher.
import { toHex } from '../../src/encoding/hex.ts';
import { loadSha256Many } from '../../wasm/sha256-lanes.ts';
import { SHA256_VECTORS as VECTORS } from '../helpers/sha256-vectors.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const webCryptoHex = async (bytes: Uint8Array): Promise<string> =>
  toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.slice())));

describe('4-lane SIMD SHA-256 in Chromium', () => {
  it('loads, and hashes the NIST example vectors', async () => {
    const many = await loadSha256Many();
    assert(many !== undefined, 'the 4-lane hasher loads in Chromium');
    const encoder = new TextEncoder();
    const messages = VECTORS.map(([text]) => encoder.encode(text));
    const data = new Uint8Array(messages.reduce((sum, message) => sum + message.length, 0));
    const starts = new Uint32Array(messages.length);
    const ends = new Uint32Array(messages.length);
    messages.reduce((at, message, k) => (data.set(message, at), (starts[k] = at), (ends[k] = at + message.length)), 0);
    const out = new Uint8Array(32 * messages.length);
    many.digestMany(data, starts, ends, out);
    VECTORS.forEach(([text, digest], k) =>
      assert(toHex(out.subarray(32 * k, 32 * k + 32)) === digest, `vector ${k} (${text.length} bytes)`),
    );
  });

  it('equals crypto.subtle.digest for random messages anywhere in a buffer, in one call and in many', async () => {
    const many = await loadSha256Many();
    assert(many !== undefined, 'the 4-lane hasher loads in Chromium');
    let seed = 20240601;
    const random = (below: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return Math.floor((seed / 2 ** 32) * below);
    };
    const buffer = new Uint8Array(600_001).map(() => random(256));
    const data = buffer.subarray(1); // a view at an odd offset
    const count = 400;
    const boundaries = [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128];
    const lengths = Array.from({ length: count }, (_, k) =>
      k === 7 ? 300_000 : k % 3 === 0 ? boundaries[random(boundaries.length)]! : random(3000),
    );
    const starts = Uint32Array.from(lengths, (length) => random(data.length - length + 1));
    const ends = Uint32Array.from(lengths, (length, k) => starts[k]! + length);
    const expected = await Promise.all(lengths.map((_, k) => webCryptoHex(data.subarray(starts[k], ends[k]))));
    const out = new Uint8Array(32 * count);
    many.digestMany(data, starts, ends, out);
    for (let k = 0; k < count; k++)
      assert(toHex(out.subarray(32 * k, 32 * k + 32)) === expected[k], `message ${k} (${lengths[k]} bytes), one call`);
    out.fill(0);
    for (let from = 0; from < count; from += 37) {
      const to = Math.min(count, from + 37);
      many.digestMany(data, starts.subarray(from, to), ends.subarray(from, to), out.subarray(32 * from, 32 * to));
    }
    for (let k = 0; k < count; k++)
      assert(
        toHex(out.subarray(32 * k, 32 * k + 32)) === expected[k],
        `message ${k} (${lengths[k]} bytes), many calls`,
      );
  });
});
