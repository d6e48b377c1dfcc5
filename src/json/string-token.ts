/**
 * Comparing a JSON string token with UTF-8 bytes without building either string: what a verifier
 * needs when a document claims that one of its strings is the text of some bytes.
 * @module
 */
import * as grammar from './_grammar.ts';

/**
 * True when the string that `token` (a valid JSON string token, quotes included, as raw UTF-8)
 * denotes equals the UTF-8 decoding of `bytes`, shown by the token, unescaped, being `bytes` byte
 * for byte; undefined when this shortcut cannot tell (the bytes differ somewhere, or the token
 * escapes a lone surrogate), and the caller must compare the decoded strings.
 *
 * Why equal bytes mean equal strings, invalid UTF-8 included: an escape unescapes to a complete
 * sequence whose first byte is never a continuation byte, so it ends an unfinished sequence before
 * it exactly as the escape's ASCII backslash does in the token, and decoding restarts after it in
 * both; between escapes the token's bytes are the bytes themselves.
 * @example
 * tokenEqualsUtf8(new TextEncoder().encode('"a\\nb"'), new TextEncoder().encode('a\nb')); // true
 */
export function tokenEqualsUtf8(token: Uint8Array, bytes: Uint8Array): true | undefined {
  const end = token.byteLength - 1; // the closing quote
  const length = bytes.byteLength;
  const tokenView = new DataView(token.buffer, token.byteOffset, token.byteLength);
  const bytesView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = 1;
  let j = 0;
  while (i < end) {
    // Four bytes a step while the words are equal and hold no backslash: the bytes themselves.
    // Text has an escape every line or so, so this beats finding each escape first.
    for (const stop = end - 4, last = length - 4; i <= stop && j <= last; i += 4, j += 4) {
      const word = tokenView.getInt32(i);
      if (word !== bytesView.getInt32(j) || hasBackslash(word)) break;
    }
    if (i >= end) break;
    if (token[i] !== grammar.Byte.Backslash) {
      if (j >= length || token[i] !== bytes[j]) return undefined;
      i++;
      j++;
      continue;
    }
    const letter = token[i + 1]!;
    if (letter !== grammar.Byte.UnicodeEscape) {
      const simple = grammar.escapedByte(letter);
      if (simple === 0 || j >= length || bytes[j] !== simple) return undefined;
      i += 2;
      j++;
      continue;
    }
    const point = grammar.escapedCodePoint(token, i, end);
    i += grammar.escapeLength(token, i, point);
    // A lone surrogate escape is a character without UTF-8 bytes (`escapedCodePoint` joins a pair).
    if (point >= 0xd800 && point <= 0xdfff) return undefined;
    const matched = matchUtf8(bytes, j, point);
    if (matched === 0) return undefined;
    j += matched;
  }
  return j === length ? true : undefined;
}

/**
 * Whether any of the four bytes of `word` is a backslash (0x5c): a zero byte of `word ^ 0x5c5c5c5c`,
 * by the usual test (a borrow reaches bit 7 of a byte only from a zero byte at or below it, so
 * "any" is exact).
 */
function hasBackslash(word: number): boolean {
  const x = word ^ 0x5c5c5c5c;
  return ((x - 0x01010101) & ~x & 0x80808080) !== 0;
}

/** How many bytes at `bytes[j]` are the UTF-8 encoding of `point` (0 if they are not). */
function matchUtf8(bytes: Uint8Array, j: number, point: number): number {
  if (point < 0) return 0;
  if (point < 0x80) return bytes[j] === point ? 1 : 0;
  if (point < 0x800) return bytes[j] === (0xc0 | (point >> 6)) && bytes[j + 1] === (0x80 | (point & 0x3f)) ? 2 : 0;
  if (point < 0x10000) {
    return bytes[j] === (0xe0 | (point >> 12)) &&
      bytes[j + 1] === (0x80 | ((point >> 6) & 0x3f)) &&
      bytes[j + 2] === (0x80 | (point & 0x3f))
      ? 3
      : 0;
  }
  return bytes[j] === (0xf0 | (point >> 18)) &&
    bytes[j + 1] === (0x80 | ((point >> 12) & 0x3f)) &&
    bytes[j + 2] === (0x80 | ((point >> 6) & 0x3f)) &&
    bytes[j + 3] === (0x80 | (point & 0x3f))
    ? 4
    : 0;
}
