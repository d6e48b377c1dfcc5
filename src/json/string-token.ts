/**
 * Comparing a JSON string token with UTF-8 bytes without building either string: what a verifier
 * needs when a document claims that one of its strings is the text of some bytes.
 * @module
 */

const BACKSLASH = 0x5c;
/** The byte each single-character escape stands for (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`). */
const SIMPLE_ESCAPES: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(128);
  for (const [letter, byte] of [['"', 0x22], ['\\', 0x5c], ['/', 0x2f], ['b', 0x08], ['f', 0x0c], ['n', 0x0a], ['r', 0x0d], ['t', 0x09]] as const) {
    table[letter.charCodeAt(0)] = byte;
  }
  return table;
})();

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
    if (token[i] !== BACKSLASH) {
      // A run without escapes is the bytes themselves: compare it at native speed.
      let runEnd = token.indexOf(BACKSLASH, i);
      if (runEnd < 0 || runEnd > end) runEnd = end;
      if (!sameBytes(tokenView, i, bytesView, j, runEnd - i)) return undefined;
      j += runEnd - i;
      i = runEnd;
      continue;
    }
    const letter = token[i + 1]!;
    if (letter !== 0x75) {
      const simple = letter < 128 ? SIMPLE_ESCAPES[letter]! : 0;
      if (simple === 0 || j >= length || bytes[j] !== simple) return undefined;
      i += 2;
      j++;
      continue;
    }
    let point = hexUnit(token, i + 2);
    i += 6;
    if (point >= 0xd800 && point <= 0xdfff) {
      // Only a high surrogate escape followed by a low one is a character with UTF-8 bytes.
      const low = point <= 0xdbff && token[i] === BACKSLASH && token[i + 1] === 0x75 ? hexUnit(token, i + 2) : -1;
      if (low < 0xdc00 || low > 0xdfff) return undefined;
      point = 0x10000 + ((point - 0xd800) << 10) + (low - 0xdc00);
      i += 6;
    }
    const matched = matchUtf8(bytes, j, point);
    if (matched === 0) return undefined;
    j += matched;
  }
  return j === length ? true : undefined;
}

/** Whether `a[i, i + n)` equals `b[j, j + n)` (false when `b` is too short); four bytes a step. */
function sameBytes(a: DataView, i: number, b: DataView, j: number, n: number): boolean {
  if (j + n > b.byteLength) return false;
  let k = 0;
  for (const stop = n - 4; k <= stop; k += 4) if (a.getUint32(i + k) !== b.getUint32(j + k)) return false;
  for (; k < n; k++) if (a.getUint8(i + k) !== b.getUint8(j + k)) return false;
  return true;
}

/** The value of the four hex digits at `at` (-1 if any is not a hex digit). */
function hexUnit(token: Uint8Array, at: number): number {
  let value = 0;
  for (let k = at; k < at + 4; k++) {
    const c = token[k] ?? 0;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (digit < 0) return -1;
    value = (value << 4) | digit;
  }
  return value;
}

/** How many bytes at `bytes[j]` are the UTF-8 encoding of `point` (0 if they are not). */
function matchUtf8(bytes: Uint8Array, j: number, point: number): number {
  if (point < 0) return 0;
  if (point < 0x80) return bytes[j] === point ? 1 : 0;
  if (point < 0x800) return bytes[j] === (0xc0 | (point >> 6)) && bytes[j + 1] === (0x80 | (point & 0x3f)) ? 2 : 0;
  if (point < 0x10000) {
    return bytes[j] === (0xe0 | (point >> 12)) && bytes[j + 1] === (0x80 | ((point >> 6) & 0x3f)) && bytes[j + 2] === (0x80 | (point & 0x3f)) ? 3 : 0;
  }
  return bytes[j] === (0xf0 | (point >> 18)) &&
    bytes[j + 1] === (0x80 | ((point >> 12) & 0x3f)) &&
    bytes[j + 2] === (0x80 | ((point >> 6) & 0x3f)) &&
    bytes[j + 3] === (0x80 | (point & 0x3f))
    ? 4
    : 0;
}
