/**
 * The verification worker behind `<verify-export>`: runs the core's `verify` (and, on request,
 * Zaxy's `discloseSubset`) off the main thread, so a 50 MB artifact never freezes the page.
 * Load it as a module worker; the protocol is in `worker-protocol.ts`.
 *
 * The core already imports each format (and ML-DSA) on demand, so this module stays small: a page
 * that verifies an AgentXchain export never fetches the Zaxy or ML-DSA code.
 * @module
 */
import { verify, type AutoVerifyOptions } from '../src/verify.ts';
import type { Limits } from '../src/limits.ts';
import type { VerifyInput } from '../src/stream/input.ts';
import type { FromWorker, ToWorker, WorkerSource, WorkerVerifyOptions } from './worker-protocol.ts';

/** Progress messages are throttled to this interval (the first and the last always go out). */
const PROGRESS_INTERVAL_MS = 50;

/** The worker global, typed for what this module uses (the project compiles with DOM types). */
const scope = self as unknown as {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
};

/** Running jobs, so a `cancel` message can abort the core through its AbortSignal. */
const running = new Map<number, AbortController>();

scope.addEventListener('message', (event) => {
  const message = event.data;
  switch (message.type) {
    case 'verify':
      void runVerify(message.id, message.source, message.options);
      break;
    case 'disclose':
      void runDisclose(message.id, message.source, message.indices, message.limits);
      break;
    case 'cancel':
      running.get(message.id)?.abort();
      break;
  }
});

async function runVerify(id: number, source: WorkerSource, options: WorkerVerifyOptions): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  let lastProgressAt = -Infinity;
  try {
    const input = await openSource(source, controller.signal);
    const report = await verify(input, {
      ...coreOptions(options),
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
      scope.postMessage({ type: 'result', id, report });
    }
  } catch (error) {
    scope.postMessage({ type: 'failure', id, message: describe(error), aborted: controller.signal.aborted });
  } finally {
    running.delete(id);
  }
}

async function runDisclose(
  id: number,
  source: WorkerSource,
  indices: readonly number[],
  limits?: Partial<Limits>,
): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const input = await openSource(source, controller.signal);
    // Loaded only when a person asks for a subset (docs/zaxy.md, 'Selectors and disclosure': the
    // core builds it).
    const { discloseSubset } = await import('../src/formats/zaxy/disclose.ts');
    const result = await discloseSubset(input, indices, {
      signal: controller.signal,
      ...(limits === undefined ? {} : { limits }),
    });
    if (!result.ok) throw new Error(result.reason);
    scope.postMessage({ type: 'disclosed', id, text: result.json });
  } catch (error) {
    scope.postMessage({ type: 'failure', id, message: describe(error), aborted: controller.signal.aborted });
  } finally {
    running.delete(id);
  }
}

function coreOptions(options: WorkerVerifyOptions): AutoVerifyOptions {
  return {
    ...(options.kind === undefined ? {} : { kind: options.kind }),
    ...(options.expectPublicKey === undefined ? {} : { expectPublicKey: options.expectPublicKey }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.name === undefined ? {} : { name: options.name }),
  };
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
