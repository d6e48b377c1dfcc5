/**
 * ML-DSA-65 verification (FIPS 204, pure mode, empty context), as Zaxy's signer library calls it
 * (docs/zaxy.md, 'Signatures'). @noble/post-quantum is loaded on first use (dynamic import), so
 * bundles and pages that never meet an ML-DSA signature do not download or parse it. Its verdicts
 * agree with OpenSSL on the 64 edge-case vectors the runtime tests run (`test/runtimes/sigver.ts`;
 * malformed hint encodings included).
 * @module
 */

/** FIPS 204 ML-DSA-65 encoded public key length. */
export const ML_DSA_65_PUBLIC_KEY_BYTES = 1952;
/** FIPS 204 ML-DSA-65 signature length. */
export const ML_DSA_65_SIGNATURE_BYTES = 3309;

export type MlDsaVerify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

let loading: Promise<MlDsaVerify> | undefined;

/**
 * Loads (once) a pure ML-DSA-65 verifier with an empty context. The verifier returns false for
 * wrong lengths or malformed encodings and never throws.
 * @example
 * const verify = await loadMlDsa65();
 * verify(publicKey, message, signature); // true | false
 */
export function loadMlDsa65(): Promise<MlDsaVerify> {
  loading ??= import('@noble/post-quantum/ml-dsa.js').then(({ ml_dsa65 }) => (publicKey, message, signature) => {
    if (publicKey.length !== ML_DSA_65_PUBLIC_KEY_BYTES || signature.length !== ML_DSA_65_SIGNATURE_BYTES) return false;
    try {
      return ml_dsa65.verify(signature, message, publicKey) === true;
    } catch {
      return false;
    }
  });
  return loading;
}
