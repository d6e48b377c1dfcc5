/**
 * Artifact values as the text a view shows: numbers by their lexeme, objects pretty-printed in
 * the layout of Python's `json.dumps(indent=2, ensure_ascii=False)` by `pythonJsonDumps`
 * (`json/canonical.ts`), in the artifact's key order.
 *
 * Values read with `readDisplayJson` / `readDisplayJsonAt` keep each number as the characters the
 * bytes hold (`1.50`, `1e5`, `-0`, `1E-7`, a 2^64 integer): a person sees what the artifact says,
 * not what a parser made of it. Values of the lossless model (`json/value.ts`) print their numbers
 * as Python does (an integer of any size exact, a float as its `repr`: `1.0` stays `1.0`, `1.50`
 * becomes `1.5`), which is what the agent-history and Codex views show.
 * @module
 */
import { pythonJsonDumps, pythonJsonDumpsWithin, type NumberText } from '../json/canonical.ts';
import { skipWhitespace } from '../json/_grammar.ts';
import { decodeString, readJson, scalarValue, type JsonReadError, type ReadJsonOptions } from '../json/reader.ts';
import {
  childCount,
  firstChild,
  floatLexeme,
  integerLexeme,
  isArrayNode,
  isObjectNode,
  nextSlot,
} from '../json/tape-read.ts';
import { createScanContext, readError, scanValue } from '../json/tape.ts';
import { DEFAULT_LIMITS } from '../limits.ts';

/** Past this length a pretty layout is dropped for the compact one (deep nesting inflates indentation). */
const MAX_PRETTY_LENGTH = 4 * 1024 * 1024;

/** A number as the artifact's bytes write it (the printer writes `lexeme` as it is). */
export interface NumberLexeme extends NumberText {
  /** The characters of the number (`1.50`, `1E-7`, `-0`). */
  readonly lexeme: string;
  /** An integer lexeme (no fraction, no exponent): Python reads it as an `int`, else as a `float`. */
  readonly integer: boolean;
}

/**
 * A value read for display: the lossless model's, with every integer and float as its lexeme
 * (`NaN` and `±Infinity` stay numbers: their text is their lexeme).
 */
export type DisplayValue =
  null | boolean | number | bigint | string | NumberLexeme | DisplayValue[] | Map<string, DisplayValue>;

export type ReadDisplayResult =
  { readonly ok: true; readonly value: DisplayValue } | { readonly ok: false; readonly error: JsonReadError };

/**
 * Whether a display value is a number kept as its lexeme.
 * @example
 * isNumberLexeme({ lexeme: '1.50', integer: false }); // true
 */
export function isNumberLexeme(value: DisplayValue | undefined): value is NumberLexeme {
  return typeof value === 'object' && value !== null && !(value instanceof Map) && !Array.isArray(value);
}

/**
 * The number a lexeme stands for, as the lossless reader holds it (`bigint` for an integer).
 * @example
 * numberValue({ lexeme: '1.50', integer: false }); // 1.5
 */
export function numberValue(value: NumberLexeme): number | bigint {
  return value.integer ? BigInt(value.lexeme) : Number(value.lexeme);
}

/**
 * Reads a JSON document as `readJson` does (same acceptance, same errors), keeping number lexemes.
 * Never throws.
 * @example
 * const read = readDisplayJson(new TextEncoder().encode('[1.50, 1e5]'));
 * if (read.ok) read.value; // [{ lexeme: '1.50', integer: false }, { lexeme: '1e5', integer: false }]
 */
export function readDisplayJson(bytes: Uint8Array, options: ReadJsonOptions = {}): ReadDisplayResult {
  const context = createScanContext(bytes, options.maxDepth ?? DEFAULT_LIMITS.maxJsonDepth);
  const end = scanValue(context, 0, 0);
  if (end >= 0 && skipWhitespace(bytes, end) === bytes.length)
    return { ok: true, value: displayValue(bytes, context.tape.data, 0) };
  // Not a clean read: the reader words the error (file-level UTF-8 and BOM rules first).
  return readJson(bytes, options);
}

/**
 * Reads the one value starting at byte `offset` (as `readJsonAt` does), keeping number lexemes.
 * Never throws.
 * @example
 * const read = readDisplayJsonAt(new TextEncoder().encode('{"a": 2.50}'), 0);
 * if (read.ok) read.value; // Map { 'a' => { lexeme: '2.50', integer: false } }
 */
export function readDisplayJsonAt(bytes: Uint8Array, offset: number, options: ReadJsonOptions = {}): ReadDisplayResult {
  const context = createScanContext(bytes, options.maxDepth ?? DEFAULT_LIMITS.maxJsonDepth);
  const end = scanValue(context, offset, 0);
  if (end < 0) return { ok: false, error: readError(bytes, context.error!) };
  return { ok: true, value: displayValue(bytes, context.tape.data, 0) };
}

/** One open container while building a display value. */
interface Frame {
  readonly container: DisplayValue[] | Map<string, DisplayValue>;
  left: number;
}

/**
 * The display value of the tape node at `node`, built as `materialize` builds the lossless one
 * (iteratively; a repeated key keeps its first position and its last value, as a Python `dict`).
 */
function displayValue(bytes: Uint8Array, tape: Int32Array, node: number): DisplayValue {
  const frames: Frame[] = [];
  let root: DisplayValue = null;
  let slot = node;
  for (;;) {
    const parent = frames.length > 0 ? frames[frames.length - 1]! : undefined;
    let key = '';
    if (parent !== undefined && parent.container instanceof Map) {
      key = decodeString(bytes, tape, slot);
      slot = nextSlot(tape, slot);
    }
    let value: DisplayValue;
    let left = 0;
    if (isObjectNode(tape, slot) || isArrayNode(tape, slot)) {
      value = isObjectNode(tape, slot) ? new Map<string, DisplayValue>() : [];
      left = childCount(tape, slot);
      slot = firstChild(slot);
    } else {
      value = displayScalar(bytes, tape, slot);
      slot = nextSlot(tape, slot);
    }
    if (parent === undefined) root = value;
    else {
      if (parent.container instanceof Map) parent.container.set(key, value);
      else parent.container.push(value);
      parent.left--;
    }
    if (left > 0) frames.push({ container: value as Frame['container'], left });
    while (frames.length > 0 && frames[frames.length - 1]!.left === 0) frames.pop();
    if (frames.length === 0) return root;
  }
}

function displayScalar(bytes: Uint8Array, tape: Int32Array, slot: number): DisplayValue {
  const integer = integerLexeme(bytes, tape, slot);
  if (integer !== undefined) return { lexeme: integer, integer: true };
  const float = floatLexeme(bytes, tape, slot);
  if (float !== undefined) return { lexeme: float, integer: false };
  return scalarValue(bytes, tape, slot);
}

/**
 * A scalar as text (strings as they are, numbers by lexeme, `true`, `false`, `null`); undefined
 * for containers and missing values.
 * @example
 * lexeme({ lexeme: '1.50', integer: false }); // '1.50'
 * lexeme(12345678901234567890n); // '12345678901234567890'
 * lexeme(1); // '1.0' (the lossless reader keeps `1.0` as a float; Python prints it so)
 */
export function lexeme(value: DisplayValue | undefined): string | undefined {
  if (value === undefined || value instanceof Map || Array.isArray(value)) return undefined;
  return typeof value === 'string' ? value : pythonJsonDumps(value);
}

/**
 * A value as JSON text: pretty (two-space indent) unless that would be huge, then compact.
 * @example
 * prettyJson(new Map([['a', 1n]])); // '{\n  "a": 1\n}'
 * prettyJson([{ lexeme: '2.50', integer: false }]); // '[\n  2.50\n]'
 */
export function prettyJson(value: DisplayValue): string {
  return pythonJsonDumpsWithin(value, MAX_PRETTY_LENGTH, { indent: 2 }) ?? pythonJsonDumps(value);
}

/**
 * A string value, or the JSON text of any other value (for a field that should hold text).
 * @example
 * textOf('ok'); // 'ok'
 * textOf([1n]); // '[\n  1\n]'
 */
export function textOf(value: DisplayValue | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : prettyJson(value);
}
