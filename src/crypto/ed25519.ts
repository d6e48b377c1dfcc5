/**
 * Ed25519 verification with OpenSSL's acceptance rule (docs/zaxy.md, 'Signatures'), which is what
 * Zaxy's signer library (pyca/cryptography on OpenSSL) applies. Implemented here on @noble/curves'
 * point arithmetic because neither of noble's own verify modes gives OpenSSL's verdicts:
 * - noble default (ZIP-215) uses the cofactored equation and re-encodes R and A before hashing;
 * - noble `zip215: false` rejects non-canonical public keys that OpenSSL accepts.
 * On the edge-case vectors the runtime tests run (`test/runtimes/sigver.ts`) noble's default differs
 * on 2 vectors and its strict mode on 4; this rule agrees with OpenSSL (and node:crypto) on all of them.
 *
 * OpenSSL's rule (`ossl_ed25519_verify`, ref10):
 * 1. signature = R (32 bytes) ‖ S (32 bytes, little-endian); reject unless S < L.
 * 2. decode A permissively: y = the low 255 bits (values ≥ p are reduced, i.e. accepted), x from
 *    the curve equation (reject when there is no square root), x negated to match the sign bit
 *    (x = 0 with the sign bit set is accepted). Small-order and mixed-order keys are accepted.
 * 3. k = SHA-512(R ‖ A ‖ M) mod L, over the bytes exactly as given (not re-encoded).
 * 4. R' = [S]B − [k]A (cofactorless); accept iff the canonical encoding of R' equals R byte for
 *    byte (so a non-canonical R never verifies).
 *
 * Inputs are attacker-controlled: every malformed length, key or scalar returns false.
 * @module
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { concatBytes } from '../encoding/bytes.ts';

const Point = ed25519.Point;
const L = Point.Fn.ORDER;
const P = Point.Fp.ORDER;
const MASK_255 = (1n << 255n) - 1n;

/**
 * Verifies a pure Ed25519 signature (no context, no prehash) with OpenSSL's verdicts.
 * Returns false for wrong lengths, S ≥ L, undecodable keys, or a mismatch; never throws.
 * @example
 * verifyEd25519(publicKey32, new TextEncoder().encode('hello'), signature64); // true | false
 */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    if (publicKey.length !== 32 || signature.length !== 64) return false;
    const r = signature.subarray(0, 32);
    const s = littleEndian(signature.subarray(32, 64));
    if (s >= L) return false; // step 1
    const a = decodePointPermissive(publicKey); // step 2
    if (a === undefined) return false;
    const digest = sha512(concatBytes([r, publicKey, message])); // step 3
    const k = littleEndian(digest) % L;
    const rPrime = Point.BASE.multiplyUnsafe(s).subtract(a.multiplyUnsafe(k)); // step 4
    const encoded = rPrime.toBytes();
    for (let i = 0; i < 32; i++) if (encoded[i] !== r[i]) return false;
    return true;
  } catch {
    return false;
  }
}

/** ref10's `ge_frombytes_vartime`: y mod p from the low 255 bits, any sign bit. */
function decodePointPermissive(bytes: Uint8Array): InstanceType<typeof Point> | undefined {
  const y = (littleEndian(bytes) & MASK_255) % P;
  const canonical = new Uint8Array(32);
  let rest = y;
  for (let i = 0; i < 32; i++) {
    canonical[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  canonical[31]! |= bytes[31]! & 0x80;
  try {
    // y is now < p; zip215 = true only relaxes the "x = 0 with the sign bit set" check, as ref10 does.
    return Point.fromBytes(canonical, true);
  } catch {
    return undefined;
  }
}

function littleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]!);
  return value;
}
