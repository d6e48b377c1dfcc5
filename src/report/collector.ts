/**
 * Collects findings while a verifier runs and turns them into a frozen `Report`
 * (docs/architecture.md, 'Report everything, then decide').
 * @module
 */
import type { AnyReport, Dimension, DimensionVerdict, Finding, Overall, Severity, Verdicts } from './types.ts';

/** Extra fields a finding may carry beyond code, path and message. */
export interface FindingExtras {
  readonly severity?: Severity;
  readonly compat?: string;
  readonly expected?: string;
  readonly actual?: string;
}

/** The verdict dimensions a verifier actually examined; the others report `not-checked`. */
export type CheckedDimensions = Partial<Record<Exclude<Dimension, 'input'>, boolean>>;

/** Findings past `maxFindings` still kept when they explain why verification stopped. */
const STOP_RESERVE = 16;

/**
 * Warnings that state a property of the format rather than a problem found in the artifact;
 * `strict` leaves them warnings, or every AgentXchain export would fail under `--strict`.
 */
const STATEMENTS_OF_FACT: ReadonlySet<string> = new Set(['kit.unsigned_format']);

/**
 * Findings of one verification. `Code` is the closed list of codes (`FindingCode` from
 * `src/codes.ts`, which also hands `createCollector` each code's dimension).
 */
export interface FindingCollector<Code extends string = string> {
  /** Records a finding (severity `error` unless given). Past `maxFindings` it is counted, not kept. */
  add(code: Code, path: string, message: string, extras?: FindingExtras): void;
  /** Findings recorded so far (read-only view). */
  readonly findings: readonly Finding<Code>[];
  /** True once any error-severity finding was added (kept or dropped). */
  readonly hasErrors: boolean;
  /** Number of error findings of one dimension, kept or dropped. */
  errorCount(dimension: Dimension): number;
}

/**
 * Creates a collector bounded by `maxFindings`, which tells each code's dimension with
 * `dimensionOf`. With `strict`, every warning is recorded as an error (the CLI's `--strict`);
 * `compat` text is kept unchanged, so compat output never moves.
 * @example
 * const c = createCollector({ maxFindings: 100, dimensionOf });
 * c.add('input.empty', '$', 'empty input');
 * c.hasErrors; // true
 */
export function createCollector<Code extends string>(options: {
  maxFindings: number;
  strict?: boolean;
  dimensionOf: (code: Code) => Dimension;
}): FindingCollector<Code> {
  const { dimensionOf } = options;
  const findings: Finding<Code>[] = [];
  const errorsByDimension = new Map<Dimension, number>();
  let dropped = 0;
  let hasErrors = false;
  return {
    add(code, path, message, extras = {}) {
      const requested = extras.severity ?? 'error';
      const severity: Severity = options.strict && !STATEMENTS_OF_FACT.has(code) ? 'error' : requested;
      if (severity === 'error') {
        hasErrors = true;
        const dimension = dimensionOf(code);
        errorsByDimension.set(dimension, (errorsByDimension.get(dimension) ?? 0) + 1);
      }
      // Input-dimension errors (a limit reached, an abort, unreadable input) say why verification
      // stopped; they are few, so they are kept even past the cap, up to a small reserve.
      const explainsStop = severity === 'error' && dimensionOf(code) === 'input';
      if (
        findings.length >= options.maxFindings &&
        !(explainsStop && findings.length < options.maxFindings + STOP_RESERVE)
      ) {
        dropped++;
        return;
      }
      const finding: Finding<Code> = { code, path, message, severity };
      if (extras.compat !== undefined) (finding as { compat?: string }).compat = extras.compat;
      if (extras.expected !== undefined) (finding as { expected?: string }).expected = extras.expected;
      if (extras.actual !== undefined) (finding as { actual?: string }).actual = extras.actual;
      findings.push(Object.freeze(finding));
    },
    get findings() {
      if (dropped === 0) return findings;
      // The marker is appended lazily so it always states the final count.
      return [
        ...findings,
        Object.freeze({
          code: 'limit.findings' as Code,
          path: '$',
          message: `${dropped} more finding(s) not recorded (limits.maxFindings = ${options.maxFindings})`,
          severity: 'warning' as const,
        }),
      ];
    },
    get hasErrors() {
      return hasErrors;
    },
    errorCount(dimension) {
      return errorsByDimension.get(dimension) ?? 0;
    },
  };
}

/**
 * What a report is built from; `R` is the kind of report (`ReportOf<'zaxy'>`, say), which types its details and codes.
 */
export interface ReportParts<R extends AnyReport = AnyReport> {
  readonly format: R['format'];
  readonly kind: R['kind'];
  readonly input: string;
  readonly checked: CheckedDimensions;
  readonly details?: R['details'];
  readonly bytesRead: number;
  /** Milliseconds the verification took. */
  readonly durationMs: number;
}

function dimensionVerdict(
  collector: FindingCollector<string>,
  dimension: Exclude<Dimension, 'input'>,
  checked: CheckedDimensions,
): DimensionVerdict {
  if (collector.errorCount(dimension) > 0) return 'fail';
  return checked[dimension] ? 'pass' : 'not-checked';
}

/**
 * Derives the verdicts from the findings and freezes the report.
 * `overall` is `error` when an `input` finding is an error, else `fail` when any error exists,
 * else `pass`. A dimension never examined stays `not-checked`, even when nothing failed.
 */
export function buildReport<R extends AnyReport>(
  collector: FindingCollector<R['findings'][number]['code']>,
  parts: ReportParts<R>,
): R {
  const verdicts: Verdicts = Object.freeze({
    structure: dimensionVerdict(collector, 'structure', parts.checked),
    integrity: dimensionVerdict(collector, 'integrity', parts.checked),
    authenticity: dimensionVerdict(collector, 'authenticity', parts.checked),
    trust: dimensionVerdict(collector, 'trust', parts.checked),
  });
  const overall: Overall = collector.errorCount('input') > 0 ? 'error' : collector.hasErrors ? 'fail' : 'pass';
  return Object.freeze({
    overall,
    verdicts,
    format: parts.format,
    kind: parts.kind,
    input: parts.input,
    findings: Object.freeze([...collector.findings]),
    details: Object.freeze({ ...(parts.details ?? {}) }),
    stats: Object.freeze({ bytes_read: parts.bytesRead, duration_ms: parts.durationMs }),
  }) as R;
}
