/**
 * The messages between `<verify-export>` (main thread) and its verification worker
 * (`verify-worker.ts`). Types only: both sides import this module and nothing of each other.
 *
 * One job = one `id`. The main thread sends `verify` or `disclose`, may send `cancel` for the
 * same id, and receives `progress` messages followed by exactly one `result`, `disclosed` or
 * `failure`.
 * @module
 */
import type { Limits } from '../src/limits.ts';
import type { FormatId } from '../src/report/types.ts';
import type { Report } from '../src/report.ts';

/**
 * Where the artifact comes from. A Blob/File crosses by reference (no copy); bytes cross as a
 * transferred ArrayBuffer; a URL is fetched inside the worker so the download streams too.
 */
export type WorkerSource =
  | { readonly type: 'blob'; readonly blob: Blob }
  | { readonly type: 'bytes'; readonly buffer: ArrayBuffer }
  | { readonly type: 'url'; readonly url: string };

/** What the worker passes on to the core's `verify` (all plain, structured-cloneable data). */
export interface WorkerVerifyOptions {
  readonly kind?: FormatId | 'auto';
  readonly expectPublicKey?: string;
  readonly limits?: Partial<Limits>;
  /** `report.input`: the file name or URL. */
  readonly name?: string;
}

export type ToWorker =
  | {
      readonly type: 'verify';
      readonly id: number;
      readonly source: WorkerSource;
      readonly options: WorkerVerifyOptions;
    }
  | {
      readonly type: 'disclose';
      readonly id: number;
      readonly source: WorkerSource;
      readonly indices: readonly number[];
      readonly limits?: Partial<Limits>;
    }
  | { readonly type: 'cancel'; readonly id: number };

export type FromWorker =
  | { readonly type: 'progress'; readonly id: number; readonly bytesRead: number; readonly totalBytes?: number }
  | { readonly type: 'result'; readonly id: number; readonly report: Report }
  | { readonly type: 'disclosed'; readonly id: number; readonly text: string }
  | { readonly type: 'failure'; readonly id: number; readonly message: string; readonly aborted: boolean };
