/**
 * Well-formedness oracle for a Report (docs/architecture.md, 'The report'; src/report/types.ts):
 * JSON-serialisable and frozen; closed sets for overall, verdicts, severities and codes; paths
 * rooted at `$` or `line N`; the findings bound; verdicts consistent with findings; and nothing
 * shown as passed that the format cannot check (no signature ⇒ authenticity never `pass`, no pin ⇒
 * trust never `pass`).
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import { CODES } from '../../../src/codes.ts';
import type { Dimension } from '../../../src/report/types.ts';
import type { Report } from '../../../src/report.ts';

const OVERALL = new Set(['pass', 'fail', 'error']);
const DIMENSION_VERDICT = new Set(['pass', 'fail', 'not-checked']);
const VERDICT_KEYS = ['structure', 'integrity', 'authenticity', 'trust'] as const;
const FORMATS = new Set(['agentxchain', 'zaxy', 'agent-history', 'codex-exec']);
const FINDING_KEYS = new Set(['code', 'path', 'message', 'severity', 'compat', 'expected', 'actual']);
/** Input-dimension errors kept past maxFindings (src/report/collector.ts). */
const STOP_RESERVE = 16;
/** Warnings `strict` leaves warnings: the findings-cut marker and statements of fact (collector.ts). */
const STRICT_KEEPS_WARNING = new Set(['limit.findings', 'kit.unsigned_format']);
const REPORT_KEYS = ['details', 'findings', 'format', 'input', 'kind', 'overall', 'stats', 'verdicts'];

/** What the caller asked for, needed to judge the report. */
export interface ReportContext {
  readonly maxFindings: number;
  readonly pinGiven: boolean;
  readonly strict: boolean;
  /** Source bytes handed to the API (bytes_read may not exceed it). */
  readonly inputBytes: number;
}

/**
 * Problems with a report's shape and consistency (empty when well-formed).
 * @example
 * reportProblems(report, { maxFindings: 1000, pinGiven: false, strict: false, inputBytes: 10 }); // []
 */
export function reportProblems(report: Report, context: ReportContext): string[] {
  const problems: string[] = [];
  const fail = (message: string): void => {
    problems.push(message);
  };
  if (typeof report !== 'object' || report === null) return ['report is not an object'];

  // Serialisable and frozen.
  try {
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(report)), report))
      fail('report does not survive a JSON round trip (undefined, NaN, -0, BigInt …)');
  } catch (error) {
    fail(`report is not JSON-serialisable: ${(error as Error).message}`);
  }
  for (const [name, value] of [
    ['report', report],
    ['verdicts', report.verdicts],
    ['findings', report.findings],
    ['details', report.details],
    ['stats', report.stats],
  ] as const) {
    if (!Object.isFrozen(value)) fail(`${name} is not frozen`);
  }
  const keys = Object.keys(report).sort();
  if (!isDeepStrictEqual(keys, REPORT_KEYS)) fail(`report keys are ${keys.join(',')}`);

  // Closed sets.
  if (!OVERALL.has(report.overall)) fail(`overall is ${String(report.overall)}`);
  const verdictKeys = Object.keys(report.verdicts ?? {}).sort();
  if (!isDeepStrictEqual(verdictKeys, [...VERDICT_KEYS].sort())) fail(`verdict keys are ${verdictKeys.join(',')}`);
  for (const key of VERDICT_KEYS)
    if (!DIMENSION_VERDICT.has(report.verdicts?.[key])) fail(`verdicts.${key} is ${String(report.verdicts?.[key])}`);
  if (report.format !== null && !FORMATS.has(report.format)) fail(`format is ${String(report.format)}`);
  if (report.kind !== null && typeof report.kind !== 'string') fail('kind is neither string nor null');
  if (typeof report.input !== 'string') fail('input is not a string');
  const { bytes_read: bytesRead, duration_ms: duration } = report.stats ?? ({} as Report['stats']);
  if (!Number.isSafeInteger(bytesRead) || bytesRead < 0) fail(`stats.bytes_read is ${String(bytesRead)}`);
  else if (bytesRead > context.inputBytes)
    fail(`stats.bytes_read ${bytesRead} exceeds the ${context.inputBytes} input bytes`);
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0)
    fail(`stats.duration_ms is ${String(duration)}`);

  // Findings.
  if (!Array.isArray(report.findings)) return [...problems, 'findings is not an array'];
  const errorDimensions = new Set<Dimension>();
  let marker = false;
  report.findings.forEach((finding, i) => {
    const where = `findings[${i}] (${String(finding?.code)})`;
    if (!Object.isFrozen(finding)) fail(`${where} is not frozen`);
    for (const key of Object.keys(finding)) if (!FINDING_KEYS.has(key)) fail(`${where} has unknown key ${key}`);
    if (!Object.hasOwn(CODES, finding.code)) {
      fail(`${where}: code not in CODES`);
      return;
    }
    if (finding.code === 'limit.findings') {
      if (marker) fail('limit.findings appears twice');
      if (i !== report.findings.length - 1) fail('limit.findings is not the last finding');
      marker = true;
    }
    if (finding.severity !== 'error' && finding.severity !== 'warning')
      fail(`${where}: severity ${String(finding.severity)}`);
    if (context.strict && finding.severity === 'warning' && !STRICT_KEEPS_WARNING.has(finding.code))
      fail(`${where}: a warning under strict`);
    if (typeof finding.path !== 'string' || !/^(?:\$|line [1-9][0-9]*(?: \$.*)?$)/s.test(finding.path))
      fail(`${where}: path ${JSON.stringify(finding.path)}`);
    if (typeof finding.message !== 'string' || finding.message === '') fail(`${where}: empty message`);
    for (const key of ['compat', 'expected', 'actual'] as const) {
      if (finding[key] !== undefined && typeof finding[key] !== 'string') fail(`${where}: ${key} is not a string`);
    }
    if (finding.severity === 'error')
      errorDimensions.add((CODES as Record<string, { dimension: string }>)[finding.code]!.dimension as Dimension);
  });
  // collector.ts: past maxFindings only input-dimension errors (why verification stopped) are
  // kept, at most STOP_RESERVE of them, then the one limit.findings marker.
  const kept = report.findings.filter((f) => f.code !== 'limit.findings');
  if (kept.length > context.maxFindings + STOP_RESERVE)
    fail(`${kept.length} findings exceed maxFindings ${context.maxFindings} + ${STOP_RESERVE}`);
  kept.slice(context.maxFindings).forEach((f) => {
    const dimension = (CODES as Record<string, { dimension: string } | undefined>)[f.code]?.dimension;
    if (f.severity !== 'error' || dimension !== 'input')
      fail(`finding ${f.code} kept past maxFindings ${context.maxFindings} is not an input-dimension error`);
  });

  // Verdict consistency (collector.ts buildReport).
  const anyError = errorDimensions.size > 0;
  if (report.overall === 'pass' && anyError) fail('overall pass with an error finding');
  if (report.overall !== 'pass' && !anyError && !marker) fail(`overall ${report.overall} without any error finding`);
  if (report.overall === 'error' && !errorDimensions.has('input') && !marker)
    fail('overall error without an input-dimension error');
  if (errorDimensions.has('input') && report.overall !== 'error')
    fail('an input-dimension error but overall is not error');
  for (const key of VERDICT_KEYS) {
    if (errorDimensions.has(key) && report.verdicts[key] !== 'fail')
      fail(`error finding of dimension ${key} but verdicts.${key} is ${report.verdicts[key]}`);
    if (report.verdicts[key] === 'fail' && !errorDimensions.has(key) && !marker)
      fail(`verdicts.${key} is fail without a finding of that dimension`);
  }

  // Nothing unchecked shown as passed.
  if (report.overall === 'pass') {
    if (report.format === null) fail('overall pass without a format');
    if (VERDICT_KEYS.some((key) => report.verdicts[key] === 'fail')) fail('overall pass with a failed dimension');
    if (report.verdicts.structure !== 'pass' && report.verdicts.integrity !== 'pass')
      fail('overall pass with neither structure nor integrity checked');
  }
  if (report.verdicts.authenticity === 'pass' && report.format !== 'zaxy')
    fail(`authenticity pass for ${String(report.format)}, which carries no signature`);
  if (report.verdicts.trust === 'pass' && !context.pinGiven) fail('trust pass without a pinned key');
  return problems;
}

/** The part of a report two equivalent runs must agree on (no timings, byte counts or messages). */
export function reportSummary(report: Report): string {
  return JSON.stringify({
    overall: report.overall,
    format: report.format,
    kind: report.kind,
    verdicts: report.verdicts,
    findings: report.findings.map((f) => `${f.severity} ${f.code} ${f.path}`),
  });
}
