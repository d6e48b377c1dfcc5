/**
 * Python's `float.__repr__` (CPython `format_float_short`, repr mode) in JavaScript.
 *
 * Both languages print the shortest digit string that round-trips (CPython: David Gay's dtoa
 * mode 0; JavaScript: Number::toString), so only the layout differs (docs/zaxy.md, 'Canonical JSON'):
 * Python uses positional notation when the decimal point position `decpt` (value =
 * 0.DIGITS × 10^decpt) satisfies -4 < decpt <= 16, keeps `.0` on integral values, and otherwise
 * writes `d.ddde±XX` with a sign and at least two exponent digits.
 * @module
 */
import * as grammar from './_grammar.ts';

/**
 * `repr(x)` for a Python float: `1.0`, `1e+16`, `1e-07`, `-0.0`, `nan`, `inf`, `-inf`.
 * @example
 * pythonFloatRepr(100);   // '100.0'
 * pythonFloatRepr(1e16);  // '1e+16'
 * pythonFloatRepr(1e-5);  // '1e-05'
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // Fast path: in [1e-4, 1e16) both languages print positional digits; Python adds `.0` to integers.
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    const text = String(x);
    return text.includes('.') ? text : `${text}.0`;
  }
  const sign = x < 0 ? '-' : '';
  const { digits, decpt } = shortestDigits(Math.abs(x));
  if (decpt <= -4 || decpt > 16) {
    const exponent = decpt - 1;
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/**
 * How Python's `json.dumps` writes a float: `repr`, except the non-finite values, which become the
 * tokens `NaN`, `Infinity`, `-Infinity` (Python's default `allow_nan=True`).
 * @example
 * pythonJsonFloat(NaN); // 'NaN'
 * pythonJsonFloat(2.5); // '2.5'
 */
export function pythonJsonFloat(x: number): string {
  if (Number.isNaN(x)) return grammar.NAN_NAME;
  if (x === Infinity) return grammar.INFINITY_NAME;
  if (x === -Infinity) return grammar.NEGATIVE_INFINITY_NAME;
  return pythonFloatRepr(x);
}

/** The shortest round-trip digits of a positive finite `x` (no leading/trailing zeros) and decpt. */
function shortestDigits(x: number): { digits: string; decpt: number } {
  const text = String(x);
  const e = text.indexOf('e');
  if (e >= 0) {
    // JavaScript's exponent form always has one digit before the point: d[.ddd]e±N.
    const mantissa = text.slice(0, e);
    return { digits: mantissa.replace('.', ''), decpt: Number(text.slice(e + 1)) + 1 };
  }
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  const fraction = dot < 0 ? '' : text.slice(dot + 1);
  if (whole === '0') {
    let zeros = 0;
    while (fraction[zeros] === '0') zeros++;
    return { digits: fraction.slice(zeros), decpt: -zeros };
  }
  // Integral values print with padding zeros (1e20 → "100000000000000000000"): strip them.
  return { digits: (whole + fraction).replace(/0+$/, ''), decpt: whole.length };
}
