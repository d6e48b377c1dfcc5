/**
 * What JSON accepts, byte by byte (RFC 8259): structure, whitespace, string content and escapes,
 * numbers, literal names, and the UTF-8 the text is written in. Every reader lexes with this module
 * and spells none of it out again: the tape scanner (`tape.ts`), the document reader (`reader.ts`),
 * the NDJSON skimmer (`skim.ts`), the string-token comparer (`string-token.ts`), the canonical
 * writer (`canonical-tape.ts`) and AgentXchain's export skimmer
 * (`formats/agentxchain/deferred-strings.ts`). A change to what JSON is accepted lands here.
 *
 * The readers check two dialects that differ only in literal names: Python's `json.loads`
 * (CPython's scanner, which also reads `NaN`, `Infinity` and `-Infinity`) and ECMAScript's
 * `JSON.parse` (RFC 8259 exactly). Both take strings, numbers and whitespace as RFC 8259 has them.
 *
 * Internal to the package (the `_` prefix): the readers' hot loops call these small functions,
 * which V8 inlines, and the tables are built once.
 * @module
 */

// ---------------------------------------------------------------------------------------------
// Structure (RFC 8259 §2)

/**
 * The bytes that carry JSON's structure (RFC 8259 §2) and mark its strings (§7) and numbers (§6).
 * A `const enum`, so that a bundler writes the values in place and the hot loops compare and store
 * literals.
 */
export const enum Byte {
  /** `"`: opens and closes a string (RFC 8259 §7, quotation-mark). */
  Quote = 0x22,
  /** `\`: starts an escape inside a string (RFC 8259 §7, escape). */
  Backslash = 0x5c,
  /** `u` after a backslash: four hex digits follow (RFC 8259 §7). */
  UnicodeEscape = 0x75,
  /** `{` (RFC 8259 §2, begin-object). */
  BeginObject = 0x7b,
  /** `}` (RFC 8259 §2, end-object). */
  EndObject = 0x7d,
  /** `[` (RFC 8259 §2, begin-array). */
  BeginArray = 0x5b,
  /** `]` (RFC 8259 §2, end-array). */
  EndArray = 0x5d,
  /** `:` (RFC 8259 §2, name-separator). */
  NameSeparator = 0x3a,
  /** `,` (RFC 8259 §2, value-separator). */
  ValueSeparator = 0x2c,
  /** `-` (RFC 8259 §6, minus). */
  Minus = 0x2d,
  /** `.` (RFC 8259 §6, decimal-point). */
  DecimalPoint = 0x2e,
}

/**
 * The offset of the first byte at or after `pos` that is not insignificant whitespace (RFC 8259
 * §2, ws: space, horizontal tab, line feed, carriage return), or the end.
 * @example
 * skipWhitespace(new TextEncoder().encode(' \n[1]'), 0); // 2
 */
export function skipWhitespace(bytes: Uint8Array, pos: number): number {
  const end = bytes.length;
  for (; pos < end; pos++) {
    const c = bytes[pos]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
  }
  return pos;
}

// ---------------------------------------------------------------------------------------------
// Literal names (RFC 8259 §3), and the constants Python's json reads besides (its
// `parse_constant`: `NaN`, `Infinity`, and `-Infinity`, a minus sign before `Infinity`).

export const TRUE_NAME = 'true';
export const FALSE_NAME = 'false';
export const NULL_NAME = 'null';
export const NAN_NAME = 'NaN';
export const INFINITY_NAME = 'Infinity';
export const NEGATIVE_INFINITY_NAME = '-Infinity';

/**
 * Whether the ASCII `name` stands at `pos`.
 * @example
 * matchesName(new TextEncoder().encode('[true]'), 1, TRUE_NAME); // true
 */
export function matchesName(bytes: Uint8Array, pos: number, name: string): boolean {
  if (pos + name.length > bytes.length) return false;
  for (let i = 0; i < name.length; i++) if (bytes[pos + i] !== name.charCodeAt(i)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Numbers (RFC 8259 §6): `[ minus ] int [ frac ] [ exp ]`. CPython's scanner takes a fraction and
// an exponent only when complete, so `1.` reads as the int `1` followed by a stray `.`.

/**
 * An ASCII digit (RFC 8259 §6, DIGIT).
 * @example
 * isDigit(0x37); // true
 */
export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * The end of the `int` part at `pos`: `0` alone, or a run of digits (the caller checked that a
 * digit is there).
 * @example
 * integerEnd(new TextEncoder().encode('012'), 0); // 1
 */
export function integerEnd(bytes: Uint8Array, pos: number): number {
  if (bytes[pos] === 0x30) return pos + 1;
  const end = bytes.length;
  while (pos < end && isDigit(bytes[pos]!)) pos++;
  return pos;
}

/**
 * The end of the `frac` and `exp` parts after an `int` at `pos`, each taken only when complete
 * (a decimal point and at least one digit; `e` or `E`, an optional sign and at least one digit):
 * `pos` itself for an integer.
 * @example
 * fractionExponentEnd(new TextEncoder().encode('1.5e+9'), 1); // 6
 */
export function fractionExponentEnd(bytes: Uint8Array, pos: number): number {
  const end = bytes.length;
  if (pos + 1 < end && bytes[pos] === Byte.DecimalPoint && isDigit(bytes[pos + 1]!)) {
    pos += 2;
    while (pos < end && isDigit(bytes[pos]!)) pos++;
  }
  if (pos < end && (bytes[pos] === 0x65 || bytes[pos] === 0x45)) {
    // `e` or `E`, then `+` or `-`
    let at = pos + 1;
    if (at < end && (bytes[at] === 0x2b || bytes[at] === Byte.Minus)) at++;
    if (at < end && isDigit(bytes[at]!)) {
      while (at < end && isDigit(bytes[at]!)) at++;
      pos = at;
    }
  }
  return pos;
}

// ---------------------------------------------------------------------------------------------
// Strings (RFC 8259 §7): between quotes, any character but those that must be escaped: `"`, `\`
// and the control characters U+0000..U+001F. An escape is `\` and one of `" \ / b f n r t`, or
// `\u` and four hex digits (a UTF-16 code unit; a high and a low surrogate escape in a row make
// one character, and a lone one is kept as it is by both Python and ECMAScript).

/**
 * A byte that cannot stand for itself in a string: `"`, `\` or a control character.
 * @example
 * mustEscape(0x09); // true
 */
export function mustEscape(c: number): boolean {
  return (STRING_BYTE_CLASS[c]! & STOP_MUST_ESCAPE) !== 0;
}

/**
 * A control character (U+0000..U+001F), which a string must not hold raw.
 * @example
 * isControlCharacter(0x1f); // true
 */
export function isControlCharacter(c: number): boolean {
  return c < 0x20;
}

/** The two-character escapes: each letter after `\` and the byte it stands for. */
const SHORT_ESCAPES: readonly (readonly [letter: string, byte: number])[] = [
  ['"', 0x22],
  ['\\', 0x5c],
  ['/', 0x2f],
  ['b', 0x08],
  ['f', 0x0c],
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
];

/** `ESCAPED_BYTE[letter]`: the byte `\letter` stands for; 0 when it is no two-character escape. */
const ESCAPED_BYTE: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(256);
  for (const [letter, byte] of SHORT_ESCAPES) table[letter.charCodeAt(0)] = byte;
  return table;
})();

/**
 * `ESCAPE_LETTER[byte]`: the letter of the two-character escape a writer uses for `byte`; 0 when
 * none. Writers (Python's `json.dumps`, `JSON.stringify`) escape `"`, `\` and the five controls
 * that have a letter, and leave `/` raw.
 */
const ESCAPE_LETTER: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(256);
  for (const [letter, byte] of SHORT_ESCAPES) if (letter !== '/') table[byte] = letter.charCodeAt(0);
  return table;
})();

/**
 * The byte the two-character escape `\letter` stands for, or 0 when `letter` makes no such escape
 * (`u`, which takes four hex digits, included).
 * @example
 * escapedByte(0x6e); // 0x0a (`\n`)
 */
export function escapedByte(letter: number): number {
  return ESCAPED_BYTE[letter]!;
}

/**
 * The letter of the two-character escape a writer uses for `byte`, or 0 when it has none (a
 * control without a letter is written `\u00XX`; `/` and other bytes are written raw).
 * @example
 * escapeLetter(0x0a); // 0x6e (`\n`)
 */
export function escapeLetter(byte: number): number {
  return ESCAPE_LETTER[byte]!;
}

/** `HEX_VALUE[c]`: the value of the hex digit `c` (either case), -1 for any other byte. */
const HEX_VALUE: Int8Array = /* @__PURE__ */ (() => {
  const table = new Int8Array(256).fill(-1);
  for (let digit = 0; digit < 16; digit++) {
    const text = digit.toString(16);
    table[text.charCodeAt(0)] = digit;
    table[text.toUpperCase().charCodeAt(0)] = digit;
  }
  return table;
})();

/**
 * A hex digit, either case (RFC 8259 §7, HEXDIG in `\u` escapes).
 * @example
 * isHexDigit(0x46); // true ('F')
 */
export function isHexDigit(c: number): boolean {
  return HEX_VALUE[c]! >= 0;
}

/**
 * The UTF-16 code unit written by the four hex digits at `at` (the `XXXX` of `\uXXXX`), or -1 when
 * they are not four hex digits.
 * @example
 * hexCodeUnit(new TextEncoder().encode('00e9'), 0); // 0xe9
 */
export function hexCodeUnit(bytes: Uint8Array, at: number): number {
  if (at + 4 > bytes.length) return -1;
  const a = HEX_VALUE[bytes[at]!]!;
  const b = HEX_VALUE[bytes[at + 1]!]!;
  const c = HEX_VALUE[bytes[at + 2]!]!;
  const d = HEX_VALUE[bytes[at + 3]!]!;
  return (a | b | c | d) < 0 ? -1 : (a << 12) | (b << 8) | (c << 4) | d;
}

/**
 * The code point the escape at `at` (a backslash, in a string already found valid, which ends
 * before `end`) stands for. A high surrogate escape followed at once by a low surrogate escape is
 * one character, as both Python and ECMAScript read it; a lone surrogate escape is its own code
 * point. Returns -1 for `\u` without four hex digits.
 * @example
 * const token = new TextEncoder().encode('\\ud83d\\ude00');
 * escapedCodePoint(token, 0, token.length); // 0x1f600
 */
export function escapedCodePoint(bytes: Uint8Array, at: number, end: number): number {
  const letter = bytes[at + 1]!;
  if (letter !== Byte.UnicodeEscape) return escapedByte(letter);
  const unit = hexCodeUnit(bytes, at + 2);
  if (
    unit >= 0xd800 &&
    unit <= 0xdbff &&
    at + 12 <= end &&
    bytes[at + 6] === Byte.Backslash &&
    bytes[at + 7] === Byte.UnicodeEscape
  ) {
    const low = hexCodeUnit(bytes, at + 8);
    if (low >= 0xdc00 && low <= 0xdfff) return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
  }
  return unit;
}

/**
 * How many bytes the escape at `at` took to write `codePoint` (what `escapedCodePoint` returned):
 * 2 for `\n` and the like, 6 for `\uXXXX`, 12 for a surrogate pair.
 * @example
 * escapeLength(new TextEncoder().encode('\\n'), 0, 0x0a); // 2
 */
export function escapeLength(bytes: Uint8Array, at: number, codePoint: number): number {
  return bytes[at + 1] !== Byte.UnicodeEscape ? 2 : codePoint > 0xffff ? 12 : 6;
}

// ---------------------------------------------------------------------------------------------
// Skipping string content: the one fast path every reader's strings go through.

/** `skipStringBytes` stops at the bytes that must be escaped (`"`, `\`, controls). */
export const STOP_MUST_ESCAPE = 1;
/** `skipStringBytes` also stops at non-ASCII bytes (for a caller that checks UTF-8 itself). */
export const STOP_NON_ASCII = 2;

/** `STRING_BYTE_CLASS[b]`: `STOP_MUST_ESCAPE`, `STOP_NON_ASCII` or 0 (a byte that stands for itself). */
const STRING_BYTE_CLASS: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(256);
  for (let c = 0; c < 0x20; c++) table[c] = STOP_MUST_ESCAPE;
  table[Byte.Quote] = STOP_MUST_ESCAPE;
  table[Byte.Backslash] = STOP_MUST_ESCAPE;
  for (let c = 0x80; c < 0x100; c++) table[c] = STOP_NON_ASCII;
  return table;
})();

/** Shorter inputs are not worth a word view. */
const MIN_WORD_VIEW_BYTES = 64;

/**
 * `bytes` read four at a time by `skipStringBytes` (a `DataView` reads a word at any offset), or
 * undefined when `bytes` is short. One per input, or per chunk.
 * @example
 * wordView(new Uint8Array(100))?.getInt32(0, true); // 0
 */
export function wordView(bytes: Uint8Array): DataView | undefined {
  return bytes.byteLength < MIN_WORD_VIEW_BYTES
    ? undefined
    : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Bit 7 set in each byte of `word` that is `"` (0x22), `\` (0x5c), a control (< 0x20) or, when
 * `high` is `0x80808080 | 0`, non-ASCII (>= 0x80), and maybe in bytes above such a byte; 0 when
 * none is. The usual SWAR tests: for a byte b < 0x80, (b - c) borrows into bit 7 exactly when
 * b < c; a zero byte of (word ^ c) is a byte equal to c. A borrow only spreads upward from a byte
 * that already matched, so "any" is exact, whatever the byte order.
 */
function lookBits(word: number, high: number): number {
  const quote = word ^ 0x22222222;
  const backslash = word ^ 0x5c5c5c5c;
  const control = ((word - 0x20202020) | 0) & ~word;
  const quotes = ((quote - 0x01010101) | 0) & ~quote;
  const backslashes = ((backslash - 0x01010101) | 0) & ~backslash;
  return ((word & high) | control | quotes | backslashes) & 0x80808080;
}

/**
 * Skips string content that stands for itself, from `pos`: returns the offset of the first byte of
 * the classes in `stopAt` (`STOP_MUST_ESCAPE`, plus `STOP_NON_ASCII` to stop at non-ASCII too),
 * or `bytes.length`. Four bytes at a time through `view` (`wordView(bytes)`), then byte by byte.
 * @example
 * const bytes = new TextEncoder().encode('"plain text", 1');
 * skipStringBytes(bytes, 1, wordView(bytes), STOP_MUST_ESCAPE); // 11
 */
export function skipStringBytes(bytes: Uint8Array, pos: number, view: DataView | undefined, stopAt: number): number {
  const end = bytes.length;
  if (view !== undefined) {
    const high = (stopAt & STOP_NON_ASCII) !== 0 ? 0x80808080 | 0 : 0;
    while (pos + 4 <= end && lookBits(view.getInt32(pos, true), high) === 0) pos += 4;
  }
  while (pos < end && (STRING_BYTE_CLASS[bytes[pos]!]! & stopAt) === 0) pos++;
  return pos;
}

/**
 * A faster skip over long strings' plain bytes (the CLI's is `wasm/string-skip.ts`): `over(bytes)`
 * gives, for an offset, the first byte from there that the lexer must see: a `"`, a control byte,
 * or a `\` that begins no two-character escape (`\n`, `\"`, …) within `bytes`; else `bytes.length`.
 * With `stopAtNonAscii`, a byte >= 0x80 is one too, for a reader that checks UTF-8 itself (the
 * NDJSON skimmer, `skim.ts`). `skipStringBytes(…, STOP_MUST_ESCAPE)` stops at every `\` instead,
 * for the lexer's escape states: a string reads the same either way. The offsets asked of one
 * function should grow; `bytes` must not change while it is used.
 */
export interface StringSkipper {
  over(bytes: Uint8Array, stopAtNonAscii?: boolean): (at: number) => number;
}

/**
 * `skipStringBytes` for a string that is likely long (file contents, tool output): sixteen bytes a
 * step first, one branch for four words. About a tenth of a 54 MB AgentXchain export's
 * verification in Chromium; on short strings (ids, hashes) the extra words cost more than that.
 * @example
 * const bytes = new TextEncoder().encode(`"${'x'.repeat(40)}"`);
 * skipLongStringBytes(bytes, 1, wordView(bytes), STOP_MUST_ESCAPE); // 41
 */
export function skipLongStringBytes(
  bytes: Uint8Array,
  pos: number,
  view: DataView | undefined,
  stopAt: number,
): number {
  if (view !== undefined) {
    const high = (stopAt & STOP_NON_ASCII) !== 0 ? 0x80808080 | 0 : 0;
    const end = bytes.length;
    while (
      pos + 16 <= end &&
      (lookBits(view.getInt32(pos, true), high) |
        lookBits(view.getInt32(pos + 4, true), high) |
        lookBits(view.getInt32(pos + 8, true), high) |
        lookBits(view.getInt32(pos + 12, true), high)) ===
        0
    )
      pos += 16;
  }
  return skipStringBytes(bytes, pos, view, stopAt);
}

// ---------------------------------------------------------------------------------------------
// UTF-8 (RFC 8259 §8.1: JSON text is UTF-8; RFC 3629 §4: its well-formed byte sequences)

/**
 * How many continuation bytes follow the lead byte `lead` (1 to 3), or 0 when `lead` cannot start a
 * multi-byte sequence (RFC 3629 §4: C2..DF, E0..EF, F0..F4 lead; 80..C1 and F5..FF never do).
 * @example
 * utf8ContinuationCount(0xe2); // 2
 */
export function utf8ContinuationCount(lead: number): number {
  return lead < 0xc2 || lead > 0xf4 ? 0 : lead < 0xe0 ? 1 : lead < 0xf0 ? 2 : 3;
}

/**
 * The smallest first continuation byte after `lead`: A0 after E0 and 90 after F0 (no overlong
 * forms), else 80.
 * @example
 * utf8SecondByteMin(0xe0); // 0xa0
 */
export function utf8SecondByteMin(lead: number): number {
  return lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
}

/**
 * The largest first continuation byte after `lead`: 9F after ED (no surrogates) and 8F after F4
 * (nothing past U+10FFFF), else BF.
 * @example
 * utf8SecondByteMax(0xed); // 0x9f
 */
export function utf8SecondByteMax(lead: number): number {
  return lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
}
