// The JSON grammar module (src/json/_grammar.ts) that every reader lexes with: the four-bytes-at-a-
// time string skip against a byte-by-byte reading of RFC 8259 §7, at every alignment of the bytes
// in their buffer, and the escapes against what JSON.parse reads.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import * as grammar from '../../src/json/_grammar.ts';

/** What the skip must stop at, byte by byte: `"`, `\`, controls, and non-ASCII when asked. */
function referenceSkip(bytes: Uint8Array, pos: number, nonAscii: boolean): number {
  while (pos < bytes.length) {
    const b = bytes[pos]!;
    if (b === 0x22 || b === 0x5c || b < 0x20 || (nonAscii && b >= 0x80)) break;
    pos++;
  }
  return pos;
}

/** Mostly plain ASCII, with every kind of byte the skip must stop at now and then. */
const stringByte = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).filter((b) => b !== 0x22 && b !== 0x5c) },
  { weight: 1, arbitrary: fc.constantFrom(0x22, 0x5c, 0x00, 0x0a, 0x1f, 0x7f, 0x80, 0xc3, 0xff) },
);

describe('json grammar: skipStringBytes and skipLongStringBytes', () => {
  it('stops where a byte-by-byte reading stops, from any offset, at any alignment, for both stop sets', () => {
    fc.assert(
      fc.property(fc.array(stringByte, { maxLength: 300, size: 'max' }), fc.nat(3), fc.nat(), (list, shift, at) => {
        // The bytes sit `shift` bytes into their buffer, so the word reads are unaligned as often as not.
        const buffer = new Uint8Array(list.length + shift);
        buffer.set(list, shift);
        const bytes = buffer.subarray(shift);
        const pos = bytes.length === 0 ? 0 : at % (bytes.length + 1);
        const view = grammar.wordView(bytes);
        const stops = [grammar.STOP_MUST_ESCAPE, grammar.STOP_MUST_ESCAPE | grammar.STOP_NON_ASCII];
        for (const stopAt of stops) {
          const expected = referenceSkip(bytes, pos, stopAt !== grammar.STOP_MUST_ESCAPE);
          assert.equal(grammar.skipStringBytes(bytes, pos, view, stopAt), expected);
          assert.equal(grammar.skipStringBytes(bytes, pos, undefined, stopAt), expected);
          assert.equal(grammar.skipLongStringBytes(bytes, pos, view, stopAt), expected);
          assert.equal(grammar.skipLongStringBytes(bytes, pos, undefined, stopAt), expected);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('mustEscape is exactly what a JSON string may not hold raw', () => {
    for (let b = 0; b < 256; b++) {
      const raw = JSON.stringify(String.fromCharCode(b));
      const escaped = raw.length > 3; // JSON.stringify escapes `"`, `\` and the controls, nothing else
      assert.equal(grammar.mustEscape(b), b < 0x80 && escaped, `byte ${b}`);
    }
  });
});

describe('json grammar: escapes', () => {
  it('a two-character escape is valid exactly when JSON.parse reads it, and stands for the same byte', () => {
    for (let letter = 0; letter < 128; letter++) {
      if (letter === 0x75) continue; // `\u` takes four hex digits
      let parsed: string | undefined;
      try {
        parsed = JSON.parse(`"\\${String.fromCharCode(letter)}"`) as string;
      } catch {
        parsed = undefined;
      }
      assert.equal(
        grammar.escapedByte(letter),
        parsed === undefined ? 0 : parsed.charCodeAt(0),
        `\\${String.fromCharCode(letter)}`,
      );
    }
  });

  it('escapeLetter writes back what escapedByte reads, for the bytes a writer escapes', () => {
    for (let byte = 0; byte < 256; byte++) {
      const letter = grammar.escapeLetter(byte);
      const written = JSON.stringify(String.fromCharCode(byte));
      if (letter === 0) {
        // Written raw, or as `\u00XX`: never as a two-character escape.
        assert.ok(!/^"\\[^u]/.test(written), `byte ${byte}: ${written}`);
        continue;
      }
      assert.equal(grammar.escapedByte(letter), byte);
      assert.equal(written, `"\\${String.fromCharCode(letter)}"`);
    }
  });

  it('escapedCodePoint and escapeLength read \\u escapes and surrogate pairs as JSON.parse does', () => {
    const unit = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(fc.array(unit, { minLength: 1, maxLength: 3 }), fc.boolean(), (units, upper) => {
        const hex = (u: number): string => {
          const text = u.toString(16).padStart(4, '0');
          return upper ? text.toUpperCase() : text;
        };
        const token = new TextEncoder().encode(units.map((u) => `\\u${hex(u)}`).join(''));
        const expected = JSON.parse(`"${units.map((u) => `\\u${hex(u)}`).join('')}"`) as string;
        let text = '';
        for (let at = 0; at < token.length;) {
          const point = grammar.escapedCodePoint(token, at, token.length);
          text += String.fromCodePoint(point);
          at += grammar.escapeLength(token, at, point);
        }
        assert.equal(text, expected);
      }),
    );
  });

  it('hexCodeUnit refuses anything but four hex digits', () => {
    const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
    assert.equal(grammar.hexCodeUnit(bytes('00e9'), 0), 0xe9);
    assert.equal(grammar.hexCodeUnit(bytes('D83D'), 0), 0xd83d);
    assert.equal(grammar.hexCodeUnit(bytes('00g9'), 0), -1);
    assert.equal(grammar.hexCodeUnit(bytes('00e'), 0), -1);
    assert.equal(grammar.hexCodeUnit(bytes('x00e9'), 1), 0xe9);
  });
});

describe('json grammar: numbers and whitespace', () => {
  it('integerEnd and fractionExponentEnd take the lexeme JSON.parse takes', () => {
    const lexeme = fc.tuple(
      fc.boolean(),
      fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,5}$/)),
      fc.option(fc.stringMatching(/^\.[0-9]{1,4}$/)),
      fc.option(fc.stringMatching(/^[eE][+-]?[0-9]{1,3}$/)),
    );
    fc.assert(
      fc.property(lexeme, fc.constantFrom('', ',', ']', ' ', '.', 'e', 'e+'), ([minus, int, frac, exp], after) => {
        const number = `${minus ? '-' : ''}${int}${frac ?? ''}${exp ?? ''}`;
        const bytes = new TextEncoder().encode(number + after);
        const start = minus ? 1 : 0;
        const integer = grammar.integerEnd(bytes, start);
        assert.equal(integer, start + int.length);
        const end = grammar.fractionExponentEnd(bytes, integer);
        assert.equal(end, number.length);
        assert.equal(JSON.parse(number), Number(number));
      }),
    );
  });

  it('skipWhitespace skips exactly the four whitespace bytes JSON.parse skips', () => {
    for (let b = 0; b < 256; b++) {
      // `{ }` with one byte inside parses only when that byte is whitespace.
      let skipped = true;
      try {
        JSON.parse(`{${String.fromCharCode(b)}}`);
      } catch {
        skipped = false;
      }
      assert.equal(grammar.skipWhitespace(new Uint8Array([b, 0x31]), 0), skipped ? 1 : 0, `byte ${b}`);
    }
  });
});
