/**
 * What every format verifier does first and last: resolve limits, open the input once, collect
 * findings, and build the frozen report. Keeps each `verify<Format>` down to its own checks.
 * @module
 */
import type { Sha256 } from './crypto/sha256.ts';
import { resolveLimits, type Limits } from './limits.ts';
import type { VerifyOptions } from './options.ts';
import { CORE_CODES } from './report/core-codes.ts';
import type { Dimension } from './report/types.ts';
import type { FindingCode } from './codes.ts';
import { buildReport, createCollector, type CheckedDimensions } from './report/collector.ts';
import type { VerifyInput } from './stream/input.ts';
import { openInput, type OpenedInput } from './stream/open.ts';
import { isStreamProblem } from './stream/problem.ts';
import { now } from './stream/turn.ts';
import type { FindingCollector, Report } from './report.ts';

export interface VerificationContext {
  readonly limits: Limits;
  readonly collector: FindingCollector;
  readonly opened: OpenedInput;
  /** `report.input`: the name given, else `bytes`. */
  readonly label: string;
  readonly startedAt: number;
}

/**
 * Resolves limits (throwing TypeError on misuse), opens the input and creates the collector.
 * The input may already be opened (by `verify`'s detection), which is then reused.
 */
export async function beginVerification(
  input: VerifyInput | OpenedInput,
  options: VerifyOptions,
  formatCodes: Readonly<Record<string, Dimension>> = {},
): Promise<VerificationContext> {
  const startedAt = now();
  const limits = resolveLimits(options.limits);
  const opened = await openInput(input, {
    limits,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.gunzip ? { gunzip: options.gunzip } : {}),
  });
  // The format's own code table, not the join of every format's (src/codes.ts): a verifier
  // raises only its format's codes and the core's, and the page loads only the tables it uses.
  const dimensions: Readonly<Record<string, Dimension>> = { ...CORE_CODES, ...formatCodes };
  const collector = createCollector({
    maxFindings: limits.maxFindings,
    strict: options.strict ?? false,
    dimensionOf: (code: FindingCode) => dimensions[code]!,
  });
  return { limits, collector, opened, label: options.name ?? 'bytes', startedAt };
}

/**
 * Thrown when no SHA-256 can be had: the caller passed none and the host refused to compile the
 * default WebAssembly one (a Content-Security-Policy without `'wasm-unsafe-eval'`, or a Workers
 * bundle made without the `.wasm` module). Reported as `kit.sha256_unavailable`.
 */
export class Sha256Unavailable extends Error {
  override readonly name = 'Sha256Unavailable';
}

/**
 * The SHA-256 to verify with: `options.sha256`, else the default the package's `#sha256` import
 * loads once (hash-wasm; in workerd, the `.wasm` module; or whatever `initSha256` registered).
 * @throws Sha256Unavailable when the default cannot be loaded on this host.
 */
export async function resolveSha256(options: { readonly sha256?: Sha256 | undefined }): Promise<Sha256> {
  if (options.sha256 !== undefined) return options.sha256;
  try {
    // Imported on demand: only the hashing formats load the WebAssembly.
    const { loadSha256 } = await import('#sha256');
    return await loadSha256();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Sha256Unavailable(
      `no SHA-256: this host refused the kit's WebAssembly (${reason}); pass options.sha256, or call initSha256(module) from verify-export/wasm first`,
    );
  }
}

/**
 * Records an error thrown while reading or verifying: a `StreamProblem` becomes its own finding
 * (gzip damage, limits, abort); anything else is a kit bug, reported as `kit.internal_error` so
 * that no input can turn a crash into a pass.
 */
export function recordThrown(collector: FindingCollector, error: unknown, path = '$'): void {
  if (isStreamProblem(error)) {
    collector.add(error.code, error.path ?? path, error.message);
    return;
  }
  if (error instanceof Sha256Unavailable) {
    collector.add('kit.sha256_unavailable', path, error.message);
    return;
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  collector.add('kit.internal_error', path, `internal error: ${message}`);
}

/** Builds the report for a context (see `buildReport`). */
export function finishVerification<R extends Report = Report>(
  context: VerificationContext,
  parts: { format: R['format']; kind: R['kind']; checked: CheckedDimensions; details?: R['details'] },
): R {
  return buildReport<R>(context.collector, {
    ...parts,
    input: context.label,
    bytesRead: context.opened.counters.bytesIn,
    durationMs: Math.max(0, now() - context.startedAt),
  });
}
