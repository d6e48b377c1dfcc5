/**
 * Findings of a Zaxy check before they reach the report. Every check of the kit runs (report
 * everything), and Zaxy's own order of evaluation picks which one of them Zaxy would have
 * answered with: that one is recorded first and carries Zaxy's reason as `compat`
 * (docs/architecture.md, 'Report everything, then decide'), the others follow without it.
 * @module
 */
import type { FindingCode } from '../../codes.ts';
import type { Severity } from '../../report/types.ts';
import type { FindingCollector } from '../../report.ts';

export interface Candidate {
  readonly code: FindingCode;
  readonly path: string;
  readonly message: string;
  /** Zaxy's reason when this problem decides its verdict. */
  readonly compat?: string;
  readonly severity?: Severity;
  readonly expected?: string;
  readonly actual?: string;
}

/**
 * Records the deciding candidate first (with its compat reason), then every other candidate in
 * check order. Returns Zaxy's `{ok, reason}`.
 * @example
 * const verdict = record(collector, deciding, [versionProblem, ...idProblems]);
 */
export function record(
  collector: FindingCollector,
  deciding: Candidate | undefined,
  all: readonly (Candidate | undefined)[],
): { ok: boolean; reason: string | null } {
  if (deciding !== undefined) add(collector, deciding, true);
  for (const candidate of all) {
    if (candidate !== undefined && candidate !== deciding) add(collector, candidate, false);
  }
  return deciding === undefined
    ? { ok: true, reason: null }
    : { ok: false, reason: deciding.compat ?? deciding.message };
}

function add(collector: FindingCollector, candidate: Candidate, deciding: boolean): void {
  collector.add(candidate.code, candidate.path, candidate.message, {
    ...(candidate.severity ? { severity: candidate.severity } : {}),
    ...(deciding && candidate.compat !== undefined ? { compat: candidate.compat } : {}),
    ...(candidate.expected !== undefined ? { expected: candidate.expected } : {}),
    ...(candidate.actual !== undefined ? { actual: candidate.actual } : {}),
  });
}

/** Shortens attacker-sized text for a message (the compat text keeps it whole). */
export function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
