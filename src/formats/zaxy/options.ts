/**
 * Options of the Zaxy verifier.
 * @module
 */
import type { SignatureVerifier } from '../../crypto/signature.ts';
import type { VerifyOptions } from '../../options.ts';
import type { EntryHasherFactory } from './entry-hashes.ts';

export interface ZaxyOptions extends VerifyOptions {
  /**
   * Hex public key the signer must have (Zaxy's `expect_public_key`): compared with the bundle's
   * `public_key` as an exact string, so case matters and an empty string never matches.
   */
  readonly expectPublicKey?: string;
  /**
   * Signature verifier (default `verifySignature`: OpenSSL-equivalent Ed25519; ML-DSA-65 on
   * WebCrypto where the host has it, else noble).
   * A replacement must return false, not throw, for bad input, and give OpenSSL's verdicts on
   * the `sigver-*-edge-openssl` vectors.
   */
  readonly signatureVerifier?: SignatureVerifier;
  /**
   * Hashes a signed bundle's entries elsewhere while the parser goes on (the CLI passes a worker
   * thread's). Default: each entry is hashed as it is read, with `sha256`.
   */
  readonly entryHasher?: EntryHasherFactory;
}

/**
 * Python's json reader raises RecursionError at about this nesting depth inside Zaxy's CLI
 * (995 at the top of a bare interpreter; Zaxy's call stack takes some frames). Deeper documents
 * never reach Zaxy's verifier (docs/zaxy.md, 'Input Zaxy never verifies').
 */
export const PYTHON_NESTING_LIMIT = 990;
