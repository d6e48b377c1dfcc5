/**
 * The SHA-256 interface the core hashes through (docs/architecture.md, 'SHA-256 and signature
 * interfaces'). Synchronous on purpose: Merkle trees and per-file digests call it hundreds of
 * thousands of times, and an async call per hash would dominate. The default implementation
 * (hash-wasm) is loaded by `wasm/sha256.ts`; the Node CLI may pass `node:crypto`, tests pass other
 * implementations to cross-check.
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
