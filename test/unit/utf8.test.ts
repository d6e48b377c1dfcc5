// UTF-8 decoding parity with Node's `buffer.toString('utf8')`, which the AgentXchain reference uses
// for the whole artifact and for every file's content (docs/agentxchain.md §1, §4.10): the core's
// decodeUtf8Lenient and the AgentXchain document decoder (ASCII-escaping, chunked) must both give
// exactly Node's text, replacement characters included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeUtf8Lenient } from '../../src/encoding/utf8.ts';
import { createDocumentDecoder } from '../../src/formats/agentxchain/document-text.ts';

/** Bytes biased towards UTF-8 structure: ASCII, lead bytes, continuation bytes, edge values. */
const utf8ish = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0x00, max: 0x7f }) },
    { weight: 3, arbitrary: fc.integer({ min: 0x80, max: 0xbf }) },
    { weight: 2, arbitrary: fc.integer({ min: 0xc0, max: 0xff }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(0x5c, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xc2, 0xdf, 0x9f, 0xa0, 0x8f, 0x90),
    },
  ),
  { maxLength: 300 },
);

/** Real text encoded (any code point, including astral and U+FFFD), with random bytes spliced in. */
const textWithDamage = fc
  .tuple(
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
  )
  .map(([text, damage]) => {
    const bytes = [...new TextEncoder().encode(text)];
    for (const [at, byte] of damage) bytes.splice(at % (bytes.length + 1), 0, byte);
    return bytes;
  });

function nodeText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Feeds `bytes` to a document decoder in chunks cut at `cuts`. */
function decodeInChunks(bytes: Uint8Array, cuts: readonly number[]) {
  const decoder = createDocumentDecoder();
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of [...points, bytes.length]) {
    decoder.push(bytes.subarray(from, point));
    from = point;
  }
  return decoder.finish();
}

test('decodeUtf8Lenient equals Buffer.toString on arbitrary bytes (BOM kept, U+FFFD placement)', () => {
  fc.assert(
    fc.property(
      fc.oneof(utf8ish, textWithDamage, fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 200 })),
      (list) => {
        const bytes = Uint8Array.from(list);
        assert.equal(decodeUtf8Lenient(bytes), nodeText(bytes));
      },
    ),
    { numRuns: 3000 },
  );
  assert.equal(decodeUtf8Lenient(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b)), '\ufeff{');
});

test("the document decoder rebuilds exactly Node's text, whatever the chunking", () => {
  fc.assert(
    fc.property(fc.oneof(utf8ish, textWithDamage), fc.array(fc.nat(), { maxLength: 6 }), (list, cuts) => {
      const bytes = Uint8Array.from(list);
      const doc = decodeInChunks(bytes, cuts);
      assert.equal(doc.exactText(), nodeText(bytes));
      if (doc.exact) assert.equal(doc.text, nodeText(bytes));
      // The escaped text is pure ASCII.
      assert.ok(doc.exact || [...doc.text].every((c) => c.charCodeAt(0) < 0x80));
    }),
    { numRuns: 3000 },
  );
});

/** A JSON document as bytes: any JSON value, with optional damage (raw bytes, backslashes) spliced in. */
const jsonDocument = fc
  .tuple(
    fc.jsonValue({ maxDepth: 3 }),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom(
          [0x5c],
          [0x5c, 0x5c],
          [0xc3, 0xa9],
          [0xe2, 0x80, 0xa8],
          [0xf0, 0x9f, 0x98, 0x80],
          [0xff],
          [0xed, 0xa0, 0x80],
          [0xef, 0xbb, 0xbf],
          [0x22],
        ),
      ),
      { maxLength: 3 },
    ),
    fc.boolean(),
  )
  .map(([value, damage, bom]) => {
    const bytes = [...(bom ? [0xef, 0xbb, 0xbf] : []), ...new TextEncoder().encode(JSON.stringify(value))];
    for (const [at, inserted] of damage) bytes.splice(at % (bytes.length + 1), 0, ...inserted);
    return Uint8Array.from(bytes);
  });

function parseOutcome(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

test("JSON.parse of the escaped text succeeds exactly when it does on Node's text, with the same value", () => {
  fc.assert(
    fc.property(jsonDocument, fc.array(fc.nat(), { maxLength: 4 }), (bytes, cuts) => {
      const reference = parseOutcome(nodeText(bytes));
      const escaped = parseOutcome(decodeInChunks(bytes, cuts).text);
      assert.equal(escaped.ok, reference.ok);
      if (reference.ok && escaped.ok) assert.deepStrictEqual(escaped.value, reference.value);
    }),
    { numRuns: 3000 },
  );
});

test('a backslash run before a non-ASCII character keeps the parse exact', () => {
  for (const source of ['"\\é"', '"\\\\é"', '"\\\\\\é"', '["a\\\\", "é"]', '"\\uD83D😀"']) {
    const bytes = new TextEncoder().encode(source);
    const doc = decodeInChunks(bytes, [1, 2]);
    assert.deepEqual(parseOutcome(doc.text).ok, parseOutcome(source).ok, source);
    if (!doc.exact) assert.deepEqual(JSON.parse(doc.text), JSON.parse(source), source);
  }
});

test('many invalid bytes switch to plain decoding instead of growing sixfold', () => {
  const bytes = new Uint8Array(3 << 20).fill(0xff);
  bytes.set(new TextEncoder().encode('"é'), 0);
  const doc = decodeInChunks(bytes, [1, 1000, 65536, 1 << 20, (1 << 20) + 1]);
  assert.equal(doc.exact, true);
  assert.equal(doc.text, nodeText(bytes));
  assert.ok(doc.text.length <= bytes.length);
});
