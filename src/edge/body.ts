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
 * An answer given before the upload ended (a refusal before reading, a limit mid-body) must not
 * close the connection while the client is still sending: the client's TCP stack then receives a
 * reset, which throws the answer away ("write EPIPE" / "connection reset" in the client). Hosts
 * read on for only a little: workerd's HTTP server (Cap'n Proto's KJ HTTP, `HttpServerSettings`
 * `canceledUploadGraceBytes`, 64 KiB, and `canceledUploadGracePeriod`, 1 s) and Deno's hyper close
 * once the handler stopped reading. So the rest is read and discarded here, within a budget, while
 * the answer goes out, as web servers' "lingering close" does (nginx `lingering_close`); workerd
 * refuses reads once the answer is complete, hence inside the answer's lifetime.
 */
export class RequestBody {
  readonly stream: ReadableStream<Uint8Array>;
  readonly #reader: BodyReader;
  /** The core's read in flight, if any: a reader serves one read at a time. */
  #pendingRead: Promise<unknown> = Promise.resolve();
  #ended = false;
  #abandoned = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = bodyReader(body);
    this.stream = new ReadableStream<Uint8Array>({
      pull: (controller) => this.#pull(controller),
      cancel: () => {
        this.#abandoned = true;
      },
    });
  }

  /** True until the end of the upload was read: the answer is then an early one, which must linger. */
  get unread(): boolean {
    return !this.#ended;
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
      while (!this.#ended && discarded < budget.maxBytes) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        const result = await within(this.#reader.read(), remaining);
        if (result === 'timeout') break;
        if (result === undefined) this.#ended = true;
        else discarded += result.byteLength;
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
    let result: Uint8Array | undefined;
    try {
      result = await read;
    } catch (error) {
      this.#ended = true;
      const reason = error instanceof Error ? error.message : String(error);
      controller.error(new StreamProblem('input.unreadable', `the request body could not be read: ${reason}`));
      return;
    }
    if (result === undefined) {
      this.#ended = true;
      if (!this.#abandoned) controller.close();
    } else if (!this.#abandoned) {
      // A copy: the reader's buffer is read into again (a byte stream's), or is the host's own.
      controller.enqueue(this.#reader.reused ? result.slice() : result);
    }
  }
}

/** Bytes asked of a byte stream per read. */
const READ_BYTES = 64 * 1024;

/** Reads a body: the next bytes (valid until the next read when `reused`), or undefined at its end. */
interface BodyReader {
  readonly reused: boolean;
  read(): Promise<Uint8Array | undefined>;
  cancel(): Promise<void>;
}

/**
 * A reader of `body` that allocates nothing per read where it can: a byte stream (workerd's
 * request body) is read into one buffer of our own, again and again. Its default reader would
 * hand out a new 4 KiB buffer per read instead, and discarding a 99 MiB upload left 90 MiB of
 * such buffers to a garbage collector that had no reason to run (V8 collects external memory
 * lazily, after tens of MB).
 */
function bodyReader(body: ReadableStream<Uint8Array>): BodyReader {
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream: the default reader below.
  }
  if (byob !== undefined) {
    const reader = byob;
    let buffer = new ArrayBuffer(READ_BYTES);
    return {
      reused: true,
      async read() {
        const { done, value } = await reader.read(new Uint8Array(buffer));
        if (value !== undefined) buffer = value.buffer as ArrayBuffer;
        return done ? undefined : value;
      },
      cancel: () => reader.cancel(),
    };
  }
  const reader = body.getReader();
  return {
    reused: false,
    async read() {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    cancel: () => reader.cancel(),
  };
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
