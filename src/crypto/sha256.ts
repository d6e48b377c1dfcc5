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

/**
 * SHA-256 of many messages in one call, for hashing a Zaxy bundle's entries a batch at a time
 * (`hashEntries`): where a platform hashes several messages at once (the 4-lane WebAssembly SIMD
 * hasher, `wasm/sha256-lanes.ts`), one call per batch instead of one per message.
 */
export interface Sha256Many {
  /** Writes SHA-256(data[starts[k], ends[k])) to out[32k, 32k + 32) for every k. */
  digestMany(data: Uint8Array, starts: Uint32Array, ends: Uint32Array, out: Uint8Array): void;
}
