/**
 * A fast path in front of the core's lenient base64 decoder (`src/encoding/base64.ts`), which stays
 * the one definition of Node's lenient `'base64'` decoding (docs/agentxchain.md §4.7).
 *
 * Nearly every `content_base64` a writer produces is plain base64: alphabet characters, then at most
 * two `=`. For exactly those strings Node's result is the textbook decoding, which this module
 * computes in one pass over the string's bytes (copied out with `TextEncoder.encodeInto`, much
 * faster than `charCodeAt` per character), by the platform's decoder where it has one
 * (`decodedByPlatform`). The general decoder makes two passes of per-character
 * lookups and was the largest cost of verifying a large export. Anything else (whitespace, junk,
 * data after `=`, characters beyond ASCII) is handed to the general decoder from the start, so the
 * fast path can never change a result.
 * @module
 */
import { type Base64Decoder, decodeBase64Lenient } from '../../encoding/base64.ts';
import { stringOfToken } from './deferred-strings.ts';

const INVALID = 0xff;
/** Sextet of each byte value; the base64url characters count as `+` and `/`, as in Node. */
const SEXTET: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(256).fill(INVALID);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  table[0x2d] = 62; // '-'
  table[0x5f] = 63; // '_'
  return table;
})();

const EQUALS = 0x3d;
/** Scratch buffers up to this size are kept for the next call. */
const KEEP_SCRATCH_BYTES = 4 << 20;
let scratch = new Uint8Array(0);
const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Decodes `text` exactly as `decodeBase64Lenient` (Node's lenient `'base64'` decoding) does.
 * `text` is attacker-controlled; it is only copied into a byte buffer and read through a table.
 * @example
 * decodeContentBase64('aGk=');      // Uint8Array [0x68, 0x69]
 * decodeContentBase64('aG k=junk'); // Uint8Array [0x68, 0x69] (general decoder)
 */
export function decodeContentBase64(text: string): Uint8Array {
  const length = text.length;
  const bytes = length <= scratch.length ? scratch : new Uint8Array(length);
  if (length > scratch.length && length <= KEEP_SCRATCH_BYTES) scratch = bytes;
  const { read, written } = encoder.encodeInto(text, bytes);
  // Anything beyond ASCII encodes to more bytes than characters (or does not fit): not plain.
  if (read !== length || written !== length) return decodeBase64Lenient(lowBytesOfCodeUnits(text));
  return decodePlainBase64(bytes.subarray(0, length)) ?? decodeBase64Lenient(text);
}

/**
 * Decodes `content_base64` from its JSON string token (quotes included) as found in the raw
 * document: plain base64 straight from the bytes (by the host's `decodeBase64` when given, which
 * takes canonical base64 only), anything else (escapes, junk, non-ASCII) through the string the
 * token denotes, so the result is always `decodeContentBase64` of that string.
 * @example
 * decodeContentBase64Token(new TextEncoder().encode('"aGk="')); // Uint8Array [0x68, 0x69]
 */
export function decodeContentBase64Token(
  token: Uint8Array,
  decodeBase64?: Base64Decoder,
  transient = false,
): Uint8Array {
  const text = token.subarray(1, token.byteLength - 1);
  return decodeBase64?.(text) ?? decodePlainBase64(text, transient) ?? decodeContentBase64(stringOfToken(token));
}

/**
 * Where transient decodings go (see `decodePlainBase64`). Writing each content into memory never
 * touched before cost as much again as decoding it, in page faults (Chromium, the 54 MB export).
 */
let transientOut = new Uint8Array(0);

/**
 * The textbook decoding of alphabet characters with at most two `=` after them; undefined for
 * anything else. A `transient` result is written where the next transient one will be (for a
 * caller done with it before that: hashing, then comparing).
 */
function decodePlainBase64(bytes: Uint8Array, transient = false): Uint8Array | undefined {
  let end = bytes.byteLength;
  if (end > 0 && bytes[end - 1] === EQUALS) {
    end--;
    if (end > 0 && bytes[end - 1] === EQUALS) end--;
  }
  const remainder = end & 3;
  const full = end - remainder;
  const size = (full >> 2) * 3 + (remainder === 0 ? 0 : remainder - 1);
  if (transient && size <= KEEP_SCRATCH_BYTES && transientOut.byteLength < size)
    transientOut = new Uint8Array(Math.min(KEEP_SCRATCH_BYTES, Math.max(size, 2 * transientOut.byteLength)));
  const out = transient && size <= transientOut.byteLength ? transientOut.subarray(0, size) : new Uint8Array(size);
  if (bytes.byteLength <= PLATFORM_MAX_TEXT_BYTES && decodedByPlatform(bytes, out)) return out;
  if (!decodeGroups(bytes, full, out) || !decodeTail(bytes, full, end, out)) return undefined;
  return out;
}

/**
 * Longest base64 text given to the platform's decoder. Its string is transient memory beside the
 * bytes (twice their size where the host decodes through UTF-16: workerd's peak for an export with
 * one 3.6 MB file rose 8 MB), so a large content takes `decodeGroups` instead; real contents are
 * far shorter (the 54 MB export's: < 100 KB).
 */
const PLATFORM_MAX_TEXT_BYTES = 1 << 20;

/**
 * The document's bytes as one character each, for `setFromBase64`: the Encoding Standard's
 * 'latin1' (windows-1252) leaves ASCII as it is and makes every other byte a character beyond
 * ASCII, which no base64 decoder takes. Faster than UTF-8 here (Chromium, 54 MB export).
 */
let latin1Decoder: TextDecoder | undefined;

/**
 * Fills `out` by the platform's own decoder, `Uint8Array.prototype.setFromBase64` (TC39 "Uint8Array
 * to/from base64"; Chromium, Deno and workerd have it, Node 20 does not), several times faster
 * than `decodeGroups`; false where it is missing, throws or decodes other than `out`'s length.
 * When it succeeds its result is Node's: it took only alphabet characters, ASCII whitespace (both
 * skip it) and padding at the end (where both stop), and its last group's rules are Node's.
 */
function decodedByPlatform(bytes: Uint8Array, out: Uint8Array): boolean {
  const target = out as PlatformBase64Target;
  if (target.setFromBase64 === undefined) return false;
  try {
    const { read, written } = target.setFromBase64((latin1Decoder ??= new TextDecoder('latin1')).decode(bytes));
    return read === bytes.byteLength && written === out.byteLength;
  } catch {
    return false;
  }
}

/** The part of ES2026's Uint8Array that TypeScript's ES2023 library does not declare yet. */
type PlatformBase64Target = Uint8Array & {
  setFromBase64?(text: string): { read: number; written: number };
};

/**
 * Node 20 reads a two-byte string's code units through `static_cast<uint8_t>` when decoding base64
 * (so `\u0141` counts as `A` and `\ud83d` as `=`); `decodeBase64Lenient` skips code units above
 * 255 instead. Mapping them to their low byte first makes the result Node's.
 */
function lowBytesOfCodeUnits(text: string): string {
  /* eslint-disable no-control-regex -- the range of one-byte code units starts at U+0000 */
  return /[^\u0000-\u00ff]/.test(text)
    ? text.replace(/[^\u0000-\u00ff]/g, (unit) => String.fromCharCode(unit.charCodeAt(0) & 0xff))
    : text;
  /* eslint-enable no-control-regex */
}

/**
 * Decodes the complete groups of four in `bytes[0, full)` into `out`; false at the first byte
 * outside the alphabet. Kept apart from the tail so the engine optimises this loop on its own.
 */
function decodeGroups(bytes: Uint8Array, full: number, out: Uint8Array): boolean {
  // Two characters per lookup: half the table reads of one sextet at a time.
  const pairs = (pairSextets ??= buildPairSextets());
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    const high = pairs[view.getUint16(i)]!;
    const low = pairs[view.getUint16(i + 2)]!;
    // Pairs are 0–4095; INVALID_PAIR (0xffff) sets the high bits.
    if ((high | low) > 4095) return false;
    const group = (high << 12) | low;
    out[o++] = group >> 16;
    out[o++] = (group >> 8) & 0xff;
    out[o++] = group & 0xff;
  }
  return true;
}

const INVALID_PAIR = 0xffff;
/** The 12 bits of each two-character pair read big-endian (first character high), built on first use. */
let pairSextets: Uint16Array | undefined;

function buildPairSextets(): Uint16Array {
  const table = new Uint16Array(1 << 16).fill(INVALID_PAIR);
  for (let first = 0; first < 256; first++) {
    const high = SEXTET[first]!;
    if (high === INVALID) continue;
    for (let second = 0; second < 256; second++) {
      const low = SEXTET[second]!;
      if (low !== INVALID) table[(first << 8) | second] = (high << 6) | low;
    }
  }
  return table;
}

/** The last group of 1–3 characters: one character carries no full byte and is dropped. */
function decodeTail(bytes: Uint8Array, full: number, end: number, out: Uint8Array): boolean {
  let tail = 0;
  for (let i = full; i < end; i++) {
    const s = SEXTET[bytes[i]!]!;
    if (s === INVALID) return false;
    tail = (tail << 6) | s;
  }
  const o = (full >> 2) * 3;
  const remainder = end - full;
  if (remainder === 2) out[o] = (tail >> 4) & 0xff;
  else if (remainder === 3) {
    out[o] = (tail >> 10) & 0xff;
    out[o + 1] = (tail >> 2) & 0xff;
  }
  return true;
}
