/**
 * The report for people: verdict line first, then the verdict dimensions, a few format facts,
 * then findings grouped by path. Colour only when writing to a terminal.
 * @module
 */
import type { Finding, Report } from '../src/report.ts';
import { safeText } from './safe-text.ts';
import type { Outcome } from './verify-file.ts';

const STYLES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
type Style = keyof typeof STYLES;

const VERDICT_WORDS: Record<Report['overall'], string> = {
  pass: 'PASS: the artifact verified',
  fail: 'FAIL: verification found problems',
  error: 'ERROR: the input could not be verified',
};

/** Colours the text when `colour` is set. */
const painter =
  (colour: boolean) =>
  (style: Style, text: string): string =>
    colour ? `\u001b[${STYLES[style]}m${text}\u001b[0m` : text;

/** Renders a report as text. Artifact strings are printed as they are, made safe by `safeText`. */
export function renderText(report: Report, colour: boolean): string {
  const paint = painter(colour);
  const verdictStyle: Style = report.overall === 'pass' ? 'green' : report.overall === 'fail' ? 'red' : 'yellow';
  const lines: string[] = [paint('bold', paint(verdictStyle, VERDICT_WORDS[report.overall]))];
  lines.push(
    `  input: ${safe(report.input)}   format: ${report.format ?? 'unknown'}${report.kind ? ` (${safe(report.kind)})` : ''}`,
  );
  const v = report.verdicts;
  lines.push(
    `  structure: ${v.structure}   integrity: ${v.integrity}   authenticity: ${v.authenticity}   trust: ${v.trust}`,
  );
  const facts = Object.entries(report.details).filter(([, value]) =>
    ['string', 'number', 'boolean'].includes(typeof value),
  );
  if (facts.length > 0)
    lines.push(paint('dim', `  ${facts.map(([k, value]) => `${k}: ${safe(String(value))}`).join('   ')}`));

  const byPath = new Map<string, Finding[]>();
  for (const finding of report.findings) {
    const group = byPath.get(finding.path) ?? [];
    group.push(finding);
    byPath.set(finding.path, group);
  }
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const warnings = report.findings.length - errors;
  if (report.findings.length > 0) lines.push('', `${errors} error(s), ${warnings} warning(s):`);
  for (const [path, findings] of byPath) {
    lines.push(`  ${paint('bold', safe(path))}`);
    for (const finding of findings) {
      const mark = finding.severity === 'error' ? paint('red', '✗') : paint('yellow', '!');
      lines.push(`    ${mark} ${safe(finding.message)} ${paint('dim', `[${finding.code}]`)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Error findings listed under a failed input's line; the rest are counted. */
const LISTED_FINDINGS = 5;

/**
 * One input of several, for people: its verdict, path, format and counts, then its first error
 * findings (or why it could not be read).
 * @example
 * process.stdout.write(renderOutcomeLine(outcome, false));
 * // 'FAIL   /data/run.json  agentxchain  2 error(s)\n         $.files: … [agentxchain.hash_mismatch]\n…'
 */
export function renderOutcomeLine(outcome: Outcome, colour: boolean): string {
  const paint = painter(colour);
  const label = safe(outcome.label);
  if ('unreadable' in outcome)
    return `${paint('yellow', 'ERROR')}  ${label}  cannot read: ${safe(outcome.unreadable)}\n`;
  const { report } = outcome;
  const style: Style = report.overall === 'pass' ? 'green' : report.overall === 'fail' ? 'red' : 'yellow';
  const errors = report.findings.filter((f) => f.severity === 'error');
  const warnings = report.findings.length - errors.length;
  const counts = [
    ...(errors.length > 0 ? [`${errors.length} error(s)`] : []),
    ...(warnings > 0 ? [`${warnings} warning(s)`] : []),
  ];
  const lines = [
    `${paint(style, report.overall.toUpperCase().padEnd(5))}  ${label}  ${report.format ?? 'unknown format'}${counts.length > 0 ? `  ${counts.join(', ')}` : ''}`,
  ];
  for (const finding of errors.slice(0, LISTED_FINDINGS))
    lines.push(
      `       ${paint('red', '✗')} ${safe(finding.path)}: ${safe(finding.message)} ${paint('dim', `[${finding.code}]`)}`,
    );
  if (errors.length > LISTED_FINDINGS)
    lines.push(`       … and ${errors.length - LISTED_FINDINGS} more (verify this input alone to see all)`);
  return `${lines.join('\n')}\n`;
}

/**
 * The last line after several inputs.
 * @example
 * renderSummary(outcomes, 1234); // '3 inputs: 1 passed, 1 failed, 1 error(s) in 1.2 s\n'
 */
export function renderSummary(outcomes: readonly Outcome[], elapsedMs: number): string {
  let passed = 0;
  let failed = 0;
  for (const outcome of outcomes) {
    if ('report' in outcome && outcome.report.overall === 'pass') passed++;
    else if ('report' in outcome && outcome.report.overall === 'fail') failed++;
  }
  const errors = outcomes.length - passed - failed;
  return `${outcomes.length} inputs: ${passed} passed, ${failed} failed, ${errors} error(s) in ${(elapsedMs / 1000).toFixed(1)} s\n`;
}

/** Artifact text as printed: controls, bidi formatting and separators escaped (safe-text.ts). */
const safe = (text: string): string => safeText(text);
