/**
 * Values the reference verifier crashes on (docs/agentxchain.md §9: a `null` element, a
 * truthy non-iterable list, an object with its own `toString` key …). The reference then prints
 * nothing and exits 1; we report an `agentxchain.unprocessable_value` finding at the value and go
 * on with the other checks (§9), so the verdict is `fail`, never a crash and never a pass.
 * @module
 */
import type { PathSegment } from '../../report/path.ts';
import { reportError, type CheckContext, type Scope } from './context.ts';

/** Thrown inside a summary reconstruction to stop it at the value the reference would crash on. */
export class UnprocessableValue extends Error {
  override readonly name = 'UnprocessableValue';
  /**
   * @param segments where the value is, relative to the export being checked
   * @param message what is wrong with it (the wording of docs/agentxchain.md where it gives one)
   */
  constructor(
    readonly segments: readonly PathSegment[],
    message: string,
  ) {
    super(message);
  }
}

/** The reference's style of path text for segments: keys joined with `.`, indices as `[n]`. */
export function referencePath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/**
 * Runs a reconstruction that mirrors the reference's code. Returns its value, or reports why it
 * could not be completed and returns `undefined`. A native `TypeError`/`RangeError` (a conversion
 * of an unprintable value, nesting too deep for the engine) is reported at `fallback`.
 */
export function reconstruct<T>(
  context: CheckContext,
  scope: Scope,
  fallback: readonly PathSegment[],
  purpose: string,
  build: () => T,
): { readonly value: T } | undefined {
  try {
    return { value: build() };
  } catch (error) {
    if (error instanceof UnprocessableValue) {
      reportUnprocessable(context, scope, error.segments, `${error.message}, so ${purpose} cannot be reconstructed`);
    } else if (error instanceof TypeError || error instanceof RangeError) {
      reportUnprocessable(context, scope, fallback, `cannot be reconstructed: ${error.message}`);
    } else {
      throw error;
    }
    return undefined;
  }
}

/** Records an `agentxchain.unprocessable_value` error (with a reference-style compat text). */
export function reportUnprocessable(
  context: CheckContext,
  scope: Scope,
  segments: readonly PathSegment[],
  message: string,
): void {
  reportError(context, scope, 'agentxchain.unprocessable_value', referencePath(segments), segments, message);
}
