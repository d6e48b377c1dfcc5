/**
 * Opens an input for verification: counts and limits the source bytes, reports progress,
 * honours the AbortSignal, recognises gzip by its magic bytes (never by name) and decompresses
 * it, and keeps the first decompressed bytes aside so the format can be detected without reading
 * the input twice.
 * @module
 */
import type { Limits } from '../limits.ts';
import type { GunzipFactory } from './gunzip.ts';
import { toByteStream, type VerifyInput } from './input.ts';
import { StreamProblem } from './problem.ts';

const OPENED: unique symbol = Symbol('verify-export.opened');

/** How many decompressed bytes are kept for detection (enough for any first NDJSON header). */
export const HEAD_BYTES = 64 * 1024;

export interface OpenOptions {
  readonly limits: Limits;
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytesRead: number, totalBytes?: number) => void;
  /** File name, when known: a name ending in `.gz` must carry the gzip magic. */
  readonly name?: string;
  /** Decompressor for gzip input; default `defaultGunzip` (the platform's where usable, else fflate), loaded only when needed. */
  readonly gunzip?: GunzipFactory;
}

/** An input that was opened once; pass it on to a format verifier instead of the raw input. */
export interface OpenedInput {
  readonly [OPENED]: true;
  /** Decompressed bytes, starting with `head` again. Read it once. */
  readonly stream: ReadableStream<Uint8Array>;
  /** The first up-to-`HEAD_BYTES` decompressed bytes (fewer at end of input). */
  readonly head: Uint8Array;
  /** The problem met while reading the head, if any (it will also error `stream`). */
  readonly headProblem?: unknown;
  /** The input started with the gzip magic `1f 8b`. */
  readonly gzip: boolean;
  /** The name ends in `.gz` but the bytes are not gzip. */
  readonly gzNameWithoutMagic: boolean;
  /** Source and decompressed byte counts, live while the stream is read. */
  readonly counters: { readonly bytesIn: number; readonly bytesOut: number };
  readonly totalBytes?: number;
}

/** True for the result of `openInput`. */
export function isOpenedInput(value: unknown): value is OpenedInput {
  return typeof value === 'object' && value !== null && (value as { [OPENED]?: true })[OPENED] === true;
}

/**
 * Opens `input` (see module doc). Never rejects for hostile data: problems surface as a
 * `StreamProblem` from `stream` (and in `headProblem`).
 * @throws TypeError when `input` is not an accepted input type.
 */
export async function openInput(input: VerifyInput | OpenedInput, options: OpenOptions): Promise<OpenedInput> {
  if (isOpenedInput(input)) return input;
  const { stream: source, totalBytes } = toByteStream(input);
  const counters = { bytesIn: 0, bytesOut: 0 };
  const { limits, signal, onProgress } = options;

  const counted = source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
        counters.bytesIn += chunk.byteLength;
        if (counters.bytesIn > limits.maxInputBytes) {
          throw new StreamProblem('limit.input_bytes', `input is larger than limits.maxInputBytes (${limits.maxInputBytes} bytes)`);
        }
        onProgress?.(counters.bytesIn, totalBytes);
        controller.enqueue(chunk);
      },
    }),
  );

  // Peek the first two source bytes for the gzip magic.
  const sourceReader = counted.getReader();
  const first: Uint8Array[] = [];
  let firstLength = 0;
  let sourceDone = false;
  let sourceProblem: unknown;
  try {
    while (firstLength < 2) {
      const { done, value } = await sourceReader.read();
      if (done) {
        sourceDone = true;
        break;
      }
      if (value.byteLength === 0) continue;
      first.push(value);
      firstLength += value.byteLength;
    }
  } catch (error) {
    sourceProblem = error;
  }
  const firstBytes = concat(first, firstLength);
  const gzip = firstBytes.length >= 2 && firstBytes[0] === 0x1f && firstBytes[1] === 0x8b;
  const raw = replay(first, sourceReader, sourceDone, sourceProblem);

  // Loaded only for gzip input, so a plain-JSON consumer never pulls fflate in.
  const gunzip = gzip ? (options.gunzip ?? (await import('./gunzip-native.ts')).defaultGunzip) : undefined;
  const decompressed = gunzip ? raw.pipeThrough(gunzip({ limits, counters })) : raw;
  const counting = gzip
    ? decompressed
    : decompressed.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            counters.bytesOut += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
      );

  // Keep the first decompressed bytes for detection, then replay them.
  const reader = counting.getReader();
  const headChunks: Uint8Array[] = [];
  let headLength = 0;
  let done = false;
  let headProblem: unknown;
  try {
    while (headLength < HEAD_BYTES) {
      const result = await reader.read();
      if (result.done) {
        done = true;
        break;
      }
      headChunks.push(result.value);
      headLength += result.value.byteLength;
    }
  } catch (error) {
    headProblem = error;
  }
  const head = concat(headChunks, headLength).subarray(0, HEAD_BYTES);
  const name = options.name ?? '';
  return {
    [OPENED]: true,
    stream: replay(headChunks, reader, done, headProblem),
    head,
    headProblem,
    gzip,
    gzNameWithoutMagic: !gzip && /\.gz$/i.test(name),
    counters,
    ...(totalBytes === undefined ? {} : { totalBytes }),
  };
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** A stream that yields `buffered` first, then the rest of `reader` (or its stored outcome). */
function replay(
  buffered: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
  done: boolean,
  problem: unknown,
): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index < buffered.length) {
        controller.enqueue(buffered[index]!);
        buffered[index++] = EMPTY; // let the chunk be collected once handed on
        return;
      }
      if (problem !== undefined) {
        controller.error(problem);
        return;
      }
      if (done) {
        controller.close();
        return;
      }
      try {
        const result = await reader.read();
        if (result.done) controller.close();
        else controller.enqueue(result.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}

const EMPTY = new Uint8Array(0);
