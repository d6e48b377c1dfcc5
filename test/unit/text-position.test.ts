// Python's error positions (code points, line, column) over bytes a bounded reader drops:
// `advancePosition` counts four bytes at a time and must equal counting byte by byte, for any
// bytes (newlines, continuation bytes, lead bytes, invalid ones) at any offset and alignment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  advancePosition,
  formatPosition,
  pythonJsonPosition,
  TEXT_START,
  type TextPosition,
} from '../../src/json/errors.ts';

/** The definition: each byte that is not a UTF-8 continuation byte (10xxxxxx) is a code point. */
function byteByByte(from: TextPosition, bytes: Uint8Array, start: number, end: number): TextPosition {
  let { chars, line, lastNewlineChar } = from;
  for (let i = start; i < Math.min(end, bytes.length); i++) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte === 0x0a) {
      line++;
      lastNewlineChar = chars;
    }
    chars++;
  }
  return { chars, line, lastNewlineChar };
}

const someByte = fc.oneof(
  fc.constantFrom(0x0a, 0x0d, 0x20, 0x7b, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0xff, 0x80, 0xbf, 0x00),
  fc.integer({ min: 0, max: 255 }),
);

test('advancePosition equals counting byte by byte, from any position, over any bytes', () => {
  fc.assert(
    fc.property(
      fc.array(someByte, { maxLength: 80 }),
      fc.nat(7),
      fc.nat(80),
      fc.nat(90),
      fc.record({
        chars: fc.nat(1000),
        line: fc.integer({ min: 1, max: 50 }),
        lastNewlineChar: fc.integer({ min: -1, max: 999 }),
      }),
      (values, offset, start, end, from) => {
        // A view at any offset of a larger buffer, as the reader's buffer is.
        const bytes = new Uint8Array(new ArrayBuffer(values.length + offset + 3), offset, values.length);
        bytes.set(values);
        const begin = Math.min(start, values.length);
        assert.deepEqual(advancePosition(from, bytes, begin, end), byteByByte(from, bytes, begin, end));
      },
    ),
    { numRuns: 5000 },
  );
});

test("Python's position text for a byte offset", () => {
  const text = new TextEncoder().encode('{\n "é": x\n\u{1f600}');
  assert.equal(pythonJsonPosition(text, 9), 'line 2 column 7 (char 8)');
  assert.equal(formatPosition(advancePosition(TEXT_START, text, 0, text.length)), 'line 3 column 2 (char 11)');
});
