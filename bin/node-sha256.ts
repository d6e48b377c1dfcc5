/**
 * node:crypto's SHA-256 (OpenSSL, SHA-NI) as the core's `Sha256`, for the CLI (and the Node tests
 * and benchmarks, which must hash as the CLI does): several times faster than WASM on large inputs.
 *
 * A Zaxy bundle hashes 300k small messages (ids, leaves, nodes), so the cost per call decides, not
 * the hashing. Measured on Node 20, 65-byte messages: `createHash(…).digest()` ~1.0 µs,
 * `crypto.hash(…, 'buffer')` ~0.98 µs, but `crypto.hash(…, 'latin1')` ~0.21 µs: the time goes
 * into allocating Node's result buffer, not into OpenSSL. So one-shot digests ask for a latin1
 * ('binary') string, one character per byte, and copy it into a plain Uint8Array (~0.27 µs in all).
 * @module
 */
import crypto, { createHash } from 'node:crypto';
import type { Sha256, Sha256Hasher } from '../src/crypto/sha256.ts';

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'binary') => string;

/** `crypto.hash` arrived in Node 20.12 / 21.7; older Nodes use `createHash`. */
const oneShot = (crypto as { hash?: OneShotHash }).hash;

function latin1Digest(hash: OneShotHash, data: Uint8Array): Uint8Array {
  const text = hash('sha256', data, 'binary'); // Node's 'binary' is latin1
  const digest = new Uint8Array(32);
  for (let i = 0; i < 32; i++) digest[i] = text.charCodeAt(i);
  return digest;
}

/**
 * node:crypto's SHA-256; digests are plain Uint8Arrays (not Buffers).
 * @example
 * const report = await verify(input, { sha256: nodeSha256 });
 */
export const nodeSha256: Sha256 = {
  digest: oneShot ? (data) => latin1Digest(oneShot, data) : (data) => new Uint8Array(createHash('sha256').update(data).digest()),
  create(): Sha256Hasher {
    const hash = createHash('sha256');
    const hasher: Sha256Hasher = {
      update: (data) => (hash.update(data), hasher),
      digest: () => new Uint8Array(hash.digest()),
    };
    return hasher;
  },
};
