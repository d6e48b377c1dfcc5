/**
 * Web Streams from push-style cores (docs/architecture.md, 'Streams and gzip'): a core consumes a
 * chunk and emits output through a callback; `streamFromPushCore` makes it a `{ writable, readable }`
 * pair. The decompressors (`gunzip/`) are built this way.
 * @module
 */
import { isStreamProblem } from './problem.ts';

/**
 * A pair of streams (the DOM library's `ReadableWritablePair`, spelled so that a project typed
 * with Node's types only can read these declarations).
 */
export interface StreamPair {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}

/**
 * A push-style decoder: `push` consumes a prefix of `chunk` and returns how many bytes it took
 * (0 only while it works through bytes it held back), emitting output through the callback it was
 * created with; `finish` is called once at end of input. Both throw (or reject with) a
 * `StreamProblem` on bad data.
 */
export interface PushCore {
  push(chunk: Uint8Array): number | Promise<number>;
  finish(): void | Promise<void>;
  /** Frees resources after a problem or a cancel (optional). */
  destroy?(): void;
}

/** Decompressed bytes read ahead of the consumer (lets a native inflater work in parallel). */
const READ_AHEAD_BYTES = 1 << 20;

/**
 * Wraps a push-style core as a `{ writable, readable }` pair for `pipeThrough`. Unlike a plain
 * `TransformStream`, which drops queued output when it errors, a problem is delivered only after
 * every byte decoded before it was read, so the lines before a damaged gzip trailer are still
 * verified. Up to `READ_AHEAD_BYTES` of output are produced ahead of the reader, so an
 * asynchronous core (node:zlib on the thread pool) inflates while the reader parses.
 * @example
 * const pair = streamFromPushCore((emit) => createGunzipCore({ limits }, emit));
 * const text = await new Response(gzipped.pipeThrough(pair)).text();
 */
export function streamFromPushCore(create: (emit: (bytes: Uint8Array) => void) => PushCore): StreamPair {
  const inbox = new TransformStream<Uint8Array, Uint8Array>();
  const reader = inbox.readable.getReader();
  const queue: Uint8Array[] = [];
  const core = create((bytes) => {
    if (bytes.byteLength > 0) queue.push(bytes);
  });
  let pending: Uint8Array | undefined;
  let problem: unknown;
  let ended = false;

  let drained: Promise<void> | undefined;
  const fail = (error: unknown): void => {
    problem = error;
    core.destroy?.();
    if (isStreamProblem(error) && error.code.startsWith('gzip.')) {
      // Damaged container: read (not inflate) the rest, so the bytes-read count is the file's size
      // and does not depend on where chunks happened to end. Limits and aborts stop at once.
      drained = (async () => {
        try {
          while (!(await reader.read()).done);
        } catch {
          // the source's own problem (abort, input limit) ends the drain
        }
      })();
    } else {
      reader.cancel(error).catch(() => undefined);
    }
  };

  const readable = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (queue.length === 0) {
          if (problem !== undefined) {
            // Error only once the reader has taken everything queued before the problem.
            if ((controller.desiredSize ?? 0) >= READ_AHEAD_BYTES) {
              await drained;
              controller.error(problem);
            }
            return;
          }
          if (ended) {
            controller.close();
            return;
          }
          try {
            if (pending === undefined || pending.byteLength === 0) {
              const result = await reader.read();
              if (result.done) {
                ended = true;
                await core.finish();
                continue;
              }
              pending = result.value;
              continue;
            }
            const taken = await core.push(pending);
            pending = pending.subarray(taken);
          } catch (error) {
            fail(error);
          }
        }
        for (const bytes of queue) controller.enqueue(bytes);
        queue.length = 0;
      },
      async cancel(reason) {
        core.destroy?.();
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: READ_AHEAD_BYTES, size: (chunk) => chunk.byteLength },
  );
  return { writable: inbox.writable, readable };
}
