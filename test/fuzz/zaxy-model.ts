/**
 * Test-side model of what Zaxy's verifiers hash and sign (docs/zaxy.md, from 'Canonical JSON' to
 * 'verify_subset order', and 'Telling the shapes apart'), written independently of the kit:
 * bundle/subset shape, signing header, entry ids, Merkle leaves, root and inclusion proofs. Used by
 * the Zaxy no-false-pass oracle and by the semantic mutations.
 * @module
 */
import { createHash } from 'node:crypto';
import { member, type JsonNode } from './json-tree.ts';
import { canonical, canonicalBytes } from './python-canonical.ts';

/** The seven signed header fields, in canonical (sorted) order (docs/zaxy.md, 'Signing header'). */
export const HEADER_FIELDS = [
  'algorithm',
  'created_at',
  'merkle_root',
  'nonce',
  'public_key',
  'session_id',
  'version',
] as const;

/**
 * docs/zaxy.md, 'Telling the shapes apart': `disclosed` → subset; else `entries` → bundle; else no
 * `anchor` → subset; else bundle.
 */
export function zaxyShape(root: JsonNode): 'bundle' | 'subset' {
  if (root.t !== 'obj') return 'bundle';
  const has = (key: string): boolean => root.members.some((m) => m.key === key);
  if (has('disclosed')) return 'subset';
  if (has('entries')) return 'bundle';
  return has('anchor') ? 'bundle' : 'subset';
}

/**
 * Canonical text of the signing header, or `undefined` when a field is missing (KeyError).
 * @throws PythonRaises when canonicalisation raises (lone surrogate).
 */
export function headerCanonical(root: JsonNode): string | undefined {
  const parts: string[] = [];
  for (const field of HEADER_FIELDS) {
    const value = member(root, field);
    if (!value) return undefined;
    parts.push(`${JSON.stringify(field)}:${canonical(value)}`);
  }
  return `{${parts.join(',')}}`;
}

export function sha256(...chunks: Uint8Array[]): Buffer {
  const hash = createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest();
}

/** Entry id: lowercase hex SHA-256 of the canonical content (docs/zaxy.md, 'Signed bundle'). */
export function entryId(content: JsonNode): string {
  return sha256(canonicalBytes(content)).toString('hex');
}

/** Merkle leaf: SHA-256(0x00 ‖ canonical content) (docs/zaxy.md, 'Merkle tree'). */
export function leafHash(content: JsonNode): Buffer {
  return sha256(new Uint8Array([0]), canonicalBytes(content));
}

/** Merkle node: SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return sha256(new Uint8Array([1]), left, right);
}

/** Root over leaves; an unpaired last node is promoted unchanged (docs/zaxy.md, 'Merkle tree'). Requires ≥ 1 leaf. */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) throw new Error('merkle_root requires at least one leaf');
  let layer = [...leaves];
  while (layer.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < layer.length; i += 2)
      next.push(i + 1 < layer.length ? nodeHash(layer[i]!, layer[i + 1]!) : layer[i]!);
    layer = next;
  }
  return layer[0]!;
}

/** Inclusion proof of leaf `index` as Zaxy emits it: `[sibling_hex, side]` where side is the sibling's. */
export function inclusionProof(leaves: readonly Uint8Array[], index: number): [string, 'L' | 'R'][] {
  const proof: [string, 'L' | 'R'][] = [];
  let layer = [...leaves];
  let position = index;
  while (layer.length > 1) {
    const partner = position % 2 === 0 ? position + 1 : position - 1;
    if (partner < layer.length)
      proof.push([Buffer.from(layer[partner]!).toString('hex'), position % 2 === 0 ? 'R' : 'L']);
    const next: Uint8Array[] = [];
    for (let i = 0; i < layer.length; i += 2)
      next.push(i + 1 < layer.length ? nodeHash(layer[i]!, layer[i + 1]!) : layer[i]!);
    layer = next;
    position = Math.floor(position / 2);
  }
  return proof;
}

/**
 * Python's `bytes.fromhex`, conservatively: ASCII whitespace removed, then an even number of hex
 * digits. `undefined` where Python raises. (Python rejects whitespace inside a pair, which this
 * accepts; callers only use a decoded value to prove that bytes *differ*, never that they match
 * a rejected string.)
 */
export function fromHexLoose(text: string): Uint8Array | undefined {
  const compact = text.replace(/[ \t\n\r\v\f]/g, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, 'hex'));
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
