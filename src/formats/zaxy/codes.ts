/**
 * Finding codes of the `zaxy` format. One row per code: the verdict dimension it fails and a
 * one-line meaning. Codes are stable: renaming one is a breaking change.
 * @module
 */
import type { CodeTable } from '../../report/code-table.ts';

export const ZAXY_CODES = /* @__PURE__ */ Object.freeze({
  'zaxy.nesting_too_deep': { dimension: 'input', summary: "Nesting deeper than Python's json reader allows (about 990 levels: RecursionError in Zaxy)." },
  'zaxy.not_object': { dimension: 'structure', summary: 'The top level is not a JSON object (Zaxy crashes with AttributeError instead of answering).' },
  'zaxy.version_unsupported': { dimension: 'structure', summary: 'version is not zaxy.portable.v1 (Zaxy: "unsupported bundle version <repr>").' },
  'zaxy.malformed': { dimension: 'structure', summary: 'A field Zaxy reads is missing or of the wrong type (Zaxy: "malformed bundle/subset: <Python error>").' },
  'zaxy.unencodable_string': { dimension: 'structure', summary: 'A string holds a lone surrogate, which Python cannot encode as UTF-8, so its canonical bytes do not exist.' },
  'zaxy.entry_schema': { dimension: 'structure', summary: 'An unsigned-envelope entry or the envelope itself does not follow zaxy.export.v1 (fields, types, citation format, seq order).' },
  'zaxy.entry_id_mismatch': { dimension: 'integrity', summary: "An entry's id is not the SHA-256 of its content's canonical bytes (tampered)." },
  'zaxy.empty_tree': { dimension: 'integrity', summary: 'The bundle has no entries, so there is no Merkle root (Zaxy: "merkle_root requires at least one leaf").' },
  'zaxy.merkle_root_mismatch': { dimension: 'integrity', summary: 'The Merkle root over the entries differs from merkle_root (entries added, removed, altered or reordered).' },
  'zaxy.inclusion_failed': { dimension: 'integrity', summary: "A disclosed entry's inclusion proof does not lead to the signed merkle_root." },
  'zaxy.signature_invalid': { dimension: 'authenticity', summary: 'The signature does not verify over the signing header under public_key.' },
  'zaxy.algorithm_unsupported': { dimension: 'authenticity', summary: 'algorithm is neither ml-dsa-65 nor ed25519, so no signature can verify.' },
  'zaxy.key_not_pinned': { dimension: 'trust', summary: 'public_key is not the pinned (expected) key.' },
  'zaxy.hex_noncanonical': { dimension: 'integrity', summary: 'Warning: a hex field Zaxy decodes leniently (signature, proof sibling) is not lowercase hex without whitespace: malleable, still accepted.' },
  'zaxy.proof_side_nonstandard': { dimension: 'integrity', summary: 'Warning: a proof side is neither "L" nor "R"; Zaxy treats every value but "L" as "R".' },
  'zaxy.index_unbound': { dimension: 'integrity', summary: "Warning: a disclosed entry's index is not what its proof proves (the index is not signed: missing, not an integer, or inconsistent with the proof path)." },
} satisfies CodeTable);
