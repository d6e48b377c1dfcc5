/**
 * Finding codes of the `codex-exec` format. One row per code: the verdict dimension it fails and a
 * one-line meaning. Codes are stable: renaming one is a breaking change. The NDJSON framing codes
 * (`ndjson.*`) are shared with agent-history. Rules: docs/codex-exec.md, 'Invariants' and
 * 'Lines and gzip'.
 * @module
 */
import type { CodeTable } from '../../report/code-table.ts';
import { NDJSON_CODES } from '../../stream/ndjson-codes.ts';

export const CODEX_EXEC_CODES = /* @__PURE__ */ Object.freeze({
  ...NDJSON_CODES,
  'codex-exec.missing_field': { dimension: 'structure', summary: 'A required envelope or payload field is missing.' },
  'codex-exec.invalid_field': { dimension: 'structure', summary: 'A field has the wrong type, is outside its enum, or is not an ISO 8601 timestamp.' },
  'codex-exec.unknown_event_type': { dimension: 'structure', summary: 'An event type the contract does not define (warning; its line is otherwise skipped).' },
  'codex-exec.correlation_id': { dimension: 'integrity', summary: 'An event carries a correlationId other than the stream\'s first one.' },
  'codex-exec.attempt_order': { dimension: 'integrity', summary: 'An attempt number goes back (attempts are >= 1 and non-decreasing).' },
  'codex-exec.begin_missing': { dimension: 'integrity', summary: 'A chunk or exec:end of an attempt that had no exec:begin (reported once per attempt).' },
  'codex-exec.event_order': { dimension: 'integrity', summary: 'exec:begin, exec:retry or exec:end out of place (a second one, or before the previous attempt ended).' },
  'codex-exec.retry_missing': { dimension: 'integrity', summary: 'A new attempt began with no exec:retry for the previous one (warning).' },
  'codex-exec.sequence': { dimension: 'integrity', summary: 'Chunk sequence does not start at 1 or is not contiguous across both streams and all attempts.' },
  'codex-exec.chunk_bytes': { dimension: 'integrity', summary: 'chunk.bytes differs from the UTF-8 length of data (error; warning when data holds U+FFFD).' },
  'codex-exec.chunk_after_end': { dimension: 'integrity', summary: 'A chunk of an attempt after that attempt\'s exec:end.' },
  'codex-exec.end_missing': { dimension: 'integrity', summary: 'An attempt that began has no exec:end.' },
  'codex-exec.end_output': { dimension: 'integrity', summary: 'exec:end stdout/stderr is not the last 65,536 bytes of its attempt\'s chunks (error; warning when U+FFFD is involved).' },
  'codex-exec.end_status': { dimension: 'integrity', summary: 'exec:end status "succeeded" with an exitCode other than 0.' },
  'codex-exec.summary_missing': { dimension: 'integrity', summary: 'The stream has no run:summary.' },
  'codex-exec.summary_not_last': { dimension: 'integrity', summary: 'Records after run:summary (reported on the summary and on each later line).' },
  'codex-exec.summary_mismatch': { dimension: 'integrity', summary: 'run:summary does not mirror the last exec:end (result, outputs, status, attempts, correlationId).' },
  'codex-exec.timestamp_order': { dimension: 'integrity', summary: 'A timestamp earlier than the previous line\'s (warning: wall clocks step back).' },
} satisfies CodeTable);
