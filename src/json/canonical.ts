/**
 * Python's `json.dumps` for values of the lossless model (`value.ts`), byte for byte:
 * - `canonicalJson`: `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`
 *   encoded as UTF-8, the bytes Zaxy hashes and signs (docs/zaxy.md, 'Canonical JSON'). Keys sorted
 *   by code point (not UTF-16 code unit, as JavaScript and RFC 8785 sort), floats as Python's repr, exact big
 *   integers, `NaN`/`Infinity` tokens, only `"` `\\` and C0 controls escaped (lowercase `\u00xx`).
 *   A lone surrogate cannot be encoded: the result is then CPython's `UnicodeEncodeError` text.
 * - `pythonJsonDumps`: `json.dumps(v, indent=N, ensure_ascii=False)` (Zaxy's file layout, the
 *   agent-history markdown's JSON blocks, the inspector's JSON views, where a number may be kept as
 *   the characters its source wrote); `pythonJsonDumpsWithin` gives up past a length.
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

/** A number printed as the characters given (`1.50`, `1E-7`), not as Python would re-print it. */
export interface NumberText {
  readonly lexeme: string;
}

/**
 * What the printer takes: a value of the lossless model (`value.ts`), in which a number may also
 * be held as the text to print for it (`NumberText`, as the inspector's display values keep it).
 */
export type DumpsValue =
  null | boolean | number | bigint | string | NumberText | readonly DumpsValue[] | ReadonlyMap<string, DumpsValue>;

/**
 * Python's `json.dumps(value, ensure_ascii=False, ...)` as a JavaScript string (lone surrogates
 * kept). Without `indent` the separators are the compact `,` and `:` (what Zaxy canonicalises
 * with); with `indent` Python's pretty layout (`[]`/`{}` for empty containers).
 * @example
 * pythonJsonDumps(new Map([['a', [1n, 2.5]]]), { indent: 2 }); // '{\n  "a": [\n    1,\n    2.5\n  ]\n}'
 * pythonJsonDumps([{ lexeme: '1.50' }]); // '[1.50]'
 */
export function pythonJsonDumps(value: DumpsValue, options: DumpsOptions = {}): string {
  return pythonJsonDumpsWithin(value, Infinity, options)!; // no text is longer than Infinity
}

/**
 * `pythonJsonDumps(value, options)` when that text is at most `maxLength` UTF-16 code units long,
 * else undefined. It stops as soon as the text passes `maxLength` (indentation grows with nesting:
 * 1,000 levels of `[` print about a million spaces), so the work and memory are bounded by
 * `maxLength` and one piece (a key or a scalar) more.
 * @example
 * pythonJsonDumpsWithin([[[]]], 18, { indent: 2 }); // '[\n  [\n    []\n  ]\n]' (18 characters)
 * pythonJsonDumpsWithin([[[]]], 17, { indent: 2 }); // undefined
 */
export function pythonJsonDumpsWithin(
  value: DumpsValue,
  maxLength: number,
  options: DumpsOptions = {},
): string | undefined {
  if (!isContainer(value)) {
    const text = scalarJson(value);
    return text.length > maxLength ? undefined : text;
  }
  const indent = options.indent;
  const sortKeys = options.sortKeys ?? false;
  const colon = indent === undefined ? ':' : ': ';
  /** `lines[level]`: a line feed and the indentation of `level` (nothing when compact). */
  const lines: string[] = [];
  // The containers being printed, outermost first: a member's nesting level is their count.
  const open: Open[] = [];
  let out = '';
  let pending: DumpsValue | undefined = value;
  for (;;) {
    if (pending !== undefined) {
      if (isObject(pending)) {
        if (pending.size === 0) out += '{}';
        else {
          const keys = [...pending.keys()];
          if (sortKeys) keys.sort(compareCodePoints);
          out += '{';
          open.push({ array: undefined, object: pending, keys, next: 0 });
        }
      } else if (isArray(pending)) {
        if (pending.length === 0) out += '[]';
        else {
          out += '[';
          open.push({ array: pending, object: undefined, keys: undefined, next: 0 });
        }
      } else out += scalarJson(pending);
      pending = undefined;
    }
    if (out.length > maxLength) return undefined;
    const top = open.length > 0 ? open[open.length - 1]! : undefined;
    if (top === undefined) return out;
    const index = top.next++;
    if (top.array !== undefined && index < top.array.length) {
      out += `${index > 0 ? ',' : ''}${lineAt(lines, indent, open.length)}`;
      pending = top.array[index]!;
    } else if (top.keys !== undefined && index < top.keys.length) {
      const key = top.keys[index]!;
      out += `${index > 0 ? ',' : ''}${lineAt(lines, indent, open.length)}${quoteJsonString(key)}${colon}`;
      pending = top.object!.get(key)!;
    } else {
      open.pop();
      out += `${lineAt(lines, indent, open.length)}${top.array === undefined ? '}' : ']'}`;
    }
  }
}

/** A line feed and the indentation of `level` (nothing when compact), remembered in `lines`. */
function lineAt(lines: string[], indent: number | undefined, level: number): string {
  return indent === undefined ? '' : (lines[level] ??= `\n${' '.repeat(indent * level)}`);
}

type Scalar = Exclude<DumpsValue, readonly DumpsValue[] | ReadonlyMap<string, DumpsValue>>;

/** A container being printed: its members (`array`, or `object` and its `keys` in print order). */
interface Open {
  readonly array: readonly DumpsValue[] | undefined;
  readonly object: ReadonlyMap<string, DumpsValue> | undefined;
  readonly keys: readonly string[] | undefined;
  /** The index of the next member to print. */
  next: number;
}

/** `Array.isArray` for readonly arrays (TypeScript's declaration narrows only mutable ones). */
const isArray: (value: DumpsValue) => value is readonly DumpsValue[] = Array.isArray;

function isObject(value: DumpsValue): value is ReadonlyMap<string, DumpsValue> {
  return value instanceof Map;
}

function isContainer(value: DumpsValue): value is readonly DumpsValue[] | ReadonlyMap<string, DumpsValue> {
  return isObject(value) || isArray(value);
}

function scalarJson(value: Scalar): string {
  if (value === null) return grammar.NULL_NAME;
  switch (typeof value) {
    case 'boolean':
      return value ? grammar.TRUE_NAME : grammar.FALSE_NAME;
    case 'bigint':
      return value.toString();
    case 'number':
      return pythonJsonFloat(value);
    case 'string':
      return quoteJsonString(value);
    default:
      return value.lexeme;
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
