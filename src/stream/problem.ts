/**
 * The one error type that crosses a stream boundary: a problem with the input itself (gzip
 * container damage, a limit reached, an abort). Consumers catch it and turn it into a finding;
 * the lines or bytes delivered before it are still verified.
 * @module
 */
import type { CoreCode } from '../report/core-codes.ts';

/** The codes a stream raises: the container's (`gzip.*`), the input's (`input.*`) and the limits (`limit.*`). */
export type StreamProblemCode = Extract<CoreCode, `gzip.${string}` | `input.${string}` | `limit.${string}`>;

export class StreamProblem extends Error {
  override readonly name = 'StreamProblem';
  /**
   * @param code the finding code to report
   * @param message the finding message
   * @param offset byte offset in the compressed input where the problem was seen, when known
   * @param path the JSON path the finding names, when the problem is inside the document (default `$`)
   */
  constructor(
    readonly code: StreamProblemCode,
    message: string,
    readonly offset?: number,
    readonly path?: string,
  ) {
    super(message);
  }
}

/** Narrowing helper: true for a `StreamProblem` (also across realms, by name). */
export function isStreamProblem(error: unknown): error is StreamProblem {
  return (
    error instanceof StreamProblem || (error instanceof Error && error.name === 'StreamProblem' && 'code' in error)
  );
}

/**
 * True for a problem that is the kit's own stop (a `limit.*` reached, an abort), not damage in the
 * data: the bytes after it were never read, so whatever it cut short (a last partial line, a count
 * compared at the end) says nothing about the input (docs/architecture.md, 'Limits').
 * @example
 * isKitStop(new StreamProblem('limit.decompressed_bytes', 'too big')); // true
 * isKitStop(new StreamProblem('gzip.truncated', 'cut')); // false
 */
export function isKitStop(error: unknown): error is StreamProblem {
  return isStreamProblem(error) && (error.code.startsWith('limit.') || error.code === 'input.aborted');
}
