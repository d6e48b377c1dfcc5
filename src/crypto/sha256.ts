/**
 * The SHA-256 interface the core hashes through (docs/architecture.md, 'SHA-256 and signature
 * interfaces'). Synchronous on purpose: Merkle trees and per-file digests call it hundreds of
 * thousands of times, and an async call per hash would dominate. The default implementation
 * (hash-wasm) is loaded by `wasm/sha256.ts`; the Node CLI may pass `node:crypto`, tests pass other
 * implementations to cross-check. Large contents may be hashed with WebCrypto instead, ahead and
 * asynchronously, unless a `Sha256` was injected (`bulk-digest.ts`).
 * @module
 */

/** Incremental hashing, for content produced piece by piece. */
export interface Sha256Hasher {
  update(data: Uint8Array): Sha256Hasher;
  /** The 32-byte digest; the hasher must not be used afterwards. */
  digest(): Uint8Array;
}

export interface Sha256 {
  /** One-shot digest (32 bytes). */
  digest(data: Uint8Array): Uint8Array;
  /** A fresh incremental hasher. */
  create(): Sha256Hasher;
}
