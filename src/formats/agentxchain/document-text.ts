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

/** Output is written to a reusable block and decoded to string pieces block by block. */
const BLOCK_BYTES = 1 << 20;
/** Escaping may grow the text to this multiple of the input (plus one block) before plain decoding takes over. */
const MAX_EXPANSION = 2;
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
  const pieces: string[] = [];
  let block = new Uint8Array(BLOCK_BYTES);
  let pos = 0;
  let blockStart = 0;
  let inputLength = 0;
  /** Output offsets of the escapes we inserted (for `exactText`). */
  let escapes = new Uint32Array(1024);
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

  function writeUnit(unit: number): void {
    if (BLOCK_BYTES - pos < 6) flushBlock();
    if (escapeCount === escapes.length) {
      const grown = new Uint32Array(escapes.length * 2);
      grown.set(escapes);
      escapes = grown;
    }
    escapes[escapeCount++] = blockStart + pos;
    block[pos++] = BACKSLASH;
    block[pos++] = 0x75; // 'u'
    block[pos++] = HEX_DIGITS[(unit >> 12) & 0xf]!;
    block[pos++] = HEX_DIGITS[(unit >> 8) & 0xf]!;
    block[pos++] = HEX_DIGITS[(unit >> 4) & 0xf]!;
    block[pos++] = HEX_DIGITS[unit & 0xf]!;
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

  /** Copies `chunk[start, end)`, all ASCII, to the output. */
  function copyAscii(chunk: Uint8Array, start: number, end: number): void {
    let backslashes = 0;
    for (let k = end - 1; k >= start && chunk[k] === BACKSLASH; k--) backslashes++;
    trailingBackslashes = backslashes === end - start ? trailingBackslashes + backslashes : backslashes;
    let from = start;
    while (from < end) {
      if (pos === BLOCK_BYTES) flushBlock();
      const count = Math.min(end - from, BLOCK_BYTES - pos);
      if (count < 64) {
        for (let k = 0; k < count; k++) block[pos + k] = chunk[from + k]!;
      } else {
        block.set(chunk.subarray(from, from + count), pos);
      }
      pos += count;
      from += count;
    }
  }

  function resetSequence(): void {
    codePoint = 0;
    bytesNeeded = 0;
    bytesSeen = 0;
    lowerBoundary = 0x80;
    upperBoundary = 0xbf;
  }

  /** Encoding §8.1.1 for one non-ASCII byte, or any byte while a sequence is open. */
  function decodeByte(byte: number): void {
    if (bytesNeeded === 0) {
      if (byte >= 0xc2 && byte <= 0xdf) {
        bytesNeeded = 1;
        codePoint = byte & 0x1f;
      } else if (byte >= 0xe0 && byte <= 0xef) {
        if (byte === 0xe0) lowerBoundary = 0xa0;
        if (byte === 0xed) upperBoundary = 0x9f;
        bytesNeeded = 2;
        codePoint = byte & 0xf;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        if (byte === 0xf0) lowerBoundary = 0x90;
        if (byte === 0xf4) upperBoundary = 0x8f;
        bytesNeeded = 3;
        codePoint = byte & 0x7;
      } else {
        emit(REPLACEMENT);
        return;
      }
      sequence[0] = byte;
      return;
    }
    if (byte < lowerBoundary || byte > upperBoundary) {
      // The byte is not part of this sequence: U+FFFD for what came before, then the byte anew.
      resetSequence();
      emit(REPLACEMENT);
      if (byte < 0x80) {
        trailingBackslashes = byte === BACKSLASH ? 1 : 0;
        if (pos === BLOCK_BYTES) flushBlock();
        block[pos++] = byte;
      } else {
        decodeByte(byte);
      }
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

  function pushEscaped(chunk: Uint8Array): void {
    const length = chunk.length;
    // A 32-bit view of the chunk's aligned middle, to skip ASCII four bytes at a time.
    const headBytes = (4 - (chunk.byteOffset & 3)) & 3;
    const words = length > headBytes + 8 ? new Uint32Array(chunk.buffer, chunk.byteOffset + headBytes, (length - headBytes) >> 2) : undefined;
    const wordsEnd = words === undefined ? 0 : headBytes + words.length * 4;
    let i = 0;
    while (i < length) {
      if (bytesNeeded === 0) {
        let j = i;
        if (words !== undefined) {
          while (j < headBytes && chunk[j]! < 0x80) j++;
          if (j >= headBytes) {
            while (j < wordsEnd && ((j - headBytes) & 3) !== 0 && chunk[j]! < 0x80) j++;
            if (j < wordsEnd && ((j - headBytes) & 3) === 0) {
              let w = (j - headBytes) >> 2;
              while (w < words.length && (words[w]! & 0x80808080) === 0) w++;
              j = headBytes + w * 4;
            }
          }
        }
        while (j < length && chunk[j]! < 0x80) j++;
        if (j > i) copyAscii(chunk, i, j);
        if (j === length) break;
        i = j;
        // Fast paths for complete, valid two- and three-byte sequences (the same results as the
        // state machine below, which handles everything else).
        const lead = chunk[i]!;
        if (lead >= 0xc2 && lead <= 0xdf && i + 1 < length) {
          const c1 = chunk[i + 1]!;
          if (c1 >= 0x80 && c1 <= 0xbf) {
            emit(((lead & 0x1f) << 6) | (c1 & 0x3f));
            i += 2;
            continue;
          }
        } else if (lead >= 0xe0 && lead <= 0xef && i + 2 < length) {
          const c1 = chunk[i + 1]!;
          const c2 = chunk[i + 2]!;
          const low = lead === 0xe0 ? 0xa0 : 0x80;
          const high = lead === 0xed ? 0x9f : 0xbf;
          if (c1 >= low && c1 <= high && c2 >= 0x80 && c2 <= 0xbf) {
            emit(((lead & 0xf) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f));
            i += 3;
            continue;
          }
        }
      }
      decodeByte(chunk[i]!);
      i++;
    }
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
      pushEscaped(chunk);
      if (blockStart + pos > inputLength * MAX_EXPANSION + BLOCK_BYTES) switchToPlain();
    },
    finish() {
      if (plain !== undefined) {
        pieces.push(plain.decode());
        const text = pieces.join('');
        return { text, exact: true, exactText: () => text };
      }
      if (bytesNeeded > 0) {
        // End of input inside a sequence: one U+FFFD (Encoding §8.1.1 step 1).
        resetSequence();
        emit(REPLACEMENT);
      }
      flushBlock();
      const escaped = pieces.join('');
      pieces.length = 0;
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
