/**
 * Verifies one input of the command line with the CLI's Node engines (node:crypto SHA-256,
 * node:zlib gunzip, the entry-hashing thread): the same code on the main thread (one input) and
 * in the pool's worker threads (several).
 * @module
 */
import { verify, type AutoVerifyOptions } from '../src/verify.ts';
import type { Report } from '../src/report.ts';
import { loadStringSkipper } from '../wasm/string-skip.ts';
import { nodeBase64 } from './node-base64.ts';
import { nodeGunzip } from './node-gunzip.ts';
import { nodeEntryHasher, nodeSha256 } from './node-sha256.ts';
import { abandonedReadsSettled, type OpenedFile, openFile, openStdin } from './open-input.ts';

/** What became of one input: its report, or why it could not be opened. */
export type Outcome =
  | { readonly label: string; readonly report: Report; readonly timedOut?: boolean }
  | { readonly label: string; readonly unreadable: string; readonly timedOut?: boolean };

/** The part of the options that travels to a worker thread (no functions). */
export type PlainVerifyOptions = Pick<AutoVerifyOptions, 'kind' | 'strict' | 'limits' | 'expectPublicKey'>;

/** How long to wait, after a timeout, for an abandoned read to return. */
const RELEASE_WAIT_MS = 1000;

export interface VerifyFileHooks {
  /** Source bytes read so far (see `VerifyOptions.onProgress`). */
  readonly onProgress?: (bytesRead: number, totalBytes?: number) => void;
  /** Stop after this many milliseconds: `input.aborted`, or unreadable if the input never opened. */
  readonly timeoutMs?: number;
}

/**
 * Verifies the file at `label` (an absolute path), or standard input for `'stdin'`.
 * @example
 * const outcome = await verifyFile('/tmp/export.json', { kind: 'auto' }, { timeoutMs: 30_000 });
 */
export async function verifyFile(
  label: string,
  options: PlainVerifyOptions,
  hooks: VerifyFileHooks = {},
): Promise<Outcome> {
  const controller = new AbortController();
  const timer =
    hooks.timeoutMs === undefined
      ? undefined
      : setTimeout(
          () => controller.abort(new Error(`gave up after --timeout ${hooks.timeoutMs! / 1000} s`)),
          hooks.timeoutMs,
        );
  const signal = timer === undefined ? undefined : controller.signal;
  const timedOut = (): { timedOut?: true } => (controller.signal.aborted ? { timedOut: true } : {});
  try {
    let file: OpenedFile;
    try {
      file = label === 'stdin' ? openStdin({ signal }) : await openFile(label, { signal });
    } catch (error) {
      return { label, unreadable: (error as Error).message, ...timedOut() };
    }
    try {
      const stringSkipper = await loadStringSkipper();
      const report = await verify(file.input, {
        ...options,
        name: label,
        sha256: nodeSha256,
        decodeBase64: nodeBase64,
        ...(stringSkipper ? { stringSkipper } : {}),
        entryHasher: nodeEntryHasher,
        gunzip: nodeGunzip,
        ...(file.readAgain ? { readInputAgain: file.readAgain } : {}),
        ...(signal ? { signal } : {}),
        ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
      });
      const changed = await file.changedSinceOpened?.();
      if (changed !== undefined) return { label, unreadable: changed, ...timedOut() };
      return { label, report, ...timedOut() };
    } finally {
      await file.close();
    }
  } finally {
    clearTimeout(timer);
    // A FIFO's read abandoned at the timeout is released at once; let it return, so that the
    // thread (or the process) can end.
    if (controller.signal.aborted) await abandonedReadsSettled(RELEASE_WAIT_MS);
  }
}
