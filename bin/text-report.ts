/**
 * The report for people: verdict line first, then the verdict dimensions, a few format facts,
 * then findings grouped by path. Colour only when writing to a terminal.
 * @module
 */

const STYLES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
type Style = keyof typeof STYLES;

const VERDICT_WORDS: Record<Report['overall'], string> = {
  pass: 'PASS: the artifact verified',
  fail: 'FAIL: verification found problems',
  error: 'ERROR: the input could not be verified',
};

/** Renders a report as text. Artifact strings are printed as they are; control characters are escaped. */
export function renderText(report: Report, colour: boolean): string {
  const paint = (style: Style, text: string): string => (colour ? `\u001b[${STYLES[style]}m${text}\u001b[0m` : text);
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

/** Escapes C0/C1 controls so an artifact cannot drive the terminal (attacker-controlled text). */
function safe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
import type { Finding, Report } from '../src/report.ts';
