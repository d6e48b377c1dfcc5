/**
 * The `--max-…` flags: which limit each sets, and their values read strictly (src/limit-text.ts),
 * with a message that names the flag. Sizes may carry a binary unit (`64MiB`).
 * @module
 */
import type { Limits } from '../src/limits.ts';
import { parseLimitText } from '../src/limit-text.ts';

/** Each flag, the limit it sets, and whether it counts bytes (and so takes a unit). */
export const LIMIT_FLAGS: Readonly<Record<string, { readonly limit: keyof Limits; readonly bytes: boolean }>> = {
  'max-bytes': { limit: 'maxInputBytes', bytes: true },
  'max-buffered-bytes': { limit: 'maxBufferedBytes', bytes: true },
  'max-decompressed': { limit: 'maxDecompressedBytes', bytes: true },
  'max-ratio': { limit: 'maxCompressionRatio', bytes: false },
  'max-line-bytes': { limit: 'maxLineBytes', bytes: true },
  'max-depth': { limit: 'maxJsonDepth', bytes: false },
  'max-findings': { limit: 'maxFindings', bytes: false },
  'max-retained-bytes': { limit: 'maxRetainedBytes', bytes: true },
};

/**
 * The value of `--<flag>`, or an Error whose message names the flag and says what it takes.
 * @throws Error for anything but a positive decimal integer (with a unit, for a size)
 * @example
 * parseLimitFlag('max-bytes', '64MiB'); // 67108864
 */
export function parseLimitFlag(flag: string, text: string): number {
  const spec = LIMIT_FLAGS[flag];
  if (spec === undefined) throw new Error(`--${flag} is not a limit flag`);
  const value = parseLimitText(text, { units: spec.bytes });
  if (value !== undefined) return value;
  const what = spec.bytes
    ? 'a positive whole number of bytes, in decimal digits, optionally with a unit KiB, MiB, GiB or TiB (64MiB)'
    : 'a positive whole number, in decimal digits';
  throw new Error(`--${flag} takes ${what}, up to ${Number.MAX_SAFE_INTEGER}; not ${JSON.stringify(text)}`);
}

/** Every limit flag given in `values` (parseArgs' result), as `Limits` overrides. */
export function limitsFromFlags(values: Readonly<Record<string, unknown>>): Partial<Limits> {
  const limits: Partial<Record<keyof Limits, number>> = {};
  for (const [flag, { limit }] of Object.entries(LIMIT_FLAGS)) {
    const raw = values[flag];
    if (typeof raw === 'string') limits[limit] = parseLimitFlag(flag, raw);
  }
  return limits;
}
