/**
 * Fuzz worker thread: builds and checks cases one at a time on request, so the parent can stop
 * a case that never returns (a hang in synchronous code) by terminating this thread.
 * @module
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { generateCase, type CaseOptions, type FuzzCase } from './case.ts';
import { checkCase, workSize } from './execute.ts';

export type Job =
  | {
      readonly kind: 'generate';
      readonly seed: number;
      readonly index: number;
      readonly options: CaseOptions;
      readonly differentials: boolean;
    }
  | { readonly kind: 'case'; readonly case: FuzzCase; readonly differentials: boolean };

export type WorkerMessage =
  | { readonly type: 'ready'; readonly id: -1 }
  | { readonly type: 'started'; readonly id: number; readonly bytes: number; readonly format: string }
  | {
      readonly type: 'result';
      readonly id: number;
      readonly result: Awaited<ReturnType<typeof checkCase>>;
      readonly steps: readonly string[];
      readonly file: string;
      readonly format: string;
      readonly heapAfterGc?: number;
    }
  | { readonly type: 'broken'; readonly id: number; readonly error: string };

const port = parentPort;
if (!port) throw new Error('worker.ts runs as a worker thread');
let done = 0;
// A GC handle for the leak check (workers may not be started with --expose-gc).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (() => void) | undefined;

port.postMessage({ type: 'ready', id: -1 } satisfies WorkerMessage);
port.on('message', (message: { id: number; job: Job }) => {
  void (async () => {
    const { id, job } = message;
    let c: FuzzCase;
    try {
      c = job.kind === 'generate' ? generateCase(job.seed, job.index, job.options) : job.case;
    } catch (error) {
      port.postMessage({
        type: 'broken',
        id,
        error: `case generation failed: ${(error as Error).stack ?? String(error)}`,
      } satisfies WorkerMessage);
      return;
    }
    port.postMessage({ type: 'started', id, bytes: workSize(c.bytes), format: c.format } satisfies WorkerMessage);
    try {
      const result = await checkCase(c, { differentials: job.differentials });
      done++;
      let heapAfterGc: number | undefined;
      if (gc && done % 500 === 0) {
        gc();
        heapAfterGc = getHeapStatistics().used_heap_size;
      }
      port.postMessage({
        type: 'result',
        id,
        result,
        steps: c.steps,
        file: c.file,
        format: c.format,
        ...(heapAfterGc !== undefined ? { heapAfterGc } : {}),
      } satisfies WorkerMessage);
    } catch (error) {
      // An oracle itself failed: a harness bug, never to be mistaken for a kit result.
      port.postMessage({
        type: 'broken',
        id,
        error: `harness error: ${(error as Error).stack ?? String(error)}`,
      } satisfies WorkerMessage);
    }
  })();
});
