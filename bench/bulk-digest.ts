/**
 * A measured candidate, not used by the kit (docs/architecture.md, 'Bulk hashing (measured, not
 * adopted)'): SHA-256 of large buffers at the hardware's speed with WebCrypto's
 * `crypto.subtle.digest` (W3C Web Cryptography API), asynchronous, for where a format hashes big
 * contents (AgentXchain file entries). Small and synchronous hashes stay on the core's `Sha256`
 * (WASM), where a promise per call costs more than it saves; that stays the fallback wherever
 * `crypto.subtle` is missing (insecure browser contexts, hosts without it) or refuses. An injected
 * `options.sha256` wins: the caller chose how to hash, so nothing goes to WebCrypto
 * (docs/architecture.md, 'Bulk hashing').
 *
 * The threshold is measured (`npm run bench -- hash`; figures in docs/architecture.md, 'Bulk
 * hashing'): WebCrypto overtakes WASM at 1–16 KiB in Chromium, workerd, Deno and Node, and is
 * 1.7–5.7× faster at 16 KiB in all four, so one threshold serves every runtime and nothing needs
 * to know which runtime it is on.
 * @module
 */
import type { Sha256 } from '../src/crypto/sha256.ts';

/** Buffers from this size on go to WebCrypto (below it, the WASM hash is as fast or faster). */
export const BULK_DIGEST_MIN_BYTES = 16 * 1024;

/** WebCrypto's one-shot SHA-256 of `data` (its own copy is taken at the call), 32 bytes. */
export type BulkDigest = (data: Uint8Array) => Promise<ArrayBuffer>;

/**
 * WebCrypto's SHA-256, unless `options.sha256` was injected or this host has no `crypto.subtle`.
 * @example
 * const bulk = bulkDigest(options);
 * const digest =
 *   bulk !== undefined && data.byteLength >= BULK_DIGEST_MIN_BYTES ? await bulk(data) : sha256.digest(data);
 */
export function bulkDigest(options: { readonly sha256?: Sha256 | undefined }): BulkDigest | undefined {
  // (A shared buffer would make WebCrypto reject, and the caller falls back to `Sha256`.)
  const subtle = options.sha256 === undefined ? globalThis.crypto?.subtle : undefined;
  return subtle && ((data) => subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
}

/**
 * The SHA-256 of `data` through the kit's interface: WebCrypto for a large buffer when the host
 * has it and `options.sha256` was not injected, else `sha256` (the injected or the WASM one).
 * @example
 * const digest = await sha256Of(bytes, await resolveSha256(options), options);
 */
export async function sha256Of(
  data: Uint8Array,
  sha256: Sha256,
  options: { readonly sha256?: Sha256 | undefined },
): Promise<Uint8Array> {
  const bulk = data.byteLength >= BULK_DIGEST_MIN_BYTES ? bulkDigest(options) : undefined;
  return bulk === undefined
    ? sha256.digest(data)
    : bulk(data).then(
        (digest) => new Uint8Array(digest),
        () => sha256.digest(data),
      );
}
