// The AgentXchain base64 fast path must give exactly what Node's Buffer.from(s, 'base64') gives
// (and what the core's general lenient decoder gives), for plain and for odd inputs alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeBase64Lenient } from '../../src/encoding/base64.ts';
import { decodeContentBase64, decodeContentBase64Token } from '../../src/formats/agentxchain/base64-fast-path.ts';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const oddChars = ['=', '-', '_', ' ', '\n', '!', '*', 'é', '\u0100', '\ud83d', '\u00ff', '.'];

/** Mostly-valid base64 with sprinkled padding, url-safe characters, junk and non-ASCII. */
const base64ish = fc
  .array(
    fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom(...alphabet) },
      { weight: 1, arbitrary: fc.constantFrom(...oddChars) },
    ),
    { maxLength: 120 },
  )
  .map((chars) => chars.join(''));

test('decodeContentBase64 equals Buffer.from(s, "base64"), code units above 255 included', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        base64ish,
        fc.uint8Array({ maxLength: 90 }).map((b) => Buffer.from(b).toString('base64')),
        fc.string({ maxLength: 40 }),
      ),
      (text) => {
        const expected = new Uint8Array(Buffer.from(text, 'base64'));
        assert.deepEqual(decodeContentBase64(text), expected);
        // The core decoder skips code units above 255 where Node 20 reads their low byte; within
        // Latin-1 the two decoders must agree.
        if ([...text].every((c) => c.charCodeAt(0) < 256)) assert.deepEqual(decodeBase64Lenient(text), expected);
      },
    ),
    { numRuns: 5000 },
  );
  // Node 20 truncates code units to a byte: U+0141 reads as 'A', U+D83D as '='.
  assert.deepEqual(decodeContentBase64('A\u0141A'), Uint8Array.of(0, 0));
  assert.deepEqual(decodeContentBase64('\ud83dAA'), new Uint8Array(0));
});

test('the fast path handles padding, the last group and large inputs like Node', () => {
  for (const text of [
    '',
    'A',
    'AA',
    'AAA',
    'AAAA',
    'AA==',
    'AAA=',
    'A===',
    'AA=A',
    'QUJD',
    'QUJDRA',
    'QUJDRA==',
    '_-8=',
    '====',
  ]) {
    assert.deepEqual(decodeContentBase64(text), new Uint8Array(Buffer.from(text, 'base64')), JSON.stringify(text));
  }
  const big = new Uint8Array(5 << 20).map((_, i) => (i * 7919) & 0xff);
  const encoded = Buffer.from(big).toString('base64');
  assert.deepEqual(decodeContentBase64(encoded), big);
  assert.deepEqual(
    decodeContentBase64(encoded.slice(0, 1000)),
    new Uint8Array(Buffer.from(encoded.slice(0, 1000), 'base64')),
  );
});

test('decoding from the raw JSON token equals Buffer.from of the string it denotes, at any alignment', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        base64ish,
        fc.uint8Array({ maxLength: 90 }).map((b) => Buffer.from(b).toString('base64')),
      ),
      fc.nat(7),
      fc.boolean(),
      (text, offset, escapeSlash) => {
        // A writer may escape '/' (and others); the token holds raw UTF-8 at any byte offset.
        const json = JSON.stringify(text);
        const tokenText = escapeSlash ? json.replaceAll('/', '\\/') : json;
        const encoded = new TextEncoder().encode(tokenText);
        const token = new Uint8Array(new ArrayBuffer(encoded.byteLength + offset), offset);
        token.set(encoded);
        assert.deepEqual(decodeContentBase64Token(token), new Uint8Array(Buffer.from(text, 'base64')));
      },
    ),
    { numRuns: 5000 },
  );
});

test('a transient decoding is the same bytes, written where the next transient one goes', () => {
  const token = (text: string): Uint8Array => new TextEncoder().encode(JSON.stringify(text));
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
      const [first, second] = [a, b].map((bytes) => token(Buffer.from(bytes).toString('base64')));
      const transientA = decodeContentBase64Token(first!, undefined, true);
      assert.deepEqual(transientA, a);
      const ownA = decodeContentBase64Token(first!);
      const transientB = decodeContentBase64Token(second!, undefined, true);
      assert.deepEqual(transientB, b);
      // The second transient result took the first one's memory (when it fit there); a result of
      // its own never shares it.
      if (a.byteLength > 0 && b.byteLength > 0 && b.byteLength <= transientA.buffer.byteLength)
        assert.equal(transientA.buffer, transientB.buffer);
      assert.notEqual(ownA.buffer, transientB.buffer);
      assert.deepEqual(ownA, a);
    }),
    { numRuns: 500 },
  );
});
