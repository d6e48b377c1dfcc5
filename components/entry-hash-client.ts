/**
 * The verification worker's side of the entry-hashing worker (`entry-hash-worker.ts`): an
 * `EntryHasherFactory` (ZaxyOptions.entryHasher) whose batches are hashed there, on the machine's
 * other core, while this worker goes on parsing. It is what the CLI's `nodeEntryHasher`
 * (bin/node-sha256.ts) is to a worker thread.
 *
 * The helper starts at the first batch: the core hashes a bundle of less than one batch in place
 * and never calls it. Until the helper says it is ready, batches are kept here (copied: the core
 * reuses the buffers it passes) and sent once it is; if it cannot start (no module workers, a
 * Content-Security-Policy that refuses it, no WebAssembly there) they, and every later one, are
 * handed back to the core (`DeclinedBatch`), which hashes them in place: the report is the same.
 * So are they when it has not said it is ready within `readyTimeoutMs` (a worker script that never
 * loads, a host that starts workers but never runs them): a verification never waits on it.
 * A helper that fails after it started has folded leaves this worker no longer has: the batches
 * still waiting fail, so the core reports a kit error, never a verdict. One helper serves one
 * verification after another (each `entries` array is a session of its own).
 *
 * A batch's bytes are copied once here, into a buffer of their own, and that buffer is transferred,
 * not cloned: a structured clone copies the whole buffer behind a view (the core's is larger than
 * the batch) and the copy is paid again on the helper's side. The core's own buffers are never
 * transferred (it reuses them). Measured in Chromium, the 100k-entry bundle .gz with a new helper,
 * 6 paired pages: 599 → 565 ms. Detaching a buffer once was feared to make V8 check every later
 * typed-array access for detachment (the CLI measured its parser twice as slow in Node 20, so
 * `bin/node-sha256.ts` still clones): in Chromium, after one detach, verifying the AgentXchain
 * export (176 vs 176 ms) and the Zaxy bundle in place (722 vs 729 ms) took the same time.
 *
 * The helper moves each batch's buffer back with its answer, and a later batch is copied into it:
 * no new buffer (and no first touch of its pages) per batch. The built demo, the 100k-entry
 * bundle .gz chosen after the click, paired: 18, 21 and 17 ms less (16, 20 and 16 pairs). The
 * batch's other arrays are small and still cloned: packing them into the moved buffer as well
 * (views of it) was slower, 45–60 ms more, for reasons not found.
 * @module
 */
import type { DeclinedBatch, EntryHasher, EntryHasherFactory, Mismatches } from '../src/formats/zaxy/entry-hashes.ts';
import type { FromEntryHashWorker, ToEntryHashWorker } from './helper-protocol.ts';

type Answer = Mismatches | DeclinedBatch | Uint8Array | undefined;

/** A request not answered yet. */
interface Waiting {
  /** The request, kept (with its own copies) until the helper is ready; then sent. */
  kept: ToEntryHashWorker | undefined;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: unknown) => void;
}

/** An `EntryHasherFactory` on a helper worker, which may serve one verification after another. */
export interface EntryHashHelper {
  readonly factory: EntryHasherFactory;
  /** Batches hashed on the helper so far. */
  hashed(): number;
  /** Whether it can take another verification's batches: none waiting, and it has not failed. */
  reusable(): boolean;
  /** Terminates the helper; requests still waiting fail. */
  close(): void;
}

/**
 * How long a helper may take to say it is ready before its batches are hashed in place instead: it
 * is usually ready in tens of milliseconds (its module and WebAssembly are fetched and compiled),
 * and hashing in place only costs time, never a different report.
 */
export const HELPER_READY_TIMEOUT_MS = 5_000;

/**
 * Hashes entries on the worker `start` returns, started at the first batch.
 * @example
 * const url = new URL('./entry-hash-worker.ts', import.meta.url);
 * const helper = entryHashHelper(() => new Worker(url, { type: 'module' }));
 * const report = await verify(input, { entryHasher: helper.factory });
 * helper.close();
 */
export function entryHashHelper(
  start: () => Worker,
  { readyTimeoutMs = HELPER_READY_TIMEOUT_MS }: { readonly readyTimeoutMs?: number } = {},
): EntryHashHelper {
  let worker: Worker | undefined;
  /** `starting` until the helper's first message; `declining` once it could not start. */
  let state: 'idle' | 'starting' | 'ready' | 'declining' | 'broken' = 'idle';
  const waiting: Waiting[] = [];
  let hashed = 0;
  let sessions = 0;
  /** Buffers the helper moved back with its answers (`spare`): the next batches are copied into them. */
  const spares: ArrayBuffer[] = [];

  let readyTimer: ReturnType<typeof setTimeout> | undefined;

  const stop = (next: 'declining' | 'broken'): void => {
    clearTimeout(readyTimer);
    state = next;
    worker?.terminate();
    worker = undefined;
  };

  /** The helper could not start: what it was to hash goes back to the core, hashed there. */
  const decline = (): void => {
    stop('declining');
    for (const { kept, resolve } of waiting.splice(0)) resolve(declined(kept!));
  };

  const fail = (error: unknown): void => {
    stop('broken');
    for (const request of waiting.splice(0)) request.reject(error);
  };

  /** Posts a request whose `data`, if any, is this client's own copy: its buffer is moved. */
  const send = (request: ToEntryHashWorker): void => {
    if (request.kind === 'add') worker!.postMessage(request, [request.data.buffer]);
    else worker!.postMessage(request);
  };

  const onMessage = (event: MessageEvent<FromEntryHashWorker>): void => {
    const message = event.data;
    if (message.kind === 'ready') {
      if (state !== 'starting') return;
      clearTimeout(readyTimer);
      state = 'ready';
      for (const request of waiting) {
        send(request.kept!);
        request.kept = undefined;
      }
    } else if (message.kind === 'unavailable') decline();
    else {
      const request = waiting.shift();
      if (message.kind === 'failed') request?.reject(new Error(`the entry-hashing worker failed: ${message.message}`));
      else if (message.kind === 'added') {
        hashed++;
        if (spares.length < MAX_SPARES) spares.push(message.spare);
        request?.resolve({ mismatched: message.mismatched, ids: message.ids });
      } else request?.resolve(message.root);
    }
  };

  const spawn = (): void => {
    try {
      const started = start();
      const onError = (event: Event): void => {
        event.preventDefault();
        if (started !== worker) return;
        if (state === 'starting') decline();
        else fail(new Error(`the entry-hashing worker failed: ${(event as ErrorEvent).message || 'it stopped'}`));
      };
      started.addEventListener('message', onMessage);
      started.addEventListener('error', onError);
      started.addEventListener('messageerror', onError);
      worker = started;
      state = 'starting';
      readyTimer = setTimeout(() => {
        if (started === worker && state === 'starting') decline();
      }, readyTimeoutMs);
    } catch {
      state = 'declining';
    }
  };

  /**
   * A batch's bytes copied into a buffer of this client's own: one the helper moved back, when one
   * is large enough, else a new one with room for a somewhat larger batch (batches end one entry
   * past the batch size).
   */
  const copyData = (data: Uint8Array): Uint8Array => {
    const size = data.byteLength;
    const found = spares.findIndex((spare) => spare.byteLength >= size);
    const buffer = found === -1 ? new ArrayBuffer(size + (size >> 3)) : spares.splice(found, 1)[0]!;
    const copy = new Uint8Array(buffer, 0, size);
    copy.set(data);
    return copy;
  };

  const ask = (request: ToEntryHashWorker): Promise<Answer> => {
    if (state === 'idle') spawn();
    if (state === 'declining') return Promise.resolve(declined(copyOf(request)));
    if (state === 'broken') return Promise.reject(new Error('the entry-hashing worker was stopped'));
    const ready = state === 'ready';
    return new Promise<Answer>((resolve, reject) => {
      // Kept (copied: the core reuses its buffers) until the helper is ready.
      waiting.push({ kept: ready ? undefined : copyOf(request), resolve, reject });
      if (ready) send(request.kind === 'add' ? { ...request, data: copyData(request.data) } : request);
    });
  };

  return {
    factory(): EntryHasher {
      const session = sessions++;
      return {
        add: (data, starts, ends, claims, claimed) =>
          ask({ kind: 'add', session, data, starts, ends, claims, claimed }) as Promise<Mismatches | DeclinedBatch>,
        root: () => ask({ kind: 'root', session }) as Promise<Uint8Array | undefined>,
      };
    },
    hashed: () => hashed,
    reusable: () => waiting.length === 0 && state !== 'broken',
    close: () => fail(new Error('the entry-hashing worker was stopped')),
  };
}

/** Buffers moved back and kept for the next batches: more than are ever out at once. */
const MAX_SPARES = 4;

/** Copies of a request's arrays (the core writes the next batch into the ones it passed). */
function copyOf(request: ToEntryHashWorker): ToEntryHashWorker {
  if (request.kind === 'root') return request;
  const count = request.starts.length;
  return {
    ...request,
    data: request.data.slice(),
    starts: request.starts.slice(),
    ends: request.ends.slice(),
    claims: request.claims.slice(0, 64 * count),
    claimed: request.claimed.slice(0, count),
  };
}

/**
 * A kept request handed back to the core (`DeclinedBatch`), which hashes it in place; a root is
 * not asked for once every batch was declined, so there is none to answer.
 */
function declined(request: ToEntryHashWorker): Answer {
  if (request.kind === 'root') return undefined;
  const { data, starts, ends, claims, claimed } = request;
  return { declined: true, data, starts, ends, claims, claimed };
}
