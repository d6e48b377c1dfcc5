// Python's canonical JSON (docs/zaxy.md, 'Canonical JSON'): both writers (value-based and
// tape-based) against a table of float reprs, CPython's outputs, and 400 random documents recorded
// from CPython 3.11 (test/vectors/zaxy/canonical). Also Python's repr()/str() used in Zaxy's reasons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  canonicalJson,
  compareCodePoints,
  pythonJsonDumps,
  pythonJsonDumpsWithin,
  quoteJsonString,
  surrogateErrorMessage,
  type DumpsOptions,
  type DumpsValue,
} from '../../src/json/canonical.ts';
import { createByteSink, createCanonicalScratch, writeCanonicalFromTape } from '../../src/json/canonical-tape.ts';
import { pythonFloatRepr, pythonJsonFloat } from '../../src/json/python-float.ts';
import { isPythonPrintable } from '../../src/json/python-printable.ts';
import { pythonRepr, pythonStr, pythonStringRepr } from '../../src/json/python.ts';
import { readJson } from '../../src/json/reader.ts';
import { createScanContext, scanValue } from '../../src/json/tape.ts';
import type { JsonValue } from '../../src/json/value.ts';
import { PROJECT_ROOT } from '../helpers/fixtures.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Canonical text of a JSON document by both writers; asserts they agree. */
function canonical(text: string, scratch = createCanonicalScratch()): string {
  const bytes = encoder.encode(text);
  const read = readJson(bytes);
  assert.ok(read.ok, text);
  const tree = canonicalJson(read.value);
  const context = createScanContext(bytes, 1000);
  assert.ok(scanValue(context, 0, 0) >= 0);
  const sink = createByteSink(8);
  const fault = writeCanonicalFromTape(bytes, context.tape.data, 0, sink, scratch);
  if (!tree.ok) {
    assert.ok(fault !== undefined);
    assert.equal(surrogateErrorMessage(fault), tree.message);
    return `error: ${tree.message}`;
  }
  assert.equal(fault, undefined);
  const fromTape = decoder.decode(sink.bytes.subarray(0, sink.length));
  assert.equal(fromTape, decoder.decode(tree.bytes), `writers disagree on ${text}`);
  return fromTape;
}

test('floats print as Python repr (docs/zaxy.md, "Canonical JSON")', () => {
  const table: [string, string][] = [
    ['1.0', '1.0'],
    ['2.50', '2.5'],
    ['100.0', '100.0'],
    ['1e15', '1000000000000000.0'],
    ['1e16', '1e+16'],
    ['1.2345678901234568e20', '1.2345678901234568e+20'],
    ['1e21', '1e+21'],
    ['1e100', '1e+100'],
    ['1e-5', '1e-05'],
    ['1e-7', '1e-07'],
    ['0.0001', '0.0001'],
    ['5e-324', '5e-324'],
    ['-0.0', '-0.0'],
    ['0.30000000000000004', '0.30000000000000004'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['-Infinity', '-Infinity'],
    ['1E2', '100.0'],
    ['0.1e1', '1.0'],
    ['2E0', '2.0'],
    ['1e400', 'Infinity'],
    ['-1e400', '-Infinity'],
    ['1e-400', '0.0'],
    ['-1e-400', '-0.0'],
    ['1.7976931348623157e308', '1.7976931348623157e+308'],
    ['123456789012345678', '123456789012345678'],
    ['-0', '0'],
  ];
  for (const [input, output] of table) assert.equal(canonical(input), output, input);
});

test('pythonFloatRepr matches repr() at the layout boundaries', () => {
  assert.equal(pythonFloatRepr(9999999999999998), '9999999999999998.0');
  assert.equal(pythonFloatRepr(1e16), '1e+16');
  assert.equal(pythonFloatRepr(0.0001), '0.0001');
  assert.equal(pythonFloatRepr(0.00009999), '9.999e-05');
  assert.equal(pythonFloatRepr(-1.5e-10), '-1.5e-10');
  assert.equal(pythonFloatRepr(NaN), 'nan');
  assert.equal(pythonFloatRepr(-Infinity), '-inf');
  assert.equal(pythonJsonFloat(-Infinity), '-Infinity');
});

test('keys sort by code point (not UTF-16), duplicates keep the last value', () => {
  assert.equal(canonical('{"\\uff01": 1, "\\ud83d\\ude00": 2, "\\ue000": 3}'), '{"\ue000":3,"\uff01":1,"\u{1F600}":2}');
  assert.equal(canonical('{"b": 1, "a": 2, "b": 3}'), '{"a":2,"b":3}');
  assert.equal(
    canonical('{"é": 1, "e\\u0301": 2}'),
    '{"e\u0301":2,"é":1}',
    'no normalisation: NFD sorts before NFC here',
  );
  assert.ok(compareCodePoints('\u{10000}', '\uffff') > 0);
  assert.ok(compareCodePoints('\ud800', '\ue000') < 0, 'a lone surrogate is its own code point');
  assert.ok(compareCodePoints('a', 'ab') < 0);
});

test('strings: only " \\ and C0 controls are escaped, lowercase hex; everything else raw', () => {
  assert.equal(
    canonical('"\\u00e9\\/\\u0001\\u001f\\b\\f\\n\\r\\t\\"\\\\\\u2028\\u007f\\ud83d\\ude00"'),
    '"é/\\u0001\\u001f\\b\\f\\n\\r\\t\\"\\\\\u2028\u007f\u{1F600}"',
  );
  assert.equal(quoteJsonString('\u0000'), '"\\u0000"');
});

test('big integers are exact; structure has no whitespace; empty containers stay', () => {
  assert.equal(
    canonical('[9007199254740993, -100000000000000000000000, {}, [], [[]], {"a": {}}]'),
    '[9007199254740993,-100000000000000000000000,{},[],[[]],{"a":{}}]',
  );
});

test("lone surrogates give CPython's UnicodeEncodeError, positions in code points", () => {
  assert.equal(
    canonical('"ab\\ud800"'),
    "error: 'utf-8' codec can't encode character '\\ud800' in position 3: surrogates not allowed",
  );
  assert.equal(
    canonical('["\\ud83d\\ude00", "x\\udc00\\ud800y"]'),
    "error: 'utf-8' codec can't encode characters in position 7-8: surrogates not allowed",
  );
  assert.equal(
    canonical('{"b": "\\ud800", "a": "\\udfff"}'),
    "error: 'utf-8' codec can't encode character '\\udfff' in position 6: surrogates not allowed",
    'the first in canonical order',
  );
});

test('the 400 random documents recorded from CPython: same canonical bytes or the same error', () => {
  const file = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/vectors/zaxy/canonical/vectors.json'), 'utf8')) as {
    vectors: { text: string; canonical?: string; error?: string; pretty?: string }[];
  };
  assert.equal(file.vectors.length, 400);
  for (const vector of file.vectors) {
    const ours = canonical(vector.text);
    if (vector.error !== undefined) assert.equal(ours, `error: ${vector.error}`, vector.text);
    else {
      assert.equal(ours, vector.canonical, vector.text);
      const read = readJson(encoder.encode(vector.text));
      assert.ok(read.ok);
      assert.equal(pythonJsonDumps(read.value, { indent: 2 }), vector.pretty, `indent=2 layout of ${vector.text}`);
    }
  }
});

test('both writers agree on random JSON (fast-check)', () => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 5 }), (text) => {
      canonical(text);
    }),
    { numRuns: 1000 },
  );
  const key = fc.string({
    unit: fc.constantFrom('a', 'b', 'é', '\uff01', '\u{1F600}', '\ue000', '"', '\\', '\n'),
    maxLength: 4,
  });
  fc.assert(
    fc.property(fc.dictionary(key, fc.oneof(fc.double(), fc.integer(), fc.string())), (object) => {
      canonical(JSON.stringify(object));
    }),
    { numRuns: 1000 },
  );
});

// The writer remembers the member order of object shapes it has sorted (keys, in input order):
// objects that share keys, repeat them in another order, differ in one key or its length, or hold
// duplicates and escapes must all come out as if sorted afresh, however many came before.
test('remembered object shapes never change the output (one scratch over many documents)', () => {
  const scratch = createCanonicalScratch();
  const key = fc.constantFrom(
    'a',
    'b',
    'ab',
    'ba',
    'c',
    'é',
    'a\\u0062',
    'aa',
    'content',
    'kind',
    'id',
    'x'.repeat(40),
  );
  const object = fc
    .array(fc.tuple(key, fc.integer()), { maxLength: 12 })
    .map((members) => `{${members.map(([k, v]) => `"${k}": ${v}`).join(', ')}}`);
  fc.assert(
    fc.property(fc.array(object, { minLength: 1, maxLength: 20 }), (objects) => {
      canonical(`[${objects.join(', ')}]`, scratch);
    }),
    { numRuns: 3000 },
  );
});

/** A JSON structure whose scalars are filled anew each time it is written (`fillShape`). */
type Shape =
  | { readonly kind: 'object'; readonly keys: readonly string[]; readonly values: readonly Shape[] }
  | { readonly kind: 'array'; readonly elements: readonly Shape[] }
  | { readonly kind: 'string' | 'int' | 'float' | 'literal' };

// Keys include escaped ones (never templated), a repeated one, and pairs of the same length.
const SHAPE_KEYS = ['a', 'b', 'zz', 'zy', 'é', '\\u00e9', 'kind', 'seq', 'a'];
const STRINGS = ['x', 'héllo', 'tab\\there', 'a\\"b', '\\ud800', '\\ud83d\\ude00', 'x'.repeat(40), ''];
const INTS = ['0', '-0', '12', '-5', '123456789012345678901'];
const FLOATS = ['1.5', '0.1', '1e5', '-0.0', '1E-7', '0.14285714285714285', '2.50', '0.30000000000000004'];
const LITERALS = ['true', 'false', 'null', 'NaN', 'Infinity', '-Infinity'];

function makeShape(pick: (n: number) => number, depth: number): Shape {
  const kind = pick(depth >= 3 ? 4 : 6);
  if (kind === 4 || kind === 5) {
    const count = pick(depth === 0 ? 6 : 4);
    if (kind === 5) return { kind: 'array', elements: Array.from({ length: count }, () => makeShape(pick, depth + 1)) };
    const keys = Array.from({ length: count }, () => SHAPE_KEYS[pick(SHAPE_KEYS.length)]!);
    return { kind: 'object', keys, values: keys.map(() => makeShape(pick, depth + 1)) };
  }
  return { kind: (['string', 'int', 'float', 'literal'] as const)[kind]! };
}

/** JSON text of `shape` with new scalars; a key may change to another of its length (`swapKeys`). */
function fillShape(shape: Shape, pick: (n: number) => number, swapKeys: boolean): string {
  const from = (list: readonly string[]): string => list[pick(list.length)]!;
  switch (shape.kind) {
    case 'object':
      return `{${shape.keys
        .map((key, j) => {
          const swapped = swapKeys && pick(3) === 0 ? (key === 'zz' ? 'zy' : key === 'zy' ? 'zz' : key) : key;
          return `"${swapped}": ${fillShape(shape.values[j]!, pick, swapKeys)}`;
        })
        .join(', ')}}`;
    case 'array':
      return `[${shape.elements.map((element) => fillShape(element, pick, swapKeys)).join(', ')}]`;
    case 'string':
      return `"${from(STRINGS)}"`;
    case 'int':
      return from(INTS);
    case 'float':
      return from(FLOATS);
    case 'literal':
      return from(LITERALS);
  }
}

test('values of a repeated structure are written the same way as the first (templates, one scratch)', () => {
  fc.assert(
    fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 400 }), fc.boolean(), (choices, swapKeys) => {
      let next = 0;
      const pick = (n: number): number => choices[next++ % choices.length]! % n;
      const scratch = createCanonicalScratch();
      const shapes = [makeShape(pick, 0), makeShape(pick, 0)];
      // The same structure several times in a row (a template is made at the second), and
      // another structure in between, which must not be written by the first one's template.
      for (let round = 0; round < 8; round++)
        canonical(fillShape(shapes[round % 3 === 2 ? 1 : 0]!, pick, swapKeys), scratch);
    }),
    { numRuns: 2000 },
  );
  // Same sizes and tags, keys that differ in one byte: never the other's output.
  const scratch = createCanonicalScratch();
  for (const text of ['{"zz": 1, "a": [2]}', '{"zz": 1, "a": [2]}', '{"zy": 1, "a": [2]}', '{"zz": 3, "b": [4]}'])
    canonical(text, scratch);
  assert.equal(canonical('{"zy": 5, "a": [6]}', scratch), '{"a":[6],"zy":5}');
  // An array of another length, and an object of as many nodes but another layout.
  assert.equal(canonical('{"zz": 1, "a": [2, 3]}', scratch), '{"a":[2,3],"zz":1}');
  assert.equal(canonical('{"zz": [1], "a": 2}', scratch), '{"a":2,"zz":[1]}');
  // The same tags in the same order, other sizes: [[1, 2]] and [[1], 2].
  for (const text of ['[[1, 2]]', '[[3, 4]]']) canonical(text, scratch);
  assert.equal(canonical('[[1], 2]', scratch), '[[1],2]');
});

test('a layout names the template its values matched, until that template is made again', () => {
  const scratch = createCanonicalScratch();
  const write = (text: string, layout: number): string => {
    const bytes = encoder.encode(text);
    const context = createScanContext(bytes, 1000);
    assert.ok(scanValue(context, 0, 0) >= 0);
    const sink = createByteSink(8);
    assert.equal(writeCanonicalFromTape(bytes, context.tape.data, 0, sink, scratch, layout), undefined);
    return decoder.decode(sink.bytes.subarray(0, sink.length));
  };
  // Values of one structure under layout 7: a template is made at the second, named at the third.
  for (const n of [1, 2, 3]) assert.equal(write(`{"b": ${n}, "a": [${n}]}`, 7), `{"a":[${n}],"b":${n}}`);
  // A number of another kind where the layout has a number is written as the walk writes it.
  assert.equal(write('{"b": -Infinity, "a": [2.50]}', 7), '{"a":[2.5],"b":-Infinity}');
  // Four structures of the same size, each twice: every template is made again, the named one too.
  for (const key of ['c', 'd', 'e', 'f'])
    for (const n of [1, 2]) assert.equal(write(`{"${key}": [${n}], "a": ${n}}`, 0), `{"a":${n},"${key}":[${n}]}`);
  // Layout 7 again: its template was made again for another structure, so it is not taken.
  assert.equal(write('{"b": 4, "a": [4]}', 7), '{"a":[4],"b":4}');
  // A template made from -Infinity where the layout has a number writes any number there.
  for (let k = 0; k < 3; k++) assert.equal(write('{"b": -Infinity, "a": [1]}', 8), '{"a":[1],"b":-Infinity}');
  assert.equal(write('{"b": 5, "a": [1]}', 8), '{"a":[1],"b":5}');
});

test('float lexemes copied as they are (repr-shaped, ≤ 15 digits) equal the re-printed value', () => {
  const lexeme = fc
    .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,17})$/), fc.stringMatching(/^[0-9]{1,18}$/))
    .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}.${fraction}`);
  fc.assert(
    fc.property(lexeme, (text) => {
      assert.equal(canonical(text), pythonJsonFloat(Number(text)), text);
    }),
    { numRuns: 20000 },
  );
  for (const text of [
    '0.0',
    '-0.0',
    '1.0',
    '100.0',
    '1000000000000000.0',
    '9999999999999999.0',
    '0.0001',
    '0.00001',
    '0.1',
    '0.10',
    '123456789012345.0',
    '1234567890123456.0',
    '0.30000000000000004',
    '1.5',
  ]) {
    assert.equal(canonical(text), pythonJsonFloat(Number(text)), text);
  }
});

test("pythonJsonDumps with indent=2 is Zaxy's file layout", () => {
  const value = new Map<string, JsonValue>([
    ['b', [1n, 2.5, new Map()]],
    ['a', []],
  ]);
  assert.equal(pythonJsonDumps(value, { indent: 2 }), '{\n  "b": [\n    1,\n    2.5,\n    {}\n  ],\n  "a": []\n}');
});

test('a number held as text prints as that text, in every layout', () => {
  const value = new Map<string, DumpsValue>([
    ['b', [{ lexeme: '1E-7' }, 2.5, 10n]],
    ['a', { lexeme: '1.50' }],
  ]);
  assert.equal(pythonJsonDumps(value, { indent: 2 }), '{\n  "b": [\n    1E-7,\n    2.5,\n    10\n  ],\n  "a": 1.50\n}');
  assert.equal(pythonJsonDumps(value, { sortKeys: true }), '{"a":1.50,"b":[1E-7,2.5,10]}');
  assert.equal(pythonJsonDumps({ lexeme: '-0' }), '-0');
});

const DUMPS_OPTIONS: readonly DumpsOptions[] = [{}, { indent: 2 }, { sortKeys: true }, { indent: 0, sortKeys: true }];

test('pythonJsonDumpsWithin gives the whole text when it fits, else undefined', () => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 5 }), fc.constantFrom(...DUMPS_OPTIONS), fc.nat(200), (text, options, budget) => {
      const read = readJson(encoder.encode(text));
      assert.ok(read.ok);
      const whole = pythonJsonDumps(read.value, options);
      assert.equal(pythonJsonDumpsWithin(read.value, budget, options), whole.length <= budget ? whole : undefined);
      assert.equal(pythonJsonDumpsWithin(read.value, whole.length, options), whole);
      assert.equal(pythonJsonDumpsWithin(read.value, whole.length - 1, options), undefined);
    }),
    { numRuns: 1000 },
  );
});

test('pythonJsonDumpsWithin gives up early on nesting whose indentation would be enormous', () => {
  // 100,000 levels: the pretty text would be about 10^10 characters, past any JavaScript string.
  const depth = 100_000;
  let value: JsonValue = [];
  for (let i = 1; i < depth; i++) value = [value];
  assert.equal(pythonJsonDumpsWithin(value, 1_000_000, { indent: 2 }), undefined);
  assert.equal(pythonJsonDumpsWithin(value, Infinity), `${'['.repeat(depth)}${']'.repeat(depth)}`);
});

test('repr() and str() as CPython 3.11 prints them', () => {
  assert.equal(pythonRepr('zaxy.portable.v2'), "'zaxy.portable.v2'");
  assert.equal(pythonRepr("it's"), '"it\'s"');
  assert.equal(pythonRepr('it\'s "x"'), "'it\\'s \"x\"'");
  assert.equal(pythonRepr('a\u0000b\u007f\t\n\r\\'), "'a\\x00b\\x7f\\t\\n\\r\\\\'");
  assert.equal(pythonRepr('a\u2028b\u00a0c\u00e9'), "'a\\u2028b\\xa0cé'");
  assert.equal(pythonRepr('\u{1FAE8}'), "'\\U0001fae8'", 'unassigned in Unicode 14');
  assert.equal(pythonRepr('\u{1F600}\ud800'), "'\u{1F600}\\ud800'");
  assert.equal(pythonRepr(null), 'None');
  assert.equal(pythonRepr(true), 'True');
  assert.equal(pythonRepr(1n), '1');
  assert.equal(pythonRepr(1), '1.0');
  assert.equal(pythonRepr(NaN), 'nan');
  assert.equal(pythonRepr([1n, 'a', [null]]), "[1, 'a', [None]]");
  assert.equal(
    pythonRepr(
      new Map<string, JsonValue>([
        ['k', 3n],
        ['j', new Map()],
      ]),
    ),
    "{'k': 3, 'j': {}}",
  );
  assert.equal(pythonStr('two'), 'two');
  assert.equal(pythonStr(2), '2.0');
  assert.equal(pythonStringRepr(''), "''");
  assert.equal(isPythonPrintable(0x20), true);
  assert.equal(isPythonPrintable(0xad), false, 'soft hyphen is Cf');
  assert.equal(isPythonPrintable(0x10ffff), false);
});
