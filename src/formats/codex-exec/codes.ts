/**
 * Finding codes of the `codex-exec` format, in two tables over the same codes: the verdict
 * dimension each fails, and a one-line meaning. Codes are stable: renaming one is a breaking
 * change. The NDJSON framing codes (`ndjson.*`) are shared with agent-history. Rules: docs/codex-
 * exec.md, 'Invariants' and 'Lines and gzip'.
 * @module
 */
import type { DimensionTable, SummaryTable } from '../../report/code-table.ts';
import { NDJSON_CODES } from '../ndjson/codes.ts';

/** The verdict dimension an error with each of this format's own codes fails. */
const OWN_CODES = /* @__PURE__ */ Object.freeze({
  'codex-exec.missing_field': 'structure',
  'codex-exec.invalid_field': 'structure',
  'codex-exec.unknown_event_type': 'structure',
  'codex-exec.correlation_id': 'integrity',
  'codex-exec.attempt_order': 'integrity',
  'codex-exec.begin_missing': 'integrity',
  'codex-exec.event_order': 'integrity',
  'codex-exec.retry_missing': 'integrity',
  'codex-exec.sequence': 'integrity',
  'codex-exec.chunk_bytes': 'integrity',
  'codex-exec.chunk_after_end': 'integrity',
  'codex-exec.end_missing': 'integrity',
  'codex-exec.end_output': 'integrity',
  'codex-exec.end_status': 'integrity',
  'codex-exec.summary_missing': 'integrity',
  'codex-exec.summary_not_last': 'integrity',
  'codex-exec.summary_mismatch': 'integrity',
  'codex-exec.timestamp_order': 'integrity',
} satisfies DimensionTable);

/** The codes this format reports, with the NDJSON framing codes it shares. */
export const CODEX_EXEC_CODES = /* @__PURE__ */ Object.freeze({ ...NDJSON_CODES, ...OWN_CODES });

/**
 * What each of this format's own codes means, one line (the README's table; `CODES` joins them
 * with the dimensions, and the NDJSON summaries once).
 */
export const CODEX_EXEC_CODE_SUMMARIES = /* @__PURE__ */ Object.freeze({
  'codex-exec.missing_field': 'A required envelope or payload field is missing.',
  'codex-exec.invalid_field': 'A field has the wrong type, is outside its enum, or is not an ISO 8601 timestamp.',
  'codex-exec.unknown_event_type':
    'An event type the contract does not define (warning; its line is otherwise skipped).',
  'codex-exec.correlation_id': "An event carries a correlationId other than the stream's first one.",
  'codex-exec.attempt_order': 'An attempt number goes back (attempts are >= 1 and non-decreasing).',
  'codex-exec.begin_missing': 'A chunk or exec:end of an attempt that had no exec:begin (reported once per attempt).',
  'codex-exec.event_order':
    'exec:begin, exec:retry or exec:end out of place (a second one, or before the previous attempt ended).',
  'codex-exec.retry_missing': 'A new attempt began with no exec:retry for the previous one (warning).',
  'codex-exec.sequence':
    'Chunk sequence does not start at 1 or is not contiguous across both streams and all attempts.',
  'codex-exec.chunk_bytes':
    'chunk.bytes differs from the UTF-8 length of data (error; warning when data holds U+FFFD).',
  'codex-exec.chunk_after_end': "A chunk of an attempt after that attempt's exec:end.",
  'codex-exec.end_missing': 'An attempt that began has no exec:end.',
  'codex-exec.end_output':
    "exec:end stdout/stderr is not the last 65,536 bytes of its attempt's chunks (error; warning when U+FFFD is involved).",
  'codex-exec.end_status': 'exec:end status "succeeded" with an exitCode other than 0.',
  'codex-exec.summary_missing': 'The stream has no run:summary.',
  'codex-exec.summary_not_last': 'Records after run:summary (reported on the summary and on each later line).',
  'codex-exec.summary_mismatch':
    'run:summary does not mirror the last exec:end (result, outputs, status, attempts, correlationId).',
  'codex-exec.timestamp_order': "A timestamp earlier than the previous line's (warning: wall clocks step back).",
} satisfies SummaryTable<typeof OWN_CODES>);
