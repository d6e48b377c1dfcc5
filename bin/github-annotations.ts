/**
 * GitHub Actions workflow commands for the error findings (`::error file=…,title=…::…`), which
 * the runner turns into annotations on the run. They are written to stderr: the runner reads
 * commands from both streams, and stdout stays the report (`--format json` stays parseable).
 *
 * Escaping follows GitHub's rules for workflow commands (the `@actions/core` toolkit's
 * `escapeData` and `escapeProperty`): in the message `%`, CR and LF become `%25`, `%0D`, `%0A`;
 * in a property value also `:` and `,` become `%3A` and `%2C`, so artifact text can neither end
 * the command nor add a property. The other invisible characters are made visible first
 * (safe-text.ts), as the annotation is shown to people.
 * @module
 */
import { isAbsolute, relative } from 'node:path';
import { safeText } from './safe-text.ts';
import type { Outcome } from './verify-file.ts';

/** A workflow command's message. */
export function escapeData(text: string): string {
  return safeText(text, { keepLineBreaks: true }).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The file as GitHub links it: relative to the workspace (`GITHUB_WORKSPACE`, else the current
 * folder) when inside it, else as it is.
 */
function annotatedPath(label: string, workspace: string): string {
  if (label === 'stdin') return label;
  const inside = relative(workspace, label);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : label;
}

/**
 * One `::error` line per error finding of `outcome` (one for an input that could not be read).
 * @example
 * process.stderr.write(githubAnnotations(outcome, process.env['GITHUB_WORKSPACE'] ?? process.cwd()));
 */
export function githubAnnotations(outcome: Outcome, workspace: string): string {
  const file = escapeProperty(annotatedPath(outcome.label, workspace));
  const line = (code: string, message: string): string =>
    `::error file=${file},title=${escapeProperty(code)}::${escapeData(message)}\n`;
  if ('unreadable' in outcome) return line('input.unreadable', `cannot read ${outcome.label}: ${outcome.unreadable}`);
  return outcome.report.findings
    .filter((finding) => finding.severity === 'error')
    .map((finding) => line(finding.code, `${finding.path}: ${finding.message}`))
    .join('');
}
