/**
 * Turns the artifact's bytes into the text `JSON.parse` reads, chunk by chunk, without ever holding
 * the whole raw document, and as a one-byte (ASCII) string where possible.
 *
 * Why: the reference reads the file with `readFileSync(path, 'utf8')` (WHATWG UTF-8 decoding:
 * invalid sequences → U+FFFD, BOM kept) and parses that. Decoded as is, one non-Latin-1 character
 * makes V8 store the whole document as two bytes per character: for a 54 MB export that is a
 * 108 MB string next to the parsed value. Instead we decode every non-ASCII character ourselves and
 * write it as a JSON `\uXXXX` escape, producing ASCII text of about the raw size.
 *
 * Why that is exact: in JSON, characters beyond ASCII can only stand inside strings, where a raw
 * character and its `\uXXXX` escape denote the same code unit; outside strings both forms are
 * syntax errors. The one context where an inserted escape could change the meaning is right after
 * an odd run of backslashes (the source's `\` would escape our `\`); such a document is decoded
 * exactly instead. When parsing fails, `exactText()` rebuilds the decoded text (escape positions
 * are recorded) so the error message is V8's message for the real text, as in the reference.
 * If escaping would blow the text up (many invalid bytes, each becoming six characters), decoding
 * switches to a plain streaming `TextDecoder` for the rest.
 *
 * The bytes are attacker-controlled: the decoder below is the WHATWG "UTF-8 decoder" algorithm
 * (Encoding §8.1.1) step by step, so replacement characters appear exactly where Node puts them.
 * @module
 */

/**
 * Output goes to one reusable block (it stays in cache; a fresh document-sized buffer would be
 * slower to fill) that is decoded to a string piece whenever it fills up.
 */
const BLOCK_BYTES = 1 << 20;
/** Input is transcoded in parts small enough that even six output bytes per input byte fit a block. */
const SUB_CHUNK_BYTES = BLOCK_BYTES >> 3;
/** Escaping may grow the text to this multiple of the input (plus 1 MiB) before plain decoding takes over. */
const MAX_EXPANSION = 2;
const EXPANSION_GRACE_BYTES = 1 << 20;
const BACKSLASH = 0x5c;
const HEX_DIGITS = /* @__PURE__ */ new TextEncoder().encode('0123456789abcdef');
const REPLACEMENT = 0xfffd;

/** The decoded document, ready for `JSON.parse`. */
export interface DocumentText {
  /** Text whose `JSON.parse` result equals that of the decoded document. */
  readonly text: string;
  /** True when `text` is exactly the decoded document (no escapes were inserted). */
  readonly exact: boolean;
  /** The decoded document exactly as Node's UTF-8 decoding gives it (for error messages). */
  exactText(): string;
}

export interface DocumentDecoder {
  /** Decodes the next bytes of the document. */
  push(chunk: Uint8Array): void;
  /** Ends the document (an incomplete final sequence becomes U+FFFD). */
  finish(): DocumentText;
}

/**
 * Creates a streaming decoder for one document.
 * @example
 * const decoder = createDocumentDecoder();
 * decoder.push(new TextEncoder().encode('{"a":"é"}'));
 * const doc = decoder.finish(); // doc.text === '{"a":"\\u00e9"}', JSON.parse(doc.text).a === 'é'
 */
export function createDocumentDecoder(): DocumentDecoder {
  const asciiDecoder = new TextDecoder('utf-8');
  /** Decoded blocks (ASCII text with escapes), or exact text once in plain mode. */
  const pieces: string[] = [];
  let block = new Uint8Array(BLOCK_BYTES);
  let pos = 0;
  /** Output offset of `block[0]`. */
  let blockStart = 0;
  let inputLength = 0;
  /** Output offsets of the escapes we inserted (for `exactText`). */
  let escapes = new Uint32Array(1 << 16);
  let escapeCount = 0;
  /** Source backslashes immediately before the current output position. */
  let trailingBackslashes = 0;
  /** An escape follows an odd run of source backslashes: escaping is not exact here. */
  let ambiguous = false;
  /** Once set, the rest is decoded by a plain streaming TextDecoder (pieces hold exact text). */
  let plain: TextDecoder | undefined;

  // WHATWG UTF-8 decoder state, plus the raw bytes of the sequence in progress.
  let codePoint = 0;
  let bytesNeeded = 0;
  let bytesSeen = 0;
  let lowerBoundary = 0x80;
  let upperBoundary = 0xbf;
  const sequence = new Uint8Array(4);

  function flushBlock(): void {
    if (pos === 0) return;
    pieces.push(asciiDecoder.decode(block.subarray(0, pos)));
    blockStart += pos;
    pos = 0;
  }

  /** Makes room for the worst case of `bytes` more input: six output bytes and one escape per byte. */
  function reserve(bytes: number): void {
    if (BLOCK_BYTES - pos < bytes * 6 + 24) flushBlock();
    if (escapes.length - escapeCount < bytes + 8) {
      const grown = new Uint32Array(Math.max(escapes.length * 2, escapeCount + bytes + 8));
      grown.set(escapes.subarray(0, escapeCount));
      escapes = grown;
    }
  }

  function writeUnit(unit: number): void {
    escapes[escapeCount++] = blockStart + pos;
    pos = writeEscape(block, pos, unit);
  }

  /** Emits one decoded non-ASCII code point (or U+FFFD) as one or two escapes. */
  function emit(point: number): void {
    if ((trailingBackslashes & 1) === 1) ambiguous = true;
    trailingBackslashes = 0;
    if (point < 0x10000) {
      writeUnit(point);
    } else {
      const offset = point - 0x10000;
      writeUnit(0xd800 + (offset >> 10));
      writeUnit(0xdc00 + (offset & 0x3ff));
    }
  }

  function resetSequence(): void {
    codePoint = 0;
    bytesNeeded = 0;
    bytesSeen = 0;
    lowerBoundary = 0x80;
    upperBoundary = 0xbf;
  }

  /** Encoding §8.1.1 for one byte: the general path (invalid bytes, sequences split across chunks). */
  function decodeByte(byte: number): void {
    if (bytesNeeded === 0) {
      if (byte < 0x80) {
        trailingBackslashes = byte === BACKSLASH ? trailingBackslashes + 1 : 0;
        block[pos++] = byte;
      } else if (byte >= 0xc2 && byte <= 0xdf) {
        bytesNeeded = 1;
        codePoint = byte & 0x1f;
        sequence[0] = byte;
      } else if (byte >= 0xe0 && byte <= 0xef) {
        if (byte === 0xe0) lowerBoundary = 0xa0;
        if (byte === 0xed) upperBoundary = 0x9f;
        bytesNeeded = 2;
        codePoint = byte & 0xf;
        sequence[0] = byte;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        if (byte === 0xf0) lowerBoundary = 0x90;
        if (byte === 0xf4) upperBoundary = 0x8f;
        bytesNeeded = 3;
        codePoint = byte & 0x7;
        sequence[0] = byte;
      } else {
        emit(REPLACEMENT);
      }
      return;
    }
    if (byte < lowerBoundary || byte > upperBoundary) {
      // The byte is not part of this sequence: U+FFFD for what came before, then the byte anew.
      resetSequence();
      emit(REPLACEMENT);
      decodeByte(byte);
      return;
    }
    lowerBoundary = 0x80;
    upperBoundary = 0xbf;
    codePoint = (codePoint << 6) | (byte & 0x3f);
    sequence[++bytesSeen] = byte;
    if (bytesSeen !== bytesNeeded) return;
    const point = codePoint;
    resetSequence();
    emit(point);
  }

  /**
   * The hot loop: ASCII runs are copied, complete valid sequences escaped (the same result as
   * `decodeByte`), everything else goes through `decodeByte`. The caller reserved room for the
   * worst case of `part`, so no bounds checks are needed here. The work is split into small
   * module-level functions so the engine optimises (and inlines) them early, which matters for a
   * CLI that runs this once.
   */
  function transcode(part: Uint8Array): void {
    const length = part.length;
    const target = block;
    const base = blockStart;
    let p = pos;
    let e = escapeCount;
    let i = 0;
    while (i < length) {
      if (bytesNeeded === 0) {
        const j = asciiRunEnd(part, i, length);
        if (j > i) {
          trailingBackslashes = backslashesBefore(part, i, j, trailingBackslashes);
          p = copyRun(part, i, j, target, p);
          i = j;
          if (i === length) break;
        }
        const found = validSequenceAt(part, i, length);
        if (found >= 0) {
          if ((trailingBackslashes & 1) === 1) ambiguous = true;
          trailingBackslashes = 0;
          const point = found >> 3;
          if (point >= 0x10000) {
            escapes[e++] = base + p;
            p = writeEscape(target, p, 0xd800 + ((point - 0x10000) >> 10));
            escapes[e++] = base + p;
            p = writeEscape(target, p, 0xdc00 + ((point - 0x10000) & 0x3ff));
          } else {
            escapes[e++] = base + p;
            p = writeEscape(target, p, point);
          }
          i += found & 7;
          continue;
        }
      }
      // General path: hand the state over, then take it back.
      pos = p;
      escapeCount = e;
      decodeByte(part[i]!);
      i++;
      p = pos;
      e = escapeCount;
    }
    pos = p;
    escapeCount = e;
  }

  /** Hands the rest of the document to a plain streaming TextDecoder (expansion guard). */
  function switchToPlain(): void {
    flushBlock();
    const soFar = rebuildExact(pieces.join(''), escapes, escapeCount);
    pieces.length = 0;
    pieces.push(soFar);
    escapes = new Uint32Array(0);
    escapeCount = 0;
    block = new Uint8Array(0);
    plain = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
    // Replay the open sequence's bytes so the TextDecoder continues from the same state.
    if (bytesNeeded > 0) pieces.push(plain.decode(sequence.slice(0, bytesSeen + 1), { stream: true }));
    resetSequence();
  }

  return {
    push(chunk) {
      inputLength += chunk.length;
      if (plain !== undefined) {
        pieces.push(plain.decode(chunk, { stream: true }));
        return;
      }
      for (let start = 0; start < chunk.length; start += SUB_CHUNK_BYTES) {
        const part = chunk.length <= SUB_CHUNK_BYTES ? chunk : chunk.subarray(start, start + SUB_CHUNK_BYTES);
        reserve(part.length);
        transcode(part);
      }
      if (blockStart + pos > inputLength * MAX_EXPANSION + EXPANSION_GRACE_BYTES) switchToPlain();
    },
    finish() {
      if (plain !== undefined) {
        pieces.push(plain.decode());
        const text = pieces.join('');
        return { text, exact: true, exactText: () => text };
      }
      if (bytesNeeded > 0) {
        // End of input inside a sequence: one U+FFFD (Encoding §8.1.1 step 1).
        reserve(1);
        resetSequence();
        emit(REPLACEMENT);
      }
      flushBlock();
      const escaped = pieces.length === 1 ? pieces[0]! : pieces.join('');
      pieces.length = 0;
      block = new Uint8Array(0);
      const count = escapeCount;
      const offsets = escapes;
      if (count === 0) return { text: escaped, exact: true, exactText: () => escaped };
      if (ambiguous) {
        const text = rebuildExact(escaped, offsets, count);
        return { text, exact: true, exactText: () => text };
      }
      return { text: escaped, exact: false, exactText: () => rebuildExact(escaped, offsets, count) };
    },
  };
}

/** The end of the run of ASCII bytes starting at `i`. */
function asciiRunEnd(part: Uint8Array, i: number, length: number): number {
  while (i < length && part[i]! < 0x80) i++;
  return i;
}

/** Source backslashes right before `end`, counting on from `previous` when the whole run is backslashes. */
function backslashesBefore(part: Uint8Array, start: number, end: number, previous: number): number {
  let k = end - 1;
  while (k >= start && part[k] === BACKSLASH) k--;
  return k < start ? previous + (end - start) : end - 1 - k;
}

/** Copies `part[start, end)` to `target` at `p`; returns the new output position. */
function copyRun(part: Uint8Array, start: number, end: number, target: Uint8Array, p: number): number {
  if (end - start < 64) {
    for (let c = start; c < end; c++) target[p++] = part[c]!;
    return p;
  }
  target.set(part.subarray(start, end), p);
  return p + (end - start);
}

/**
 * A complete, valid two-, three- or four-byte sequence at `i` (Encoding §8.1.1's byte ranges),
 * as `codePoint * 8 + size`; -1 when there is none (invalid, or cut off by the end of `part`).
 */
function validSequenceAt(part: Uint8Array, i: number, length: number): number {
  const lead = part[i]!;
  if (lead >= 0xc2 && lead <= 0xdf) {
    if (i + 1 >= length) return -1;
    const c1 = part[i + 1]!;
    return c1 >= 0x80 && c1 <= 0xbf ? ((((lead & 0x1f) << 6) | (c1 & 0x3f)) << 3) | 2 : -1;
  }
  if (lead >= 0xe0 && lead <= 0xef) {
    if (i + 2 >= length) return -1;
    const c1 = part[i + 1]!;
    const c2 = part[i + 2]!;
    if (c1 < (lead === 0xe0 ? 0xa0 : 0x80) || c1 > (lead === 0xed ? 0x9f : 0xbf) || c2 < 0x80 || c2 > 0xbf) return -1;
    return ((((lead & 0xf) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f)) << 3) | 3;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    if (i + 3 >= length) return -1;
    const c1 = part[i + 1]!;
    const c2 = part[i + 2]!;
    const c3 = part[i + 3]!;
    if (
      c1 < (lead === 0xf0 ? 0x90 : 0x80) ||
      c1 > (lead === 0xf4 ? 0x8f : 0xbf) ||
      c2 < 0x80 ||
      c2 > 0xbf ||
      c3 < 0x80 ||
      c3 > 0xbf
    )
      return -1;
    return (((lead & 0x7) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f)) * 8 + 4;
  }
  return -1;
}

/** Writes `\uXXXX` for one UTF-16 code unit at `p`; returns the new output position. */
function writeEscape(target: Uint8Array, p: number, unit: number): number {
  target[p] = BACKSLASH;
  target[p + 1] = 0x75; // 'u'
  target[p + 2] = HEX_DIGITS[(unit >> 12) & 0xf]!;
  target[p + 3] = HEX_DIGITS[(unit >> 8) & 0xf]!;
  target[p + 4] = HEX_DIGITS[(unit >> 4) & 0xf]!;
  target[p + 5] = HEX_DIGITS[unit & 0xf]!;
  return p + 6;
}

/** Replaces the recorded escapes in `escaped` by the code units they stand for. */
function rebuildExact(escaped: string, offsets: Uint32Array, count: number): string {
  const parts: string[] = [];
  let from = 0;
  let units: number[] = [];
  const flushUnits = (): void => {
    if (units.length > 0) parts.push(String.fromCharCode(...units));
    units = [];
  };
  for (let e = 0; e < count; e++) {
    const at = offsets[e]!;
    if (at > from) {
      flushUnits();
      parts.push(escaped.slice(from, at));
    }
    units.push(Number.parseInt(escaped.slice(at + 2, at + 6), 16));
    if (units.length >= 4096) flushUnits();
    from = at + 6;
  }
  flushUnits();
  parts.push(escaped.slice(from));
  return parts.join('');
}
