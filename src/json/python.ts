/**
 * CPython 3.11's `repr()` and `str()` of JSON-loaded values, for reproducing reference-tool
 * messages such as Zaxy's `unsupported bundle version <repr>` (docs/zaxy.md, 'Python texts'):
 * strings in quotes chosen as CPython chooses them, non-printable characters escaped by the
 * Unicode 14.0 table of Python 3.11, floats as `float.__repr__` (`nan`, `inf`), `True`/`False`/
 * `None`, lists and dicts with `, ` and `: ` separators, dicts in first-insertion order.
 *
 * Iterative (an explicit work stack), so deep values cannot overflow the call stack.
 * @module
 */
import { pythonFloatRepr } from './python-float.ts';
import { isPythonPrintable } from './python-printable.ts';
import type { JsonValue } from './value.ts';

/** A piece of output text on the work stack (values are expanded, text is appended). */
interface Text {
  readonly text: string;
}

/**
 * Python's `repr(value)`.
 * @example
 * pythonRepr('zaxy.portable.v2');              // "'zaxy.portable.v2'"
 * pythonRepr("it's");                          // `"it's"`
 * pythonRepr(new Map([['k', [1n, 1.0, null]]])); // "{'k': [1, 1.0, None]}"
 */
export function pythonRepr(value: JsonValue): string {
  let out = '';
  const work: (JsonValue | Text)[] = [value];
  while (work.length > 0) {
    const item = work.pop()!;
    if (isText(item)) {
      out += item.text;
      continue;
    }
    if (item instanceof Map) {
      const pieces: (JsonValue | Text)[] = [{ text: '{' }];
      let first = true;
      for (const [key, inner] of item) {
        if (!first) pieces.push({ text: ', ' });
        pieces.push({ text: `${pythonStringRepr(key)}: ` }, inner);
        first = false;
      }
      pieces.push({ text: '}' });
      for (let i = pieces.length - 1; i >= 0; i--) work.push(pieces[i]!);
    } else if (Array.isArray(item)) {
      work.push({ text: ']' });
      for (let i = item.length - 1; i >= 0; i--) {
        work.push(item[i]!);
        if (i > 0) work.push({ text: ', ' });
      }
      work.push({ text: '[' });
    } else {
      out += scalarRepr(item);
    }
  }
  return out;
}

/**
 * Python's `str(value)`: the string itself for a `str`, `repr` for everything else
 * (for floats, ints, bools and None `str` equals `repr`).
 * @example
 * pythonStr('2');  // '2'
 * pythonStr(2.0);  // '2.0'
 * pythonStr(true); // 'True'
 */
export function pythonStr(value: JsonValue): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

function isText(item: JsonValue | Text): item is Text {
  return typeof item === 'object' && item !== null && !(item instanceof Map) && !Array.isArray(item);
}

function scalarRepr(value: null | boolean | number | bigint | string): string {
  if (value === null) return 'None';
  switch (typeof value) {
    case 'boolean':
      return value ? 'True' : 'False';
    case 'bigint':
      return value.toString();
    case 'number':
      return pythonFloatRepr(value);
    default:
      return pythonStringRepr(value);
  }
}

/**
 * CPython's `unicode_repr`: single quotes unless the text holds `'` and no `"`; escapes `\\`,
 * the quote, `\t`, `\n`, `\r`, other C0 controls and DEL as `\xHH`, and non-printable
 * non-ASCII code points as `\xHH`, `\uHHHH` or `\UHHHHHHHH` (lowercase hex). Lone surrogates
 * are non-printable.
 * @example
 * pythonStringRepr('a\u2028b'); // "'a\\u2028b'"
 */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (cp === quote.charCodeAt(0) || cp === 0x5c) out += `\\${String.fromCharCode(cp)}`;
    else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f || isPythonPrintable(cp)) out += String.fromCodePoint(cp);
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + quote;
}

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0');
}
