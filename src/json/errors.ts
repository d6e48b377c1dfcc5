/**
 * Read errors as data, worded as CPython 3.11 words them (its `json` module, its UTF-8 decoder,
 * its integer-conversion limit, its recursion limit), with the byte offset where the problem is.
 * Python reports positions in code points; `pythonJsonPosition` converts a byte offset.
 * @module
 */
import * as grammar from './_grammar.ts';

/** Why a document could not be read. */
export type JsonReadErrorKind =
  /** Not JSON (Python's `json.JSONDecodeError`). */
  | 'syntax'
  /** Nesting deeper than the reader's `maxDepth` (Python's `RecursionError`). */
  | 'depth'
  /** An integer literal with more than 4300 digits (Python's `int_max_str_digits`). */
  | 'integer_digits'
  /** Invalid UTF-8 (Python's `UnicodeDecodeError` when the file is read as text). */
  | 'utf8'
  /** A UTF-8 byte-order mark before the document (Python: "Unexpected UTF-8 BOM"). */
  | 'bom';

export interface JsonReadError {
  readonly kind: JsonReadErrorKind;
  /** CPython's message for this problem, e.g. `Expecting ',' delimiter: line 3 column 5 (char 20)`. */
  readonly message: string;
  /** Byte offset of the problem in the input. */
  readonly offset: number;
  /**
   * A syntax error whose message still lacks Python's position (`: line L column C (char P)`, of
   * `offset`), for the caller to add (`DocumentReaderOptions.countDroppedPositions`).
   */
  readonly positionPending?: true;
}

/** CPython's `sys.int_info.default_max_str_digits`: longer integer literals are refused. */
export const PYTHON_INT_MAX_STR_DIGITS = 4300;

/**
 * Where a point of a document is, counted as Python counts for its error messages: code points
 * read, line number, and the code-point index of the last newline (-1: none yet). Advanced over
 * bytes that are then dropped, it lets a reader that does not keep the whole document still word
 * its errors exactly.
 */
export interface TextPosition {
  readonly chars: number;
  readonly line: number;
  readonly lastNewlineChar: number;
}

/** The start of a document. */
export const TEXT_START: TextPosition = Object.freeze({ chars: 0, line: 1, lastNewlineChar: -1 });

/**
 * The position after reading `bytes[start..end)` from `from`.
 * @example
 * advancePosition(TEXT_START, new TextEncoder().encode('{\n"é"'), 0, 6); // { chars: 5, line: 2, lastNewlineChar: 1 }
 */
export function advancePosition(from: TextPosition, bytes: Uint8Array, start: number, end: number): TextPosition {
  let { chars, line, lastNewlineChar } = from;
  const stop = Math.min(end, bytes.length);
  const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = start;
  // Four bytes at a time (it runs over every byte a bounded reader drops): a word without a
  // newline counts its bytes that start a code point, i.e. all but the continuation bytes
  // 10xxxxxx; a word with a newline goes byte by byte.
  for (const last = stop - 4; i <= last; i += 4) {
    const word = words.getUint32(i);
    const newlines = word ^ 0x0a0a0a0a;
    if (((newlines - 0x01010101) & ~newlines & 0x80808080) !== 0) {
      for (let k = i; k < i + 4; k++) {
        const byte = bytes[k]!;
        if ((byte & 0xc0) === 0x80) continue;
        if (byte === 0x0a) {
          line++;
          lastNewlineChar = chars;
        }
        chars++;
      }
      continue;
    }
    const continuations = word & ~(word << 1) & 0x80808080;
    chars += 4 - (Math.imul(continuations >>> 7, 0x01010101) >>> 24);
  }
  for (; i < stop; i++) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: same code point
    if (byte === 0x0a) {
      line++;
      lastNewlineChar = chars;
    }
    chars++;
  }
  return { chars, line, lastNewlineChar };
}

/**
 * Python's position suffix: `line L column C (char P)`.
 * @example
 * formatPosition({ chars: 8, line: 2, lastNewlineChar: 1 }); // 'line 2 column 7 (char 8)'
 */
export function formatPosition(position: TextPosition): string {
  const { chars, line, lastNewlineChar } = position;
  const column = lastNewlineChar < 0 ? chars + 1 : chars - lastNewlineChar;
  return `line ${line} column ${column} (char ${chars})`;
}

/**
 * Python's position suffix for a byte offset: `line L column C (char P)`, counting code points.
 * Linear in `offset`; only called once, when a document is rejected.
 * @example
 * pythonJsonPosition(new TextEncoder().encode('{\n "é": x'), 9); // 'line 2 column 7 (char 8)'
 */
export function pythonJsonPosition(bytes: Uint8Array, offset: number): string {
  return formatPosition(advancePosition(TEXT_START, bytes, 0, offset));
}

/**
 * The first invalid UTF-8 sequence, with CPython's decoder wording and byte range (maximal
 * subpart, like WHATWG): `invalid start byte`, `invalid continuation byte`, `unexpected end of data`.
 * @example
 * firstUtf8Error(new Uint8Array([0x61, 0xff])); // { start: 1, end: 2, reason: 'invalid start byte' }
 */
export function firstUtf8Error(
  bytes: Uint8Array,
  from = 0,
): { start: number; end: number; reason: string } | undefined {
  const n = bytes.length;
  let i = from;
  while (i < n) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const need = grammar.utf8ContinuationCount(c);
    if (need === 0) return { start: i, end: i + 1, reason: 'invalid start byte' };
    // The second byte has a narrower range for E0 (no overlongs), ED (no surrogates), F0, F4.
    const low = grammar.utf8SecondByteMin(c);
    const high = grammar.utf8SecondByteMax(c);
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return { start: i, end: n, reason: 'unexpected end of data' };
      const next = bytes[i + k]!;
      const ok = k === 1 ? next >= low && next <= high : (next & 0xc0) === 0x80;
      if (!ok) return { start: i, end: i + k, reason: 'invalid continuation byte' };
    }
    i += need + 1;
  }
  return undefined;
}

/**
 * CPython's `str(UnicodeDecodeError)` for a UTF-8 problem found by `firstUtf8Error` (in `bytes`,
 * which start at byte `base` of the document).
 * @example
 * utf8ErrorMessage(new Uint8Array([0xff]), { start: 0, end: 1, reason: 'invalid start byte' });
 * // "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"
 */
export function utf8ErrorMessage(
  bytes: Uint8Array,
  problem: { start: number; end: number; reason: string },
  base = 0,
): string {
  if (problem.end - problem.start === 1) {
    const hex = bytes[problem.start]!.toString(16).padStart(2, '0');
    return `'utf-8' codec can't decode byte 0x${hex} in position ${base + problem.start}: ${problem.reason}`;
  }
  return `'utf-8' codec can't decode bytes in position ${base + problem.start}-${base + problem.end - 1}: ${problem.reason}`;
}
