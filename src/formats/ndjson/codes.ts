/**
 * Finding codes of the NDJSON framing layer, shared by the line-oriented formats (agent-history,
 * codex-exec): each format's `codes.ts` includes this table, so the codes mean the same in both.
 * Which of them are errors and which warnings follows the formats' pages (docs/agent-history.md
 * §4 F1/F2 and §5; docs/codex-exec.md, 'Lines and gzip'): BOM, invalid UTF-8, non-JSON and
 * non-object lines are errors; CRLF, blank lines and a missing final newline are warnings.
 * @module
 */
import type { DimensionTable, SummaryTable } from '../../report/code-table.ts';

/** The verdict dimension an error with each code fails. */
export const NDJSON_CODES = /* @__PURE__ */ Object.freeze({
  'ndjson.bom': 'structure',
  'ndjson.invalid_utf8': 'structure',
  'ndjson.invalid_json': 'structure',
  'ndjson.not_object': 'structure',
  'ndjson.crlf': 'structure',
  'ndjson.blank_line': 'structure',
  'ndjson.no_final_newline': 'structure',
} satisfies DimensionTable);

/** What each code means, one line (the README's table; `CODES` joins them with the dimensions). */
export const NDJSON_CODE_SUMMARIES = /* @__PURE__ */ Object.freeze({
  'ndjson.bom': 'Line 1 starts with a UTF-8 byte-order mark (error).',
  'ndjson.invalid_utf8': 'A line is not valid UTF-8 (error; the rest of the line is checked with U+FFFD in place).',
  'ndjson.invalid_json': 'A line is not one JSON value, or is cut short (error).',
  'ndjson.not_object': 'A line holds JSON that is not an object (error).',
  'ndjson.crlf': 'Lines end with CR LF instead of LF (warning, reported once on the first such line).',
  'ndjson.blank_line': 'An empty or whitespace-only line (warning).',
  'ndjson.no_final_newline': 'The last line has no LF after it (warning).',
} satisfies SummaryTable<typeof NDJSON_CODES>);
