/**
 * Finding codes of the `agentxchain` format, in two tables over the same codes: the verdict
 * dimension each fails, and a one-line meaning. Codes are stable: renaming one is a breaking
 * change. Every error the reference verifier prints maps to exactly one of these codes; the
 * reference's own text travels in `finding.compat` (see `compat.ts`). Shape problems fail
 * `structure`; a claim that disagrees with the bytes or data it describes fails `integrity`.
 * @module
 */
import type { DimensionTable, SummaryTable } from '../../report/code-table.ts';

/** The verdict dimension an error with each code fails. */
export const AGENTXCHAIN_CODES = /* @__PURE__ */ Object.freeze({
  // Shape (structure)
  'agentxchain.not_an_object': 'structure',
  'agentxchain.schema_version_unsupported': 'structure',
  'agentxchain.export_kind_invalid': 'structure',
  'agentxchain.field_invalid': 'structure',
  'agentxchain.file_entry_invalid': 'structure',
  'agentxchain.summary_invalid': 'structure',
  'agentxchain.repo_entry_invalid': 'structure',
  'agentxchain.unprocessable_value': 'structure',
  // Content against claims (integrity)
  'agentxchain.file_bytes_mismatch': 'integrity',
  'agentxchain.file_sha256_mismatch': 'integrity',
  'agentxchain.file_content_invalid': 'integrity',
  'agentxchain.file_data_mismatch': 'integrity',
  'agentxchain.project_mismatch': 'integrity',
  'agentxchain.config_mismatch': 'integrity',
  'agentxchain.state_mismatch': 'integrity',
  'agentxchain.summary_mismatch': 'integrity',
  'agentxchain.failed_repo_claimed': 'integrity',
  // The kit's own extra checks (warnings; errors with strict)
  'agentxchain.file_integrity_skipped': 'integrity',
  // Runner-interface artifacts of turns in flight (docs/agentxchain.md §12; warnings, errors with strict)
  'runner.turn_result_invalid': 'structure',
  'runner.dispatch_invalid': 'structure',
  'runner.turn_not_active': 'integrity',
  'runner.turn_id_mismatch': 'integrity',
  'runner.run_id_mismatch': 'integrity',
  'runner.role_mismatch': 'integrity',
  'runner.delegation_id_duplicate': 'integrity',
  'runner.reference_unresolved': 'integrity',
} satisfies DimensionTable);

/** What each code means, one line (the README's table; `CODES` joins them with the dimensions). */
export const AGENTXCHAIN_CODE_SUMMARIES = /* @__PURE__ */ Object.freeze({
  'agentxchain.not_an_object': 'The artifact is JSON but not a JSON object (array, string, number, null).',
  'agentxchain.schema_version_unsupported': 'schema_version is not exactly the string "0.2" or "0.3".',
  'agentxchain.export_kind_invalid': 'export_kind is not a string, or names neither a run nor a coordinator export.',
  'agentxchain.field_invalid':
    'A top-level field (exported_at, config, files, project, summary, state, workspace, coordinator, repos …) is missing or has the wrong type.',
  'agentxchain.file_entry_invalid':
    'A files entry is malformed: not an object, unknown format, bad bytes/sha256/content_base64, or bad truncated/skipped data.',
  'agentxchain.summary_invalid':
    'A summary field has the wrong shape (workflow_phase_order, dashboard_session, aggregated_events).',
  'agentxchain.repo_entry_invalid':
    "An entry of a coordinator export's repos map is malformed (path, ok, error, export).",
  'agentxchain.unprocessable_value':
    'A value the reference verifier crashes on (a null element, a non-iterable list, an object with its own toString key); reported instead of crashing.',
  'agentxchain.file_bytes_mismatch': "The decoded content_base64 length differs from the entry's bytes.",
  'agentxchain.file_sha256_mismatch': "The SHA-256 of the decoded content_base64 differs from the entry's sha256.",
  'agentxchain.file_content_invalid': 'The decoded content of a json or jsonl entry does not parse.',
  'agentxchain.file_data_mismatch': "The entry's data differs from its decoded content.",
  'agentxchain.project_mismatch': 'project.* or coordinator.* disagrees with the exported config or state.',
  'agentxchain.config_mismatch':
    'config differs from the data of files["agentxchain.json"] (or agentxchain-multi.json).',
  'agentxchain.state_mismatch': 'state differs from the data of files[".agentxchain/state.json"].',
  'agentxchain.summary_mismatch':
    'A summary field differs from what the exported files reconstruct (counts, ids, delegations, repo decisions, events …).',
  'agentxchain.failed_repo_claimed':
    'summary.aggregated_events.repos_with_events names a repo whose export failed (ok: false).',
  'agentxchain.file_integrity_skipped':
    "content_base64 is null (truncated or content_base64_skipped): the entry's bytes, sha256 and data were not checked.",
  'runner.turn_result_invalid':
    'A staged turn result (.agentxchain/staging/<turn_id>/turn-result.json) does not have the turn-result shape.',
  'runner.dispatch_invalid': "The dispatch index or a bundle's ASSIGNMENT.json does not have its expected shape.",
  'runner.turn_not_active':
    'A turn is staged, dispatched or listed in the dispatch index but is not a key of state.active_turns.',
  'runner.turn_id_mismatch':
    'A staged result, assignment or index entry names another turn than the path or key it is stored under.',
  'runner.run_id_mismatch':
    'A staged result, assignment or the dispatch index belongs to another run than state.run_id.',
  'runner.role_mismatch':
    'A staged result, assignment or index entry names another role than the one state.active_turns assigns.',
  'runner.delegation_id_duplicate': 'A staged turn result issues the same delegation id more than once.',
  'runner.reference_unresolved':
    'An active turn, staged result, dispatch index or bundle names a role, runtime, turn, delegation or path the export does not hold.',
} satisfies SummaryTable<typeof AGENTXCHAIN_CODES>);
