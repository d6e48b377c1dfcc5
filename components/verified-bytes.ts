/**
 * The input a verification read, kept in the worker so that every later job (the governance
 * report, the diff, a Zaxy subset, the views' `inspect` pages) reads the same bytes that were
 * verified: a `src` URL is fetched once, never again (a second fetch could answer differently).
 *
 * A File or Blob is kept by reference and bytes as they are; a fetched body is copied while it
 * streams into the verifier, up to `limits.maxInspectBytes` (past it the copy is dropped and the
 * kept input is marked incomplete: views then say what is not viewable). What views read of it
 * is `inspect-source.ts`'s job.
 * @module
 */
import { resolveLimits, type Limits } from '../src/limits.ts';
import type { FormatId } from '../src/report/types.ts';
import type { VerifyInput } from '../src/stream/input.ts';

/** What one verification left for later jobs. */
export interface KeptInput {
  /** The `verify` job that read it. */
  readonly of: number;
  /** The bytes verified: the caller's Blob/File, its bytes, or the copy of a fetched body. */
  readonly input: Blob | Uint8Array;
  readonly name?: string | undefined;
  readonly format: FormatId | null;
  readonly overall: 'pass' | 'fail' | 'error';
  /** False when the fetched body was longer than `maxInspectBytes` and only its start was kept. */
  readonly complete: boolean;
  readonly limits: Limits;
}

/** A verification's input, and how to get the copy once it has been read. */
export interface Keeping {
  /** Give this to the verifier instead of the original input. */
  readonly input: VerifyInput;
  /** The kept bytes once the verifier has read them (call after it finished). */
  kept(): Promise<{ readonly input: Blob | Uint8Array; readonly complete: boolean } | undefined>;
  /** Stops copying (the verification ended or failed). */
  stop(): void;
}

/**
 * Starts keeping `input` while it is verified.
 * @example
 * const keeping = keepWhileVerifying(response, limits);
 * const report = await verify(keeping.input, options);
 * const kept = await keeping.kept();
 */
export function keepWhileVerifying(input: VerifyInput, limits?: Partial<Limits>): Keeping {
  if (input instanceof Blob || input instanceof Uint8Array) {
    return { input, kept: () => Promise.resolve({ input, complete: true }), stop() {} };
  }
  if (input instanceof Response && input.body !== null) {
    const cap = resolveLimits(limits).maxInspectBytes;
    const [forVerify, forCopy] = input.body.tee();
    const stopper = new AbortController();
    const copy = collect(forCopy, cap, stopper.signal);
    return {
      input: new Response(forVerify, { headers: input.headers }),
      kept: () => copy,
      stop: () => stopper.abort(),
    };
  }
  return { input, kept: () => Promise.resolve(undefined), stop() {} };
}

/**
 * Reads a stream into a Blob, at most `cap` bytes: past it the copy stops (and its branch is
 * cancelled, so a tee does not buffer the rest for it) and is marked incomplete.
 */
async function collect(
  stream: ReadableStream<Uint8Array>,
  cap: number,
  stop: AbortSignal,
): Promise<{ input: Blob; complete: boolean } | undefined> {
  const reader = stream.getReader();
  stop.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (size + next.value.byteLength > cap) {
        parts.push(next.value.subarray(0, cap - size));
        void reader.cancel().catch(() => {});
        return { input: new Blob(parts as BlobPart[]), complete: false };
      }
      parts.push(next.value);
      size += next.value.byteLength;
    }
    return { input: new Blob(parts as BlobPart[]), complete: true };
  } catch {
    return undefined;
  }
}
