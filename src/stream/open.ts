/**
 * Opens an input for verification: counts and limits the source bytes, reports progress,
 * honours the AbortSignal, recognises gzip by its magic bytes (never by name) and decompresses
 * it, and keeps the first decompressed bytes aside so the format can be detected without reading
 * the input twice.
 * @module
 */
import type { Limits } from '../limits.ts';
import type { GunzipFactory } from './gunzip/index.ts';
import { toByteStream, type VerifyInput } from './input.ts';
import { peek } from './peek.ts';
import { StreamProblem } from './problem.ts';
import { pumpThrough } from './pump.ts';

const OPENED: unique symbol = Symbol('verify-export.opened');

/** How many decompressed bytes are kept for detection (enough for any first NDJSON header). */
export const HEAD_BYTES = 64 * 1024;

export interface OpenOptions {
  readonly limits: Limits;
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytesRead: number, totalBytes?: number) => void;
  /** File name, when known: a name ending in `.gz` must carry the gzip magic. */
  readonly name?: string;
  /**
   * Decompressor for gzip input; default `defaultGunzip` (the platform's where usable, else fflate), loaded only when
   * needed.
   */
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

  // An abort must also stop a source that sends nothing (a FIFO or an upload that stalls): the
  // counting stage errors at once, which cancels the source and fails any read that waits on it.
  let stopWaiting: (() => void) | undefined;
  const counted = pumpThrough(
    source,
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        if (signal === undefined) return;
        const onAbort = (): void => controller.error(new StreamProblem('input.aborted', 'verification was aborted'));
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        stopWaiting = () => signal.removeEventListener('abort', onAbort);
      },
      flush() {
        stopWaiting?.();
      },
      transform(chunk, controller) {
        if (signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
        counters.bytesIn += chunk.byteLength;
        if (counters.bytesIn > limits.maxInputBytes) {
          throw new StreamProblem(
            'limit.input_bytes',
            `input is larger than limits.maxInputBytes (${limits.maxInputBytes} bytes)`,
          );
        }
        onProgress?.(counters.bytesIn, totalBytes);
        controller.enqueue(chunk);
      },
    }),
  );

  // Peek the first two source bytes for the gzip magic.
  const first = await peek(counted, 2);
  const gzip = first.bytes.length >= 2 && first.bytes[0] === 0x1f && first.bytes[1] === 0x8b;
  const raw = first.stream;

  // Loaded only for gzip input, so a plain-JSON consumer never pulls fflate in.
  const gunzip = gzip ? (options.gunzip ?? (await import('./gunzip/index.ts')).defaultGunzip) : undefined;
  const decompressed = gunzip ? pumpThrough(raw, gunzip({ limits, counters })) : raw;
  const counting = gzip
    ? decompressed
    : pumpThrough(
        decompressed,
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            counters.bytesOut += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
      );

  // Keep the first decompressed bytes for detection; the stream replays them.
  const peeked = await peek(counting, HEAD_BYTES);
  // A copy: the peeked chunk may be far larger (1 MiB from a file), and the head lives as long as the verification.
  const head = peeked.bytes.slice(0, HEAD_BYTES);
  const headProblem = peeked.problem;
  const name = options.name ?? '';
  return {
    [OPENED]: true,
    stream: peeked.stream,
    head,
    headProblem,
    gzip,
    gzNameWithoutMagic: !gzip && /\.gz$/i.test(name),
    counters,
    ...(totalBytes === undefined ? {} : { totalBytes }),
  };
}
