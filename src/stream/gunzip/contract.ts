/**
 * What every decompressor keeps to (docs/architecture.md, 'Streams and gzip'), the kit's own
 * (`streams.ts`) and one passed as `options.gunzip` alike: gzip bytes in, decompressed bytes out;
 * on a problem the readable side first delivers the data decoded before it, then errors with a
 * `StreamProblem` whose code is one of `gzip.bad_header`, `gzip.bad_data`, `gzip.crc_mismatch`,
 * `gzip.size_mismatch`, `gzip.truncated`, `gzip.trailing_garbage`, `limit.decompressed_bytes`,
 * `limit.compression_ratio`, with the compressed byte offset in its message and `offset`.
 * @module
 */
import type { Limits } from '../../limits.ts';
import type { StreamPair } from '../push-core.ts';

export interface GunzipOptions {
  readonly limits: Limits;
  /** Live counters shared with the caller: compressed bytes in, decompressed bytes out. */
  readonly counters?: { bytesIn: number; bytesOut: number };
}

/**
 * A decompressor, with the error contract described in this module's doc. `TransformStream`
 * satisfies it; `defaultGunzip` is the default.
 */
export type GunzipFactory = (options: GunzipOptions) => StreamPair;
