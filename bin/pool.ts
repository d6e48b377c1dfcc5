/**
 * Verifies many inputs at once: `jobs` worker threads, each verifying one file at a time, so at
 * most `jobs` verifications hold memory together (each within the limits' bounds). Standard
 * input is read on the main thread; one job, or one file, runs there too (no thread to start).
 * @module
 */
import { Worker } from 'node:worker_threads';
import type { InputTarget } from './inputs.ts';
import type { PoolAnswer, PoolJob } from './pool-job.ts';
import { type Outcome, type PlainVerifyOptions, verifyFile } from './verify-file.ts';

export interface PoolOptions {
  readonly jobs: number;
  readonly options: PlainVerifyOptions;
  readonly timeoutMs?: number;
  /** Source bytes read so far by the input at `index` (only given when progress is drawn). */
  readonly onProgress?: (index: number, bytesRead: number) => void;
  /** The input at `index` is done; called once per input, in the order they finish. */
  readonly onOutcome: (index: number, outcome: Outcome) => void;
}

/** Verifies every target (see the module); resolves once all are done. */
export async function verifyAll(targets: readonly InputTarget[], pool: PoolOptions): Promise<void> {
  const files: number[] = [];
  const local: Promise<void>[] = [];
  const runHere = (index: number, label: string): Promise<void> =>
    verifyFile(label, pool.options, {
      ...(pool.timeoutMs === undefined ? {} : { timeoutMs: pool.timeoutMs }),
      ...(pool.onProgress ? { onProgress: (bytes: number) => pool.onProgress!(index, bytes) } : {}),
    }).then(
      (outcome) => pool.onOutcome(index, outcome),
      (error: unknown) => pool.onOutcome(index, internalError(label, error)),
    );
  targets.forEach((target, index) => {
    if (target.kind === 'failed') pool.onOutcome(index, { label: target.label, unreadable: target.message });
    else if (target.kind === 'stdin') local.push(runHere(index, 'stdin'));
    else files.push(index);
  });
  if (pool.jobs <= 1 || files.length <= 1) {
    for (const index of files) await runHere(index, targets[index]!.label);
  } else {
    await runOnThreads(
      files.map((index) => ({ index, label: targets[index]!.label })),
      pool,
    );
  }
  await Promise.all(local);
}

/** Runs `files` on min(jobs, files) worker threads, each taking the next file when it is done. */
async function runOnThreads(files: readonly { index: number; label: string }[], pool: PoolOptions): Promise<void> {
  let next = 0;
  const thread = async (): Promise<void> => {
    if (next >= files.length) return;
    let worker = startWorker();
    try {
      while (next < files.length) {
        const { index, label } = files[next++]!;
        const job: PoolJob = {
          id: index,
          label,
          options: pool.options,
          ...(pool.timeoutMs === undefined ? {} : { timeoutMs: pool.timeoutMs }),
          progress: pool.onProgress !== undefined,
        };
        let outcome: Outcome;
        try {
          outcome = await ask(worker, job, (bytes) => pool.onProgress?.(index, bytes));
        } catch (error) {
          outcome = internalError(label, error);
          await worker.terminate();
          worker = startWorker();
        }
        pool.onOutcome(index, outcome);
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(pool.jobs, files.length) }, thread));
}

/**
 * The kit failed on one input (a bug): that input is an error, with the stack on stderr for the
 * user to report, and the others are still verified.
 */
function internalError(label: string, error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `verify-export: internal error on ${label}: ${error instanceof Error ? (error.stack ?? message) : message}\n`,
  );
  return { label, unreadable: `internal error: ${message}` };
}

/** A verifying thread: bundled, dist/pool-worker.js beside dist/cli.js; from source, through tsx. */
function startWorker(): Worker {
  const file = import.meta.url.endsWith('.ts') ? './pool-worker-source.mjs' : './pool-worker.js';
  return new Worker(new URL(file, import.meta.url));
}

/** Sends one job to `worker` and waits for its outcome. */
function ask(worker: Worker, job: PoolJob, onBytes: (bytes: number) => void): Promise<Outcome> {
  return new Promise<Outcome>((resolve, reject) => {
    const onMessage = (answer: PoolAnswer): void => {
      if (answer.id !== job.id) return;
      if ('bytes' in answer) return onBytes(answer.bytes);
      done();
      if ('outcome' in answer) resolve(answer.outcome);
      else reject(Object.assign(new Error(answer.failure), answer.stack === undefined ? {} : { stack: answer.stack }));
    };
    const onError = (error: unknown): void => (done(), reject(error));
    const onExit = (code: number): void => (done(), reject(new Error(`a verifying thread exited (code ${code})`)));
    const done = (): void => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job);
  });
}
