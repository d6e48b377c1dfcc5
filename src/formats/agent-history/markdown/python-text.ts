/**
 * The Python string operations agent-history's markdown goes through
 * (docs/agent-history-markdown.md, 'Python semantics'): `strip`/`rstrip` with Python's whitespace,
 * cuts and lengths in code points, and the truthiness of JSON-loaded values. JavaScript's `trim()`
 * and `slice()` differ (U+FEFF, U+001C..U+001F, U+0085; UTF-16 units), which would change bytes.
 * @module
 */
import type { JsonValue } from '../../../json/value.ts';

/**
 * True for the code points Python's `str.isspace()` accepts, which `strip()` removes: U+0009..U+000D,
 * U+001C..U+001F, U+0020, U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F,
 * U+3000 (Unicode 14.0, Python 3.11).
 * @example
 * isPythonSpace(0x1c); // true
 * isPythonSpace(0xfeff); // false
 */
export function isPythonSpace(code: number): boolean {
  if (code <= 0x20) return (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x20);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/**
 * Python's `text.rstrip()`. Every whitespace code point is in the BMP, so UTF-16 units suffice.
 * @example
 * pythonRstrip('text \u0085\n'); // 'text'
 */
export function pythonRstrip(text: string): string {
  let end = text.length;
  while (end > 0 && isPythonSpace(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * Python's `text.strip()`.
 * @example
 * pythonStrip('\u001c text \u0085'); // 'text'
 * pythonStrip('\ufefftext\ufeff'); // '\ufefftext\ufeff'
 */
export function pythonStrip(text: string): string {
  let start = 0;
  while (start < text.length && isPythonSpace(text.charCodeAt(start))) start++;
  const rest = pythonRstrip(text);
  return start === 0 ? rest : rest.slice(start);
}

/**
 * The UTF-16 index where the first `count` code points of `text` end, or `undefined` when the text
 * has `count` code points or fewer (Python's `len(text) > count` is false). Reads at most `count + 1`
 * code points, whatever the text's length. A lone surrogate counts as one code point, as in Python.
 * @example
 * codePointCutIndex('a😀b', 2); // 3
 * codePointCutIndex('a😀', 2); // undefined
 */
export function codePointCutIndex(text: string, count: number): number | undefined {
  let index = 0;
  for (let seen = 0; seen < count; seen++) {
    if (index >= text.length) return undefined;
    index += isSurrogatePair(text, index) ? 2 : 1;
  }
  return index < text.length ? index : undefined;
}

/**
 * Python's `text[:count]`, counting code points.
 * @example
 * firstCodePoints('😀😀😀', 2); // '😀😀'
 */
export function firstCodePoints(text: string, count: number): string {
  const cut = codePointCutIndex(text, count);
  return cut === undefined ? text : text.slice(0, cut);
}

function isSurrogatePair(text: string, index: number): boolean {
  const high = text.charCodeAt(index);
  if (high < 0xd800 || high > 0xdbff || index + 1 >= text.length) return false;
  const low = text.charCodeAt(index + 1);
  return low >= 0xdc00 && low <= 0xdfff;
}

/**
 * Python's truthiness of a JSON-loaded value: `None`, `False`, `0`, `0.0`, `""`, `[]`, `{}` are false.
 * `undefined` (a missing key, `dict.get` giving `None`) is false too.
 * @example
 * isTruthy(new Map()); // false
 * isTruthy(Number.NaN); // true
 */
export function isTruthy(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'bigint':
      return value !== 0n;
    case 'number':
      return value !== 0;
    case 'string':
      return value.length > 0;
    default:
      return value instanceof Map ? value.size > 0 : value.length > 0;
  }
}
