/**
 * Opening the CLI's inputs: a file path or `-` for stdin, as the core's input types. Every
 * subcommand reads its inputs through here, so every limit applies the same way to each.
 * @module
 */
import type { BigIntStats } from 'node:fs';
import { constants, readSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { StreamProblem } from '../src/stream/problem.ts';

/**
 * Files up to this size are read in one call (fastest for small files); larger ones are streamed,
 * so a large NDJSON file never sits in memory whole (the 18 MB gzip of the 108 MB benchmark
 * stream: peak RSS 113 MB instead of 122 MB), and streaming costs nothing measurable there.
 */
const READ_WHOLE_BYTES = 4 * 1024 * 1024;

/**
 * Bytes per read of a streamed file. node:zlib inflates each piece it is given as one task on the
 * thread pool, and the next piece is handed over only when the main thread is free between two
 * chunks it parses; with a Blob's 64 KiB reads, zlib sat idle most of the time and the parser
 * then waited for it (10% of the 100k Zaxy bundle's wall time). 1 MiB pieces keep it ahead.
 */
const READ_CHUNK_BYTES = 1024 * 1024;

/** The input to verify, and what to call once verification is over. */
export interface OpenedFile {
  readonly input: Uint8Array | Blob | ReadableStream<Uint8Array>;
  /** Closes the file (a no-op when it was read whole): the core may stop reading early. */
  close(): Promise<void>;
  /**
   * A streamed regular file's bytes [start, end), read again from the file (the core's
   * `readInputAgain`): each answer in one buffer the next overwrites. It throws when the file no
   * longer has them. Usable until `close`.
   */
  readonly readAgain?: (start: number, end: number) => Uint8Array;
  /**
   * Why a streamed regular file cannot be trusted to be what was verified: its size, modification
   * or change time moved since it was opened (GNU tar's 'file changed as we read it' test), or
   * undefined. Call it before `close`.
   */
  readonly changedSinceOpened?: () => Promise<string | undefined>;
}

/** A `readAgain` answer up to this size is read into a buffer kept for the next. */
const KEEP_READ_AGAIN_BYTES = 4 * 1024 * 1024;

/** How to open an input. */
export interface OpenInputOptions {
  /**
   * Stops waiting: an open or a read still pending when it aborts is abandoned (a FIFO with no
   * writer, a device that never answers), and the stream fails with `input.aborted` and the
   * signal's reason as its message, so the core reports it at once.
   */
  readonly signal?: AbortSignal | undefined;
}

/** Operations abandoned on abort that have not settled yet (see `hasAbandonedReads`). */
const abandoned = new Set<Promise<unknown>>();

/**
 * True while an open or read abandoned on abort is still pending: it occupies a thread of Node's
 * pool, and neither the process nor a worker thread can end before it returns (a FIFO's is
 * released, see `releaseFifo`; a device that never answers is not).
 */
export function hasAbandonedReads(): boolean {
  return abandoned.size > 0;
}

/** Resolves once every abandoned open or read has returned, or after `ms`, whichever is first. */
export async function abandonedReadsSettled(ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.all(abandoned),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms).unref())),
  ]);
  clearTimeout(timer);
}

/**
 * Releases an open or read of the FIFO at `path` that is waiting for a writer or for data: it
 * opens the FIFO for writing without blocking (POSIX open(2): this succeeds while a reader has it
 * open) and writes one byte, so the pending open or read returns; the byte is discarded with the
 * abandoned read. Nothing happens for anything that is not a FIFO.
 */
async function releaseFifo(path: string): Promise<void> {
  try {
    if (!(await stat(path)).isFIFO()) return;
    const writer = await open(path, constants.O_WRONLY | constants.O_NONBLOCK);
    await writer.write(new Uint8Array(1)).catch(() => undefined);
    await writer.close();
  } catch {
    // No reader left (the read returned meanwhile), or not ours to write: nothing to release.
  }
}

/**
 * Opens the file first so an unreadable one fails with Node's own message
 * (`ENOENT: no such file or directory, open '<path>'`), as AgentXchain prints it. A large file
 * comes back as a Blob that streams it, whose size tells the core how much to expect (for
 * progress and for sizing its buffers). Anything that is not a regular file (a FIFO, a device,
 * `/dev/stdin`) is streamed whatever size it reports: its size is no bound (`/dev/zero` reports
 * 0), and the core counts every byte it reads against the limits.
 */
export async function openFile(path: string, options: OpenInputOptions = {}): Promise<OpenedFile> {
  const { signal } = options;
  const release = (): void => void releaseFifo(path);
  const handle = await unlessAborted(open(path, 'r'), signal, release, (late) => void late.close());
  let stat: BigIntStats;
  try {
    stat = await handle.stat({ bigint: true });
  } catch (error) {
    await handle.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  let reading: Promise<unknown> | undefined;
  // A read abandoned on abort still holds the handle: close it once that read is over, without waiting for it.
  const close = (): Promise<void> => {
    closing ??= Promise.resolve(reading)
      .catch(() => undefined)
      .then(() => handle.close());
    return signal?.aborted ? Promise.resolve() : closing;
  };
  const read = (chunk: Uint8Array): Promise<number> => {
    const pending = handle.read(chunk, 0, chunk.byteLength, null).then((result) => result.bytesRead);
    reading = pending;
    return unlessAborted(pending, signal, release);
  };
  if (!stat.isFile()) return { input: fileChunks(read, close, signal), close };
  if (stat.size <= READ_WHOLE_BYTES) {
    try {
      return { input: new Uint8Array(await handle.readFile()), close: async () => undefined };
    } finally {
      await handle.close();
    }
  }
  // The file stays open past the stream's end and a cancel, to be read again; `close` closes it.
  const stream = fileChunks(read, close, signal, { keepOpen: true });
  return {
    input: new FileBlob(stream, Number(stat.size)),
    close,
    readAgain: readAgainFrom(handle.fd, path),
    changedSinceOpened: async () => {
      // A read error or an abort closed the file: verification already says so.
      const now = await handle.stat({ bigint: true }).catch(() => undefined);
      return now === undefined ||
        (now.size === stat.size && now.mtimeNs === stat.mtimeNs && now.ctimeNs === stat.ctimeNs)
        ? undefined
        : `${path} changed while it was verified (its size, modification or change time moved): verify it again once nothing writes to it`;
    },
  };
}

/** Positional reads of the open file `fd` (see `OpenedFile.readAgain`). */
function readAgainFrom(fd: number, path: string): (start: number, end: number) => Uint8Array {
  let kept = new Uint8Array(0);
  return (start, end) => {
    const size = end - start;
    if (kept.byteLength < size && size <= KEEP_READ_AGAIN_BYTES)
      kept = new Uint8Array(Math.min(KEEP_READ_AGAIN_BYTES, Math.max(size, 2 * kept.byteLength)));
    const out = size <= kept.byteLength ? kept.subarray(0, size) : new Uint8Array(size);
    for (let at = 0; at < size;) {
      const got = readSync(fd, out, at, size - at, start + at);
      if (got === 0) throw new Error(`${path} is shorter than when it was read: it changed while it was verified`);
      at += got;
    }
    return out;
  };
}

/**
 * `operation`, or a rejection with the signal's reason as soon as it aborts. An abandoned
 * operation is counted until it settles; `release` is called to make it return, and `discard`
 * receives its late result.
 */
function unlessAborted<T>(
  operation: Promise<T>,
  signal: AbortSignal | undefined,
  release?: () => void,
  discard?: (late: T) => void,
): Promise<T> {
  if (signal === undefined) return operation;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      const settling = operation.then(discard, () => undefined).finally(() => abandoned.delete(settling));
      abandoned.add(settling);
      release?.();
      reject(abortProblem(signal));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    operation.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}

/** The core's `input.aborted`, with the signal's reason (the CLI's says which timeout ran out). */
function abortProblem(signal: AbortSignal): StreamProblem {
  const reason: unknown = signal.reason;
  return new StreamProblem('input.aborted', reason instanceof Error ? reason.message : 'verification was aborted');
}

/**
 * A file as a Blob that streams in READ_CHUNK_BYTES reads (Node's `openAsBlob` reads 64 KiB at a
 * time). A Blob, not a Response with a content-length: the core takes the size from either, and
 * Node loads its whole fetch implementation (about 20 ms) at the first use of Response. The core
 * reads a Blob only through `size` and `stream()`.
 */
class FileBlob extends Blob {
  readonly #stream: ReadableStream<Uint8Array<ArrayBuffer>>;
  readonly #size: number;

  constructor(stream: ReadableStream<Uint8Array<ArrayBuffer>>, size: number) {
    super();
    this.#stream = stream;
    this.#size = size;
  }

  override get size(): number {
    return this.#size;
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return this.#stream;
  }
}

/**
 * The file's bytes in READ_CHUNK_BYTES pieces. The file is closed on a read error or an abort, and
 * at the end or on cancel unless `keepOpen` (the caller closes it then).
 */
function fileChunks(
  read: (chunk: Uint8Array) => Promise<number>,
  close: () => Promise<void>,
  signal: AbortSignal | undefined,
  { keepOpen = false } = {},
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const done = (): Promise<void> => (keepOpen ? Promise.resolve() : close());
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      try {
        const chunk = new Uint8Array(READ_CHUNK_BYTES);
        const bytesRead = await read(chunk);
        if (bytesRead > 0) return controller.enqueue(chunk.subarray(0, bytesRead));
        controller.close();
      } catch (error) {
        controller.error(signal?.aborted ? abortProblem(signal) : error);
        return close();
      }
      await done();
    },
    cancel: done,
  });
}

/**
 * Standard input as a stream; nothing to close. With a signal, a stdin that stays open and
 * silent fails with `input.aborted` when it aborts, and is let go.
 */
export function openStdin(options: OpenInputOptions = {}): OpenedFile {
  const stdin = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  const { signal } = options;
  if (signal === undefined) return { input: stdin, close: async () => undefined };
  const reader = stdin.getReader();
  const input = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await unlessAborted(reader.read(), signal);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(signal.aborted ? abortProblem(signal) : error);
        if (signal.aborted) process.stdin.destroy();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { input, close: async () => undefined };
}
