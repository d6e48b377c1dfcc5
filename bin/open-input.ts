/**
 * Opening the CLI's inputs: a file path or `-` for stdin, as the core's input types. Every
 * subcommand reads its inputs through here, so every limit applies the same way to each.
 * @module
 */
import { type FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';

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
}

/**
 * Opens the file first so an unreadable one fails with Node's own message
 * (`ENOENT: no such file or directory, open '<path>'`), as AgentXchain prints it. A large file
 * comes back as a Blob that streams it, whose size tells the core how much to expect (for
 * progress and for sizing its buffers).
 */
export async function openFile(path: string): Promise<OpenedFile> {
  const handle = await open(path, 'r');
  let size: number;
  try {
    size = (await handle.stat()).size;
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (size <= READ_WHOLE_BYTES) {
    try {
      return { input: new Uint8Array(await handle.readFile()), close: async () => undefined };
    } finally {
      await handle.close();
    }
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= handle.close());
  return { input: new FileBlob(fileChunks(handle, close), size), close };
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

/** The file's bytes in READ_CHUNK_BYTES pieces; the file is closed at the end or on cancel. */
function fileChunks(handle: FileHandle, close: () => Promise<void>): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      try {
        const chunk = new Uint8Array(READ_CHUNK_BYTES);
        const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, null);
        if (bytesRead > 0) return controller.enqueue(chunk.subarray(0, bytesRead));
        controller.close();
      } catch (error) {
        controller.error(error);
      }
      await close();
    },
    cancel: close,
  });
}

/** Standard input as a stream; nothing to close. */
export function openStdin(): OpenedFile {
  return { input: Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, close: async () => undefined };
}
