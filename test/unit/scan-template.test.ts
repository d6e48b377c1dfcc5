// Streamed array elements read by the layout of earlier ones (src/json/scan-template.ts): every
// element gets the tape the general scanner gives it, node for node, and a document's result,
// errors included, is the one of reading it whole without streaming (readJson), for documents
// whose elements repeat a few layouts with new values, some of them broken, read whole or in
// chunks of any size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  type CanonicalScratch,
  createByteSink,
  createCanonicalScratch,
  writeCanonicalFromTape,
} from '../../src/json/canonical-tape.ts';
import { createDocumentReader, readJson, readJsonDocument, type TapeNode } from '../../src/json/reader.ts';
import { nextSlot, valueOffset } from '../../src/json/tape-read.ts';
import {
  createScanContext,
  scanValue,
  SLOTS,
  TAG_ARRAY,
  TAG_FLOAT,
  TAG_INT,
  TAG_OBJECT,
  TAG_STRING,
} from '../../src/json/tape.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A layout: the text of an element with `$` where a value goes, and the values that may go there. */
type Layout = readonly string[];

// Values, valid and not: escapes, non-ASCII, lone surrogates, -0, exponents, -Infinity, literals
// where a number was, strings where a number was, a raw control character, a bad escape, an
// integer past Python's digit limit, nesting where a scalar was.
const VALUES = [
  '"x"',
  '"h\u00e9llo \u4e2d"',
  '"tab\\there"',
  '"a\\"b"',
  '"\\ud800"',
  '"\\ud83d\\ude00"',
  `"${'y'.repeat(40)}"`,
  '""',
  '0',
  '-0',
  '12',
  '-5',
  '1.5',
  '2.50e-3',
  '1E400',
  '-Infinity',
  'NaN',
  'true',
  'false',
  'null',
  '[]',
  '{"n": 1}',
  '"raw\u0001"',
  '"bad\\q"',
  '1'.repeat(4301),
  '-',
  '"unterminated',
];

/** Builds a layout: objects and arrays with `$` slots, in one of a few whitespace styles. */
function makeLayout(pick: (n: number) => number): Layout {
  const style = [
    { colon: ': ', comma: ', ' },
    { colon: ':', comma: ',' },
    { colon: ' : ', comma: ' ,\n  ' },
  ][pick(3)]!;
  const keys = ['id', 'content', 'seq', 'kind', '\\u00e9', 'k\u00e9y', 'a', 'a'];
  const build = (depth: number): string => {
    if (depth >= 3 || pick(3) === 0) return '$';
    const count = pick(4);
    if (pick(2) === 0) return `[${Array.from({ length: count }, () => build(depth + 1)).join(style.comma)}]`;
    const members = Array.from(
      { length: count },
      () => `"${keys[pick(keys.length)]!}"${style.colon}${build(depth + 1)}`,
    );
    return `{${members.join(style.comma)}}`;
  };
  return build(0).split('$');
}

/** Bytes a broken element gets in one place: in a key, a value or the punctuation between. */
const ODD_BYTES = ['\u0001', '"', '\\', 'x', ' ', ',', ':', '}', ']', '\u00e9', '\n'];

function fill(layout: Layout, pick: (n: number) => number, broken: boolean): string {
  let text = layout[0]!;
  for (let i = 1; i < layout.length; i++) {
    // Mostly the values of a well-formed export: strings, numbers and literals that parse.
    const value = broken || pick(8) === 0 ? VALUES[pick(VALUES.length)]! : VALUES[pick(17)]!;
    text += value + layout[i]!;
  }
  if (!broken || text.length === 0) return text;
  const at = pick(text.length);
  return text.slice(0, at) + ODD_BYTES[pick(ODD_BYTES.length)]! + text.slice(at + 1);
}

/** A node's slots with input offsets made relative to `at` (so windows that moved compare). */
function relativeNode(tape: Int32Array, slot: number, at: number): string {
  const tag = tape[slot]!;
  if (tag === TAG_OBJECT || tag === TAG_ARRAY)
    return `${tag}:${tape[slot + 1]}:${tape[slot + 2]}:${tape[slot + 3]! - at}`;
  if (tag === TAG_STRING || tag === TAG_INT || tag === TAG_FLOAT)
    return `${tag}:${tape[slot + 1]! - at}:${tape[slot + 2]! - at}:${tape[slot + 3]}`;
  return `${tag}:${tape[slot + 1]! - at}`;
}

/** Canonical bytes of a node (or the error), written with `scratch` and `layout`. */
function canonicalOf(element: TapeNode, scratch: CanonicalScratch, layout: number): string {
  const sink = createByteSink(16);
  const fault = writeCanonicalFromTape(element.bytes, element.tape, element.node, sink, scratch, layout);
  return fault === undefined ? decoder.decode(sink.bytes.subarray(0, sink.length)) : JSON.stringify(fault);
}

/**
 * Each element's tape (its nodes' slots) and where it starts, as the visitor saw them. Each is
 * also written as canonical JSON with its layout (one scratch for the document), as the general
 * walk writes it.
 */
function visitsOf(bytes: Uint8Array, chunks?: readonly number[], maxRetainedBytes?: number) {
  const visits: string[] = [];
  const scratch = createCanonicalScratch();
  const visitor = {
    streamKeys: ['a'],
    startArray: (key: string) => void visits.push(`start ${key}`),
    element: (key: string, index: number, element: TapeNode) => {
      const { tape, node } = element;
      const at = valueOffset(tape, node);
      // The general scanner's tape of the same bytes, from the element's start.
      const context = createScanContext(element.bytes, 1000);
      assert.ok(scanValue(context, at, 2) >= 0, 'an element handed over scans');
      const slots = nextSlot(tape, node) - node;
      assert.deepEqual(
        [...tape.subarray(node, node + slots)],
        [...context.tape.data.subarray(0, context.tape.length)],
        `element ${index}`,
      );
      const nodes: string[] = [];
      for (let slot = node; slot < node + slots; slot += SLOTS) nodes.push(relativeNode(tape, slot, at));
      visits.push(`${key}[${index}] at ${element.base + at}: ${nodes.join(' ')}`);
      assert.equal(
        canonicalOf(element, scratch, element.layout),
        canonicalOf(element, createCanonicalScratch(), 0),
        `element ${index}, layout ${element.layout}`,
      );
    },
  };
  if (chunks === undefined) return { result: readJsonDocument(bytes, visitor), visits };
  // Dropping read bytes also makes the reader scan an element before the input's end.
  const reader = createDocumentReader(visitor, maxRetainedBytes === undefined ? {} : { maxRetainedBytes });
  let offset = 0;
  for (let k = 0; offset < bytes.length; k++) {
    const size = chunks[k % chunks.length]!;
    reader.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return { result: reader.finish(), visits };
}

test('elements read by an earlier layout get the general tape; results equal a whole read', () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat(), { minLength: 1, maxLength: 300 }),
      fc.integer({ min: 2, max: 12 }),
      fc.option(fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 20 }), { nil: undefined }),
      fc.option(fc.nat(), { nil: undefined }),
      fc.option(fc.integer({ min: 16, max: 400 }), { nil: undefined }),
      (choices, count, chunks, cut, maxRetainedBytes) => {
        let next = 0;
        const pick = (n: number): number => choices[next++ % choices.length]! % n;
        const layouts = [makeLayout(pick), makeLayout(pick)];
        const elements = Array.from({ length: count }, (_, k) => {
          const layout = layouts[k % 4 === 3 ? 1 : 0]!;
          return fill(layout, pick, k === count - 1 && pick(4) === 0);
        });
        const whole = `{"h": 1, "a": [${elements.join(', ')}], "z": "end"}`;
        // Sometimes the input ends early, anywhere.
        const text = cut === undefined ? whole : whole.slice(0, cut % (whole.length + 1));
        const bytes = encoder.encode(text);
        const streamed = visitsOf(bytes);
        const plain = readJson(bytes);
        assert.equal(streamed.result.ok, plain.ok, text);
        if (!plain.ok && !streamed.result.ok) assert.deepEqual(streamed.result.error, plain.error, text);
        if (chunks !== undefined) {
          const chunked = visitsOf(bytes, chunks, maxRetainedBytes);
          assert.deepEqual(chunked.result, streamed.result, text);
          // A reader that meets an error reads the document again: its last reading is compared.
          const last = (visits: string[]) => visits.slice(visits.lastIndexOf('start a'));
          assert.deepEqual(last(chunked.visits), last(streamed.visits), text);
        }
      },
    ),
    { numRuns: 1500 },
  );
});

test('an element that differs from the layout in one byte is read the general way', () => {
  const element = (id: string, key: string): string => `{"${key}": "${id}", "n": [1, 2.5, true]}`;
  for (const [odd, expected] of [
    [element('x', 'id').replace('true', 'null'), 'null'],
    [element('x', 'ic'), 'ic'],
    [element('x', 'id').replace('[1, ', '[1,'), '[1,'],
    [element('x', 'id').replace('2.5', '"2.5"'), '"2.5"'],
  ] as const) {
    const text = `{"a": [${[element('a', 'id'), element('b', 'id'), element('c', 'id'), odd].join(', ')}]}`;
    const { result, visits } = visitsOf(encoder.encode(text));
    assert.ok(result.ok, expected);
    assert.equal(visits.length, 5, expected);
  }
  // A bad value where the layout has a string: the general scanner's error, at its offset.
  const bad = `{"a": [${[element('a', 'id'), element('b', 'id'), element('c', 'id'), element('\u0001', 'id')].join(', ')}]}`;
  const { result } = visitsOf(encoder.encode(bad));
  const plain = readJson(encoder.encode(bad));
  assert.ok(!result.ok && !plain.ok);
  assert.deepEqual(result.error, plain.error);
  assert.match(result.error.message, /^Invalid control character at/);
});
