/**
 * Resource limits (docs/architecture.md, 'Limits'). Every artifact may be hostile: each limit
 * bounds time or memory, and exceeding one yields a `limit.*` finding, never a crash.
 * @module
 */

export interface Limits {
  /** Bytes read from the source, before any decompression. */
  readonly maxInputBytes: number;
  /** Formats that must hold the whole document (JSON bundles): decompressed bytes held at once. */
  readonly maxBufferedBytes: number;
  /**
   * Zaxy documents: bytes kept after they are read, in case the document must be read a second
   * time (its shape is only known at its end). Past it, entries already verified are dropped, so a
   * signed bundle or unsigned envelope of any size verifies in about this much memory; a document
   * that then needs a second reading (a subset, or keys that change its shape after the entries)
   * gets `limit.retained_bytes`, unless the input can be read again (`readInputAgain`: then at
   * most 1 MiB is kept, and the second reading holds the document whole, within
   * `maxBufferedBytes`). The default keeps everything `maxBufferedBytes` allows.
   */
  readonly maxRetainedBytes: number;
  /** Total decompressed bytes of a gzip input. */
  readonly maxDecompressedBytes: number;
  /** Decompressed / compressed bytes, checked once output passes `ratioGraceBytes`. */
  readonly maxCompressionRatio: number;
  /** Output below this size is never judged by ratio (tiny files compress extremely well). */
  readonly ratioGraceBytes: number;
  /** Longest NDJSON line, in bytes. */
  readonly maxLineBytes: number;
  /** Deepest JSON nesting the kit's own parser and walkers accept. */
  readonly maxJsonDepth: number;
  /** Findings recorded before the rest are dropped (one `limit.findings` marks the cut). */
  readonly maxFindings: number;
  /**
   * Views of verified content (the component's worker): decompressed bytes kept after verifying,
   * so views page out of them. Past it, the rest is not viewable (a view says so); the verdict
   * never depends on it.
   */
  readonly maxInspectBytes: number;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/**
 * Safe defaults: streaming formats may be huge, buffered documents stay well below the ~512 MiB
 * string cap of V8, and a ratio of 200 stops gzip bombs (about 1000:1) long before they fill memory.
 */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxInputBytes: 64 * GiB,
  maxBufferedBytes: 512 * MiB,
  maxRetainedBytes: 512 * MiB,
  maxDecompressedBytes: 16 * GiB,
  maxCompressionRatio: 200,
  ratioGraceBytes: 16 * MiB,
  maxLineBytes: 64 * MiB,
  maxJsonDepth: 1000,
  maxFindings: 1000,
  maxInspectBytes: 256 * MiB,
});

/**
 * Merges caller overrides into the defaults, rejecting nonsense values.
 * @throws TypeError when a given limit is not a positive number (API misuse, not hostile data).
 * @example
 * resolveLimits({ maxLineBytes: 1 << 20 }).maxLineBytes; // 1048576
 */
export function resolveLimits(overrides?: Partial<Limits>): Limits {
  if (overrides === undefined) return DEFAULT_LIMITS;
  if (typeof overrides !== 'object' || overrides === null) {
    throw new TypeError('options.limits must be an object');
  }
  const merged: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(DEFAULT_LIMITS, key)) throw new TypeError(`options.limits.${key} is not a known limit`);
    if (value === undefined) continue;
    if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
      throw new TypeError(`options.limits.${key} must be a positive number`);
    }
    merged[key] = value;
  }
  return Object.freeze(merged) as unknown as Limits;
}
