/**
 * The main-thread side of the verification worker: starts it lazily, matches replies to jobs,
 * forwards progress, and turns an AbortSignal into a `cancel` message. A worker that does not
 * answer a cancel promptly (stuck in one long synchronous step) is terminated and replaced.
 * @module
 */
import type { Limits } from '../src/limits.ts';
import type { FromWorker, ToWorker, WorkerSource, WorkerVerifyOptions } from './worker-protocol.ts';
import type { Report } from '../src/report.ts';
import type { Comparison, RunReport } from './run-view/types.ts';
import type { InspectPage, InspectRequest } from '../src/inspect/types.ts';

/** How long a cancelled job may take to acknowledge before its worker is terminated. */
const CANCEL_GRACE_MS = 500;

export interface RunOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytesRead: number, totalBytes?: number) => void;
}

export interface VerifierClient {
  /** Verifies in the worker; rejects with an `AbortError` DOMException when `signal` aborts. */
  verify(source: WorkerSource, options: WorkerVerifyOptions, run?: RunOptions): Promise<Report>;
  /**
   * Builds a disclosed Zaxy subset of the entries at `indices`; resolves to its JSON text. With
   * `verified` (a report this client made), the worker reads the bytes it verified, not `source`.
   */
  disclose(
    source: WorkerSource,
    indices: readonly number[],
    limits?: Partial<Limits>,
    run?: RunOptions,
    verified?: Report,
  ): Promise<string>;
  /**
   * A page of view models from the bytes that made `verified` (a report this client made; `view`:
   * the format's view name). Rejects when a newer verification replaced those bytes in the worker
   * (a view left from an earlier report never gets pages of a newer one).
   */
  inspect(verified: Report, request: InspectRequest, view?: string, run?: RunOptions): Promise<InspectPage<unknown>>;
  /**
   * The governance report of an export this client verified (the worker kept it; the last
   * AgentXchain export that passed only). `now` pins the report's clock (ms since the epoch).
   */
  runReport(verified: Report, now?: number, run?: RunOptions): Promise<RunReport>;
  /** The diff of an export this client verified (left) against `right`. */
  compare(verified: Report, right: WorkerSource, rightName: string, run?: RunOptions): Promise<Comparison>;
  /**
   * Starts the worker and has it load what every verification needs, ahead of a verify that is
   * about to come (a person choosing a file). Nothing happens when the worker is already running.
   */
  warm(): void;
  /** Resolves once no job is in flight (cancelled jobs acknowledged or their worker terminated). */
  idle(): Promise<void>;
  /** Terminates the worker; pending jobs reject. */
  dispose(): void;
}

type Answer = Report | string | RunReport | Comparison | InspectPage<unknown>;

interface Job {
  readonly resolve: (value: Answer) => void;
  readonly reject: (error: unknown) => void;
  readonly onProgress?: ((bytesRead: number, totalBytes?: number) => void) | undefined;
  /** Set once the caller gave up; later messages for the job are dropped. */
  cancelled: boolean;
  graceTimer?: ReturnType<typeof setTimeout>;
}

/** The worker's file beside the CDN build's modules (dist/cdn/, see build/cdn.mjs). */
const CDN_WORKER_FILE = './verify-worker.js';

/**
 * Starts the module worker. The literal `new Worker(new URL(…), { type: 'module' })` lets
 * bundlers (Vite, webpack 5) bundle it. A page that loads the element from another origin (the
 * CDN build from a CDN) may not start a worker from that origin (HTML Standard, "Dedicated
 * workers": a worker's URL must be same-origin), so it starts a same-origin `blob:` module that
 * imports the worker from there; its CSP must then allow `worker-src blob:`.
 */
function startWorker(): Worker {
  if (typeof location !== 'undefined' && new URL(import.meta.url).origin !== location.origin) {
    const workerUrl = new URL(CDN_WORKER_FILE, import.meta.url).href;
    const trampoline = new Blob([crossOriginTrampoline(workerUrl)], { type: 'text/javascript' });
    return new Worker(URL.createObjectURL(trampoline), { type: 'module', name: 'verify-export' });
  }
  return new Worker(new URL('./verify-worker.ts', import.meta.url), { type: 'module', name: 'verify-export' });
}

/**
 * The `blob:` worker's source: a dynamic `import()`, which CSP checks against `script-src` (a
 * static import in a module worker is a worker request, checked against `worker-src`); messages
 * that arrive before the worker's own listener exists are held, then handed to it in order.
 */
function crossOriginTrampoline(workerUrl: string): string {
  return `const held = [];
const hold = (event) => held.push(event);
addEventListener('message', hold);
await import(${JSON.stringify(workerUrl)});
removeEventListener('message', hold);
for (const { data } of held) dispatchEvent(new MessageEvent('message', { data }));
`;
}

/**
 * Creates a client owning at most one worker at a time.
 * @example
 * const client = createVerifierClient();
 * const report = await client.verify({ type: 'blob', blob: file }, { name: file.name }, { signal });
 */
export function createVerifierClient(createWorker: () => Worker = startWorker): VerifierClient {
  let worker: Worker | undefined;
  let nextId = 1;
  const jobs = new Map<number, Job>();
  /** The verify job behind each report, so `runReport` and `compare` can name it to the worker. */
  const verifyJobs = new WeakMap<Report, number>();
  let idleWaiters: (() => void)[] = [];

  function settle(id: number): Job | undefined {
    const job = jobs.get(id);
    if (job === undefined) return undefined;
    jobs.delete(id);
    if (job.graceTimer !== undefined) clearTimeout(job.graceTimer);
    if (jobs.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const wake of waiters) wake();
    }
    return job.cancelled ? undefined : job;
  }

  function terminate(reason: unknown): void {
    worker?.terminate();
    worker = undefined;
    for (const id of [...jobs.keys()]) settle(id)?.reject(reason);
  }

  function onMessage(event: MessageEvent<FromWorker>): void {
    const message = event.data;
    if (message.type === 'progress') {
      const job = jobs.get(message.id);
      if (job !== undefined && !job.cancelled) job.onProgress?.(message.bytesRead, message.totalBytes);
      return;
    }
    const job = settle(message.id);
    if (job === undefined) return;
    if (message.type === 'result') {
      verifyJobs.set(message.report, message.id);
      job.resolve(message.report);
    } else if (message.type === 'disclosed') job.resolve(message.text);
    else if (message.type === 'run' || message.type === 'compared') job.resolve(message.value);
    else if (message.type === 'inspected') job.resolve(message.page);
    else job.reject(message.aborted ? abortError() : new Error(message.message));
  }

  function ensureWorker(): Worker {
    if (worker !== undefined) return worker;
    const started = createWorker();
    started.addEventListener('message', onMessage);
    // A worker that fails to load (network, CSP) reports here, not through a message.
    started.addEventListener('error', (event) => {
      event.preventDefault();
      if (worker === started)
        terminate(new Error(`the verification worker failed: ${event.message || 'could not load'}`));
    });
    worker = started;
    return started;
  }

  function submit<T extends Answer>(
    request: Exclude<ToWorker, { readonly type: 'warm' }>,
    transfer: Transferable[],
    run: RunOptions,
  ): Promise<T> {
    const { signal, onProgress } = run;
    if (signal?.aborted) return Promise.reject(abortError());
    const target = ensureWorker();
    return new Promise<T>((resolve, reject) => {
      const job: Job = { resolve: resolve as (value: Answer) => void, reject, onProgress, cancelled: false };
      jobs.set(request.id, job);
      signal?.addEventListener(
        'abort',
        () => {
          if (!jobs.has(request.id) || job.cancelled) return;
          job.cancelled = true;
          reject(abortError());
          target.postMessage({ type: 'cancel', id: request.id } satisfies ToWorker);
          job.graceTimer = setTimeout(() => {
            if (jobs.has(request.id) && worker === target) terminate(abortError());
          }, CANCEL_GRACE_MS);
        },
        { once: true },
      );
      target.postMessage(request, transfer);
    });
  }

  return {
    warm() {
      if (worker === undefined) ensureWorker().postMessage({ type: 'warm' } satisfies ToWorker);
    },
    verify(source, options, run = {}) {
      const id = nextId++;
      return submit<Report>({ type: 'verify', id, source, options }, transferList(source), run);
    },
    disclose(source, indices, limits, run = {}, verified) {
      const id = nextId++;
      const of = verified === undefined ? undefined : verifyJobs.get(verified);
      const request: ToWorker = {
        type: 'disclose',
        id,
        source,
        indices: [...indices],
        ...(limits === undefined ? {} : { limits }),
        ...(of === undefined ? {} : { of }),
      };
      return submit<string>(request, transferList(source), run);
    },
    inspect(verified, request, view, run = {}) {
      const of = verifyJobs.get(verified) ?? 0;
      const message: ToWorker = { type: 'inspect', id: nextId++, of, request, ...(view === undefined ? {} : { view }) };
      return submit<InspectPage<unknown>>(message, [], run);
    },
    runReport(verified, now, run = {}) {
      const request: ToWorker = { type: 'report', id: nextId++, of: verifyJobs.get(verified) ?? 0 };
      return submit<RunReport>(now === undefined ? request : { ...request, now }, [], run);
    },
    compare(verified, right, rightName, run = {}) {
      const request: ToWorker = { type: 'diff', id: nextId++, of: verifyJobs.get(verified) ?? 0, right, rightName };
      return submit<Comparison>(request, transferList(right), run);
    },
    idle() {
      if (jobs.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    dispose() {
      terminate(abortError());
    },
  };
}

function transferList(source: WorkerSource): Transferable[] {
  return source.type === 'bytes' ? [source.buffer] : [];
}

function abortError(): DOMException {
  return new DOMException('verification was cancelled', 'AbortError');
}
