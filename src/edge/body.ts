/**
 * The request body as the core's input stream. The body is attacker-controlled and may be
 * endless, slow, or cut off: it is never buffered here (the core counts and limits it while
 * reading), and a transport failure becomes a `StreamProblem` (`input.unreadable`), which the
 * core reports as a finding instead of an internal error.
 * @module
 */
import { peek } from '../stream/peek.ts';
import { StreamProblem } from '../stream/problem.ts';

/** How long and how much the handler keeps reading an upload it has already answered. */
export interface LingerBudget {
  readonly maxBytes: number;
  readonly maxMs: number;
}

/**
 * The request body, readable by the core, with what the core left unread kept for `linger`.
 * Cancelling `stream` does not cancel the upload: a server that answers (say, 413) and closes
 * while the client is still sending makes the client's TCP stack receive a reset, which throws
 * the answer away (workerd closes so once more than a little is unread). So the rest is read
 * and discarded, within a budget, while the answer goes out, as web servers' "lingering close"
 * does; workerd refuses reads once the answer is complete, hence inside the answer's lifetime.
 */
export class RequestBody {
  readonly stream: ReadableStream<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The core's read in flight, if any: a reader serves one read at a time. */
  #pendingRead: Promise<unknown> = Promise.resolve();
  #ended = false;
  #abandoned = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
    this.stream = new ReadableStream<Uint8Array>({
      pull: (controller) => this.#pull(controller),
      cancel: () => {
        this.#abandoned = true;
      },
    });
  }

  /** True when the core stopped before the end of the upload (an early answer). */
  get unread(): boolean {
    return this.#abandoned && !this.#ended;
  }

  /**
   * Reads and discards the rest of the upload until it ends or `budget` is spent, then cancels
   * it. Never throws: a failing or vanished client simply ends the lingering.
   */
  async linger(budget: LingerBudget): Promise<void> {
    const deadline = Date.now() + budget.maxMs;
    let discarded = 0;
    try {
      if ((await within(this.#pendingRead, budget.maxMs)) === 'timeout') return await this.#cancel();
      while (!this.#ended && discarded <= budget.maxBytes) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        const result = await within(this.#reader.read(), remaining);
        if (result === 'timeout') break;
        if (result.done) this.#ended = true;
        else discarded += result.value.byteLength;
      }
    } catch {
      // The client went away: nothing left to protect.
    }
    await this.#cancel();
  }

  /** Cancels the upload at once (refusals that never read it). */
  async discard(): Promise<void> {
    this.#abandoned = true;
    await this.#cancel();
  }

  async #cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => undefined);
  }

  async #pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    const read = this.#reader.read();
    this.#pendingRead = read.catch(() => undefined);
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await read;
    } catch (error) {
      this.#ended = true;
      const reason = error instanceof Error ? error.message : String(error);
      controller.error(new StreamProblem('input.unreadable', `the request body could not be read: ${reason}`));
      return;
    }
    if (result.done) {
      this.#ended = true;
      if (!this.#abandoned) controller.close();
    } else if (!this.#abandoned) {
      controller.enqueue(result.value);
    }
  }
}

/** `promise`'s value, or 'timeout' after `ms` (a read left pending ends with the reader's cancel). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads the first two bytes of `stream` and tells whether they are the gzip magic `1f 8b`,
 * returning a stream that still yields every byte. Used only when the client declared
 * `Content-Encoding: gzip`, which is then a promise the body must keep.
 */
export async function startsWithGzipMagic(
  stream: ReadableStream<Uint8Array>,
): Promise<{ gzip: boolean; stream: ReadableStream<Uint8Array> }> {
  const peeked = await peek(stream, 2);
  return { gzip: peeked.bytes[0] === 0x1f && peeked.bytes[1] === 0x8b, stream: peeked.stream };
}
