/**
 * Finding codes of the `agent-history` format, in two tables over the same codes: the verdict
 * dimension each fails, and a one-line meaning. Codes are stable: renaming one is a breaking
 * change. The NDJSON framing codes (`ndjson.*`) are shared with codex-exec. Invariant ids (H1, M2,
 * …) are those of docs/agent-history.md §4.
 * @module
 */
import type { DimensionTable, SummaryTable } from '../../report/code-table.ts';
import { NDJSON_CODES } from '../ndjson/codes.ts';

/** The verdict dimension an error with each of this format's own codes fails. */
const OWN_CODES = /* @__PURE__ */ Object.freeze({
  'agent-history.missing_field': 'structure',
  'agent-history.invalid_field': 'structure',
  'agent-history.unknown_record_type': 'structure',
  'agent-history.header_missing': 'structure',
  'agent-history.header_misplaced': 'structure',
  'agent-history.session_count': 'integrity',
  'agent-history.agent_not_listed': 'integrity',
  'agent-history.workspace_not_listed': 'integrity',
  'agent-history.session_times': 'integrity',
  'agent-history.parent_session_missing': 'integrity',
  'agent-history.duplicate_session_id': 'integrity',
  'agent-history.message_index': 'integrity',
  'agent-history.duplicate_uuid': 'integrity',
  'agent-history.unknown_parent_uuid': 'integrity',
  'agent-history.tool_result_orphan': 'integrity',
  'agent-history.timestamp_order': 'integrity',
  'agent-history.graph': 'integrity',
  'agent-history.unknown_role': 'structure',
  'agent-history.unknown_block_type': 'structure',
  'agent-history.message_count': 'integrity',
  'agent-history.agent_mismatch': 'integrity',
  'agent-history.summary_missing': 'integrity',
  'agent-history.summary_not_last': 'integrity',
} satisfies DimensionTable);

/** The codes this format reports, with the NDJSON framing codes it shares. */
export const AGENT_HISTORY_CODES = /* @__PURE__ */ Object.freeze({ ...NDJSON_CODES, ...OWN_CODES });

/**
 * What each of this format's own codes means, one line (the README's table; `CODES` joins them
 * with the dimensions, and the NDJSON summaries once).
 */
export const AGENT_HISTORY_CODE_SUMMARIES = /* @__PURE__ */ Object.freeze({
  'agent-history.missing_field': 'A required field of a record is missing.',
  'agent-history.invalid_field': 'A field has the wrong type, is outside its enum, or is not ISO 8601.',
  'agent-history.unknown_record_type': "A line's type is not a record type of the file's shape.",
  'agent-history.header_missing': 'The first record is not a header (H1).',
  'agent-history.header_misplaced': 'A header record on a line other than line 1, or a second one (H1).',
  'agent-history.session_count': 'header.session_count differs from the number of session lines (H2).',
  'agent-history.agent_not_listed': 'A session agent is missing from header.agent_types (H3).',
  'agent-history.workspace_not_listed':
    'A session workspace matches no header.workspaces entry by path or name (warning, H3).',
  'agent-history.session_times': 'session.started_at is later than session.ended_at (S1).',
  'agent-history.parent_session_missing':
    "A sub-agent session's parent_session_id names no session in the file (warning, S2).",
  'agent-history.duplicate_session_id': 'Two session lines share session.id (warning).',
  'agent-history.message_index': 'Message index is not 1-based and contiguous in line order (M1).',
  'agent-history.duplicate_uuid': 'Two messages of a session share a uuid (M2).',
  'agent-history.unknown_parent_uuid': 'parent_uuid names no message of the session (M2).',
  'agent-history.tool_result_orphan': 'A tool_result has no earlier tool_use with its tool_id in the session (M3).',
  'agent-history.timestamp_order': 'Message timestamps go back in time (warning: forks and resumed sessions do, M4).',
  'agent-history.graph': 'The fork graph disagrees with the messages, or is missing for a non-linear session (G1).',
  'agent-history.unknown_role':
    'impl-2.0 message role outside {user, assistant, system} (warning: the exporter passes roles through, R1).',
  'agent-history.unknown_block_type': 'A content block of unknown type (warning).',
  'agent-history.message_count': 'impl-2.0 session.message_count differs from the number of message lines.',
  'agent-history.agent_mismatch': 'impl-2.0 session summary agent differs from header.agent.',
  'agent-history.summary_missing': 'impl-2.0 file ends without its closing session record.',
  'agent-history.summary_not_last':
    'impl-2.0 records after the session summary (reported on the summary and on each later line).',
} satisfies SummaryTable<typeof OWN_CODES>);
