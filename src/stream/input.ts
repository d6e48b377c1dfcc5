/**
 * Input normalisation (docs/architecture.md, 'Pipeline'): every accepted input becomes one
 * `ReadableStream<Uint8Array>`, so there is one code path for bytes, text, Blobs and Responses.
 * @module
 */
import { concatBytes } from '../encoding/bytes.ts';
import { StreamProblem } from './problem.ts';

/** Everything the public API accepts as an artifact. */
export type VerifyInput = Uint8Array | ArrayBuffer | string | Blob | ReadableStream<Uint8Array> | Response;

/** Bytes handed out per chunk when the input is already in memory (keeps progress events flowing). */
const MEMORY_CHUNK = 1 << 20;

/**
 * Turns any accepted input into a byte stream and tells its total size when known.
 * @throws TypeError for a value that is none of the accepted input types (API misuse).
 * @example
 * const { stream, totalBytes } = toByteStream('{"a":1}'); // totalBytes === 7
 */
export function toByteStream(input: VerifyInput): { stream: ReadableStream<Uint8Array>; totalBytes?: number } {
  if (typeof input === 'string') input = new TextEncoder().encode(input);
  if (input instanceof ArrayBuffer) input = new Uint8Array(input);
  if (input instanceof Uint8Array) return { stream: streamOfBytes(input), totalBytes: input.byteLength };
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    return { stream: input.stream() as ReadableStream<Uint8Array>, totalBytes: input.size };
  }
  // Streams before Responses: in Node the first use of Response loads its fetch implementation.
  if (typeof ReadableStream !== 'undefined' && input instanceof ReadableStream) return { stream: input };
  if (typeof Response !== 'undefined' && input instanceof Response) {
    const length = Number(input.headers.get('content-length'));
    const stream = input.body ?? streamOfBytes(new Uint8Array(0));
    return Number.isSafeInteger(length) && length >= 0 ? { stream, totalBytes: length } : { stream };
  }
  throw new TypeError('input must be a Uint8Array, ArrayBuffer, string, Blob, ReadableStream<Uint8Array> or Response');
}

function streamOfBytes(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        return;
      }
      const end = Math.min(bytes.byteLength, offset + MEMORY_CHUNK);
      controller.enqueue(bytes.subarray(offset, end));
      offset = end;
    },
  });
}

/**
 * Reads a whole stream into one array, refusing to hold more than `maxBytes`.
 * Rejects with a `StreamProblem` (`limit.buffered_bytes`, `input.aborted`) or whatever the
 * stream itself errors with (e.g. a gzip `StreamProblem`).
 */
export async function readAll(
  stream: ReadableStream<Uint8Array>,
  options: { maxBytes: number; signal?: AbortSignal },
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      if (options.signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > options.maxBytes) {
        throw new StreamProblem(
          'limit.buffered_bytes',
          `document is larger than limits.maxBufferedBytes (${options.maxBytes} bytes)`,
        );
      }
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  return concatBytes(chunks);
}
