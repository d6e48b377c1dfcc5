/**
 * `reportAgentxchain`: the governance report of an AgentXchain export, as
 * `agentxchain report --format json` (CLI 2.159.0) builds it (docs/agentxchain-report.md).
 * The export is read and verified once, by the verifier (`verifyAgentxchainDocument`); a verified
 * export's parsed document is then summarised. An unreadable input gives the error report, a
 * failing export the fail report, a passing one the pass report.
 * @module
 */
import type { VerifyOptions } from '../../../options.ts';
import type { VerifyInput } from '../../../stream/input.ts';
import type { OpenedInput } from '../../../stream/open.ts';
import { toAgentxchainJson } from '../compat.ts';
import { verifyAgentxchainDocument } from '../verify.ts';
import { COORDINATOR_EXPORT, RUN_EXPORT } from '../verify-artifact.ts';
import { coordinatorSubject, type CoordinatorSubject } from './coordinator-subject.ts';
import { runSubject, type RunSubject } from './run-subject.ts';
import { prop } from './values.ts';

/**
 * `reference` (default) reproduces the reference's output exactly, recorded bugs included;
 * `corrected` fixes those that change data: a turn's cost is read from `cost.usd` when
 * `cost.total_usd` is absent (the reference reads only `total_usd`, so real exports show no cost).
 */
export type AgentxchainReportMode = 'reference' | 'corrected';

export interface AgentxchainReportOptions extends VerifyOptions {
  /** The report's clock: a Date, ms since the epoch or a date string `Date.parse` accepts; default now. */
  readonly now?: Date | number | string;
  /** See `AgentxchainReportMode`; default `reference`. */
  readonly mode?: AgentxchainReportMode;
}

/** The verify report without its input, as the governance report embeds it. */
export interface ReportVerification {
  overall: 'pass' | 'fail';
  schema_version: unknown;
  export_kind: unknown;
  file_count: number;
  repo_count?: number;
  errors: string[];
}

export interface AgentxchainErrorReport {
  overall: 'error';
  input: string;
  message: string;
}

export interface AgentxchainFailReport {
  overall: 'fail';
  input: string;
  message: string;
  verification: ReportVerification;
}

export interface AgentxchainPassReport {
  report_version: '0.1';
  overall: 'pass';
  generated_at: string;
  input: string;
  export_kind: string;
  verification: ReportVerification;
  subject: RunSubject | CoordinatorSubject;
}

/** The report object, exactly what `agentxchain report --format json` prints (as `JSON.stringify(r, null, 2)`). */
export type AgentxchainReport = AgentxchainErrorReport | AgentxchainFailReport | AgentxchainPassReport;

export const REPORT_FAIL_MESSAGE = 'Cannot build governance report from invalid export artifact.';

/** The CLI's exit code for a report: 0 pass, 1 fail, 2 error. */
export function agentxchainReportExitCode(report: AgentxchainReport): 0 | 1 | 2 {
  return report.overall === 'pass' ? 0 : report.overall === 'fail' ? 1 : 2;
}

/** The clock as ms since the epoch; TypeError for a value that is no instant. */
function resolveNow(now: AgentxchainReportOptions['now']): number {
  if (now === undefined) return Date.now();
  const ms = now instanceof Date ? now.getTime() : typeof now === 'number' ? now : Date.parse(now);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    throw new TypeError(`options.now must be a valid date, got ${String(now)}`);
  return ms;
}

/**
 * Builds the governance report of an AgentXchain export (plain or gzip).
 * Hostile data never throws; `TypeError` only for API misuse (a bad `now`, bad limits).
 * @example
 * const report = await reportAgentxchain(bytes, { name: 'export.json', now: '2026-11-25T00:00:00Z' });
 * report.overall;                          // 'pass' | 'fail' | 'error'
 * agentxchainReportMarkdown(report);       // the reference's markdown
 */
export async function reportAgentxchain(
  input: VerifyInput | OpenedInput,
  options: AgentxchainReportOptions = {},
): Promise<AgentxchainReport> {
  const now = resolveNow(options.now);
  const { now: _now, mode, ...verifyOptions } = options;
  const { report, artifact } = await verifyAgentxchainDocument(input, verifyOptions);
  const compat = toAgentxchainJson(report);
  if (compat.overall === 'error') return { overall: 'error', input: compat.input, message: compat.message };
  const { input: label, ...verification } = compat;
  const kind = prop(artifact, 'export_kind');
  if (compat.overall === 'fail' || (kind !== RUN_EXPORT && kind !== COORDINATOR_EXPORT)) {
    return {
      overall: 'fail',
      input: label,
      message: REPORT_FAIL_MESSAGE,
      verification: { ...verification, overall: 'fail' },
    };
  }
  const subjectOptions = { now, corrected: mode === 'corrected' };
  return {
    report_version: '0.1',
    overall: 'pass',
    generated_at: new Date(now).toISOString(),
    input: label,
    export_kind: kind,
    verification: { ...verification, overall: 'pass' },
    subject: kind === RUN_EXPORT ? runSubject(artifact, subjectOptions) : coordinatorSubject(artifact, subjectOptions),
  };
}
