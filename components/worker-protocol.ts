/**
 * The messages between `<verify-export>` (main thread) and its verification worker
 * (`verify-worker.ts`). Types only: both sides import this module and nothing of each other.
 *
 * One job = one `id`. The main thread sends `verify`, `disclose`, `report`, `diff` or `inspect`, may send
 * `cancel` for the same id, and receives `progress` messages followed by exactly one `result`,
 * `disclosed`, `run`, `compared`, `inspected` or `failure`. The worker keeps the input the last `verify` job
 * read (`verified-bytes.ts`), so a URL is never fetched twice: `report`, `diff`, `inspect` and `disclose`
 * name (`of`) the verify job whose bytes they read, and a job naming an earlier verification (a view
 * left from a previous report) fails with a `failure` saying so, never reads a newer one's bytes.
 * @module
 */
import type { Limits } from '../src/limits.ts';
import type { FormatId } from '../src/report/types.ts';
import type { Report } from '../src/report.ts';
import type { Comparison, RunReport } from './run-view/types.ts';
import type { InspectPage, InspectRequest } from '../src/inspect/types.ts';

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
  /**
   * Which helper workers (`helper-threads.ts`) take work off the verification worker: those set to
   * `true`, whatever the input's size (tests and benchmarks pin them). Left out: each where it pays
   * off for an input of this size. The report is the same either way.
   */
  readonly helpers?: HelperChoice;
}

/** A helper worker: Zaxy's entry hashes (`entry-hash-worker.ts`). */
export type HelperName = 'entryHashes';

/** Helper workers on (`true`) or off. */
export type HelperChoice = { readonly [name in HelperName]?: boolean };

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
      /** The verify job whose kept bytes to read instead of `source` (so a URL is not fetched again). */
      readonly of?: number;
      readonly indices: readonly number[];
      readonly limits?: Partial<Limits>;
    }
  | { readonly type: 'report'; readonly id: number; readonly of: number; readonly now?: number }
  | {
      readonly type: 'diff';
      readonly id: number;
      readonly of: number;
      readonly right: WorkerSource;
      readonly rightName: string;
    }
  /**
   * A page of view models from the bytes verify job `of` read (`inspect-job.ts`); `view` names the
   * view of the format (e.g. `transcript`, `terminal`, `markdown`).
   */
  | {
      readonly type: 'inspect';
      readonly id: number;
      readonly of: number;
      readonly request: InspectRequest;
      readonly view?: string;
    }
  | { readonly type: 'cancel'; readonly id: number }
  /**
   * A person is about to pick or drop a file: load what every verification needs (the default
   * SHA-256's WebAssembly) now, while they choose. No answer; a failure shows at the next verify.
   */
  | { readonly type: 'warm' };

export type FromWorker =
  | { readonly type: 'progress'; readonly id: number; readonly bytesRead: number; readonly totalBytes?: number }
  /** `helpers`: which helper workers did some of the work (none asked for: undefined). */
  | {
      readonly type: 'result';
      readonly id: number;
      readonly report: Report;
      readonly helpers?: Required<HelperChoice> | undefined;
    }
  | { readonly type: 'disclosed'; readonly id: number; readonly text: string }
  | { readonly type: 'run'; readonly id: number; readonly value: RunReport }
  | { readonly type: 'compared'; readonly id: number; readonly value: Comparison }
  | { readonly type: 'inspected'; readonly id: number; readonly page: InspectPage<unknown> }
  | { readonly type: 'failure'; readonly id: number; readonly message: string; readonly aborted: boolean };
