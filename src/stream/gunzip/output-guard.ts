/**
 * The output limits every decompressor shares (docs/architecture.md, 'Limits'): decompressed
 * bytes are counted against `limits.maxDecompressedBytes` and `limits.maxCompressionRatio`, so
 * that all of them stop a gzip bomb the same way, at the same byte.
 * @module
 */
import { StreamProblem } from '../problem.ts';
import type { GunzipOptions } from './contract.ts';

/** Passes decompressed output on while it stays within the limits (see `createOutputGuard`). */
export interface OutputGuard {
  /**
   * Hands `data` to `emit`, or only the part that fits under the limits and then throws the
   * `limit.*` StreamProblem, so the output stops exactly at `limits.maxDecompressedBytes`.
   * `compressedSeen` is the compressed input consumed so far (for the ratio limit).
   */
  pass(data: Uint8Array, compressedSeen: number, emit: (bytes: Uint8Array) => void): void;
}

/**
 * Tracks decompressed output against `limits.maxDecompressedBytes` and
 * `limits.maxCompressionRatio` (the ratio only once `limits.ratioGraceBytes` were produced).
 * @example
 * const guard = createOutputGuard({ limits: DEFAULT_LIMITS });
 * guard.pass(output, compressedBytesSoFar, (bytes) => controller.enqueue(bytes)); // throws past a limit
 */
export function createOutputGuard(options: GunzipOptions): OutputGuard {
  const { limits } = options;
  const counters = options.counters ?? { bytesIn: 0, bytesOut: 0 };
  return {
    pass(data, compressedSeen, emit) {
      const bySize = limits.maxDecompressedBytes;
      const byRatio = Math.max(limits.ratioGraceBytes, compressedSeen * limits.maxCompressionRatio);
      const room = Math.min(bySize, byRatio) - counters.bytesOut;
      if (data.byteLength <= room) {
        counters.bytesOut += data.byteLength;
        emit(data);
        return;
      }
      if (room > 0) {
        counters.bytesOut += room;
        emit(data.subarray(0, room));
      }
      if (bySize <= byRatio) {
        throw new StreamProblem(
          'limit.decompressed_bytes',
          `decompressed size exceeds limits.maxDecompressedBytes (${bySize} bytes), at compressed byte ${compressedSeen}`,
          compressedSeen,
        );
      }
      throw new StreamProblem(
        'limit.compression_ratio',
        `decompression ratio exceeds limits.maxCompressionRatio (${limits.maxCompressionRatio}:1): more than ${Math.floor(byRatio)} bytes out of ${compressedSeen} compressed bytes`,
        compressedSeen,
      );
    },
  };
}
