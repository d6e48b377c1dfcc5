/**
 * The signing header and the signature step shared by `verify_export` and `verify_subset`
 * (docs/zaxy.md, 'Signing header'; 'verify_export order', step 6): arguments evaluated left to
 * right — `algorithm`, `bytes.fromhex(public_key)`, `bytes.fromhex(signature)`, the canonical header
 * (fields read in the order version, algorithm, public_key, session_id, created_at, nonce,
 * merkle_root) — and only then the algorithm's value.
 * @module
 */
import { type SignatureVerifier, verifySignature } from '../../crypto/signature.ts';
import { canonicalJson, findLoneSurrogates, pythonJsonDumps } from '../../json/canonical.ts';
import type { JsonObject, JsonValue } from '../../json/value.ts';
import type { PathSegment } from '../../report/path.ts';
import { isPyError, pythonFromHex, subscript, type PyError } from './python-ops.ts';

/** The seven header fields, in the order Zaxy's `_signing_header` reads them. */
export const HEADER_FIELDS = [
  'version',
  'algorithm',
  'public_key',
  'session_id',
  'created_at',
  'nonce',
  'merkle_root',
] as const;

/** Algorithms Zaxy's `signing.verify` knows. */
export const KNOWN_ALGORITHMS: readonly string[] = ['ml-dsa-65', 'ed25519'];

/** The root object of a signed document, as far as the header is concerned. */
export type HeaderSource = ReadonlyMap<string, unknown>;

export type SignatureStep =
  | { readonly kind: 'error'; readonly error: PyError; readonly path: PathSegment[] }
  | {
      readonly kind: 'checked';
      readonly valid: boolean;
      readonly algorithm: JsonValue;
      readonly algorithmKnown: boolean;
      readonly publicKey: Uint8Array;
      readonly header: Uint8Array;
    };

function field(root: HeaderSource, key: string): JsonValue | PyError {
  return subscript(root as JsonObject, key);
}

/**
 * Runs Zaxy's signature step over the root object: Python errors (KeyError, TypeError,
 * ValueError) as data with the path they concern, else the verifier's verdict.
 * @example
 * const step = await signatureStep(root, verifySignature);
 * if (step.kind === 'checked') step.valid;
 */
export async function signatureStep(
  root: HeaderSource,
  verifier: SignatureVerifier = verifySignature,
): Promise<SignatureStep> {
  const algorithm = field(root, 'algorithm');
  if (isPyError(algorithm)) return { kind: 'error', error: algorithm, path: ['algorithm'] };
  const publicKeyText = field(root, 'public_key');
  if (isPyError(publicKeyText)) return { kind: 'error', error: publicKeyText, path: ['public_key'] };
  const publicKey = pythonFromHex(publicKeyText);
  if (isPyError(publicKey)) return { kind: 'error', error: publicKey, path: ['public_key'] };
  const signatureText = field(root, 'signature');
  if (isPyError(signatureText)) return { kind: 'error', error: signatureText, path: ['signature'] };
  const signature = pythonFromHex(signatureText);
  if (isPyError(signature)) return { kind: 'error', error: signature, path: ['signature'] };
  const header = signingHeader(root);
  if ('error' in header) return { kind: 'error', error: header.error, path: header.path };
  const algorithmKnown = typeof algorithm === 'string' && KNOWN_ALGORITHMS.includes(algorithm);
  let valid = false;
  if (algorithmKnown) {
    try {
      valid = (await verifier(algorithm, publicKey, header.bytes, signature)) === true;
    } catch {
      valid = false; // an injected verifier must not throw; if it does, nothing is verified
    }
  }
  return { kind: 'checked', valid, algorithm, algorithmKnown, publicKey, header: header.bytes };
}

/**
 * Zaxy's `_signing_header(b)`: the canonical bytes of the seven fields, or the Python error
 * (a missing field's KeyError; the UnicodeEncodeError of a lone surrogate, as ValueError).
 * @example
 * signingHeader(root); // { bytes } — '{"algorithm":…,"created_at":…,…,"version":…}'
 */
export function signingHeader(root: HeaderSource): { bytes: Uint8Array } | { error: PyError; path: PathSegment[] } {
  const header: JsonObject = new Map();
  for (const name of HEADER_FIELDS) {
    const value = field(root, name);
    if (isPyError(value)) return { error: value, path: [name] };
    header.set(name, value);
  }
  const canonical = canonicalJson(header);
  if (canonical.ok) return { bytes: canonical.bytes };
  // Point at the first field (in canonical order, where Python meets it) holding a lone surrogate.
  const culprit = [...HEADER_FIELDS]
    .sort()
    .find((name) => findLoneSurrogates(pythonJsonDumps(header.get(name)!)) !== undefined);
  return { error: { pyError: 'ValueError', text: canonical.message }, path: culprit === undefined ? [] : [culprit] };
}
