/**
 * No-false-pass oracle for Zaxy (docs/zaxy.md, 'verify_export order', 'verify_subset order',
 * 'Telling the shapes apart', 'Input Zaxy never verifies'). Given a mutated input derived
 * from a fixture that verifies OK, it decides from the bytes alone whether Zaxy's verifier must
 * refuse it: the input no longer reaches the verifier (bad UTF-8, BOM, not JSON, too deep, an
 * over-long int), the pin does not match, the signed header or signature changed while the key
 * stayed the original signer's (unforgeable), an entry id or the root no longer matches the
 * entries, or a disclosed element's proof no longer reaches the root. Where Python's behaviour is
 * murky it abstains: a claim is only made when it is certain.
 * @module
 */
import { member, parseTree, walk, type JsonNode } from '../json-tree.ts';
import { PythonRaises } from '../python-canonical.ts';
import {
  entryId,
  equalBytes,
  fromHexLoose,
  headerCanonical,
  leafHash,
  merkleRoot,
  nodeHash,
  zaxyShape,
} from '../zaxy-model.ts';

/** What the oracle remembers of the original, correctly signed fixture. */
export interface ZaxyBaseline {
  readonly header: string;
  readonly publicKey: Uint8Array;
  readonly signature: Uint8Array;
}

/**
 * Baseline of a fixture that verifies OK (`undefined` when it cannot serve as one).
 * @example
 * zaxyBaseline(bytes)?.header.startsWith('{"algorithm":'); // true
 */
export function zaxyBaseline(bytes: Uint8Array): ZaxyBaseline | undefined {
  const root = parseTree(new TextDecoder().decode(bytes));
  if (!root) return undefined;
  const header = headerCanonical(root);
  const key = member(root, 'public_key');
  const signature = member(root, 'signature');
  if (!header || key?.t !== 'str' || signature?.t !== 'str') return undefined;
  const keyBytes = fromHexLoose(key.value);
  const signatureBytes = fromHexLoose(signature.value);
  if (!keyBytes || !signatureBytes) return undefined;
  return { header, publicKey: keyBytes, signature: signatureBytes };
}

const DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Why `bytes` must not verify as passing, or `undefined` when it may legitimately pass.
 * `pin` is the expected public key given to the verifier, if any.
 */
export function zaxyMustFail(bytes: Uint8Array, baseline: ZaxyBaseline, pin: string | undefined): string | undefined {
  let text: string;
  try {
    text = DECODER.decode(bytes);
  } catch {
    return 'not valid UTF-8 (Zaxy reads files as strict UTF-8)';
  }
  if (text.charCodeAt(0) === 0xfeff) return 'starts with a BOM (json.loads refuses it)';
  const root = parseTree(text);
  if (!root) return 'not JSON as Python reads it';
  for (const { node, depth } of walk(root)) {
    if (depth > 1000) return 'nesting deeper than Python can parse';
    if (node.t === 'num' && !/[.eE]/.test(node.lexeme) && node.lexeme.replace('-', '').length > 4300)
      return 'int literal over 4300 digits';
  }
  if (root.t !== 'obj') return 'top level is not an object';
  try {
    return check(root, baseline, pin);
  } catch (error) {
    if (error instanceof PythonRaises) return `Python raises: ${error.message}`;
    throw error;
  }
}

function check(root: JsonNode, baseline: ZaxyBaseline, pin: string | undefined): string | undefined {
  const version = member(root, 'version');
  if (version?.t !== 'str' || version.value !== 'zaxy.portable.v1') return 'version is not zaxy.portable.v1';
  const key = member(root, 'public_key');
  if (pin !== undefined && (key?.t !== 'str' || key.value !== pin)) return 'public key differs from the pinned key';
  const header = headerCanonical(root);
  if (header === undefined) return 'a signed header field is missing';
  const signature = member(root, 'signature');
  if (!signature) return 'signature missing';
  if (signature.t !== 'str') return 'signature is not a string';
  const signatureBytes = fromHexLoose(signature.value);
  if (!signatureBytes) return 'signature is not hex';
  if (key?.t !== 'str') return 'public key is not a string';
  const keyBytes = fromHexLoose(key.value);
  if (!keyBytes) return 'public key is not hex';
  // Only the original signer can sign for the original key: then the header and signature must be unchanged.
  if (equalBytes(keyBytes, baseline.publicKey)) {
    if (header !== baseline.header) return 'signed header changed under the original key';
    if (!equalBytes(signatureBytes, baseline.signature)) return 'signature bytes changed under the original key';
  }
  const rootText = member(root, 'merkle_root');
  if (rootText?.t !== 'str') return undefined; // header equal ⇒ cannot happen; abstain otherwise
  return zaxyShape(root) === 'bundle' ? checkBundle(root, rootText.value) : checkSubset(root, rootText.value);
}

/** verify_export steps 3–5: every entry's id, then the root over all entries. */
function checkBundle(root: JsonNode, rootHex: string): string | undefined {
  const entries = member(root, 'entries');
  if (entries?.t !== 'arr') return 'entries is not a list';
  if (entries.items.length === 0) return 'no entries (merkle_root requires at least one leaf)';
  const leaves: Uint8Array[] = [];
  for (const [i, entry] of entries.items.entries()) {
    const content = member(entry, 'content');
    const id = member(entry, 'id');
    if (entry.t !== 'obj' || !content) return `entries[${i}] has no content`;
    if (!id) return `entries[${i}] has no id`;
    if (id.t !== 'str' || id.value !== entryId(content)) return `entries[${i}].id does not match its content`;
    leaves.push(leafHash(content));
  }
  const computed = Buffer.from(merkleRoot(leaves)).toString('hex');
  return computed === rootHex ? undefined : 'merkle root does not match the entries';
}

/** verify_subset step 5: each disclosed element's proof must reach the root. */
function checkSubset(root: JsonNode, rootHex: string): string | undefined {
  const rootBytes = fromHexLoose(rootHex);
  if (!rootBytes) return 'merkle_root is not hex';
  const disclosed = member(root, 'disclosed');
  if (!disclosed) return 'disclosed missing';
  if (disclosed.t !== 'arr') {
    // Python iterates it: an empty dict or string yields nothing (OK); anything else raises.
    const empty =
      (disclosed.t === 'obj' && disclosed.members.length === 0) || (disclosed.t === 'str' && disclosed.value === '');
    return empty ? undefined : 'disclosed is not a list';
  }
  for (const [i, element] of disclosed.items.entries()) {
    const content = member(element, 'content');
    if (element.t !== 'obj' || !content) return `disclosed[${i}] has no content`;
    let node: Uint8Array = leafHash(content);
    const proof = member(element, 'proof');
    if (!proof) return `disclosed[${i}] has no proof`;
    if (proof.t !== 'arr') return undefined; // Python would iterate it; too murky to claim
    for (const step of proof.items) {
      if (step.t === 'str' && [...step.value].length !== 2)
        return `disclosed[${i}] proof step is a string that does not unpack into two`;
      if (step.t === 'str') return `disclosed[${i}] proof step unpacks into single hex digits`;
      if (step.t === 'num' || step.t === 'lit') return `disclosed[${i}] proof step is not iterable`;
      if (step.t === 'obj') return undefined;
      if (step.items.length !== 2) return `disclosed[${i}] proof step does not have two items`;
      const [sibling, side] = step.items as [JsonNode, JsonNode];
      if (sibling.t !== 'str') return `disclosed[${i}] proof sibling is not a string`;
      const siblingBytes = fromHexLoose(sibling.value);
      if (!siblingBytes) return `disclosed[${i}] proof sibling is not hex`;
      node = side.t === 'str' && side.value === 'L' ? nodeHash(siblingBytes, node) : nodeHash(node, siblingBytes);
    }
    if (!equalBytes(node, rootBytes)) return `disclosed[${i}] inclusion proof does not reach the root`;
  }
  return undefined;
}
