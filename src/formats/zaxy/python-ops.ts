/**
 * The few Python operations Zaxy's verifiers apply to untrusted values, with CPython 3.11's
 * exact exception texts (docs/zaxy.md, 'Python texts'): `d[key]`, `for x in v`, `a, b = v`,
 * `bytes.fromhex(v)`. Each returns a result or a `PyError`; Zaxy turns a
 * KeyError/TypeError/ValueError into `malformed bundle: <str(exc)>`.
 * @module
 */
import { pythonRepr } from '../../json/python.ts';
import { type JsonValue, pythonTypeName } from '../../json/value.ts';

/** A Python exception Zaxy catches (`KeyError`, `TypeError`, `ValueError`) and its `str()`. */
export interface PyError {
  readonly pyError: 'KeyError' | 'TypeError' | 'ValueError';
  readonly text: string;
}

/**
 * True for a `PyError`.
 * @example
 * isPyError(subscript(5n, 'content')); // true
 */
export function isPyError(value: unknown): value is PyError {
  return typeof value === 'object' && value !== null && 'pyError' in value;
}

/**
 * `container[key]` with a string key: KeyError shows the quoted key; non-dicts raise TypeError.
 * @example
 * subscript([], 'content'); // { pyError: 'TypeError', text: 'list indices must be integers or slices, not str' }
 */
export function subscript(container: JsonValue, key: string): JsonValue | PyError {
  if (container instanceof Map) {
    return container.has(key) ? container.get(key)! : { pyError: 'KeyError', text: pythonRepr(key) };
  }
  return { pyError: 'TypeError', text: subscriptTypeError(container) };
}

/**
 * CPython's TypeError for `value["key"]` when `value` is not a dict.
 * @example
 * subscriptTypeError('abc'); // "string indices must be integers, not 'str'"
 */
export function subscriptTypeError(value: JsonValue): string {
  if (Array.isArray(value)) return 'list indices must be integers or slices, not str';
  if (typeof value === 'string') return "string indices must be integers, not 'str'";
  return `'${pythonTypeName(value)}' object is not subscriptable`;
}

/**
 * The items `for x in value` yields: list items, dict keys, string characters (code points).
 * @example
 * iterate(new Map([['a', 1n]])); // ['a']
 * iterate(1n);                   // { pyError: 'TypeError', text: "'int' object is not iterable" }
 */
export function iterate(value: JsonValue): JsonValue[] | PyError {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) return [...value.keys()];
  if (typeof value === 'string') return [...value];
  return { pyError: 'TypeError', text: `'${pythonTypeName(value)}' object is not iterable` };
}

/**
 * `a, b = value`: exactly two items of the iteration of `value`.
 * @example
 * unpackPair(['ab', 'L']); // ['ab', 'L']
 * unpackPair('xy');        // ['x', 'y']
 * unpackPair([1n]);        // { pyError: 'ValueError', text: 'not enough values to unpack (expected 2, got 1)' }
 */
export function unpackPair(value: JsonValue): [JsonValue, JsonValue] | PyError {
  if (!Array.isArray(value) && !(value instanceof Map) && typeof value !== 'string') {
    return { pyError: 'TypeError', text: `cannot unpack non-iterable ${pythonTypeName(value)} object` };
  }
  const items = iterate(value) as JsonValue[];
  if (items.length < 2)
    return { pyError: 'ValueError', text: `not enough values to unpack (expected 2, got ${items.length})` };
  if (items.length > 2) return { pyError: 'ValueError', text: 'too many values to unpack (expected 2)' };
  return [items[0]!, items[1]!];
}

/** Python's `Py_ISSPACE`: space, \t, \n, \v, \f, \r. */
function isPySpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x57;
  return 16;
}

/**
 * `bytes.fromhex(value)` as CPython 3.11 implements it: upper or lower case, ASCII whitespace
 * allowed between byte pairs (not inside one); a non-ASCII string fails at its first non-ASCII
 * character; an odd length fails at the position just past the end.
 * @example
 * pythonFromHex('0A ff');  // Uint8Array [10, 255]
 * pythonFromHex('abc');    // { pyError: 'ValueError', text: 'non-hexadecimal number found in fromhex() arg at position
 * 3' }
 * pythonFromHex(5n);       // { pyError: 'TypeError', text: 'fromhex() argument must be str, not int' }
 */
export function pythonFromHex(value: JsonValue): Uint8Array | PyError {
  // CPython's argument-clinic wording: `None` by name, other values by their type's name.
  if (typeof value !== 'string')
    return {
      pyError: 'TypeError',
      text: `fromhex() argument must be str, not ${value === null ? 'None' : pythonTypeName(value)}`,
    };
  const invalid = (position: number): PyError => ({
    pyError: 'ValueError',
    text: `non-hexadecimal number found in fromhex() arg at position ${position}`,
  });
  const n = value.length;
  for (let i = 0; i < n; i++) if (value.charCodeAt(i) >= 0x80) return invalid(i);
  const out = new Uint8Array(n >> 1);
  let length = 0;
  let i = 0;
  while (i < n) {
    if (isPySpace(value.charCodeAt(i))) {
      while (i < n && isPySpace(value.charCodeAt(i))) i++;
      if (i >= n) break;
    }
    const top = hexValue(value.charCodeAt(i));
    if (top >= 16) return invalid(i);
    i++;
    const bottom = i < n ? hexValue(value.charCodeAt(i)) : 16; // past the end: CPython reads the NUL terminator
    if (bottom >= 16) return invalid(i);
    i++;
    out[length++] = (top << 4) | bottom;
  }
  return out.slice(0, length);
}
