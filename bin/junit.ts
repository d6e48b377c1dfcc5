/**
 * The outcomes as JUnit XML, the test-report format CI systems read (the schema of Ant's JUnit
 * task, as Jenkins, GitLab and others read it): one `<testsuite>`, one `<testcase>` per input;
 * a failed verification is a `<failure>`, an input that could not be verified an `<error>`, each
 * listing its error findings.
 *
 * Every string is escaped for XML 1.0: the five markup characters as entities, line breaks and
 * tabs in attributes as character references (attribute-value normalisation would turn them into
 * spaces), and the characters XML 1.0 does not allow at all, even as references (the C0 controls
 * but tab, LF and CR; U+FFFE, U+FFFF; unpaired surrogates), as a visible `\uXXXX`.
 * @module
 */
import type { Finding } from '../src/report.ts';
import type { Outcome } from './verify-file.ts';

/** What XML 1.0 forbids (its production `Char`), matched per UTF-16 code unit, lone surrogates included. */
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const visible = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` as XML character data. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, visible).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `text` as an XML attribute value (between double quotes). */
export function xmlAttribute(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/** One finding as a line of a failure's body. */
const findingLine = (finding: Finding): string => `${finding.path}: ${finding.message} [${finding.code}]`;

/**
 * The JUnit XML document for `outcomes` (in input order) that took `elapsedMs` in all.
 * @example
 * process.stdout.write(renderJunit(outcomes, 1234));
 */
export function renderJunit(outcomes: readonly Outcome[], elapsedMs: number): string {
  let failures = 0;
  let errors = 0;
  const cases = outcomes.map((outcome) => {
    const name = xmlAttribute(outcome.label);
    if ('unreadable' in outcome) {
      errors++;
      return (
        `    <testcase classname="verify-export" name="${name}" time="0.000">\n` +
        `      <error type="input.unreadable" message="${xmlAttribute(outcome.unreadable)}">` +
        `${xmlText(outcome.unreadable)}</error>\n    </testcase>`
      );
    }
    const { report } = outcome;
    const classname = `verify-export.${report.format ?? 'unknown'}`;
    const head = `    <testcase classname="${classname}" name="${name}" time="${seconds(report.stats.duration_ms)}">`;
    if (report.overall === 'pass') return `${head}</testcase>`;
    const found = report.findings.filter((finding) => finding.severity === 'error');
    const element = report.overall === 'fail' ? 'failure' : 'error';
    if (element === 'failure') failures++;
    else errors++;
    const first = found[0];
    const message = first ? `${first.message}${found.length > 1 ? ` (and ${found.length - 1} more)` : ''}` : '';
    return (
      `${head}\n      <${element} type="${xmlAttribute(first?.code ?? report.overall)}" message="${xmlAttribute(message)}">` +
      `${xmlText(found.map(findingLine).join('\n'))}</${element}>\n    </testcase>`
    );
  });
  const counts = `tests="${outcomes.length}" failures="${failures}" errors="${errors}" time="${seconds(elapsedMs)}"`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="verify-export" ${counts}>\n` +
    `  <testsuite name="verify-export" ${counts} skipped="0">\n` +
    `${cases.map((c) => `${c}\n`).join('')}` +
    `  </testsuite>\n</testsuites>\n`
  );
}
