/**
 * Runs fuzz jobs on worker threads and turns what a worker cannot report itself into failures:
 * a case that outlives its hard time limit (the thread is terminated: a hang), a thread killed for
 * memory (heap), or a thread that dies (escape). Workers are replaced and the run goes on.
 * @module
 */
import { Worker } from 'node:worker_threads';
import type { CaseResult, Failure } from './execute.ts';
import { budgetMs } from './execute.ts';
import type { Job, WorkerMessage } from './worker.ts';

export interface JobOutcome {
  readonly id: number;
  readonly job: Job;
  readonly result?: CaseResult;
  /** Failures the pool observed (hang, memory, crash) when the worker could not answer. */
  readonly poolFailure?: Failure;
  /** The harness itself failed on this job. */
  readonly harnessError?: string;
  readonly steps?: readonly string[];
  readonly format?: string;
  readonly file?: string;
  readonly heapAfterGc?: number;
}

export interface PoolOptions {
  readonly jobs: number;
  /** Worker heap cap: exceeding it kills the worker and counts as a heap failure. */
  readonly maxOldGenerationSizeMb?: number;
}

const WORKER_URL = new URL('./worker-bootstrap.mjs', import.meta.url);

/**
 * Runs every job of `source` (pulled lazily), calling `onOutcome` in completion order.
 * @example
 * await runPool(jobsFor(1, 100), { jobs: 2 }, (outcome) => console.log(outcome.id));
 */
export async function runPool(
  source: Iterator<Job>,
  options: PoolOptions,
  onOutcome: (outcome: JobOutcome) => void,
): Promise<void> {
  let nextId = 0;
  let exhausted = false;
  const take = (): { id: number; job: Job } | undefined => {
    if (exhausted) return undefined;
    const next = source.next();
    if (next.done) {
      exhausted = true;
      return undefined;
    }
    return { id: nextId++, job: next.value };
  };

  const lane = async (): Promise<void> => {
    let worker: Worker | undefined;
    let current: { id: number; job: Job } | undefined;
    const spawn = async (): Promise<Worker> => {
      const w = new Worker(WORKER_URL, {
        // The source, as the main process runs it (`npm run fuzz`), not whatever dist/ holds.
        execArgv: ['--conditions=verify-export-source'],
        resourceLimits: { maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 3072 },
      });
      // A worker that cannot even start is a harness problem, not a finding about the kit.
      // (Listeners are removed one by one: removeAllListeners() would also drop the Worker's own
      // newListener hooks, and later 'message' listeners would never hear anything.)
      let onMessage: ((message: WorkerMessage) => void) | undefined;
      let onError: ((error: Error) => void) | undefined;
      await new Promise<void>((resolve, reject) => {
        onMessage = (message) => (message.type === 'ready' ? resolve() : reject(new Error('worker did not start')));
        onError = (error) => reject(new Error(`fuzz worker failed to start: ${error.message}`));
        w.once('message', onMessage);
        w.once('error', onError);
      });
      w.off('message', onMessage!);
      w.off('error', onError!);
      return w;
    };
    for (;;) {
      current = take();
      if (!current) break;
      worker ??= await spawn();
      const job = current;
      const outcome = await new Promise<JobOutcome>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const w = worker!;
        const finish = (value: JobOutcome, kill: boolean): void => {
          clearTimeout(timer);
          w.off('message', onMessage);
          w.off('error', onError);
          w.off('exit', onExit);
          if (kill) {
            void w.terminate();
            worker = undefined;
          }
          resolve(value);
        };
        // Until the worker says how much work the case is, allow two minutes to build it.
        const arm = (bytes: number | undefined): void => {
          clearTimeout(timer);
          // the case and up to two differential runs
          const limit = bytes === undefined ? 120_000 : 3 * budgetMs(bytes) + 15_000;
          timer = setTimeout(
            () =>
              finish(
                bytes === undefined
                  ? // Still building the case: the harness hung, not the kit.
                    {
                      id: job.id,
                      job: job.job,
                      harnessError: `building the case took over ${limit} ms: worker terminated`,
                    }
                  : {
                      id: job.id,
                      job: job.job,
                      poolFailure: { oracle: 'hang', detail: `no answer after ${limit} ms: worker terminated` },
                    },
                true,
              ),
            limit,
          );
        };
        arm(undefined);
        const onMessage = (message: WorkerMessage): void => {
          if (message.id !== job.id) return;
          if (message.type === 'started') arm(message.bytes);
          else if (message.type === 'result')
            finish(
              {
                id: job.id,
                job: job.job,
                result: message.result,
                steps: message.steps,
                format: message.format,
                file: message.file,
                ...(message.heapAfterGc !== undefined ? { heapAfterGc: message.heapAfterGc } : {}),
              },
              false,
            );
          else if (message.type === 'broken') finish({ id: job.id, job: job.job, harnessError: message.error }, false);
        };
        const onError = (error: Error & { code?: string }): void => {
          const oracle = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'heap' : 'escape';
          finish(
            {
              id: job.id,
              job: job.job,
              poolFailure: { oracle, detail: `worker died: ${error.code ?? ''} ${error.message}` },
            },
            true,
          );
        };
        const onExit = (code: number): void =>
          finish(
            { id: job.id, job: job.job, poolFailure: { oracle: 'escape', detail: `worker exited with code ${code}` } },
            true,
          );
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', onExit);
        w.postMessage(job);
      });
      onOutcome(outcome);
    }
    if (worker) await worker.terminate();
  };
  await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, lane));
}
