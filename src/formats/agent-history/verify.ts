/**
 * The `agent-history` format: NDJSON exports of agent-history (kvsankar/agent-history), plain or
 * gzip, verified line by line in bounded memory. Two shapes (docs/agent-history.md §1):
 * `design-1.0`, the unified multi-session schema of the design document, and `impl-2.0`, the
 * per-session files the real tool writes. The shape is chosen from the first record
 * (same section): a header with `agent_types` is design-1.0, a header with `agent` is impl-2.0;
 * without a header, a `session` object means design-1.0 and `message` records mean impl-2.0.
 * The format carries no signature: authenticity is `not-checked`.
 * @module
 */
import type { VerifyOptions } from '../../options.ts';
import type { VerifyInput } from '../../stream/input.ts';
import type { SkimProfile } from '../../json/skim.ts';
import { readNdjson, type JsonRecord } from '../ndjson/reader.ts';
import type { OpenedInput } from '../../stream/open.ts';
import { beginVerification, finishVerification } from '../../verifier-lifecycle.ts';
import { createDesignChecker, type ShapeChecker } from './design.ts';
import type { AgentHistorySchema } from './details.ts';
import { createImplChecker } from './impl.ts';
import type { ReportOf } from '../../report.ts';
import { AGENT_HISTORY_CODES } from './codes.ts';

/**
 * Strings the checks never read (message text, tool input/output, metadata): skimmed away, so a
 * line of many megabytes costs little more than its ids and structure. `content` is dropped only
 * where it is a string (impl-2.0 message text); in design-1.0 it is the block array, kept.
 */
const AGENT_HISTORY_SKIM: SkimProfile = {
  opaque: ['text', 'output', 'input', 'metadata', 'prompt', 'summary', 'args'],
  stringOnly: ['content'],
};

/**
 * Picks the shape from the first JSON-object record (docs/agent-history.md §1).
 * @example
 * detectAgentHistorySchema({ type: 'header', schema_version: '2.0', agent: 'claude' }); // 'impl-2.0'
 */
export function detectAgentHistorySchema(record: JsonRecord): AgentHistorySchema {
  if (record['type'] === 'header') {
    if ('agent_types' in record) return 'design-1.0';
    if ('agent' in record) return 'impl-2.0';
    return record['schema_version'] === '2.0' ? 'impl-2.0' : 'design-1.0';
  }
  const session = record['session'];
  if (typeof session === 'object' && session !== null) return 'design-1.0';
  if (record['type'] === 'message' || (record['type'] === 'session' && 'message_count' in record)) return 'impl-2.0';
  return 'design-1.0';
}

/**
 * Verifies an agent-history NDJSON export (design-1.0 or impl-2.0), plain or gzip.
 * @throws TypeError on API misuse (bad limits, unsupported input type).
 * @example
 * const report = await verifyAgentHistory(file, { name: file.name });
 * report.kind; // 'design-1.0' | 'impl-2.0'
 * report.details.line_count; // lines read
 */
export async function verifyAgentHistory(
  input: VerifyInput | OpenedInput,
  options: VerifyOptions = {},
): Promise<ReportOf<'agent-history'>> {
  const context = await beginVerification(input, options, AGENT_HISTORY_CODES);
  const { collector, opened } = context;
  let schema: AgentHistorySchema | undefined;
  let checker: ShapeChecker | undefined;
  const summary = await readNdjson(
    context,
    (record, line) => {
      if (!checker) {
        schema = detectAgentHistorySchema(record);
        checker = schema === 'design-1.0' ? createDesignChecker(collector) : createImplChecker(collector);
      }
      checker.record(record, line);
    },
    {
      ...(options.signal ? { signal: options.signal } : {}),
      skim: AGENT_HISTORY_SKIM,
      stringSkipper: options.stringSkipper,
    },
  );
  let endChecks: readonly string[] = [];
  if (checker) endChecks = checker.end(summary.ending);
  else if (summary.ending === 'stopped' || summary.ending === 'skipped')
    endChecks = ['H1 line 1 is the header (no record was read)'];
  else if (summary.complete) {
    if (summary.lineCount === 0) collector.add('input.empty', '$', 'the input holds no lines');
    else collector.add('agent-history.header_missing', '$', 'no record found (no line holds a JSON object)');
  }
  const notChecked = [...summary.notChecked, ...endChecks];
  return finishVerification<ReportOf<'agent-history'>>(context, {
    format: 'agent-history',
    kind: schema ?? null,
    checked: { structure: true, integrity: true },
    details: {
      schema: schema ?? null,
      line_count: summary.lineCount,
      ...(checker ? checker.details() : { session_count: 0, message_count: 0, records_by_type: {} }),
      bytes_in: opened.counters.bytesIn,
      bytes_out: opened.counters.bytesOut,
      compressed: opened.gzip,
      ...(notChecked.length > 0 ? { not_checked: notChecked } : {}),
    },
  });
}
