/**
 * Signature verification behind one small injectable interface (docs/architecture.md,
 * 'SHA-256 and signature interfaces').
 *
 * `verifySignature` is the default: `ed25519` with OpenSSL's acceptance rule (`ed25519.ts`,
 * pure JavaScript on @noble/curves, identical in Node, browsers, workerd and Deno) and
 * `ml-dsa-65` (pure, empty context) on the host's WebCrypto where it has ML-DSA, else with
 * @noble/post-quantum (`ml-dsa.ts`). Both algorithm modules are loaded on first use, so a page that
 * verifies one kind of signature never loads the other. That makes the default asynchronous;
 * hosts may inject any `SignatureVerifier` (sync or async), e.g. WebCrypto Ed25519 — which must
 * then give OpenSSL's verdicts on the `sigver-ed25519-edge-openssl` vectors.
 * @module
 */

/** Algorithms the default verifier knows (Zaxy's labels, docs/zaxy.md, 'Signatures'). */
export type SignatureAlgorithm = 'ed25519' | 'ml-dsa-65';

/**
 * Verifies `signature` over `message` under a raw `publicKey`. Must return false (never throw or
 * reject) for unknown algorithms and malformed keys or signatures.
 */
export type SignatureVerifier = (
  algorithm: string,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => boolean | Promise<boolean>;

/**
 * The default verifier. Unknown algorithms, wrong lengths and malformed encodings give false.
 * @example
 * await verifySignature('ed25519', publicKey, message, signature); // true | false
 */
export async function verifySignature(
  algorithm: string,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    switch (algorithm) {
      case 'ed25519':
        return (await import('./ed25519.ts')).verifyEd25519(publicKey, message, signature);
      case 'ml-dsa-65':
        return await (await import('./ml-dsa.ts')).verifyMlDsa65(publicKey, message, signature);
      default:
        return false;
    }
  } catch {
    return false;
  }
}
