/**
 * The first UTF-8 error of a byte stream, found chunk by chunk without holding the bytes: where
 * Python's UTF-8 decoder (which reads a whole file before `json.loads` sees it) would stop, and
 * why (RFC 3629 §4, in the words of `errors.ts`' `firstUtf8Error`). For a document already known
 * not to parse, whose rest is only read to see whether the decoder would fail first.
 * @module
 */
import * as grammar from './_grammar.ts';
import { utf8ErrorMessage } from './errors.ts';

export interface Utf8StreamChecker {
  /** Checks the next bytes (nothing after the first error is looked at). */
  push(chunk: Uint8Array): void;
  /** Ends the stream: Python's message for the first error and its offset, or undefined for valid UTF-8. */
  finish(): { readonly message: string; readonly offset: number } | undefined;
}

/**
 * Creates a checker whose offsets start at `start` (the stream's first byte is at that offset of the file).
 * @example
 * const check = createUtf8StreamChecker(0);
 * check.push(Uint8Array.of(0x61, 0xe2, 0x82));
 * check.push(Uint8Array.of(0x41));
 * check.finish()?.message; // "'utf-8' codec can't decode bytes in position 1-2: invalid continuation byte"
 */
export function createUtf8StreamChecker(start: number): Utf8StreamChecker {
  let offset = start; // of the next byte
  let need = 0; // continuation bytes still expected
  let lower = 0x80;
  let upper = 0xbf;
  let lead = 0;
  let leadAt = 0;
  let found: { message: string; offset: number } | undefined;

  const fail = (at: number, end: number, reason: string, first: number): void => {
    found = { message: utf8ErrorMessage(Uint8Array.of(first), { start: 0, end: end - at, reason }, at), offset: at };
  };

  return {
    push(chunk) {
      if (found !== undefined) return;
      const n = chunk.byteLength;
      const words = n >= 8 ? new DataView(chunk.buffer, chunk.byteOffset, n) : undefined;
      let i = 0;
      while (i < n) {
        if (need === 0) {
          if (words !== undefined) while (i + 4 <= n && (words.getInt32(i, true) & 0x80808080) === 0) i += 4;
          if (i >= n) break;
          const c = chunk[i]!;
          if (c < 0x80) {
            i++;
            continue;
          }
          need = grammar.utf8ContinuationCount(c);
          if (need === 0) return fail(offset + i, offset + i + 1, 'invalid start byte', c);
          lead = c;
          leadAt = offset + i;
          lower = grammar.utf8SecondByteMin(c);
          upper = grammar.utf8SecondByteMax(c);
          i++;
          continue;
        }
        const c = chunk[i]!;
        if (c < lower || c > upper) return fail(leadAt, offset + i, 'invalid continuation byte', lead);
        lower = 0x80;
        upper = 0xbf;
        need--;
        i++;
      }
      offset += n;
    },
    finish() {
      if (found === undefined && need > 0) fail(leadAt, offset, 'unexpected end of data', lead);
      return found;
    },
  };
}
