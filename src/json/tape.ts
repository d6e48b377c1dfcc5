/**
 * The tape: one validating pass over JSON bytes that records the structure of a value as a flat
 * `Int32Array` (four slots per node, no JavaScript objects or strings), in the manner of
 * simdjson's tape. Every consumer works from it: materialising a value (`reader.ts`), writing
 * Python's canonical bytes straight from the input bytes (`canonical-tape.ts`).
 *
 * The grammar is Python's `json.loads` (CPython 3.11 C scanner), not strict RFC 8259: it also
 * accepts `NaN`, `Infinity` and `-Infinity`, keeps `\uD800`-style lone surrogate escapes, and
 * refuses raw control characters in strings. Its rules live in `_grammar.ts`; this module adds the
 * order CPython checks them in, its error wording, and the byte offset.
 *
 * Node layout (`SLOTS` = 4 slots, `node` is a slot index):
 * - string: `[TAG_STRING, start, end, flags]` — bytes between the quotes; flags `ESCAPED`, `NON_ASCII`
 * - int / float: `[TAG_INT | TAG_FLOAT, start, end, 0]` — the number's lexeme
 * - literal: `[TAG_TRUE | TAG_FALSE | TAG_NULL | TAG_NAN | TAG_INFINITY | TAG_NEG_INFINITY, start, 0, 0]`
 * - object / array: `[TAG_OBJECT | TAG_ARRAY, count, next, start]` — `count` members (key and
 *   value nodes follow, alternating) or elements; `next` = slot just past the whole subtree.
 *
 * The bytes are attacker-controlled: the scanner is iterative (an explicit container stack, so
 * hostile nesting cannot overflow the call stack), bounded by `maxDepth`, and linear in the input.
 * @module
 */
import * as grammar from './_grammar.ts';
import { PYTHON_INT_MAX_STR_DIGITS, type JsonReadError, type JsonReadErrorKind, pythonJsonPosition } from './errors.ts';

export const TAG_OBJECT = 1;
export const TAG_ARRAY = 2;
export const TAG_STRING = 3;
export const TAG_INT = 4;
export const TAG_FLOAT = 5;
export const TAG_TRUE = 6;
export const TAG_FALSE = 7;
export const TAG_NULL = 8;
export const TAG_NAN = 9;
export const TAG_INFINITY = 10;
export const TAG_NEG_INFINITY = 11;

/** Slots per node. */
export const SLOTS = 4;

/** String flag: the string contains at least one backslash escape. */
export const ESCAPED = 1;
/** String flag: the string contains at least one non-ASCII byte. */
export const NON_ASCII = 2;

/**
 * Packs `bytes[i..i+4)` into `words[i]` as a little-endian int, for every i below `length`, so that
 * remembered bytes can be compared or written a word at a time from any offset (the layouts of
 * `scan-template.ts`, the templates of `canonical-tape.ts`). `bytes` holds three more bytes.
 * @example
 * packWords(Uint8Array.of(1, 2, 3, 4, 0, 0, 0), 4, words); // words[0] === 0x04030201
 */
export function packWords(bytes: Uint8Array, length: number, words: Int32Array): void {
  for (let i = 0; i < length; i++)
    words[i] = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
}

/** A growable tape. `length` counts slots in use. */
export interface Tape {
  data: Int32Array;
  length: number;
}

/** Reusable state of one document scan. */
export interface ScanContext {
  readonly bytes: Uint8Array;
  /** Deepest nesting accepted; the root container is depth 1. */
  readonly maxDepth: number;
  readonly tape: Tape;
  /** Set when a scan returns -1. */
  error: ScanError | undefined;
  /** Open containers (slot indices) during a scan. */
  readonly stack: number[];
  /** `bytes` four bytes at a time (`grammar.wordView`), for skipping plain string bytes. */
  readonly words: DataView | undefined;
}

/**
 * Creates a scan context over `bytes`.
 * @example
 * const context = createScanContext(new TextEncoder().encode('[1, 2.0]'), 100);
 * scanValue(context, 0, 0); // 8
 */
export function createScanContext(bytes: Uint8Array, maxDepth: number): ScanContext {
  return {
    bytes,
    maxDepth,
    tape: { data: new Int32Array(SLOTS * 256), length: 0 },
    error: undefined,
    stack: [],
    words: grammar.wordView(bytes),
  };
}

/** Grows the tape to hold `needed` slots, keeping the first `used` (the caller's live length). */
function grow(tape: Tape, needed: number, used: number): Int32Array {
  let size = tape.data.length * 2;
  while (size < needed) size *= 2;
  const data = new Int32Array(size);
  data.set(tape.data.subarray(0, used));
  tape.data = data;
  return data;
}

/** A scan error before its message is final (the position suffix costs a pass over the bytes). */
export interface ScanError {
  readonly kind: JsonReadErrorKind;
  /** CPython's message without the `line L column C (char P)` suffix. */
  readonly text: string;
  readonly offset: number;
}

/** Records an error and returns -1. Cheap: no position text yet (see `readError`). */
export function scanFail(context: ScanContext, kind: JsonReadErrorKind, text: string, offset: number): -1 {
  context.error = { kind, text, offset };
  return -1;
}

/**
 * The final error for a scan error: syntax errors get Python's position suffix (computed here,
 * once, since it costs a pass over the bytes before the offset).
 */
export function readError(bytes: Uint8Array, error: ScanError): JsonReadError {
  const message = error.kind === 'syntax' ? `${error.text}: ${pythonJsonPosition(bytes, error.offset)}` : error.text;
  return { kind: error.kind, message, offset: error.offset };
}

/** Length of the valid UTF-8 sequence at `pos` (lead byte >= 0x80), or 0 when invalid. */
function utf8Length(bytes: Uint8Array, pos: number): number {
  const c = bytes[pos]!;
  const need = grammar.utf8ContinuationCount(c);
  if (need === 0 || pos + need >= bytes.length) return 0;
  const second = bytes[pos + 1]!;
  if (second < grammar.utf8SecondByteMin(c) || second > grammar.utf8SecondByteMax(c)) return 0;
  for (let k = 2; k <= need; k++) if ((bytes[pos + k]! & 0xc0) !== 0x80) return 0;
  return need + 1;
}

/**
 * Scans a string whose opening quote is at `quote` into the node at `slot`.
 * @returns the offset after the closing quote, or -1 (error recorded).
 */
export function scanString(context: ScanContext, quote: number, slot: number): number {
  const bytes = context.bytes;
  const end = bytes.length;
  let pos = quote + 1;
  let flags = 0;
  const words = context.words;
  for (;;) {
    pos = grammar.skipStringBytes(bytes, pos, words, grammar.STOP_MUST_ESCAPE | grammar.STOP_NON_ASCII);
    if (pos >= end) return scanFail(context, 'syntax', 'Unterminated string starting at', quote);
    const c = bytes[pos]!;
    if (c === grammar.Byte.Quote) break;
    if (c === grammar.Byte.Backslash) {
      flags |= ESCAPED;
      if (pos + 1 >= end) return scanFail(context, 'syntax', 'Unterminated string starting at', quote);
      const e = bytes[pos + 1]!;
      if (e === grammar.Byte.UnicodeEscape) {
        // CPython requires the four digits and at least one more character after them.
        if (pos + 6 >= end || grammar.hexCodeUnit(bytes, pos + 2) < 0)
          return scanFail(context, 'syntax', 'Invalid \\uXXXX escape', pos + 1);
        pos += 6;
      } else if (grammar.escapedByte(e) !== 0) {
        pos += 2;
      } else {
        return scanFail(context, 'syntax', 'Invalid \\escape', pos);
      }
      continue;
    }
    if (grammar.isControlCharacter(c)) return scanFail(context, 'syntax', 'Invalid control character at', pos);
    const length = utf8Length(bytes, pos);
    // Replaced by the file-level UTF-8 error (Python decodes the whole file before parsing).
    if (length === 0) return scanFail(context, 'utf8', 'invalid UTF-8', pos);
    flags |= NON_ASCII;
    pos += length;
  }
  const data = context.tape.data;
  data[slot] = TAG_STRING;
  data[slot + 1] = quote + 1;
  data[slot + 2] = pos;
  data[slot + 3] = flags;
  return pos + 1;
}

/**
 * Scans a number (or `-Infinity`) starting at `start` into the node at `slot` (the number grammar
 * is `_grammar.ts`'s: an int, then a fraction and an exponent when complete).
 */
export function scanNumber(context: ScanContext, start: number, slot: number): number {
  const bytes = context.bytes;
  const end = bytes.length;
  const data = context.tape.data;
  let pos = start;
  if (bytes[pos] === grammar.Byte.Minus) {
    if (grammar.matchesName(bytes, pos, grammar.NEGATIVE_INFINITY_NAME)) {
      data[slot] = TAG_NEG_INFINITY;
      data[slot + 1] = start;
      data[slot + 2] = 0;
      data[slot + 3] = 0;
      return pos + grammar.NEGATIVE_INFINITY_NAME.length;
    }
    pos++;
    if (pos >= end || !grammar.isDigit(bytes[pos]!)) return scanFail(context, 'syntax', 'Expecting value', start);
  }
  const integer = grammar.integerEnd(bytes, pos);
  pos = grammar.fractionExponentEnd(bytes, integer);
  const tag = pos === integer ? TAG_INT : TAG_FLOAT;
  if (tag === TAG_INT) {
    const digits = pos - start - (bytes[start] === grammar.Byte.Minus ? 1 : 0);
    if (digits > PYTHON_INT_MAX_STR_DIGITS) {
      return scanFail(
        context,
        'integer_digits',
        `Exceeds the limit (${PYTHON_INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
        start,
      );
    }
  }
  data[slot] = tag;
  data[slot + 1] = start;
  data[slot + 2] = pos;
  data[slot + 3] = 0;
  return pos;
}

/**
 * Scans `"key" :` at `at` (whitespace already skipped) into the node at `slot`.
 * @returns the offset after the colon, or -1 (error recorded).
 */
function scanKey(context: ScanContext, at: number, slot: number): number {
  const bytes = context.bytes;
  if (at >= bytes.length || bytes[at] !== grammar.Byte.Quote)
    return scanFail(context, 'syntax', 'Expecting property name enclosed in double quotes', at);
  let next = scanString(context, at, slot);
  if (next < 0) return -1;
  next = grammar.skipWhitespace(bytes, next);
  if (next >= bytes.length || bytes[next] !== grammar.Byte.NameSeparator)
    return scanFail(context, 'syntax', "Expecting ':' delimiter", next);
  return next + 1;
}

/**
 * Scans one JSON value starting at `start` (leading whitespace allowed), appending its nodes to
 * `context.tape` (which the caller usually resets to length 0 first). `baseDepth` is the nesting
 * of the value's parent, so depth limits hold for values scanned inside a larger document.
 * @returns the offset just after the value, or -1 with `context.error` set.
 */
export function scanValue(context: ScanContext, start: number, baseDepth: number): number {
  const bytes = context.bytes;
  const end = bytes.length;
  const tape = context.tape;
  const stack = context.stack;
  const stackBase = stack.length;
  let data = tape.data;
  let len = tape.length;
  let pos = start;
  let depth = 0;

  value: for (;;) {
    // A value is expected at pos. Room for two nodes (a key and a value) is made here.
    pos = grammar.skipWhitespace(bytes, pos);
    if (len + 2 * SLOTS > data.length) data = grow(tape, len + 2 * SLOTS, len);
    if (pos >= end) {
      pos = scanFail(context, 'syntax', 'Expecting value', pos);
      break value;
    }
    const c = bytes[pos]!;
    if (c === grammar.Byte.Quote) {
      pos = scanString(context, pos, len);
      if (pos < 0) break value;
      len += SLOTS;
    } else if (c === grammar.Byte.BeginObject || c === grammar.Byte.BeginArray) {
      if (baseDepth + depth + 1 > context.maxDepth) {
        const what = c === grammar.Byte.BeginObject ? 'object' : 'array';
        pos = scanFail(
          context,
          'depth',
          `maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`,
          pos,
        );
        break value;
      }
      data[len] = c === grammar.Byte.BeginObject ? TAG_OBJECT : TAG_ARRAY;
      data[len + 1] = 0;
      data[len + 2] = 0;
      data[len + 3] = pos;
      stack.push(len);
      depth++;
      len += SLOTS;
      pos = grammar.skipWhitespace(bytes, pos + 1);
      if (
        pos < end &&
        bytes[pos] === (c === grammar.Byte.BeginObject ? grammar.Byte.EndObject : grammar.Byte.EndArray)
      ) {
        // An empty container is a complete value.
        pos++;
        stack.pop();
        depth--;
        data[len - SLOTS + 2] = len;
      } else if (c === grammar.Byte.BeginArray) {
        continue value;
      } else {
        pos = scanKey(context, pos, len);
        if (pos < 0) break value;
        len += SLOTS;
        continue value;
      }
    } else if (c === grammar.Byte.Minus || grammar.isDigit(c)) {
      pos = scanNumber(context, pos, len);
      if (pos < 0) break value;
      len += SLOTS;
    } else {
      const tag = LITERAL_TAGS[c]!;
      const word = LITERAL_NAMES[tag];
      if (word === undefined || !grammar.matchesName(bytes, pos, word)) {
        pos = scanFail(context, 'syntax', 'Expecting value', pos);
        break value;
      }
      data[len] = tag;
      data[len + 1] = pos;
      data[len + 2] = 0;
      data[len + 3] = 0;
      len += SLOTS;
      pos += word.length;
    }

    // A value just ended: close finished containers, or move on to the next element / member.
    for (;;) {
      if (depth === 0) {
        tape.length = len;
        return pos;
      }
      const top = stack[stack.length - 1]!;
      data[top + 1]!++;
      pos = grammar.skipWhitespace(bytes, pos);
      const d = pos < end ? bytes[pos]! : -1;
      const isArray = data[top] === TAG_ARRAY;
      if (d === grammar.Byte.ValueSeparator) {
        if (isArray) {
          pos++;
          continue value;
        }
        if (len + 2 * SLOTS > data.length) data = grow(tape, len + 2 * SLOTS, len);
        pos = scanKey(context, grammar.skipWhitespace(bytes, pos + 1), len);
        if (pos < 0) break value;
        len += SLOTS;
        continue value;
      }
      if (d !== (isArray ? grammar.Byte.EndArray : grammar.Byte.EndObject)) {
        pos = scanFail(context, 'syntax', "Expecting ',' delimiter", pos);
        break value;
      }
      pos++;
      stack.pop();
      depth--;
      data[top + 2] = len;
    }
  }
  // Failure: the error is recorded; leave the tape and stack as they were found.
  tape.length = len;
  stack.length = stackBase;
  return -1;
}

/** `LITERAL_NAMES[tag]`: the name a literal node was read from (`-Infinity` is scanned as a number). */
export const LITERAL_NAMES: readonly (string | undefined)[] = /* @__PURE__ */ (() => {
  const names: (string | undefined)[] = new Array<string | undefined>(TAG_NEG_INFINITY + 1).fill(undefined);
  names[TAG_TRUE] = grammar.TRUE_NAME;
  names[TAG_FALSE] = grammar.FALSE_NAME;
  names[TAG_NULL] = grammar.NULL_NAME;
  names[TAG_NAN] = grammar.NAN_NAME;
  names[TAG_INFINITY] = grammar.INFINITY_NAME;
  names[TAG_NEG_INFINITY] = grammar.NEGATIVE_INFINITY_NAME;
  return names;
})();

/** `LITERAL_TAGS[c]`: the literal tag a value starting with byte `c` can only be (0: none). */
const LITERAL_TAGS: Uint8Array = /* @__PURE__ */ (() => {
  const tags = new Uint8Array(256);
  for (const tag of [TAG_TRUE, TAG_FALSE, TAG_NULL, TAG_NAN, TAG_INFINITY])
    tags[LITERAL_NAMES[tag]!.charCodeAt(0)] = tag;
  return tags;
})();
