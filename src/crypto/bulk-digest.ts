/**
 * SHA-256 of large buffers at the hardware's speed: WebCrypto's `crypto.subtle.digest` (W3C Web
 * Cryptography API, §14.3.5 `digest`), asynchronous, where the kit hashes big contents
 * (AgentXchain file entries, `sha256Digest`). Small and synchronous hashes stay on the core's
 * `Sha256` (WASM), where a promise per call costs more than it saves. That stays the fallback
 * wherever `crypto.subtle` is missing (an insecure browser context, a host without it) or refuses a
 * digest; and an injected `options.sha256` wins: the caller chose how to hash, so nothing goes to
 * WebCrypto (docs/architecture.md, 'Bulk hashing').
 * @module
 */
import type { Sha256 } from './sha256.ts';

/** What tells the runtimes apart: Deno's own global, workerd's user agent, Node's `process`. */
const host = globalThis as {
  readonly Deno?: unknown;
  readonly navigator?: { readonly userAgent?: string };
  readonly process?: { readonly versions?: { readonly node?: string } };
};

/**
 * Buffers from this size on go to WebCrypto, chosen per runtime from where WebCrypto overtakes the
 * WASM hash (`npm run bench -- hash`; docs/architecture.md, 'Bulk hashing'): 1–4 KiB in Chromium
 * and workerd, 4–8 KiB in Deno, 8–16 KiB in Node. Deno and workerd may define `process` too (for
 * Node compatibility); browsers and other hosts take 4 KiB.
 */
export const BULK_DIGEST_MIN_BYTES: number = host.Deno
  ? 8 << 10
  : host.navigator?.userAgent !== 'Cloudflare-Workers' && host.process?.versions?.node
    ? 16 << 10
    : 4 << 10;

/** WebCrypto's one-shot SHA-256 of `data` (the digest works on its own copy, taken at the call). */
export type BulkDigest = (data: Uint8Array) => Promise<ArrayBuffer>;

/**
 * WebCrypto's SHA-256, unless `options.sha256` was injected or this host has no `crypto.subtle`.
 * Rejects (never throws) when WebCrypto refuses, e.g. a view of a shared buffer: hash with the
 * `Sha256` then.
 * @example
 * const bulk = bulkDigest(options);
 * const digest = bulk && data.byteLength >= BULK_DIGEST_MIN_BYTES ? await bulk(data) : sha256.digest(data);
 */
export function bulkDigest(options: { readonly sha256?: Sha256 | undefined }): BulkDigest | undefined {
  const subtle = options.sha256 === undefined ? globalThis.crypto?.subtle : undefined;
  return subtle && (async (data) => subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
}
