/**
 * One fuzz session: cases `start .. start+count-1` of a seed on a worker pool, with counts per
 * format, per oracle and per verdict, the slowest cases, heap after GC, and the positive controls
 * that did not pass. Used by `npm run fuzz` and by the CI smoke test.
 * @module
 */
import type { FormatId } from '../../src/report/types.ts';
import { generateCase, type CaseOptions, type FuzzCase } from './case.ts';
import type { Failure } from './execute.ts';
import { runPool } from './pool.ts';
import type { Job } from './worker.ts';

export interface FuzzOptions {
  readonly seed: number;
  readonly start: number;
  readonly count: number;
  readonly jobs: number;
  readonly caseOptions: CaseOptions;
  readonly differentials: boolean;
  readonly onProgress?: (line: string) => void;
  /** `keep` is true for the first few failures of each distinct kind (save those as vectors). */
  readonly onFailure?: (c: FuzzCase, failure: Failure, keep: boolean) => void;
  /** Progress line interval. */
  readonly progressMs?: number;
}

interface FormatStats {
  cases: number;
  pass: number;
  fail: number;
  error: number;
  /** Cases whose report had to fail (a no-false-pass claim was made). */
  mustFail: number;
  failures: number;
}

export interface FuzzSummary {
  readonly seed: number;
  readonly start: number;
  readonly count: number;
  completed: number;
  seconds: number;
  inputsPerSecond: number;
  failures: number;
  harnessErrors: number;
  readonly byOracle: Record<string, number>;
  readonly byFormat: Record<string, FormatStats>;
  readonly distinct: { signature: string; count: number; first: string }[];
  readonly harnessErrorSamples: string[];
  readonly claims: Record<string, number>;
  readonly controls: { cases: number; notPassed: number; samples: string[] };
  readonly slowest: { ms: number; case: string }[];
  maxHeapDeltaMiB: number;
  readonly heapAfterGcMiB: number[];
  /** Peak resident set of the whole process (main thread and workers), MiB. */
  peakRssMiB: number;
}

/** Groups failures that are the same bug: oracle, format and the first line with digits blurred. */
function signatureOf(format: string, failure: Failure): string {
  const firstLine = failure.detail
    .split('\n')[0]!
    .replace(/[0-9]+/g, '#')
    .slice(0, 160);
  return `${format} ${failure.oracle} ${firstLine}`;
}

function* jobsFor(options: FuzzOptions): Generator<Job> {
  for (let index = options.start; index < options.start + options.count; index++) {
    yield {
      kind: 'generate',
      seed: options.seed,
      index,
      options: options.caseOptions,
      differentials: options.differentials,
    };
  }
}

/**
 * Runs a session and answers its summary.
 * @example
 * const summary = await runFuzz({ seed: 1, start: 0, count: 100, jobs: 1, caseOptions: {}, differentials: true });
 * summary.failures; // 0
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const started = performance.now();
  const summary: FuzzSummary = {
    seed: options.seed,
    start: options.start,
    count: options.count,
    completed: 0,
    seconds: 0,
    inputsPerSecond: 0,
    failures: 0,
    harnessErrors: 0,
    byOracle: {},
    byFormat: {},
    distinct: [],
    harnessErrorSamples: [],
    claims: {},
    controls: { cases: 0, notPassed: 0, samples: [] },
    slowest: [],
    maxHeapDeltaMiB: 0,
    heapAfterGcMiB: [],
    peakRssMiB: 0,
  };
  const distinct = new Map<string, { count: number; first: string }>();
  let lastProgress = performance.now();

  await runPool(jobsFor(options), { jobs: options.jobs }, (outcome) => {
    summary.completed++;
    const index = outcome.job.kind === 'generate' ? outcome.job.index : outcome.job.case.index;
    if (outcome.harnessError) {
      summary.harnessErrors++;
      if (summary.harnessErrorSamples.length < 10)
        summary.harnessErrorSamples.push(`--seed ${options.seed} --index ${index}: ${outcome.harnessError}`);
      return;
    }
    const format = (outcome.format ?? (outcome.job.kind === 'case' ? outcome.job.case.format : undefined)) as
      FormatId | undefined;
    const failures: Failure[] = outcome.result
      ? outcome.result.failures
      : outcome.poolFailure
        ? [outcome.poolFailure]
        : [];
    // A case the pool had to kill is rebuilt here (it is deterministic) so it can be saved.
    const rebuilt = (): FuzzCase =>
      outcome.job.kind === 'generate'
        ? generateCase(outcome.job.seed, outcome.job.index, outcome.job.options)
        : outcome.job.case;
    const c = failures.length > 0 ? rebuilt() : undefined;
    const key = format ?? c?.format ?? 'unknown';
    const stats = (summary.byFormat[key] ??= { cases: 0, pass: 0, fail: 0, error: 0, mustFail: 0, failures: 0 });
    stats.cases++;
    const result = outcome.result;
    if (result?.overall) stats[result.overall]++;
    if (result?.claim) {
      stats.mustFail++;
      const reason = result.claim
        .replace(/\[[0-9]+\]/g, '[#]')
        .replace(/ at [0-9]+/g, '')
        .replace(/[0-9]+/g, '#');
      summary.claims[reason] = (summary.claims[reason] ?? 0) + 1;
    }
    if (result) {
      summary.maxHeapDeltaMiB = Math.max(summary.maxHeapDeltaMiB, Math.round(result.heapDeltaBytes / 2 ** 20));
      const label = `--index ${index} ${key}/${outcome.file ?? ''}`;
      summary.slowest.push({ ms: Math.round(result.durationMs), case: label });
      summary.slowest.sort((a, b) => b.ms - a.ms);
      summary.slowest.length = Math.min(summary.slowest.length, 5);
    }
    if (result?.control) summary.controls.cases++;
    if (result?.controlMismatch) {
      summary.controls.notPassed++;
      if (summary.controls.samples.length < 20)
        summary.controls.samples.push(
          `--index ${index} ${key}/${outcome.file}: ${(outcome.steps ?? []).join(' | ')} => ${result.controlMismatch}`,
        );
    }
    if (outcome.heapAfterGc !== undefined) summary.heapAfterGcMiB.push(Math.round(outcome.heapAfterGc / 2 ** 20));
    for (const failure of failures) {
      summary.failures++;
      stats.failures++;
      summary.byOracle[failure.oracle] = (summary.byOracle[failure.oracle] ?? 0) + 1;
      const signature = signatureOf(key, failure);
      const seen = distinct.get(signature);
      if (seen) seen.count++;
      else distinct.set(signature, { count: 1, first: `--seed ${options.seed} --index ${index}` });
      options.onFailure?.(c!, failure, (distinct.get(signature)?.count ?? 0) <= 3);
    }
    if (options.onProgress && performance.now() - lastProgress > (options.progressMs ?? 15_000)) {
      lastProgress = performance.now();
      const seconds = (performance.now() - started) / 1000;
      options.onProgress(
        `${summary.completed}/${options.count} cases, ${(summary.completed / seconds).toFixed(1)}/s, failures ${summary.failures} ${JSON.stringify(summary.byOracle)}`,
      );
    }
  });
  summary.peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  summary.seconds = Math.round((performance.now() - started) / 100) / 10;
  summary.inputsPerSecond = Math.round((summary.completed / Math.max(0.001, summary.seconds)) * 10) / 10;
  summary.distinct.push(
    ...[...distinct.entries()].map(([signature, v]) => ({ signature, ...v })).sort((a, b) => b.count - a.count),
  );
  return summary;
}
