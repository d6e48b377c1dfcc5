/**
 * How the CLI's main thread (pool.ts) and its verifying threads (pool-worker.ts) talk.
 * @module
 */
import type { Outcome, PlainVerifyOptions } from './verify-file.ts';

/** One file to verify. */
export interface PoolJob {
  readonly id: number;
  /** The file's absolute path. */
  readonly label: string;
  readonly options: PlainVerifyOptions;
  readonly timeoutMs?: number;
  /** Send the bytes read while reading (only while a progress bar is drawn). */
  readonly progress: boolean;
}

/** Bytes read so far, the outcome, or the kit's own failure (a bug: its message and stack, for the user to report). */
export type PoolAnswer =
  | { readonly id: number; readonly bytes: number }
  | { readonly id: number; readonly outcome: Outcome }
  | { readonly id: number; readonly failure: string; readonly stack?: string };
