/**
 * Streaming gunzip as a Web `TransformStream` (STYLE.md §6), built on fflate's push-style
 * `Gunzip`, which follows concatenated members (the one-shot API silently drops them).
 * The compressed bytes are attacker-controlled: output is capped by size and by ratio so a gzip
 * bomb stops at the limit instead of filling memory.
 * @module
 */
import { Gunzip } from 'fflate';
import type { Limits } from '../limits.ts';
import { StreamProblem } from './problem.ts';

export interface GunzipOptions {
  readonly limits: Limits;
  /** Live counters shared with the caller: compressed bytes in, decompressed bytes out. */
  readonly counters?: { bytesIn: number; bytesOut: number };
}

/**
 * Decompresses a gzip byte stream (one or more members).
 * Errors the stream with a `StreamProblem`: `limit.decompressed_bytes`, `limit.compression_ratio`,
 * `gzip.bad_data`, `gzip.truncated`.
 * @example
 * const text = await new Response(blob.stream().pipeThrough(gunzipStream({ limits: DEFAULT_LIMITS }))).text();
 */
export function gunzipStream(options: GunzipOptions): TransformStream<Uint8Array, Uint8Array> {
  const { limits } = options;
  const counters = options.counters ?? { bytesIn: 0, bytesOut: 0 };
  let compressedSeen = 0;
  let pending: StreamProblem | undefined;
  let controllerRef: TransformStreamDefaultController<Uint8Array> | undefined;

  const inflater = new Gunzip((data) => {
    if (pending || data.byteLength === 0) return;
    counters.bytesOut += data.byteLength;
    if (counters.bytesOut > limits.maxDecompressedBytes) {
      pending = new StreamProblem('limit.decompressed_bytes', `decompressed size exceeds limits.maxDecompressedBytes (${limits.maxDecompressedBytes} bytes)`, compressedSeen);
      return;
    }
    if (counters.bytesOut > limits.ratioGraceBytes && counters.bytesOut > compressedSeen * limits.maxCompressionRatio) {
      pending = new StreamProblem('limit.compression_ratio', `decompression ratio exceeds limits.maxCompressionRatio (${limits.maxCompressionRatio}:1) after ${compressedSeen} compressed bytes`, compressedSeen);
      return;
    }
    controllerRef?.enqueue(data);
  });

  const push = (chunk: Uint8Array, final: boolean): void => {
    try {
      inflater.push(chunk, final);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = /unexpected EOF/i.test(message) ? 'gzip.truncated' : 'gzip.bad_data';
      throw new StreamProblem(code, `gzip: ${message} (near compressed byte ${compressedSeen})`, compressedSeen);
    }
    if (pending) throw pending;
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      controllerRef = controller;
    },
    transform(chunk) {
      // Feed in slices so a limit is noticed before one huge chunk expands entirely.
      for (let offset = 0; offset < chunk.byteLength; offset += 64 * 1024) {
        const slice = chunk.subarray(offset, Math.min(chunk.byteLength, offset + 64 * 1024));
        compressedSeen += slice.byteLength;
        push(slice, false);
      }
    },
    flush() {
      push(new Uint8Array(0), true);
    },
  });
}
