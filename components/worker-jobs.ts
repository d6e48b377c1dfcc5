/**
 * The verification worker's jobs other than `verify` (`verify-worker.ts`): the governance report
 * and the export diff (the Run and Compare tabs), the views' `inspect` pages and a Zaxy subset. They
 * all read the input the verification they name (`of`) kept (`verified-bytes.ts`): only the last
 * verification's is held, so a job naming an earlier one fails with `STALE_VERIFICATION` (a view left
 * from a previous report never gets pages of a newer verification). The worker imports this
 * one module the first time such a job arrives, so none of it is on the verification path, and
 * the code they share with the verifiers is split off once, not once per job.
 * @module
 */
import { makeRunReport } from './run-view/worker-report.ts';
import { makeComparison } from './run-view/worker-diff.ts';
import { inspectKept } from './inspect-job.ts';
import type { VerifyInput } from '../src/stream/input.ts';
import type { KeptInput } from './verified-bytes.ts';
import type { FromWorker, ToWorker, WorkerSource } from './worker-protocol.ts';

/** What a job needs from the worker: the input it kept, and how it opens a second source. */
export interface JobContext {
  /** The kept input of verify job `of`, if it is still held (only the last verification's is). */
  kept(of: number): Promise<KeptInput | undefined>;
  openSource(source: WorkerSource, signal: AbortSignal): Promise<VerifyInput>;
}

/** A job this module answers (every message but `verify`, `cancel` and `warm`). */
export type OtherJob = Exclude<ToWorker, { readonly type: 'verify' | 'cancel' | 'warm' }>;

/**
 * Runs one job to its answer (a failure throws, with the reason as its message).
 * @example
 * const answer = await runJob({ type: 'report', id: 2, of: 1 }, context, signal);
 */
export async function runJob(job: OtherJob, context: JobContext, signal: AbortSignal): Promise<FromWorker> {
  switch (job.type) {
    case 'report': {
      const kept = await exportFor(context, job.of);
      return { type: 'run', id: job.id, value: await makeRunReport(kept.input, kept.name, job.now) };
    }
    case 'diff': {
      const kept = await exportFor(context, job.of);
      const right = await context.openSource(job.right, signal);
      return { type: 'compared', id: job.id, value: await makeComparison(kept.input, kept.name, right, job.rightName) };
    }
    case 'inspect': {
      const kept = await context.kept(job.of);
      if (kept === undefined) throw new Error(STALE_VERIFICATION);
      return { type: 'inspected', id: job.id, page: await inspectKept(kept, job.request, job.view) };
    }
    case 'disclose': {
      // The bytes that were verified, never a second fetch (which could answer differently).
      const kept = job.of === undefined ? undefined : await context.kept(job.of);
      if (kept === undefined && job.source.type === 'url')
        throw new Error('the verified bundle is no longer held here; verify it again');
      const input = kept?.input ?? (await context.openSource(job.source, signal));
      // Loaded only when a person asks for a subset (docs/zaxy.md, 'Selectors and disclosure': the
      // core builds it).
      const { discloseSubset } = await import('../src/formats/zaxy/disclose.ts');
      const result = await discloseSubset(input, job.indices, {
        signal,
        ...(job.limits === undefined ? {} : { limits: job.limits }),
      });
      if (!result.ok) throw new Error(result.reason);
      return { type: 'disclosed', id: job.id, text: result.json };
    }
  }
}

/**
 * The failure of a job whose verification is no longer held: a newer one replaced its bytes (or
 * its copy could not be kept).
 */
export const STALE_VERIFICATION =
  'this report’s verification is no longer held here (a newer verification replaced its bytes); verify it again';

/** The kept AgentXchain export of verify job `of`, when it passed and was kept whole (`report`, `diff`). */
async function exportFor(context: JobContext, of: number): Promise<KeptInput> {
  const kept = await context.kept(of);
  if (kept === undefined) throw new Error(STALE_VERIFICATION);
  if (kept.format !== 'agentxchain' || kept.overall !== 'pass' || !kept.complete)
    throw new Error('the verified export is not held whole here; verify it again');
  return kept;
}
