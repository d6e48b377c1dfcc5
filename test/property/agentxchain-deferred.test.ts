// The AgentXchain reader that leaves file entries' bulk strings in the raw bytes
// (src/formats/agentxchain/deferred-strings.ts) must give exactly what the reference's
// `JSON.parse(readFileSync(path, 'utf8'))` gives: the same value (read through the getters), the
// same own-key order, the same V8 message for text that does not parse, whatever the chunking.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { deferredToken, ExportSkimmer, type ReadAgain } from '../../src/formats/agentxchain/deferred-strings.ts';
import { readDocument } from '../../src/formats/agentxchain/read-document.ts';
import { tokenEqualsUtf8 } from '../../src/json/string-token.ts';
import { loadStringSkipper, type StringSkipper } from '../../wasm/string-skip.ts';

const encoder = new TextEncoder();

/**
 * The CLI's WebAssembly SIMD skip over long strings (`VerifyOptions.stringSkipper`), which steps
 * over two-character escapes too; the reader must give the same with it as with its own skip.
 */
const simdSkipper = await loadStringSkipper();
const skippers: readonly (StringSkipper | undefined)[] = [undefined, simdSkipper];
test('Node compiles the SIMD string skip', () => assert.ok(simdSkipper));

function nodeText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** What the reference holds after reading the file: the parsed value, or V8's message. */
function reference(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(nodeText(bytes)) as unknown };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/**
 * How the reader reads its deferred strings: from the bytes it kept, or from the source again. A
 * source read again gets its chunks back scribbled over once it asks for the next (so a reader
 * that kept a chunk would read garbage), and answers each read again in one reused buffer,
 * scribbled over at the next read.
 */
type Mode = 'kept' | 'read again';
const modes: readonly Mode[] = ['kept', 'read again'];

function streamOf(bytes: Uint8Array, cuts: readonly number[], mode: Mode = 'kept'): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    // Copies at odd offsets, so the four-byte scan meets every alignment.
    const piece = new Uint8Array(new ArrayBuffer(point - from + 3), 1 + (point % 3), point - from);
    piece.set(bytes.subarray(from, point));
    pieces.push(piece);
    from = point;
  }
  let previous: Uint8Array | undefined;
  return new ReadableStream(
    {
      pull(controller) {
        if (mode === 'read again') previous?.fill(0x22);
        previous = pieces.shift();
        if (previous === undefined) controller.close();
        else controller.enqueue(previous);
      },
    },
    // Asked for the next chunk only once the reader is done with the last.
    { highWaterMark: 0 },
  );
}

/** `bytes` read again as the CLI reads its file: each answer in one buffer, overwritten by the next. */
function readAgainFrom(bytes: Uint8Array): { readAgain: ReadAgain; reads: () => number } {
  let buffer = new Uint8Array(0);
  let reads = 0;
  return {
    readAgain(start, end) {
      reads++;
      buffer.fill(0x22);
      if (buffer.byteLength < end - start) buffer = new Uint8Array(end - start);
      const answer = buffer.subarray(0, end - start);
      answer.set(bytes.subarray(start, end));
      return answer;
    },
    reads: () => reads,
  };
}

async function ours(
  bytes: Uint8Array,
  cuts: readonly number[] = [],
  mode: Mode = 'kept',
  stringSkipper?: StringSkipper,
): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  const readAgain = mode === 'read again' ? readAgainFrom(bytes).readAgain : undefined;
  const parsed = await readDocument(streamOf(bytes, cuts, mode), { maxBytes: 1 << 30, readAgain, stringSkipper });
  // A document known not to parse is read only a little past its first impossible byte.
  if (parsed.ok) assert.equal(parsed.byteLength, bytes.byteLength);
  else assert.ok(parsed.byteLength <= bytes.byteLength);
  // A deep copy reads every getter, and keeps own-key order for the comparison below. Not through
  // JSON text: that turned an Infinity (`1E309` in a damaged export) into null on this side only.
  return parsed.ok
    ? { ok: true, value: structuredClone(parsed.value) as unknown }
    : { ok: false, message: parsed.message };
}

/** Same value with the same own-key order at every level. */
function assertSameDocument(actual: unknown, expected: unknown): void {
  assert.deepStrictEqual(actual, expected);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected));
}

/** Strings that stress the lexer: escapes, quotes, backslash runs, non-ASCII, astral, controls. */
const trickyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom('"', '\\', '/', '\n', '\t', '\u0000', '\u001f', 'a', '=', 'é', '😀', '\ud800', '\udc00', 'u'),
    maxLength: 30,
  }),
  fc.base64String({ maxLength: 80 }),
);

/** JSON values as a writer would put them in a file entry's `data` (objects hold strings too). */
const dataValue = fc.oneof(
  trickyString,
  fc.constant(null),
  fc.integer(),
  fc.dictionary(fc.constantFrom('data', 'content_base64', 'files', 'x'), trickyString, { maxKeys: 3 }),
);

const entry = fc.record(
  {
    format: fc.constantFrom('json', 'jsonl', 'text'),
    bytes: fc.nat(),
    content_base64: fc.oneof(trickyString, fc.constant(null)),
    data: dataValue,
  },
  { requiredKeys: [] },
);

const files = fc.dictionary(
  fc.oneof(fc.constantFrom('a.md', '1', '__proto__', 'data', 'é/ü'), fc.string({ maxLength: 6 })),
  entry,
  { maxKeys: 5 },
);

/** Exports with nested `repos.<id>.export` children, the places the reader defers strings. */
const exportDocument = fc.letrec((tie) => ({
  export: fc.record(
    {
      schema_version: fc.constant('0.3'),
      files,
      repos: fc.dictionary(fc.string({ maxLength: 4 }), tie('repo'), { maxKeys: 2 }),
      data: trickyString,
    },
    { requiredKeys: [] },
  ),
  repo: fc.oneof(
    { depthSize: 'small' },
    fc.record({ export: tie('export'), ok: fc.boolean() }, { requiredKeys: [] }),
    fc.constant(null),
  ),
})).export;

/** Serialises with optional duplicate keys and whitespace, as hostile writers may. */
function serialise(value: unknown, duplicate: boolean, space: number): string {
  const text = JSON.stringify(value, null, space);
  // A duplicate of every "content_base64" member: JSON.parse keeps the last one.
  return duplicate ? text.replaceAll('"content_base64":', '"content_base64":"AAAA","content_base64":') : text;
}

test("the deferred reader gives JSON.parse's value, key order included, for any export and chunking, kept or read again", async () => {
  await fc.assert(
    fc.asyncProperty(
      exportDocument,
      fc.boolean(),
      fc.constantFrom(0, 2),
      fc.array(fc.nat(), { maxLength: 5 }),
      fc.constantFrom(...modes),
      fc.constantFrom(...skippers),
      async (document, duplicate, space, cuts, mode, skipper) => {
        const bytes = encoder.encode(serialise(document, duplicate, space));
        const expected = reference(bytes);
        const actual = await ours(bytes, cuts, mode, skipper);
        assert.equal(actual.ok, expected.ok);
        if (actual.ok && expected.ok) assertSameDocument(actual.value, expected.value);
      },
    ),
    { numRuns: 400 },
  );
});

test('large chunks kept as they are and small ones copied, in any mix, read as JSON.parse reads the text', async () => {
  // Chunks of 64 KiB or more that are (nearly) their whole buffer are kept rather than copied;
  // strings then span kept and copied blocks. A padding entry makes the document several such chunks long.
  await fc.assert(
    fc.asyncProperty(
      exportDocument,
      fc.array(fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 65_536, max: 140_000 })), {
        minLength: 1,
        maxLength: 8,
      }),
      fc.boolean(),
      async (document, sizes, offsetViews) => {
        const padding = { format: 'text', content_base64: 'QUJD'.repeat(60_000), data: 'x'.repeat(90_000) };
        const large = { ...document, files: { ...(document as { files?: object }).files, 'pad.txt': padding } };
        const bytes = encoder.encode(JSON.stringify(large));
        const pieces: Uint8Array[] = [];
        for (let from = 0, i = 0; from < bytes.length; i++) {
          const size = Math.min(sizes[i % sizes.length]!, bytes.length - from);
          // Whole buffers (kept), or views at an offset into a buffer a little larger (kept only when large).
          const piece = offsetViews ? new Uint8Array(new ArrayBuffer(size + 7), 5, size) : new Uint8Array(size);
          piece.set(bytes.subarray(from, from + size));
          pieces.push(piece);
          from += size;
        }
        const parsed = await readDocument(
          new ReadableStream({ pull: (c) => void (pieces.length ? c.enqueue(pieces.shift()!) : c.close()) }),
          { maxBytes: 1 << 30 },
        );
        const expected = reference(bytes);
        assert.ok(parsed.ok && expected.ok);
        assertSameDocument(structuredClone(parsed.value), expected.value);
      },
    ),
    { numRuns: 60 },
  );
});

test("damaged exports: the same verdict, and V8's message for the exact text when it does not parse", async () => {
  await fc.assert(
    fc.asyncProperty(
      exportDocument,
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 4 }),
      fc.constantFrom(...modes),
      fc.constantFrom(...skippers),
      async (document, damage, cuts, mode, skipper) => {
        const list = [...encoder.encode(JSON.stringify(document))];
        for (const [at, byte] of damage) list.splice(at % (list.length + 1), 1, byte);
        const bytes = Uint8Array.from(list);
        const expected = reference(bytes);
        const actual = await ours(bytes, cuts, mode, skipper);
        if (expected.ok && actual.ok) assertSameDocument(actual.value, expected.value);
        else assert.deepEqual(actual, expected);
      },
    ),
    { numRuns: 600 },
  );
});

test('deferred strings: invalid UTF-8, a BOM, raw controls and bad escapes behave as in the whole text', async () => {
  const cases = [
    Uint8Array.from([
      ...encoder.encode('{"files":{"a":{"data":"x'),
      0xe2,
      0x28,
      0xa1,
      0xff,
      ...encoder.encode('\\n","content_base64":"'),
      0xc3,
      ...encoder.encode('QQ=="}}}'),
    ]),
    Uint8Array.from([0xef, 0xbb, 0xbf, ...encoder.encode('{"files":{"a":{"data":"x"}}}')]),
    encoder.encode('{"files":{"a":{"data":"tab\there"}}}'),
    encoder.encode('{"files":{"a":{"data":"\\x"}}}'),
    encoder.encode('{"files":{"a":{"data":"\\u12g4"}}}'),
    encoder.encode('{"files":{"a":{"content_base64":"unterminated'),
    encoder.encode('{"files":{"a":{"data":"ok"}}},'),
    encoder.encode('{"fil\\u0065s":{"a":{"d\\u0061ta":"escaped keys","content_base64":"QQ=="}}}'),
    // Escapes in the last bytes of a chunk, after its last aligned four-byte word.
    encoder.encode(`{"files":{"a":{"data":"${'x'.repeat(40)}\\n\\t\\"${'y'.repeat(23)}\\\\"}}}`),
    // Escapes the SIMD skip steps over: one right after another, then a bad one; a \u escape, then
    // a raw control; an escaped backslash before an escaped quote; one cut by the string's end.
    encoder.encode(`{"files":{"a":{"data":"${'x'.repeat(70)}\\n\\n\\q${'z'.repeat(20)}"}}}`),
    encoder.encode(`{"files":{"a":{"content_base64":"${'Q'.repeat(70)}\\/\\u00e9\\b\t${'Q'.repeat(9)}"}}}`),
    encoder.encode(`{"files":{"a":{"data":"${'x'.repeat(66)}\\\\\\"\\r"}}}`),
    encoder.encode(`{"files":{"a":{"data":"${'x'.repeat(66)}\\`),
  ];
  for (const bytes of cases) {
    // Every single cut too: chunks of every length at every alignment.
    const singleCuts = Array.from({ length: bytes.length + 1 }, (_, i) => [i]);
    for (const cuts of [[], [1, 2, 3, 17, 25, 30], Array.from({ length: bytes.length }, (_, i) => i), ...singleCuts]) {
      const expected = reference(bytes);
      for (const mode of modes)
        for (const skipper of skippers) {
          const actual = await ours(bytes, cuts, mode, skipper);
          if (expected.ok && actual.ok) assertSameDocument(actual.value, expected.value);
          else assert.deepEqual(actual, expected, `${mode}, skipper ${skipper !== undefined}: ${nodeText(bytes)}`);
        }
    }
  }
});

test('only entry strings are deferred, and a forged placeholder stays an ordinary string', async () => {
  // Strings of 64 bytes or more are deferred (shorter ones stay in the skeleton); a forged
  // placeholder padded past that length with zeros in its index.
  const forged = `\u00000123456789abcdef#${'0'.repeat(60)}`;
  const long = (text: string): string => text.padEnd(80, '.');
  const content = btoa(long('hi'));
  const document = {
    data: long('top-level data is not an entry'),
    files: {
      'a.txt': { format: 'text', content_base64: content, data: long('hi'), note: forged },
      'b.json': { format: 'json', data: { files: { x: { data: long('inside data: not deferred') } } } },
      'short.txt': { format: 'text', content_base64: 'aGk=', data: 'hi' },
    },
    repos: { r: { export: { files: { 'c.txt': { data: forged } } } } },
  };
  const parsed = await readDocument(streamOf(encoder.encode(JSON.stringify(document)), []), { maxBytes: 1 << 20 });
  assert.ok(parsed.ok);
  const value = parsed.value as typeof document;
  assertSameDocument(JSON.parse(JSON.stringify(value)), document);
  const a = value.files['a.txt'];
  assert.deepEqual(new TextDecoder().decode(deferredToken(a, 'content_base64')), JSON.stringify(content));
  assert.deepEqual(new TextDecoder().decode(deferredToken(a, 'data')), JSON.stringify(long('hi')));
  assert.equal(deferredToken(a, 'note'), undefined);
  assert.equal(deferredToken(value.files['b.json'].data.files.x, 'data'), undefined);
  assert.equal(deferredToken(value.files['short.txt'], 'content_base64'), undefined);
  assert.equal(value.files['short.txt'].content_base64, 'aGk=');
  assert.equal(value.repos.r.export.files['c.txt'].data, forged);
  assert.ok(deferredToken(value.repos.r.export.files['c.txt'], 'data') !== undefined);
});

test('the skeleton is never larger than the document, however many tiny entry strings it holds', async () => {
  // Duplicate keys let one entry hold any number of deferrable strings; placeholders for them
  // would make the parsed text several times the document.
  const text = `{"files":{"a":{${Array.from({ length: 20_000 }, () => '"data":""').join(',')},"data":"${'x'.repeat(100)}"}}}`;
  const skimmer = new ExportSkimmer();
  skimmer.push(encoder.encode(text));
  const skimmed = skimmer.finish();
  assert.ok(skimmed.skeleton !== undefined && skimmed.skeleton.byteLength <= text.length);
  const parsed = await readDocument(streamOf(encoder.encode(text), [7, 1000]), { maxBytes: 1 << 20 });
  assert.ok(parsed.ok);
  assert.deepEqual(JSON.parse(JSON.stringify(parsed.value)), JSON.parse(text));
});

test('tokenEqualsUtf8 says equal only when the strings are equal, and decides every valid text', () => {
  const tokenOf = (text: string): Uint8Array => {
    // JSON.stringify escapes controls, quotes and lone surrogates; also escape some characters
    // (slashes, odd non-ASCII code points) the way other writers do. Per code point (the `u`
    // flag), so both halves of a surrogate pair are escaped or neither.
    const escape = (c: string): string =>
      Array.from({ length: c.length }, (_, k) => `\\u${c.charCodeAt(k).toString(16).padStart(4, '0')}`).join('');
    const json = JSON.stringify(text).replace(/[\u0080-\u{10ffff}/]/gu, (c) =>
      c === '/' ? '\\/' : (c.codePointAt(0)! & 1) === 0 ? c : escape(c),
    );
    return encoder.encode(json);
  };
  fc.assert(
    fc.property(
      trickyString,
      trickyString,
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 2 }),
      (text, other, damage) => {
        const token = tokenOf(text);
        const denoted = JSON.parse(nodeText(token)) as string;
        const sameBytes = encoder.encode(text);
        const isWellFormed = !/[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''));
        // Equal text with valid UTF-8 is always decided.
        if (isWellFormed) assert.equal(tokenEqualsUtf8(token, sameBytes), true);
        // Whatever the bytes, "true" means the decoded strings are equal.
        const list = [...encoder.encode(other)];
        for (const [at, byte] of damage) list.splice(at % (list.length + 1), 0, byte);
        for (const bytes of [Uint8Array.from(list), sameBytes]) {
          if (tokenEqualsUtf8(token, bytes)) assert.equal(nodeText(bytes), denoted);
        }
      },
    ),
    { numRuns: 3000 },
  );
  // Raw invalid bytes in the token and in the content agree byte for byte: equal strings.
  const broken = Uint8Array.from([0x22, 0x61, 0xe2, 0x5c, 0x6e, 0x22]); // "a<E2>\n"
  assert.equal(tokenEqualsUtf8(broken, Uint8Array.from([0x61, 0xe2, 0x0a])), true);
  assert.equal(nodeText(Uint8Array.from([0x61, 0xe2, 0x0a])), JSON.parse(nodeText(broken)) as string);
});

test('tokenEqualsUtf8 finds a single differing byte at any position of a run, at any alignment', () => {
  for (let length = 0; length <= 40; length++) {
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ'.slice(0, length);
    for (const offset of [0, 1, 3]) {
      // The content at an odd offset into its buffer, so the word reads meet every alignment.
      const bytes = new Uint8Array(new ArrayBuffer(length + offset), offset, length);
      bytes.set(encoder.encode(text));
      const token = encoder.encode(JSON.stringify(text));
      assert.equal(tokenEqualsUtf8(token, bytes), true);
      for (let at = 0; at < length; at++) {
        const changed = bytes.slice();
        changed[at] = changed[at]! ^ 0x01;
        assert.equal(tokenEqualsUtf8(token, changed), undefined, `length ${length}, byte ${at}`);
      }
      assert.equal(tokenEqualsUtf8(token, bytes.subarray(0, Math.max(0, length - 1))), length === 0 ? true : undefined);
    }
  }
});

test('read again: the deferred strings come from the source, one read per use, and the skeleton from the stream', async () => {
  const content = btoa('x'.repeat(120));
  const data = 'y'.repeat(100);
  const text = JSON.stringify({ project: 'p', files: { 'a.txt': { format: 'text', content_base64: content, data } } });
  const bytes = encoder.encode(text);
  // The source holds other letters at the deferred strings' places, and the same bytes elsewhere.
  const source = encoder.encode(text.replace(content, content.replaceAll('e', 'f')).replace(data, 'z'.repeat(100)));
  const { readAgain, reads } = readAgainFrom(source);
  for (const cuts of [[], [40], [70, 150, 151], Array.from({ length: bytes.length }, (_, i) => i)]) {
    const before = reads();
    const parsed = await readDocument(streamOf(bytes, cuts, 'read again'), { maxBytes: 1 << 20, readAgain });
    assert.ok(parsed.ok);
    assert.equal(reads(), before, 'nothing is read again before a check asks');
    const entry = (parsed.value as { files: Record<string, Record<string, unknown>> }).files['a.txt']!;
    assert.equal(entry['content_base64'], content.replaceAll('e', 'f'));
    assert.equal(entry['data'], 'z'.repeat(100));
    assert.equal((parsed.value as { project: string }).project, 'p');
    assert.equal(reads(), before + 2);
  }
  // A source that cannot give the bytes back makes the read throw, never a shorter string.
  const short = await readDocument(streamOf(bytes, [50], 'read again'), {
    maxBytes: 1 << 20,
    readAgain: (start, end) => source.subarray(start, end - 1),
  });
  assert.ok(short.ok);
  assert.throws(
    () => (short.value as { files: Record<string, Record<string, unknown>> }).files['a.txt']!['data'],
    /the input gave 101 bytes when read again at \[\d+, \d+\)/,
  );
});

test('the skeleton itself parses, to the document with its strings read, whenever the document does (no fallback)', async () => {
  // readDocument falls back to parsing the whole text when the skeleton does not parse, which
  // would hide a skeleton that lost or kept the wrong bytes: check the skimmer on its own.
  await fc.assert(
    fc.asyncProperty(
      exportDocument,
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 8 }),
      fc.constantFrom(...modes),
      fc.constantFrom(...skippers),
      async (document, duplicate, cuts, mode, skipper) => {
        const bytes = encoder.encode(serialise(document, duplicate, 0));
        const readAgain = mode === 'read again' ? readAgainFrom(bytes).readAgain : undefined;
        const skimmer = new ExportSkimmer(readAgain, skipper);
        const reader = streamOf(bytes, cuts, mode).getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) skimmer.push(next.value);
        const skimmed = skimmer.finish();
        assert.ok(skimmed.skeleton !== undefined);
        const value = JSON.parse(nodeText(skimmed.skeleton)) as unknown;
        skimmed.install(value as never);
        assertSameDocument(structuredClone(value), JSON.parse(nodeText(bytes)));
      },
    ),
    { numRuns: 400 },
  );
});
