/**
 * Finding codes of the `zaxy` format, in two tables over the same codes: the verdict dimension each
 * fails, and a one-line meaning. Codes are stable: renaming one is a breaking change.
 * @module
 */
import type { DimensionTable, SummaryTable } from '../../report/code-table.ts';

/** The verdict dimension an error with each code fails. */
export const ZAXY_CODES = /* @__PURE__ */ Object.freeze({
  'zaxy.nesting_too_deep': 'input',
  'zaxy.not_object': 'structure',
  'zaxy.version_unsupported': 'structure',
  'zaxy.malformed': 'structure',
  'zaxy.unencodable_string': 'structure',
  'zaxy.entry_schema': 'structure',
  'zaxy.entry_id_mismatch': 'integrity',
  'zaxy.empty_tree': 'integrity',
  'zaxy.merkle_root_mismatch': 'integrity',
  'zaxy.inclusion_failed': 'integrity',
  'zaxy.signature_invalid': 'authenticity',
  'zaxy.algorithm_unsupported': 'authenticity',
  'zaxy.key_not_pinned': 'trust',
  'zaxy.hex_noncanonical': 'integrity',
  'zaxy.proof_side_nonstandard': 'integrity',
  'zaxy.index_unbound': 'integrity',
} satisfies DimensionTable);

/** What each code means, one line (the README's table; `CODES` joins them with the dimensions). */
export const ZAXY_CODE_SUMMARIES = /* @__PURE__ */ Object.freeze({
  'zaxy.nesting_too_deep':
    "Nesting deeper than Python's json reader allows (about 990 levels: RecursionError in Zaxy).",
  'zaxy.not_object': 'The top level is not a JSON object (Zaxy crashes with AttributeError instead of answering).',
  'zaxy.version_unsupported': 'version is not zaxy.portable.v1 (Zaxy: "unsupported bundle version <repr>").',
  'zaxy.malformed':
    'A field Zaxy reads is missing or of the wrong type (Zaxy: "malformed bundle/subset: <Python error>").',
  'zaxy.unencodable_string':
    'A string holds a lone surrogate, which Python cannot encode as UTF-8, so its canonical bytes do not exist.',
  'zaxy.entry_schema':
    'An unsigned-envelope entry or the envelope itself does not follow zaxy.export.v1 (fields, types, citation format, seq order).',
  'zaxy.entry_id_mismatch': "An entry's id is not the SHA-256 of its content's canonical bytes (tampered).",
  'zaxy.empty_tree':
    'The bundle has no entries, so there is no Merkle root (Zaxy: "merkle_root requires at least one leaf").',
  'zaxy.merkle_root_mismatch':
    'The Merkle root over the entries differs from merkle_root (entries added, removed, altered or reordered).',
  'zaxy.inclusion_failed': "A disclosed entry's inclusion proof does not lead to the signed merkle_root.",
  'zaxy.signature_invalid': 'The signature does not verify over the signing header under public_key.',
  'zaxy.algorithm_unsupported': 'algorithm is neither ml-dsa-65 nor ed25519, so no signature can verify.',
  'zaxy.key_not_pinned': 'public_key is not the pinned (expected) key.',
  'zaxy.hex_noncanonical':
    'Warning: a hex field Zaxy decodes leniently (signature, proof sibling) is not lowercase hex without whitespace: malleable, still accepted.',
  'zaxy.proof_side_nonstandard':
    'Warning: a proof side is neither "L" nor "R"; Zaxy treats every value but "L" as "R".',
  'zaxy.index_unbound':
    "Warning: a disclosed entry's index is not what its proof proves (the index is not signed: missing, not an integer, or inconsistent with the proof path).",
} satisfies SummaryTable<typeof ZAXY_CODES>);
