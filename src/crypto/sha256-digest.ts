/**
 * `sha256Digest`: the kit's SHA-256 of one buffer, for callers that hash whole files. Large
 * buffers go to WebCrypto (`bulk-digest.ts`), the rest to the kit's `Sha256` (WASM by default),
 * which is also the fallback when WebCrypto is missing or refuses; an injected `options.sha256`
 * hashes everything.
 * @module
 */
import { resolveSha256 } from '../verifier-lifecycle.ts';
import { BULK_DIGEST_MIN_BYTES, bulkDigest } from './bulk-digest.ts';
import type { Sha256 } from './sha256.ts';

/** The default `Sha256`, once loaded (the dynamic import behind it costs more than a small hash). */
let defaultSha256: Sha256 | undefined;

/**
 * The SHA-256 of `data` (32 bytes), whichever way this host hashes it fastest. A host that
 * refuses the kit's WebAssembly (a CSP without `'wasm-unsafe-eval'`) still hashes with WebCrypto
 * when it has it, at any size.
 * @throws TypeError when `data` is not a `Uint8Array`.
 * @throws Error (rejects) when no SHA-256 can be had: no `crypto.subtle` and no WebAssembly.
 * @example
 * const digest = await sha256Digest(new Uint8Array(await file.arrayBuffer()));
 */
export async function sha256Digest(
  data: Uint8Array,
  options: { readonly sha256?: Sha256 | undefined } = {},
): Promise<Uint8Array> {
  if (!(data instanceof Uint8Array)) throw new TypeError('sha256Digest: data must be a Uint8Array');
  const bulk = bulkDigest(options);
  if (bulk !== undefined && data.byteLength >= BULK_DIGEST_MIN_BYTES) {
    const digest = await bulk(data).catch(() => undefined);
    if (digest !== undefined) return new Uint8Array(digest);
  }
  let sha256 = options.sha256 ?? defaultSha256;
  try {
    sha256 ??= defaultSha256 = await resolveSha256({});
  } catch (error) {
    if (bulk === undefined) throw error;
    return new Uint8Array(await bulk(data));
  }
  return sha256.digest(data);
}
