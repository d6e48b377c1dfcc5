/**
 * ML-DSA-65 verification (FIPS 204, pure mode, empty context), as Zaxy's signer library calls it
 * (docs/zaxy.md, 'Signatures').
 *
 * Two implementations, with the same verdicts:
 * - the host's WebCrypto, where it has ML-DSA ('Modern Algorithms in the Web Cryptography API', a
 *   WICG draft; Chromium has it): native code, about ten times faster than JavaScript, and nothing
 *   to download;
 * - @noble/post-quantum everywhere else (Node 20, Deno, workerd), loaded on first use (dynamic
 *   import), so bundles and pages that never meet an ML-DSA signature do not download or parse it.
 *
 * Both agree with OpenSSL on the 64 edge-case vectors the runtime and browser tests run
 * (`test/runtimes/sigver.ts`, `test/browser/zaxy.test.ts`; malformed hint encodings included).
 * Where WebCrypto cannot give a verdict (no ML-DSA there, or any error), the JavaScript verifier
 * decides, so a host's gap never turns into a different answer.
 * @module
 */

/** FIPS 204 ML-DSA-65 encoded public key length. */
export const ML_DSA_65_PUBLIC_KEY_BYTES = 1952;
/** FIPS 204 ML-DSA-65 signature length. */
export const ML_DSA_65_SIGNATURE_BYTES = 3309;

export type MlDsaVerify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

let loading: Promise<MlDsaVerify> | undefined;

/**
 * Loads (once) the JavaScript ML-DSA-65 verifier (pure, empty context). The verifier returns false
 * for wrong lengths or malformed encodings and never throws.
 * @example
 * const verify = await loadMlDsa65();
 * verify(publicKey, message, signature); // true | false
 */
export function loadMlDsa65(): Promise<MlDsaVerify> {
  loading ??= import('@noble/post-quantum/ml-dsa.js').then(({ ml_dsa65 }) => (publicKey, message, signature) => {
    if (!hasMlDsa65Lengths(publicKey, signature)) return false;
    try {
      return ml_dsa65.verify(signature, message, publicKey) === true;
    } catch {
      return false;
    }
  });
  return loading;
}

/** The algorithm as WebCrypto names it; its default context is the empty one, as Zaxy signs. */
const WEB_CRYPTO_ML_DSA_65 = { name: 'ML-DSA-65' };

/** False once the host's WebCrypto could not import an ML-DSA-65 key (it lacks it): not asked again. */
let hostMayHaveMlDsa65 = true;

/**
 * The verdict of the host's WebCrypto, or undefined when it gives none (no WebCrypto, no ML-DSA
 * in it, or an error of any kind). Exported for the tests that hold it to the vectors.
 */
export async function verifyMlDsa65OnHost(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!hostMayHaveMlDsa65 || subtle === undefined) return undefined;
  let key: CryptoKey;
  try {
    // 'raw-public' is the draft's format for an encoded ML-DSA public key (FIPS 204 pkEncode);
    // TypeScript's DOM types predate the draft's formats.
    key = await subtle.importKey(
      'raw-public' as 'raw',
      publicKey as Uint8Array<ArrayBuffer>,
      WEB_CRYPTO_ML_DSA_65,
      false,
      ['verify'],
    );
  } catch {
    // No ML-DSA (NotSupportedError), or no 'raw-public' format (TypeError: Node 20): not asked again.
    // A host that has it imports any key of the right length, so nothing else lands here.
    hostMayHaveMlDsa65 = false;
    return undefined;
  }
  try {
    return await subtle.verify(
      WEB_CRYPTO_ML_DSA_65,
      key,
      signature as Uint8Array<ArrayBuffer>,
      message as Uint8Array<ArrayBuffer>,
    );
  } catch {
    return undefined;
  }
}

/**
 * Verifies a pure ML-DSA-65 signature with an empty context: on the host's WebCrypto when it has
 * ML-DSA, else in JavaScript (see the module doc). False for wrong lengths or malformed encodings;
 * never rejects.
 * @example
 * await verifyMlDsa65(publicKey, message, signature); // true | false
 */
export async function verifyMlDsa65(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (!hasMlDsa65Lengths(publicKey, signature)) return false;
  return (
    (await verifyMlDsa65OnHost(publicKey, message, signature)) ?? (await loadMlDsa65())(publicKey, message, signature)
  );
}

function hasMlDsa65Lengths(publicKey: Uint8Array, signature: Uint8Array): boolean {
  return publicKey.length === ML_DSA_65_PUBLIC_KEY_BYTES && signature.length === ML_DSA_65_SIGNATURE_BYTES;
}
