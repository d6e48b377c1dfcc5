/**
 * impl-2.0 checks (docs/agent-history.md §2): what agent-history 2.0 really
 * writes, one file per session: a header, one line per message, and a closing session summary
 * whose `message_count` equals the number of message lines. The state kept across lines is a few
 * counters and the header's agent.
 * @module
 */
import * as v from 'valibot';
import { linePath } from '../../report/path.ts';
import { isIsoTimestamp, quote, reportIssues } from '../ndjson/reader.ts';
import type { ShapeChecker } from './design.ts';
import { implHeader, implMessage, implSummary, ROLES } from './schema.ts';
import type { FindingCollector } from '../../report.ts';

const SCHEMA_ISSUE_CODES = { missing: 'agent-history.missing_field', invalid: 'agent-history.invalid_field' } as const;

/** The checks over the whole file (docs/agent-history.md §2), as `details.not_checked` names them. */
const COUNT_CHECK = 'message_count = message lines';
const SUMMARY_CHECK = 'the file ends with its session summary';

/**
 * Creates the impl-2.0 checker reporting into `collector`.
 * @example
 * const checker = createImplChecker(collector);
 * checker.record(JSON.parse(line1), 1);
 * checker.end('end');
 */
export function createImplChecker(collector: FindingCollector): ShapeChecker {
  const add = collector.add.bind(collector);
  let firstRecordSeen = false;
  let headerSeen = false;
  let headerAgent: string | undefined;
  let messageLines = 0;
  let summaryLine = 0; // line of the (first) session summary, 0 before it
  let summaryNotLastReported = false;
  let summaryCount: number | undefined;
  let previousTime: number | undefined;
  const byType = { header: 0, message: 0, session: 0, other: 0 };

  /** Every record after the summary breaks "the summary is the last record" on both lines. */
  const afterSummary = (line: number, what: string): void => {
    if (!summaryNotLastReported) {
      summaryNotLastReported = true;
      add('agent-history.summary_not_last', linePath(summaryLine), 'session summary is not the last line');
    }
    add('agent-history.summary_not_last', linePath(line), `${what} after the session summary`);
  };

  const onHeader = (record: Record<string, unknown>, line: number, first: boolean): void => {
    byType.header++;
    if (!first || line !== 1) {
      add(
        'agent-history.header_misplaced',
        linePath(line),
        headerSeen ? 'unexpected second header record' : 'header record not on line 1',
      );
      if (!first) return;
    }
    headerSeen = true;
    const result = v.safeParse(implHeader, record);
    if (!result.success) reportIssues(add, line, result.issues, SCHEMA_ISSUE_CODES, { label: 'header' });
    if (typeof record['agent'] === 'string') headerAgent = record['agent'];
  };

  const onMessage = (record: Record<string, unknown>, line: number): void => {
    byType.message++;
    messageLines++;
    const result = v.safeParse(implMessage, record);
    if (!result.success) reportIssues(add, line, result.issues, SCHEMA_ISSUE_CODES);
    const role = record['role'];
    // R1 (docs/agent-history.md §4): the exporter passes unknown roles through, so this is a warning.
    if (typeof role === 'string' && !(ROLES as readonly string[]).includes(role)) {
      add(
        'agent-history.unknown_role',
        linePath(line, ['role']),
        `role ${quote(role)} not in {${ROLES.join(', ')}} (exporter passes unknown roles through)`,
        { severity: 'warning' },
      );
    }
    // M4 (warning); an empty timestamp is what the exporter writes when the source has none.
    const timestamp = record['timestamp'];
    if (typeof timestamp === 'string' && isIsoTimestamp(timestamp)) {
      const time = Date.parse(timestamp);
      if (previousTime !== undefined && time < previousTime) {
        add(
          'agent-history.timestamp_order',
          linePath(line, ['timestamp']),
          'timestamp earlier than the previous message',
          { severity: 'warning' },
        );
      }
      previousTime = time;
    }
  };

  const onSummary = (record: Record<string, unknown>, line: number): void => {
    byType.session++;
    summaryLine = line;
    const result = v.safeParse(implSummary, record);
    if (!result.success) reportIssues(add, line, result.issues, { ...SCHEMA_ISSUE_CODES }, { label: 'session' });
    const agent = record['agent'];
    if (typeof agent === 'string' && headerAgent !== undefined && agent !== headerAgent) {
      add(
        'agent-history.agent_mismatch',
        linePath(line, ['agent']),
        `session.agent ${quote(agent)} differs from header.agent ${quote(headerAgent)}`,
      );
    }
    // Compared at the end: a message line misplaced after the summary still counts.
    if (typeof record['message_count'] === 'number') summaryCount = record['message_count'];
  };

  return {
    record(record, line) {
      const type = record['type'];
      const first = !firstRecordSeen;
      firstRecordSeen = true;
      if (first && type !== 'header') {
        add(
          'agent-history.header_missing',
          linePath(line),
          `first record is not a header (type=${typeof type === 'string' ? type : quote(type)})`,
        );
      }
      if (summaryLine !== 0) {
        afterSummary(
          line,
          type === 'message'
            ? 'message line'
            : type === 'session'
              ? 'second session summary'
              : `${typeof type === 'string' ? type : 'record'} line`,
        );
        if (type === 'session') {
          byType.session++;
          return; // a second summary is only reported, its fields are not compared
        }
      }
      if (type === 'header') onHeader(record, line, first);
      else if (type === 'message') onMessage(record, line);
      else if (type === 'session') onSummary(record, line);
      else {
        byType.other++;
        add(
          'agent-history.unknown_record_type',
          linePath(line, ['type']),
          `unknown record type ${quote(type)} (impl-2.0 has header, message and session records)`,
        );
      }
    },
    end(ending) {
      // After a stop (a limit, an abort) the lines that follow were never read; a skipped line may
      // have been a message or the summary.
      if (ending === 'stopped' || ending === 'skipped') return [COUNT_CHECK, SUMMARY_CHECK];
      if (summaryCount !== undefined && summaryCount !== messageLines) {
        add(
          'agent-history.message_count',
          linePath(summaryLine, ['message_count']),
          `message_count ${summaryCount} but ${messageLines} message lines`,
        );
      }
      if (ending !== 'end') return [SUMMARY_CHECK];
      if (summaryLine === 0) add('agent-history.summary_missing', '$', 'end of stream: no closing session record');
      return [];
    },
    details() {
      return { session_count: byType.session > 0 ? 1 : 0, message_count: messageLines, records_by_type: { ...byType } };
    },
  };
}
