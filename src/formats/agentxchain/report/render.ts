/**
 * The text and markdown renderings of a governance report (docs/agentxchain-report.md §6, §7):
 * exactly what `agentxchain report --format text|markdown` prints, without the final newline
 * `console.log` adds.
 * @module
 */
import { coordinatorReportMarkdown } from './markdown-coordinator.ts';
import { runReportMarkdown } from './markdown-run.ts';
import { t } from './render-common.ts';
import type { AgentxchainReport } from './report.ts';
import { coordinatorReportText } from './text-coordinator.ts';
import { runReportText } from './text-run.ts';

/**
 * The report as markdown (no trailing newline).
 * @example
 * agentxchainReportMarkdown(await reportAgentxchain(bytes, { name: 'export.json' }));
 * // '# AgentXchain Governance Report\n\n- Input: `export.json`\n…'
 */
export function agentxchainReportMarkdown(report: AgentxchainReport): string {
  if (report.overall === 'error')
    return [
      '# AgentXchain Governance Report',
      '',
      t`- Input: \`${report.input}\``,
      '- Status: `error`',
      t`- Message: ${report.message}`,
    ].join('\n');
  if (report.overall === 'fail')
    return [
      '# AgentXchain Governance Report',
      '',
      t`- Input: \`${report.input}\``,
      '- Verification: `fail`',
      t`- Message: ${report.message}`,
      '',
      '## Verification Errors',
      '',
      ...report.verification.errors.map((error) => `- ${error}`),
    ].join('\n');
  return report.subject.kind === 'governed_run' ? runReportMarkdown(report) : coordinatorReportMarkdown(report);
}

/**
 * The report as plain text (no trailing newline, no colour).
 * @example
 * agentxchainReportText(report).split('\n')[0]; // 'AgentXchain Governance Report'
 */
export function agentxchainReportText(report: AgentxchainReport): string {
  if (report.overall === 'error')
    return [
      'AgentXchain Governance Report',
      t`Input: ${report.input}`,
      'Status: ERROR',
      t`Message: ${report.message}`,
    ].join('\n');
  if (report.overall === 'fail')
    return [
      'AgentXchain Governance Report',
      t`Input: ${report.input}`,
      'Verification: FAIL',
      report.message,
      'Errors:',
      ...report.verification.errors.map((error) => `- ${error}`),
    ].join('\n');
  return report.subject.kind === 'governed_run' ? runReportText(report) : coordinatorReportText(report);
}
