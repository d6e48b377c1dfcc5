/**
 * Finding codes of the `agent-history` format. One row per code: the verdict dimension it fails and a
 * one-line meaning. Codes are stable: renaming one is a breaking change. The NDJSON framing codes
 * (`ndjson.*`) are shared with codex-exec. Invariant ids (H1, M2, …) are those of
 * docs/agent-history.md §4.
 * @module
 */
import type { CodeTable } from '../../report/code-table.ts';
import { NDJSON_CODES } from '../../stream/ndjson-codes.ts';

export const AGENT_HISTORY_CODES = /* @__PURE__ */ Object.freeze({
  ...NDJSON_CODES,
  'agent-history.missing_field': { dimension: 'structure', summary: 'A required field of a record is missing.' },
  'agent-history.invalid_field': { dimension: 'structure', summary: 'A field has the wrong type, is outside its enum, or is not ISO 8601.' },
  'agent-history.unknown_record_type': { dimension: 'structure', summary: "A line's type is not a record type of the file's shape." },
  'agent-history.header_missing': { dimension: 'structure', summary: 'The first record is not a header (H1).' },
  'agent-history.header_misplaced': { dimension: 'structure', summary: 'A header record on a line other than line 1, or a second one (H1).' },
  'agent-history.session_count': { dimension: 'integrity', summary: 'header.session_count differs from the number of session lines (H2).' },
  'agent-history.agent_not_listed': { dimension: 'integrity', summary: 'A session agent is missing from header.agent_types (H3).' },
  'agent-history.workspace_not_listed': { dimension: 'integrity', summary: 'A session workspace matches no header.workspaces entry by path or name (warning, H3).' },
  'agent-history.session_times': { dimension: 'integrity', summary: 'session.started_at is later than session.ended_at (S1).' },
  'agent-history.parent_session_missing': { dimension: 'integrity', summary: "A sub-agent session's parent_session_id names no session in the file (warning, S2)." },
  'agent-history.duplicate_session_id': { dimension: 'integrity', summary: 'Two session lines share session.id (warning).' },
  'agent-history.message_index': { dimension: 'integrity', summary: 'Message index is not 1-based and contiguous in line order (M1).' },
  'agent-history.duplicate_uuid': { dimension: 'integrity', summary: 'Two messages of a session share a uuid (M2).' },
  'agent-history.unknown_parent_uuid': { dimension: 'integrity', summary: 'parent_uuid names no message of the session (M2).' },
  'agent-history.tool_result_orphan': { dimension: 'integrity', summary: 'A tool_result has no earlier tool_use with its tool_id in the session (M3).' },
  'agent-history.timestamp_order': { dimension: 'integrity', summary: 'Message timestamps go back in time (warning: forks and resumed sessions do, M4).' },
  'agent-history.graph': { dimension: 'integrity', summary: 'The fork graph disagrees with the messages, or is missing for a non-linear session (G1).' },
  'agent-history.unknown_role': { dimension: 'structure', summary: 'impl-2.0 message role outside {user, assistant, system} (warning: the exporter passes roles through, R1).' },
  'agent-history.unknown_block_type': { dimension: 'structure', summary: 'A content block of unknown type (warning).' },
  'agent-history.message_count': { dimension: 'integrity', summary: 'impl-2.0 session.message_count differs from the number of message lines.' },
  'agent-history.agent_mismatch': { dimension: 'integrity', summary: 'impl-2.0 session summary agent differs from header.agent.' },
  'agent-history.summary_missing': { dimension: 'integrity', summary: 'impl-2.0 file ends without its closing session record.' },
  'agent-history.summary_not_last': { dimension: 'integrity', summary: 'impl-2.0 records after the session summary (reported on the summary and on each later line).' },
} satisfies CodeTable);
