// The lossless JSON reader: Python json.loads semantics (docs/zaxy.md, 'Canonical JSON' and 'Input
// Zaxy never verifies'), errors as data with CPython's wording (expected texts below were taken
// from CPython 3.11.7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { pythonJsonPosition } from '../../src/json/errors.ts';
import { createDocumentReader, readJson, readJsonAt, readJsonDocument, type TapeNode } from '../../src/json/reader.ts';
import { valueOffset } from '../../src/json/tape-read.ts';
import type { JsonValue } from '../../src/json/value.ts';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const read = (text: string): JsonValue => {
  const result = readJson(encode(text));
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};
const error = (input: string | Uint8Array, maxDepth?: number) => {
  const result = readJson(
    typeof input === 'string' ? encode(input) : input,
    maxDepth === undefined ? {} : { maxDepth },
  );
  assert.equal(result.ok, false, 'expected a read error');
  return (result as { error: { kind: string; message: string; offset: number } }).error;
};

test('integers are exact bigints, floats are numbers: 1 and 1.0 stay apart', () => {
  assert.deepEqual(read('[1, 1.0, -0, -0.0, 9007199254740993, 100000000000000000000000000000]'), [
    1n,
    1,
    0n,
    -0,
    9007199254740993n,
    10n ** 29n,
  ]);
  assert.ok(Object.is(read('-0.0') as number, -0));
  assert.equal(read('1E2'), 100);
  assert.equal(read('1e400'), Infinity);
  assert.equal(read('-1e400'), -Infinity);
  assert.equal(read('1e-400'), 0);
});

test('NaN, Infinity and -Infinity tokens are accepted', () => {
  const value = read('[NaN, Infinity, -Infinity]') as number[];
  assert.ok(Number.isNaN(value[0]));
  assert.deepEqual(value.slice(1), [Infinity, -Infinity]);
});

test('escapes decode; lone surrogates stay lone, pairs join', () => {
  assert.equal(read('"caf\\u00e9 \\/ \\n"'), 'café / \n');
  assert.equal(read('"\\ud83d\\ude00"'), '\u{1F600}');
  assert.equal(read('"\\ud800x"'), '\ud800x');
  assert.equal(read('"\\udc00\\ud800"'), '\udc00\ud800');
});

test('objects are Maps: the last duplicate wins at the first position; __proto__ is data', () => {
  const value = read('{"k": 1, "j": 2, "k": 3, "__proto__": {"x": 1}}') as Map<string, JsonValue>;
  assert.deepEqual([...value.keys()], ['k', 'j', '__proto__']);
  assert.equal(value.get('k'), 3n);
  assert.equal(({} as Record<string, unknown>)['x'], undefined);
});

test('syntax errors carry CPython json.JSONDecodeError texts and byte offsets', () => {
  assert.deepEqual(error('{"a":1,}'), {
    kind: 'syntax',
    message: 'Expecting property name enclosed in double quotes: line 1 column 8 (char 7)',
    offset: 7,
  });
  assert.equal(error('[1,]').message, 'Expecting value: line 1 column 4 (char 3)');
  assert.equal(error('"a\\x"').message, 'Invalid \\escape: line 1 column 3 (char 2)');
  assert.equal(error('"a\\u12"').message, 'Invalid \\uXXXX escape: line 1 column 4 (char 3)');
  assert.equal(error('"a\u0001"').message, 'Invalid control character at: line 1 column 3 (char 2)');
  assert.equal(error('"abc').message, 'Unterminated string starting at: line 1 column 1 (char 0)');
  assert.equal(error('{"a" 1}').message, "Expecting ':' delimiter: line 1 column 6 (char 5)");
  assert.equal(error('{"a":1 "b"}').message, "Expecting ',' delimiter: line 1 column 8 (char 7)");
  assert.equal(error('[1 2]').message, "Expecting ',' delimiter: line 1 column 4 (char 3)");
  assert.equal(error('{} x').message, 'Extra data: line 1 column 4 (char 3)');
  assert.equal(error('').message, 'Expecting value: line 1 column 1 (char 0)');
  assert.equal(error('{1:2}').message, 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)');
  assert.equal(
    error('{\n "é": x}').message,
    'Expecting value: line 2 column 7 (char 8)',
    'positions count code points',
  );
  assert.equal(
    error('[1.]').message,
    "Expecting ',' delimiter: line 1 column 3 (char 2)",
    'a number takes its fraction only when complete',
  );
  assert.equal(error('-').message, 'Expecting value: line 1 column 1 (char 0)');
});

test('file-level errors outrank syntax: invalid UTF-8 anywhere, then a BOM', () => {
  const invalid = error(new Uint8Array([0x5b, 0x31, 0x2c, 0x2c, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d]));
  assert.equal(invalid.kind, 'utf8');
  assert.equal(invalid.message, "'utf-8' codec can't decode byte 0xed in position 5: invalid continuation byte");
  assert.equal(
    error(new Uint8Array([0x22, 0xf0, 0x9f, 0x98])).message,
    "'utf-8' codec can't decode bytes in position 1-3: unexpected end of data",
  );
  assert.equal(
    error(new Uint8Array([0x22, 0xc3, 0x28, 0x22])).message,
    "'utf-8' codec can't decode byte 0xc3 in position 1: invalid continuation byte",
  );
  const bom = error(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
  assert.deepEqual(bom, {
    kind: 'bom',
    message: 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)',
    offset: 0,
  });
});

test('integers over 4300 digits are refused as CPython refuses them; 4300 are fine', () => {
  assert.equal(typeof read('-' + '9'.repeat(4300)), 'bigint');
  const tooLong = error('[' + '1'.repeat(4301) + ']');
  assert.equal(tooLong.kind, 'integer_digits');
  assert.equal(tooLong.offset, 1);
  assert.match(
    tooLong.message,
    /^Exceeds the limit \(4300 digits\) for integer string conversion: value has 4301 digits/,
  );
  assert.equal(typeof read('1' + '0'.repeat(5000) + '.5'), 'number', 'floats have no digit limit');
});

test('nesting is bounded by maxDepth without recursion (a million levels do not overflow the stack)', () => {
  assert.deepEqual(read('[[[]]]'), [[[]]]);
  assert.equal(error('[[[]]]', 2).kind, 'depth');
  assert.equal(
    error('[[[]]]', 2).message,
    'maximum recursion depth exceeded while decoding a JSON array from a unicode string',
  );
  assert.equal(
    error('{"a":{"b":{}}}', 2).message,
    'maximum recursion depth exceeded while decoding a JSON object from a unicode string',
  );
  const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
  assert.equal(readJson(encode(deep), { maxDepth: 2_000_000 }).ok, true);
});

test('large documents grow the tape without losing nodes', () => {
  const value = { list: Array.from({ length: 5000 }, (_, i) => ({ i, s: `x${i}`, f: i + 0.5 })) };
  const read = readJson(encode(JSON.stringify(value)));
  assert.ok(read.ok);
  const list = (read.value as Map<string, JsonValue>).get('list') as Map<string, JsonValue>[];
  assert.equal(list.length, 5000);
  assert.equal(list[4999]!.get('s'), 'x4999');
  assert.equal(list[4999]!.get('f'), 4999.5);
});

test('readJsonDocument streams named top-level arrays; the last duplicate key wins', () => {
  const seen: string[] = [];
  const result = readJsonDocument(encode('{"a": [1, {"b": 2}], "c": "x", "a": [3], "d": [4]}'), {
    streamKeys: ['a'],
    startArray(key) {
      seen.push(`start ${key}`);
    },
    element(key, index, element) {
      seen.push(`${key}[${index}] tag ${element.tape[element.node]}`);
    },
  });
  assert.ok(result.ok);
  assert.deepEqual(seen, ['start a', 'a[0] tag 4', 'a[1] tag 1', 'start a', 'a[0] tag 4']);
  const root = result.root as Map<string, unknown>;
  assert.deepEqual(root.get('a'), { streamed: true, length: 1 });
  assert.deepEqual(root.get('d'), [4n]);
  assert.deepEqual([...root.keys()], ['a', 'c', 'd']);
});

test('readJsonDocument reports errors inside streamed elements like readJson', () => {
  const text = '{"a": [1, {"b": 2,}]}';
  const streamed = readJsonDocument(encode(text), { streamKeys: ['a'], startArray() {}, element() {} });
  const plain = readJson(encode(text));
  assert.equal(streamed.ok, false);
  assert.deepEqual(streamed.ok ? undefined : streamed.error, plain.ok ? undefined : plain.error);
});

test('readJsonAt reads one value at an offset', () => {
  assert.deepEqual(readJsonAt(encode('{"a": [1, "x"]}'), 6), { ok: true, value: [1n, 'x'] });
});

test('never throws, on any bytes', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      const result = readJson(bytes);
      if (!result.ok) assert.equal(typeof result.error.message, 'string');
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(
      fc.string({
        unit: fc.constantFrom('[', ']', '{', '}', '"', ':', ',', '1', 'e', '.', '-', 'N', '\\', 'u', ' ', 'a'),
        maxLength: 40,
      }),
      (text) => {
        readJson(encode(text));
      },
    ),
    { numRuns: 2000 },
  );
});

test('agrees with JSON.parse on everything JSON.parse reads exactly', () => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 4 }), (text) => {
      const ours = readJson(encode(text));
      assert.ok(ours.ok);
      const toPlain = (value: JsonValue): unknown =>
        value instanceof Map
          ? Object.fromEntries([...value].map(([k, v]) => [k, toPlain(v)]))
          : Array.isArray(value)
            ? value.map(toPlain)
            : typeof value === 'bigint'
              ? Number(value)
              : value;
      assert.deepEqual(
        toPlain(ours.value),
        JSON.parse(text, (_key, value: unknown) => (Object.is(value, -0) ? 0 : value)),
      );
    }),
    { numRuns: 500 },
  );
});

test("createDocumentReader: any chunking gives readJsonDocument's result and visits", () => {
  const documents = [
    '{"a": [1, {"b": 2}], "c": "x", "a": [3], "d": [4]}',
    '{"a": [1, 2.5e3, "s\\u00e9", [], {}], "z": null}',
    '  {"a": []}  ',
    '{"a": [1, {"b": 2,}]}',
    '{"a": [1, 2]} x',
    '[1, 2]',
    '{"a": [12345678901234567890]}',
    '{"a": [1, "\\ud800"], "b": {"c": [1, 2, 3]}}',
    '{"k": "v"',
    '',
    '\ufeff{"a": [1]}',
  ];
  // Each visit names the element's tag and where it starts in the document (`base` + its offset
  // in the window), so a window that moved must still say where things are.
  const run = (text: string, chunks: number[] | undefined, windowBytes?: number) => {
    const seen: string[] = [];
    const visitor = {
      streamKeys: ['a'],
      startArray(key: string) {
        seen.push(`start ${key}`);
      },
      element(key: string, index: number, element: TapeNode) {
        const at = element.base + valueOffset(element.tape, element.node);
        seen.push(`${key}[${index}] ${element.tape[element.node]} at ${at}`);
      },
    };
    const bytes = encode(text);
    if (chunks === undefined) return { result: readJsonDocument(bytes, visitor), seen, kept: bytes };
    const reader = createDocumentReader(visitor, windowBytes === undefined ? {} : { windowBytes });
    let offset = 0;
    for (const size of chunks) {
      reader.push(bytes.subarray(offset, offset + size));
      offset += size;
    }
    reader.push(bytes.subarray(offset));
    const result = reader.finish();
    return { result, seen, kept: reader.keptAll() ? reader.bytes() : undefined };
  };
  for (const text of documents) {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 30 }),
        fc.option(fc.integer({ min: 1, max: 24 }), { nil: undefined }),
        (chunks, windowBytes) => {
          const whole = run(text, undefined);
          const chunked = run(text, chunks, windowBytes);
          assert.deepEqual(chunked.result, whole.result, text);
          // The visits after the last restart equal the whole read's visits.
          const lastStart = chunked.seen.lastIndexOf('start a');
          const wholeStart = whole.seen.lastIndexOf('start a');
          assert.deepEqual(chunked.seen.slice(lastStart), whole.seen.slice(wholeStart), text);
          // Nothing was dropped: the document is there, byte for byte, for a second reading.
          assert.deepEqual(chunked.kept, whole.kept, text);
        },
      ),
      { numRuns: 200 },
    );
  }
});

// maxRetainedBytes: the reader drops what it has read and, without a second reading, must still
// give readJsonDocument's exact result: the same root, and for a bad document the same error kind,
// message (Python's line/column/char counted over the dropped bytes) and offset, with invalid UTF-8
// anywhere after a syntax error still taking precedence. Documents are mutated at random (a byte
// replaced, the end cut off) so that errors land in every state of the reader. Without counting
// positions over the dropped bytes (countDroppedPositions: false), a syntax error after them is
// the same but for its position, which it says is still to be added: adding Python's position of
// its offset gives the message in full.
test("createDocumentReader: dropping read bytes (maxRetainedBytes) gives readJsonDocument's result and error", () => {
  const bases = [
    '{"v": "x",\n "a": [1, {"b": [2, 3.5, "\u00e9\u4e2d"]}, "s\\u00e9", null, true],\n  "z": {"k": [1e5, -0]}, "a": [7]}',
    '{\n"h": "\u00e9t\u00e9",\n"a": [\n  {"id": "x", "content": {"n": 12345678901234567890}},\n  [[[]]], "\\ud800"\n]\n}\n',
  ];
  const visitor = (seen: string[]) => ({
    streamKeys: ['a'],
    startArray: (key: string) => void seen.push(`start ${key}`),
    element: (key: string, index: number, element: { tape: Int32Array; node: number }) =>
      void seen.push(`${key}[${index}] ${element.tape[element.node]}`),
  });
  const mutation = fc.record({
    base: fc.integer({ min: 0, max: bases.length - 1 }),
    at: fc.nat(),
    byte: fc.constantFrom(0x2c, 0x5d, 0x7d, 0x3a, 0x22, 0x5c, 0x20, 0x0a, 0x78, 0x31, 0xff, 0xc3, 0x80, -1),
    cut: fc.boolean(),
    utf8After: fc.boolean(),
    chunks: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 40 }),
    maxRetainedBytes: fc.integer({ min: 1, max: 40 }),
    // A window smaller than what is kept moves before the bytes are dropped.
    windowBytes: fc.option(fc.integer({ min: 1, max: 24 }), { nil: undefined }),
    countDroppedPositions: fc.boolean(),
  });
  let pending = 0;
  fc.assert(
    fc.property(mutation, (drawn) => {
      const { base, at, byte, cut, utf8After, chunks, maxRetainedBytes, windowBytes, countDroppedPositions } = drawn;
      let bytes = encode(bases[base]!);
      const position = at % bytes.length;
      if (byte >= 0) bytes[position] = byte;
      if (cut) bytes = bytes.subarray(0, position);
      if (utf8After) bytes = Uint8Array.from([...bytes, 0x20, 0xe2, 0x28]);
      const wholeSeen: string[] = [];
      const whole = readJsonDocument(bytes, visitor(wholeSeen));
      const seen: string[] = [];
      const reader = createDocumentReader(visitor(seen), {
        maxRetainedBytes,
        countDroppedPositions,
        ...(windowBytes === undefined ? {} : { windowBytes }),
      });
      let offset = 0;
      for (let k = 0; offset < bytes.length; k++) {
        const size = chunks[k % chunks.length]!;
        reader.push(bytes.subarray(offset, offset + size));
        offset += size;
      }
      let result = reader.finish();
      if (!result.ok && result.error.positionPending) {
        pending++;
        assert.ok(!countDroppedPositions && result.error.kind === 'syntax', 'only an uncounted syntax error');
        const { offset, message } = result.error;
        result = { ok: false, error: { ...result.error, message: `${message}: ${pythonJsonPosition(bytes, offset)}` } };
        delete (result.error as { positionPending?: true }).positionPending;
      }
      assert.deepEqual(result, whole);
      assert.deepEqual(seen.slice(seen.lastIndexOf('start a')), wholeSeen.slice(wholeSeen.lastIndexOf('start a')));
      if (reader.bytes() === undefined) assert.ok(reader.heldBytes() < bytes.length, 'dropped bytes are not held');
      assert.equal(reader.pushedBytes(), bytes.length);
    }),
    { numRuns: 3000 },
  );
  assert.ok(pending >= 10, `syntax errors left to place: ${pending}`);
});

test('createDocumentReader: a number cut at its fraction or exponent is read whole, wherever a chunk ends', () => {
  // `2.` may become `2.5`: a reader that may get more bytes must not take `2` as ended and refuse
  // the `.` (it did, as elements and as root members, when few bytes were kept ahead).
  const numbers = ['2.50e-3', '-0.5', '7e5', '1E+9', '3.25E-12', '0.0'];
  for (const number of numbers) {
    const text = `{"h": ${number}, "a": [${number}, ${number}, ${number}], "z": ${number}}`;
    const bytes = encode(text);
    const seen = (into: string[]) => ({
      streamKeys: ['a'],
      startArray: (key: string) => void into.push(`start ${key}`),
      element: (key: string, index: number, element: TapeNode) =>
        void into.push(
          `${key}[${index}] ${element.tape[element.node]} at ${element.base + valueOffset(element.tape, element.node)}`,
        ),
    });
    const wholeSeen: string[] = [];
    const whole = readJsonDocument(bytes, seen(wholeSeen));
    assert.ok(whole.ok, text);
    for (let split = 1; split < bytes.length; split++) {
      for (const maxRetainedBytes of [1, 16, undefined]) {
        const chunkSeen: string[] = [];
        const reader = createDocumentReader(
          seen(chunkSeen),
          maxRetainedBytes === undefined ? {} : { maxRetainedBytes },
        );
        // One cut at `split`, then pieces of 4 bytes: every number is cut somewhere.
        reader.push(bytes.subarray(0, split));
        for (let at = split; at < bytes.length; at += 4) reader.push(bytes.subarray(at, at + 4));
        assert.deepEqual(reader.finish(), whole, `${text} split at ${split}, keeping ${maxRetainedBytes}`);
        assert.deepEqual(chunkSeen, wholeSeen, `${text} split at ${split}`);
      }
    }
  }
});

test('createDocumentReader: any JSON, in chunks of any size, keeping few bytes or all, reads as the whole', () => {
  // Values as JSON.stringify writes them (exponents, fractions, escapes) and with spaces between
  // tokens: elements of the streamed array and root members, wherever a chunk ends.
  const value = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null');
  const spaced = fc
    .tuple(value, fc.boolean())
    .map(([text, spaces]) => (spaces ? text.replace(/([,:[{])/g, '$1 ') : text));
  fc.assert(
    fc.property(
      spaced,
      fc.array(spaced, { maxLength: 8 }),
      spaced,
      fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 12 }),
      fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
      (head, elements, tail, chunks, maxRetainedBytes) => {
        const text = `{"h": ${head}, "a": [${elements.join(', ')}], "z": ${tail}}`;
        const bytes = encode(text);
        const visitor = (into: string[]) => ({
          streamKeys: ['a'],
          startArray: (key: string) => void into.push(`start ${key}`),
          element: (key: string, index: number, element: TapeNode) =>
            void into.push(`${key}[${index}] ${element.base + valueOffset(element.tape, element.node)}`),
        });
        const wholeSeen: string[] = [];
        const whole = readJsonDocument(bytes, visitor(wholeSeen));
        assert.ok(whole.ok, text);
        const seen: string[] = [];
        const reader = createDocumentReader(visitor(seen), maxRetainedBytes === undefined ? {} : { maxRetainedBytes });
        for (let offset = 0, k = 0; offset < bytes.length; offset += chunks[k++ % chunks.length]!)
          reader.push(bytes.subarray(offset, offset + chunks[k % chunks.length]!));
        assert.deepEqual(reader.finish(), whole, text);
        assert.deepEqual(seen, wholeSeen, text);
      },
    ),
    { numRuns: 1000 },
  );
});

test('createDocumentReader: past maxRetainedBytes, memory stays one element, however long the array', () => {
  const element = encode('{"content": {"text": "' + 'x'.repeat(200) + '"}, "id": 12}');
  const reader = createDocumentReader(
    { streamKeys: ['a'], startArray: () => undefined, element: () => undefined },
    { maxRetainedBytes: 4096 },
  );
  reader.push(encode('{"a": ['));
  let peak = 0;
  for (let i = 0; i < 20_000; i++) {
    if (i > 0) reader.push(encode(', '));
    reader.push(element);
    peak = Math.max(peak, reader.heldBytes());
  }
  reader.push(encode(']}'));
  const result = reader.finish();
  assert.ok(result.ok);
  assert.deepEqual((result.root as Map<string, unknown>).get('a'), { streamed: true, length: 20_000 });
  assert.equal(reader.bytes(), undefined);
  assert.ok(reader.pushedBytes() > 4_000_000);
  // The limit, plus the element that crossed it, the one not yet taken, and the one arriving.
  assert.ok(peak <= 4096 + 3 * (element.length + 2), `held at most ${peak} bytes`);
});

// Hostile input: 1 MB of newlines sent in 17-byte chunks took 30 s when every push re-scanned the
// whole run (fuzz crasher zaxy/hang-s200-i81533). Each place a run can sit between tokens, with
// 8 MB in 64-byte chunks: seconds when the reader is linear, hours when it is quadratic.
test('whitespace runs between tokens are scanned once, however finely they arrive', { timeout: 60_000 }, async () => {
  const run = new Uint8Array(8 << 20).fill(0x0a);
  const places = [
    ['', '{"a": [1, 2]}'],
    ['{', '"a": [1, 2]}'],
    ['{"a"', ': [1, 2]}'],
    ['{"a": [1,', '2]}'],
    ['{"a": [1, 2]}', ''],
  ];
  for (const [before, after] of places) {
    const elements: number[] = [];
    const reader = createDocumentReader({
      streamKeys: ['a'],
      startArray: () => undefined,
      element: (_key, index) => elements.push(index),
    });
    reader.push(encode(before!));
    for (let at = 0; at < run.length; at += 64) {
      reader.push(run.subarray(at, at + 64));
      // Let the test's timeout fire on a quadratic reader instead of hanging the run.
      if (at % (1 << 16) === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    reader.push(encode(after!));
    const result = reader.finish();
    assert.ok(result.ok, `${before}…${after}`);
    assert.deepEqual(elements, [0, 1]);
  }
});
