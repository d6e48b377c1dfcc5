/**
 * A thread of the CLI's pool (pool.ts): verifies the files it is sent, one at a time, and
 * answers each with its outcome; sends how many bytes it has read, while reading, when asked to.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { verifyFile } from './verify-file.ts';
import type { PoolAnswer, PoolJob } from './pool-job.ts';

/** Progress messages are sent at most this often (the bar redraws ten times a second). */
const PROGRESS_INTERVAL_MS = 100;

const port = parentPort!;
port.on('message', (job: PoolJob) => {
  let sent = 0;
  const onProgress = (bytes: number): void => {
    const now = performance.now();
    if (now - sent < PROGRESS_INTERVAL_MS) return;
    sent = now;
    port.postMessage({ id: job.id, bytes } satisfies PoolAnswer);
  };
  verifyFile(job.label, job.options, {
    ...(job.timeoutMs === undefined ? {} : { timeoutMs: job.timeoutMs }),
    ...(job.progress ? { onProgress } : {}),
  }).then(
    (outcome) => port.postMessage({ id: job.id, outcome } satisfies PoolAnswer),
    (error: unknown) =>
      port.postMessage({
        id: job.id,
        failure: error instanceof Error ? error.message : String(error),
        ...(error instanceof Error && error.stack !== undefined ? { stack: error.stack } : {}),
      } satisfies PoolAnswer),
  );
});
