/**
 * The tape: one validating pass over JSON bytes that records the structure of a value as a flat
 * `Int32Array` (four slots per node, no JavaScript objects or strings), in the manner of
 * simdjson's tape. Every consumer works from it: materialising a value (`reader.ts`), writing
 * Python's canonical bytes straight from the input bytes (`canonical-tape.ts`).
 *
 * The grammar is Python's `json.loads` (CPython 3.11 C scanner), not strict RFC 8259: it also
 * accepts `NaN`, `Infinity` and `-Infinity`, keeps `\uD800`-style lone surrogate escapes, and
 * refuses raw control characters in strings. Errors carry CPython's wording and the byte offset.
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
  /** `bytes` four at a time (see `wordsOf`), for skipping plain string bytes; undefined when unaligned. */
  readonly words: Int32Array | undefined;
}

/**
 * Creates a scan context over `bytes`.
 * @example
 * const context = createScanContext(new TextEncoder().encode('[1, 2.0]'), 100);
 * scanValue(context, 0, 0); // 8
 */
export function createScanContext(bytes: Uint8Array, maxDepth: number): ScanContext {
  return { bytes, maxDepth, tape: { data: new Int32Array(SLOTS * 256), length: 0 }, error: undefined, stack: [], words: wordsOf(bytes) };
}

/**
 * A view of `bytes` as 32-bit words (word i = bytes 4i..4i+3), when `bytes` starts on a 4-byte
 * boundary of its buffer; the last partial word is left out.
 * @example
 * wordsOf(new Uint8Array(10)); // Int32Array of length 2
 */
export function wordsOf(bytes: Uint8Array): Int32Array | undefined {
  return bytes.byteOffset % 4 === 0 ? new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2) : undefined;
}

/**
 * Whether any of the four bytes of `word` needs a look inside a string: `"` (0x22), `\` (0x5c),
 * a control character (< 0x20) or a non-ASCII byte (>= 0x80). The usual SWAR tests: for a byte
 * b < 0x80, (b - c) borrows into bit 7 exactly when b < c; a zero byte of (word ^ c) is a byte
 * equal to c. A borrow can only spread upward from a byte that already matched, so "any" is exact.
 */
function needsLook(word: number): boolean {
  const quote = word ^ 0x22222222;
  const backslash = word ^ 0x5c5c5c5c;
  return ((word | (((word - 0x20202020) | 0) & ~word) | (((quote - 0x01010101) | 0) & ~quote) | (((backslash - 0x01010101) | 0) & ~backslash)) & 0x80808080) !== 0;
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

/** Byte classes for the string fast path: 0 = plain ASCII, anything else needs a look. */
const STRING_CLASS: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(256);
  for (let c = 0; c < 0x20; c++) table[c] = 1;
  table[0x22] = 1;
  table[0x5c] = 1;
  for (let c = 0x80; c < 0x100; c++) table[c] = 1;
  return table;
})();

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/** Skips JSON whitespace (space, tab, LF, CR: Python's `[ \t\n\r]*`). */
export function skipWhitespace(bytes: Uint8Array, pos: number): number {
  const end = bytes.length;
  while (pos < end) {
    const c = bytes[pos]!;
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
    else break;
  }
  return pos;
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

function matches(bytes: Uint8Array, pos: number, word: string): boolean {
  if (pos + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[pos + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** Length of the valid UTF-8 sequence at `pos` (lead byte >= 0x80), or 0 when invalid. */
function utf8Length(bytes: Uint8Array, pos: number): number {
  const c = bytes[pos]!;
  const n = bytes.length;
  if (c < 0xc2 || c > 0xf4) return 0;
  const need = c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
  if (pos + need >= n) return 0;
  const second = bytes[pos + 1]!;
  const low = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
  const high = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
  if (second < low || second > high) return 0;
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
    // Plain bytes: one at a time up to a word boundary, then a word at a time, then the rest.
    while (pos < end && (pos & 3) !== 0 && STRING_CLASS[bytes[pos]!] === 0) pos++;
    if (words !== undefined && (pos & 3) === 0) {
      let word = pos >> 2;
      while (word < words.length && !needsLook(words[word]!)) word++;
      pos = word << 2;
    }
    while (pos < end && STRING_CLASS[bytes[pos]!] === 0) pos++;
    if (pos >= end) return scanFail(context, 'syntax', 'Unterminated string starting at', quote);
    const c = bytes[pos]!;
    if (c === 0x22) break;
    if (c === 0x5c) {
      flags |= ESCAPED;
      if (pos + 1 >= end) return scanFail(context, 'syntax', 'Unterminated string starting at', quote);
      const e = bytes[pos + 1]!;
      if (e === 0x75) {
        // CPython requires the four digits and at least one more character after them.
        if (pos + 6 >= end) return scanFail(context, 'syntax', 'Invalid \\uXXXX escape', pos + 1);
        if (!isHex(bytes[pos + 2]!) || !isHex(bytes[pos + 3]!) || !isHex(bytes[pos + 4]!) || !isHex(bytes[pos + 5]!)) {
          return scanFail(context, 'syntax', 'Invalid \\uXXXX escape', pos + 1);
        }
        pos += 6;
      } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        pos += 2;
      } else {
        return scanFail(context, 'syntax', 'Invalid \\escape', pos);
      }
      continue;
    }
    if (c < 0x20) return scanFail(context, 'syntax', 'Invalid control character at', pos);
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
 * Scans a number (or `-Infinity`) starting at `start` into the node at `slot`, with CPython's
 * number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`, the fraction and exponent
 * being taken only when complete (so `1.` is the int `1` followed by a stray `.`).
 */
function scanNumber(context: ScanContext, start: number, slot: number): number {
  const bytes = context.bytes;
  const end = bytes.length;
  const data = context.tape.data;
  let pos = start;
  if (bytes[pos] === 0x2d) {
    pos++;
    if (matches(bytes, pos, 'Infinity')) {
      data[slot] = TAG_NEG_INFINITY;
      data[slot + 1] = start;
      data[slot + 2] = 0;
      data[slot + 3] = 0;
      return pos + 8;
    }
    if (pos >= end || !isDigit(bytes[pos]!)) return scanFail(context, 'syntax', 'Expecting value', start);
  }
  if (bytes[pos] === 0x30) pos++;
  else while (pos < end && isDigit(bytes[pos]!)) pos++;
  let tag = TAG_INT;
  if (pos + 1 < end && bytes[pos] === 0x2e && isDigit(bytes[pos + 1]!)) {
    pos += 2;
    while (pos < end && isDigit(bytes[pos]!)) pos++;
    tag = TAG_FLOAT;
  }
  if (pos < end && (bytes[pos] === 0x65 || bytes[pos] === 0x45)) {
    let q = pos + 1;
    if (q < end && (bytes[q] === 0x2b || bytes[q] === 0x2d)) q++;
    if (q < end && isDigit(bytes[q]!)) {
      while (q < end && isDigit(bytes[q]!)) q++;
      pos = q;
      tag = TAG_FLOAT;
    }
  }
  if (tag === TAG_INT) {
    const digits = pos - start - (bytes[start] === 0x2d ? 1 : 0);
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
  if (at >= bytes.length || bytes[at] !== 0x22) return scanFail(context, 'syntax', 'Expecting property name enclosed in double quotes', at);
  let next = scanString(context, at, slot);
  if (next < 0) return -1;
  next = skipWhitespace(bytes, next);
  if (next >= bytes.length || bytes[next] !== 0x3a) return scanFail(context, 'syntax', "Expecting ':' delimiter", next);
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
    pos = skipWhitespace(bytes, pos);
    if (len + 2 * SLOTS > data.length) data = grow(tape, len + 2 * SLOTS, len);
    if (pos >= end) {
      pos = scanFail(context, 'syntax', 'Expecting value', pos);
      break value;
    }
    const c = bytes[pos]!;
    if (c === 0x22) {
      pos = scanString(context, pos, len);
      if (pos < 0) break value;
      len += SLOTS;
    } else if (c === 0x7b || c === 0x5b) {
      if (baseDepth + depth + 1 > context.maxDepth) {
        const what = c === 0x7b ? 'object' : 'array';
        pos = scanFail(context, 'depth', `maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`, pos);
        break value;
      }
      data[len] = c === 0x7b ? TAG_OBJECT : TAG_ARRAY;
      data[len + 1] = 0;
      data[len + 2] = 0;
      data[len + 3] = pos;
      stack.push(len);
      depth++;
      len += SLOTS;
      pos = skipWhitespace(bytes, pos + 1);
      if (pos < end && bytes[pos] === (c === 0x7b ? 0x7d : 0x5d)) {
        // An empty container is a complete value.
        pos++;
        stack.pop();
        depth--;
        data[len - SLOTS + 2] = len;
      } else if (c === 0x5b) {
        continue value;
      } else {
        pos = scanKey(context, pos, len);
        if (pos < 0) break value;
        len += SLOTS;
        continue value;
      }
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      pos = scanNumber(context, pos, len);
      if (pos < 0) break value;
      len += SLOTS;
    } else {
      const tag = c === 0x74 ? TAG_TRUE : c === 0x66 ? TAG_FALSE : c === 0x6e ? TAG_NULL : c === 0x4e ? TAG_NAN : c === 0x49 ? TAG_INFINITY : 0;
      const word = LITERALS[tag];
      if (word === undefined || !matches(bytes, pos, word)) {
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
      pos = skipWhitespace(bytes, pos);
      const d = pos < end ? bytes[pos]! : -1;
      const isArray = data[top] === TAG_ARRAY;
      if (d === 0x2c) {
        if (isArray) {
          pos++;
          continue value;
        }
        if (len + 2 * SLOTS > data.length) data = grow(tape, len + 2 * SLOTS, len);
        pos = scanKey(context, skipWhitespace(bytes, pos + 1), len);
        if (pos < 0) break value;
        len += SLOTS;
        continue value;
      }
      if (d !== (isArray ? 0x5d : 0x7d)) {
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

/** Literal words by tag (numbers and strings are scanned separately). */
const LITERALS: readonly (string | undefined)[] = [undefined, undefined, undefined, undefined, undefined, undefined, 'true', 'false', 'null', 'NaN', 'Infinity'];
