/**
 * A limit written as text (a command-line flag, an environment variable) read strictly: a typo
 * must never lift a limit or be read as some other number, so only plain decimal digits are
 * accepted, optionally followed by an IEC binary unit for sizes. No sign, no spaces, no `0x`,
 * no fraction, no exponent, nothing above `Number.MAX_SAFE_INTEGER`.
 * @module
 */

/** The binary (IEC 80000-13) units a size may carry: `64MiB` is 64 × 1024². */
const UNITS: Readonly<Record<string, number>> = { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 };

/**
 * The positive whole number `text` spells, or `undefined` when it spells none.
 * @param options.units accept a `KiB`/`MiB`/`GiB`/`TiB` suffix (for limits counted in bytes)
 * @example
 * parseLimitText('1048576'); // 1048576
 * parseLimitText('64MiB', { units: true }); // 67108864
 * parseLimitText('0x10'); // undefined
 */
export function parseLimitText(text: string, options: { readonly units?: boolean } = {}): number | undefined {
  const match = /^([0-9]+)([KMGT]iB)?$/.exec(text);
  if (match === null) return undefined;
  const unit = match[2] === undefined ? 1 : options.units ? UNITS[match[2]] : undefined;
  if (unit === undefined) return undefined;
  const digits = Number(match[1]);
  const value = digits * unit;
  return Number.isSafeInteger(digits) && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
