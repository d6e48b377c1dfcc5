/**
 * Python's `json.dumps` for values of the lossless model (`value.ts`), byte for byte:
 * - `canonicalJson`: `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`
 *   encoded as UTF-8, the bytes Zaxy hashes and signs (docs/zaxy.md, 'Canonical JSON'). Keys sorted
 *   by code point (not UTF-16 code unit, as JavaScript and RFC 8785 sort), floats as Python's repr, exact big
 *   integers, `NaN`/`Infinity` tokens, only `"` `\\` and C0 controls escaped (lowercase `\u00xx`).
 *   A lone surrogate cannot be encoded: the result is then CPython's `UnicodeEncodeError` text.
 * - `pythonJsonDumps`: `json.dumps(v, indent=N, ensure_ascii=False)` (Zaxy's file layout).
 *
 * Iterative, so deep values cannot overflow the call stack. `canonical-tape.ts` produces the same
 * canonical bytes straight from input bytes, without building values.
 * @module
 */
import * as grammar from './_grammar.ts';
import { pythonJsonFloat } from './python-float.ts';
import type { JsonValue } from './value.ts';

/** A run of lone surrogates in a string that Python would try to encode as UTF-8. */
export interface SurrogateFault {
  /** Code-point position of the first lone surrogate. */
  readonly start: number;
  /** Code-point position just after the run of adjacent lone surrogates. */
  readonly end: number;
  /** The first lone surrogate (a UTF-16 code unit, U+D800..U+DFFF). */
  readonly first: number;
}

export type CanonicalResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly fault: SurrogateFault; readonly message: string };

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * The canonical bytes Python would produce, or the `UnicodeEncodeError` it would raise.
 * @example
 * const result = canonicalJson(new Map([['b', 1.0], ['a', 10n]]));
 * if (result.ok) new TextDecoder().decode(result.bytes); // '{"a":10,"b":1.0}'
 */
export function canonicalJson(value: JsonValue): CanonicalResult {
  const text = pythonJsonDumps(value, { sortKeys: true });
  const fault = findLoneSurrogates(text);
  if (fault !== undefined) return { ok: false, fault, message: surrogateErrorMessage(fault) };
  return { ok: true, bytes: encoder.encode(text) };
}

/**
 * CPython's `str(UnicodeEncodeError)` for lone surrogates met by the UTF-8 encoder.
 * @example
 * surrogateErrorMessage({ start: 5, end: 6, first: 0xd800 });
 * // "'utf-8' codec can't encode character '\\ud800' in position 5: surrogates not allowed"
 */
export function surrogateErrorMessage(fault: SurrogateFault): string {
  if (fault.end - fault.start === 1) {
    return `'utf-8' codec can't encode character '\\u${fault.first.toString(16).padStart(4, '0')}' in position ${fault.start}: surrogates not allowed`;
  }
  return `'utf-8' codec can't encode characters in position ${fault.start}-${fault.end - 1}: surrogates not allowed`;
}

/**
 * The first run of lone surrogates in `text`, in code-point positions (an astral character
 * counts one, as in a Python `str`), or undefined when the text encodes cleanly.
 * @example
 * findLoneSurrogates('a\ud800\udc00b\udfff'); // { start: 3, end: 4, first: 0xdfff }
 */
export function findLoneSurrogates(text: string): SurrogateFault | undefined {
  let position = 0;
  for (let i = 0; i < text.length; i++, position++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++; // a proper pair: one code point
        continue;
      }
    }
    // A lone surrogate: extend over the adjacent lone ones (a following pair ends the run).
    const start = position;
    let end = position + 1;
    for (let j = i + 1; j < text.length; j++) {
      const u = text.charCodeAt(j);
      if (u < 0xd800 || u > 0xdfff) break;
      if (u <= 0xdbff && j + 1 < text.length) {
        const next = text.charCodeAt(j + 1);
        if (next >= 0xdc00 && next <= 0xdfff) break;
      }
      end++;
    }
    return { start, end, first: unit };
  }
  return undefined;
}

export interface DumpsOptions {
  /** `sort_keys=True` (code-point order). */
  readonly sortKeys?: boolean;
  /** `indent=N`: pretty layout with `,` and `: ` separators; absent = compact `,` and `:`. */
  readonly indent?: number;
}

/** A piece of output text on the work stack (values are expanded, text is appended). */
interface Text {
  readonly text: string;
}

function isText(item: JsonValue | Text): item is Text {
  return typeof item === 'object' && item !== null && !(item instanceof Map) && !Array.isArray(item);
}

/**
 * Python's `json.dumps(value, ensure_ascii=False, ...)` as a JavaScript string (lone surrogates
 * kept). Without `indent` the separators are the compact `,` and `:` (what Zaxy canonicalises
 * with); with `indent` Python's pretty layout (`[]`/`{}` for empty containers).
 * @example
 * pythonJsonDumps(new Map([['a', [1n, 2.5]]]), { indent: 2 }); // '{\n  "a": [\n    1,\n    2.5\n  ]\n}'
 */
export function pythonJsonDumps(value: JsonValue, options: DumpsOptions = {}): string {
  const indent = options.indent;
  const sortKeys = options.sortKeys ?? false;
  const colon = indent === undefined ? ':' : ': ';
  let out = '';
  const work: (JsonValue | Text)[] = [value];
  const levels: number[] = [0];
  while (work.length > 0) {
    const item = work.pop()!;
    const level = levels.pop()!;
    if (isText(item)) {
      out += item.text;
      continue;
    }
    if (item instanceof Map || Array.isArray(item)) {
      const isMap = item instanceof Map;
      const size = isMap ? item.size : item.length;
      if (size === 0) {
        out += isMap ? '{}' : '[]';
        continue;
      }
      const inner = indent === undefined ? '' : `\n${' '.repeat(indent * (level + 1))}`;
      const outer = indent === undefined ? '' : `\n${' '.repeat(indent * level)}`;
      const pieces: (JsonValue | Text)[] = [];
      if (isMap) {
        const keys = [...item.keys()];
        if (sortKeys) keys.sort(compareCodePoints);
        keys.forEach((key, index) => {
          pieces.push({ text: `${index > 0 ? ',' : ''}${inner}${quoteJsonString(key)}${colon}` }, item.get(key)!);
        });
      } else {
        item.forEach((element, index) => {
          pieces.push({ text: `${index > 0 ? ',' : ''}${inner}` }, element);
        });
      }
      out += isMap ? '{' : '[';
      work.push({ text: `${outer}${isMap ? '}' : ']'}` });
      levels.push(level);
      for (let i = pieces.length - 1; i >= 0; i--) {
        work.push(pieces[i]!);
        levels.push(level + 1);
      }
      continue;
    }
    out += scalarJson(item);
  }
  return out;
}

function scalarJson(value: null | boolean | number | bigint | string): string {
  if (value === null) return grammar.NULL_NAME;
  switch (typeof value) {
    case 'boolean':
      return value ? grammar.TRUE_NAME : grammar.FALSE_NAME;
    case 'bigint':
      return value.toString();
    case 'number':
      return pythonJsonFloat(value);
    default:
      return quoteJsonString(value);
  }
}

/** The characters a JSON string must escape (`_grammar.ts`'s `mustEscape`). */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/g;

/** The escape Python writes for `c`: its two-character escape, else `\u00XX`. */
function escapeCharacter(c: string): string {
  const code = c.charCodeAt(0);
  const letter = grammar.escapeLetter(code);
  return letter !== 0 ? `\\${String.fromCharCode(letter)}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Python's `json` string quoting with `ensure_ascii=False` (`c_encode_basestring`): only `"`,
 * `\\` and U+0000..U+001F are escaped; everything else (including `/`, U+2028) is kept raw.
 * @example
 * quoteJsonString('a"\u0001/é'); // '"a\\"\\u0001/é"'
 */
export function quoteJsonString(text: string): string {
  return `"${text.replace(NEEDS_ESCAPE, escapeCharacter)}"`;
}

/**
 * Compares two strings by Unicode code point, as Python compares `str` (JavaScript's `<` compares
 * UTF-16 code units, which orders U+10000.. before U+E000..U+FFFF). Lone surrogates compare as
 * their own code points.
 * @example
 * ['\u{1F600}', '\uFF01'].sort(compareCodePoints); // ['\uFF01', '\u{1F600}']
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  // Back up to the start of the code point when the difference is in the low half of a pair.
  if (i > 0) {
    const previous = a.charCodeAt(i - 1);
    if (previous >= 0xd800 && previous <= 0xdbff) i--;
  }
  return a.codePointAt(i)! - b.codePointAt(i)!;
}
