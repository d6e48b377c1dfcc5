/**
 * The verification worker behind `<verify-export>`: runs the core's `verify` off the main thread,
 * so a 50 MB artifact never freezes the page. Load it as a module worker; the protocol is in
 * `worker-protocol.ts`.
 *
 * The core already imports each format (and ML-DSA) on demand, so this module stays small: a page
 * that verifies an AgentXchain export never fetches the Zaxy or ML-DSA code. Every other job (the
 * governance report and the export diff of the Run and Compare tabs, the views' `inspect` pages, a
 * Zaxy subset) is in `worker-jobs.ts`, imported when the first such job arrives; they read the
 * input this worker kept from its verification (`verified-bytes.ts`). For a large input, a helper
 * worker on the machine's other core may take work off this one (`helper-threads.ts`).
 * @module
 */
import { verify, type AutoVerifyOptions } from '../src/verify.ts';
import type { VerifyInput } from '../src/stream/input.ts';
import { resolveLimits } from '../src/limits.ts';
import { resolveSha256 } from '../src/verifier-lifecycle.ts';
import { keepWhileVerifying, type KeptInput, type Keeping } from './verified-bytes.ts';
import type { FromWorker, ToWorker, WorkerSource, WorkerVerifyOptions } from './worker-protocol.ts';
import type { JobContext, OtherJob } from './worker-jobs.ts';
import type { Helpers } from './helper-threads.ts';

/** Progress messages are throttled to this interval (the first and the last always go out). */
const PROGRESS_INTERVAL_MS = 50;

/**
 * Inputs from this size on may get a helper worker (`helper-threads.ts` decides, and has the
 * measurements); a smaller one, even gzipped, is verified before a helper could start.
 */
const HELPERS_FROM_BYTES = 512 << 10;

/** The worker global, typed for what this module uses (the project compiles with DOM types). */
const scope = self as unknown as {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
};

/** Running jobs, so a `cancel` message can abort the core through its AbortSignal. */
const running = new Map<number, AbortController>();

/**
 * The input the last verification read (`verified-bytes.ts`), for the `report`, `diff`, `disclose` and
 * `inspect` jobs that name its verify job (`of`). The copy of a fetched body may still be arriving.
 */
let held: { readonly of: number; readonly kept: Promise<KeptInput | undefined> } | undefined;

scope.addEventListener('message', (event) => {
  const message = event.data;
  switch (message.type) {
    case 'verify':
      void runVerify(message.id, message.source, message.options);
      break;
    case 'cancel':
      running.get(message.id)?.abort();
      break;
    case 'warm':
      // Loaded once and kept, so that the verify to come starts at once: the SHA-256 (a host that
      // refuses it gets kit.sha256_unavailable at the verify), then what a .gz and a large input
      // load first, the decompressor and the helper module.
      void Promise.allSettled([
        resolveSha256({}),
        import('../src/stream/gunzip/index.ts'),
        import('./helper-threads.ts'),
      ]);
      break;
    default:
      void runOther(message);
  }
});

async function runVerify(id: number, source: WorkerSource, options: WorkerVerifyOptions): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  let lastProgressAt = -Infinity;
  held = undefined;
  let keeping: Keeping | undefined;
  let helpers: Helpers | undefined;
  try {
    // A fetched body is read once: a copy is kept while it streams into the verifier.
    keeping = keepWhileVerifying(await openSource(source, controller.signal), options.limits);
    const input = keeping.input;
    // Helper workers where they can be started: when asked for, or for a large Blob or bytes.
    const size = (input as Blob).size ?? (input as Uint8Array).byteLength;
    if (typeof Worker == 'function' && (options.helpers ?? size >= HELPERS_FROM_BYTES))
      helpers = await (await import('./helper-threads.ts')).startHelpers(input, options.helpers);
    const report = await verify(input, {
      ...coreOptions(options),
      ...helpers?.options,
      signal: controller.signal,
      onProgress(bytesRead, totalBytes) {
        const now = performance.now();
        if (now - lastProgressAt < PROGRESS_INTERVAL_MS && bytesRead !== totalBytes) return;
        lastProgressAt = now;
        scope.postMessage({ type: 'progress', id, bytesRead, ...(totalBytes === undefined ? {} : { totalBytes }) });
      },
    });
    if (controller.signal.aborted) {
      scope.postMessage({ type: 'failure', id, message: 'verification was cancelled', aborted: true });
    } else {
      const from = keeping;
      held = {
        of: id,
        kept: from.kept().then((kept) =>
          kept === undefined
            ? undefined
            : {
                of: id,
                input: kept.input,
                name: options.name,
                format: report.format,
                overall: report.overall,
                complete: kept.complete,
                limits: resolveLimits(options.limits),
              },
        ),
      };
      scope.postMessage({ type: 'result', id, report, helpers: helpers?.used() });
      return;
    }
    keeping.stop();
  } catch (error) {
    keeping?.stop();
    scope.postMessage({ type: 'failure', id, message: describe(error), aborted: controller.signal.aborted });
  } finally {
    helpers?.close();
    running.delete(id);
  }
}

/** What the other jobs read: the input verify job `of` kept, while it is the last verification. */
const context: JobContext = {
  async kept(of) {
    return held !== undefined && held.of === of ? held.kept : undefined;
  },
  openSource,
};

/** Runs a `report`, `diff`, `inspect` or `disclose` job (`worker-jobs.ts`): one answer, or a `failure`. */
async function runOther(job: OtherJob): Promise<void> {
  const controller = new AbortController();
  running.set(job.id, controller);
  try {
    const { runJob } = await import('./worker-jobs.ts');
    scope.postMessage(await runJob(job, context, controller.signal));
  } catch (error) {
    scope.postMessage({ type: 'failure', id: job.id, message: describe(error), aborted: controller.signal.aborted });
  } finally {
    running.delete(job.id);
  }
}

/** The core's options among the worker's: every one but the choice of helpers. */
function coreOptions({ helpers: _helpers, ...core }: WorkerVerifyOptions): AutoVerifyOptions {
  return core;
}

async function openSource(source: WorkerSource, signal: AbortSignal): Promise<VerifyInput> {
  switch (source.type) {
    case 'blob':
      return source.blob;
    case 'bytes':
      return new Uint8Array(source.buffer);
    case 'url': {
      const response = await fetch(source.url, { signal });
      if (!response.ok) throw new Error(`could not fetch ${source.url}: HTTP ${response.status}`);
      return response;
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
  return String(error);
}
