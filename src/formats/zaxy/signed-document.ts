/**
 * Checks shared by signed bundles and disclosed subsets (docs/zaxy.md, 'verify_export order' and
 * 'verify_subset order': steps 1–2 and the signature step), the kit's hex-malleability warning,
 * and the signer facts shown in details.
 * @module
 */
import type { Sha256 } from '../../crypto/sha256.ts';
import { toHex } from '../../encoding/hex.ts';
import { pythonRepr } from '../../json/python.ts';
import type { StreamedArray } from '../../json/reader.ts';
import type { JsonValue } from '../../json/value.ts';
import { jsonPath } from '../../report/path.ts';
import { type Candidate, clip } from './candidate-findings.ts';
import type { ZaxySignerDetails } from './details.ts';
import type { SignatureStep } from './header.ts';

/** The only bundle version Zaxy's verifiers accept (docs/zaxy.md, 'Versions'). */
export const BUNDLE_VERSION = 'zaxy.portable.v1';

/** The root object of a scanned signed document. */
export type Root = ReadonlyMap<string, JsonValue | StreamedArray>;

/**
 * A root member that is never streamed (everything but `entries` / `disclosed`).
 * @example
 * rootValue(root, 'version'); // 'zaxy.portable.v1' | undefined | …
 */
export function rootValue(root: Root, key: string): JsonValue | undefined {
  const value = root.get(key);
  if (isStreamed(value)) throw new Error(`internal: ${key} was streamed`);
  return value;
}

/** True for the stand-in of a streamed array. */
export function isStreamed(value: unknown): value is StreamedArray {
  return typeof value === 'object' && value !== null && (value as Partial<StreamedArray>).streamed === true;
}

/**
 * Step 1: `bundle.get("version") != "zaxy.portable.v1"`.
 * @example
 * versionCandidate(new Map([['version', 'zaxy.portable.v2']]))?.compat; // "unsupported bundle version
 * 'zaxy.portable.v2'"
 */
export function versionCandidate(root: Root): Candidate | undefined {
  const version = rootValue(root, 'version');
  if (version === BUNDLE_VERSION) return undefined;
  const repr = pythonRepr(version ?? null);
  return {
    code: 'zaxy.version_unsupported',
    path: jsonPath(['version']),
    message:
      version === undefined
        ? 'version is missing (zaxy.portable.v1 expected)'
        : `version is ${clip(repr)}, not 'zaxy.portable.v1'`,
    compat: `unsupported bundle version ${repr}`,
  };
}

/**
 * Step 2: the pinned key, compared as an exact string (case matters; an empty pin never matches).
 * @example
 * pinCandidate(root, 'ab…')?.code; // 'zaxy.key_not_pinned' when public_key differs
 */
export function pinCandidate(root: Root, pin: string | undefined): Candidate | undefined {
  if (pin === undefined) return undefined;
  const publicKey = rootValue(root, 'public_key');
  if (publicKey === pin) return undefined;
  const actual =
    publicKey === undefined ? '(missing)' : typeof publicKey === 'string' ? publicKey : pythonRepr(publicKey);
  return {
    code: 'zaxy.key_not_pinned',
    path: jsonPath(['public_key']),
    message: 'public_key is not the pinned (expected) key',
    compat: 'public key does not match the pinned/expected key',
    expected: pin,
    actual: clip(actual, 8192),
  };
}

/**
 * The signature step's problem, if any: a Python error (malformed) or a failed verification.
 * `label` picks Zaxy's wording: bundles say `signature invalid (forged, tampered, or wrong key)`,
 * subsets just `signature invalid`.
 */
export function signatureCandidate(step: SignatureStep, label: 'bundle' | 'subset'): Candidate | undefined {
  if (step.kind === 'error') {
    return {
      code:
        step.error.pyError === 'ValueError' && step.error.text.includes("codec can't encode")
          ? 'zaxy.unencodable_string'
          : 'zaxy.malformed',
      path: jsonPath(step.path),
      message: `${describePath(step.path)}: ${clip(step.error.text)}`,
      compat: `malformed ${label}: ${step.error.text}`,
    };
  }
  if (step.valid) return undefined;
  const compat = label === 'bundle' ? 'signature invalid (forged, tampered, or wrong key)' : 'signature invalid';
  if (!step.algorithmKnown) {
    return {
      code: 'zaxy.algorithm_unsupported',
      path: jsonPath(['algorithm']),
      message: `algorithm ${clip(pythonRepr(step.algorithm))} is neither 'ml-dsa-65' nor 'ed25519': no signature can verify`,
      compat,
    };
  }
  return {
    code: 'zaxy.signature_invalid',
    path: jsonPath(['signature']),
    message: 'the signature does not verify over the signing header under public_key',
    compat,
  };
}

/**
 * Kit-only warning: the signature hex is not lowercase without whitespace. It is not signed, so
 * such a variant still verifies (docs/zaxy.md, 'verify_export order'), but it is a malleable copy.
 */
export function signatureHexWarning(root: Root): Candidate | undefined {
  const signature = rootValue(root, 'signature');
  if (typeof signature !== 'string' || /^[0-9a-f]*$/.test(signature)) return undefined;
  return {
    code: 'zaxy.hex_noncanonical',
    path: jsonPath(['signature']),
    message:
      'the signature hex has uppercase digits or whitespace; Zaxy accepts it, but it differs from what Zaxy writes (malleable, not signed)',
    severity: 'warning',
  };
}

/** "the field public_key" / "entries[3].content" for messages. */
export function describePath(path: readonly (string | number)[]): string {
  if (path.length === 0) return 'the document';
  return jsonPath(path).slice(2) || 'the document';
}

/**
 * Signer facts for `details`: algorithm, public key and its short fingerprint (first 16 hex
 * digits of SHA-256 over the key bytes), session, creation time, nonce, Merkle root.
 */
export function signerDetails(root: Root, step: SignatureStep | undefined, sha256: Sha256): ZaxySignerDetails {
  const text = (key: string): string | null => {
    const value = rootValue(root, key);
    return typeof value === 'string' ? value : null;
  };
  const publicKey = step?.kind === 'checked' ? step.publicKey : undefined;
  return {
    version: text('version'),
    algorithm: text('algorithm'),
    public_key: text('public_key'),
    fingerprint:
      publicKey === undefined || publicKey.length === 0 ? null : toHex(sha256.digest(publicKey)).slice(0, 16),
    session_id: text('session_id'),
    created_at: text('created_at'),
    nonce: text('nonce'),
    merkle_root: text('merkle_root'),
    signature_valid: step?.kind === 'checked' && step.algorithmKnown ? step.valid : null,
  };
}
