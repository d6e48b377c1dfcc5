// Reading single tape nodes (src/json/tape-read.ts) as the Zaxy scan does (docs/zaxy.md, 'Reading
// in one pass'): elements of a streamed array, their members by key (the last of duplicates, keys
// with escapes), plain strings, integer lexemes and where each value starts in the input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readJsonDocument, type TapeNode } from '../../src/json/reader.ts';
import {
  childCount,
  firstChild,
  integerLexeme,
  isArrayNode,
  isObjectNode,
  memberValue,
  memberValues,
  nextSlot,
  plainStringStart,
  stringAt,
  valueOffset,
} from '../../src/json/tape-read.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The elements of the document's streamed `items` array, as tape nodes (slot 0 is the element). */
function elements(text: string): TapeNode[] {
  const found: TapeNode[] = [];
  const read = readJsonDocument(utf8(text), {
    streamKeys: ['items'],
    startArray() {},
    element: (_key, _index, node) => found.push({ ...node, tape: node.tape.slice() }),
  });
  assert.equal(read.ok, true);
  return found;
}

/** The slots of the elements of the array at `slot`, walked as the Zaxy scan walks proofs. */
function children(tape: Int32Array, slot: number): number[] {
  const slots: number[] = [];
  let child = firstChild(slot);
  for (let k = 0; k < childCount(tape, slot); k++, child = nextSlot(tape, child)) slots.push(child);
  return slots;
}

test('node kinds, child counts, and walking an array', () => {
  const document = '{"items": [{"a": 1, "b": [2]}, [10, [20, 21], "x", {}], "s"]}';
  const [object, array, text] = elements(document) as [TapeNode, TapeNode, TapeNode];
  assert.equal(isObjectNode(object.tape, 0), true);
  assert.equal(isArrayNode(object.tape, 0), false);
  assert.equal(childCount(object.tape, 0), 2);
  assert.equal(isArrayNode(array.tape, 0), true);
  assert.equal(childCount(array.tape, 0), 4);
  const offsets = children(array.tape, 0).map((slot) => valueOffset(array.tape, slot));
  const source = new TextDecoder().decode(array.bytes);
  assert.deepEqual(
    offsets.map((offset) => source[offset]),
    ['1', '[', '"', '{'],
    'each element found, nested containers skipped whole',
  );
  assert.equal(isObjectNode(text.tape, 0) || isArrayNode(text.tape, 0), false);
});

test('memberValue: by key, the last of duplicates, escaped keys decoded, -1 when absent', () => {
  const [element] = elements('{"items": [{"id": "a", "c\\u006fntent": 1, "id": "b", "idx": 2}]}') as [TapeNode];
  const { bytes, tape } = element;
  assert.equal(stringAt(bytes, tape, memberValue(bytes, tape, 0, utf8('id'))), 'b');
  assert.equal(integerLexeme(bytes, tape, memberValue(bytes, tape, 0, utf8('content'))), '1');
  assert.equal(memberValue(bytes, tape, 0, utf8('i')), -1);
  assert.equal(memberValue(bytes, tape, 0, utf8('proof')), -1);
  const slots = new Int32Array(4).fill(7);
  memberValues(bytes, tape, 0, [utf8('idx'), utf8('id'), utf8('none')], slots);
  assert.equal(integerLexeme(bytes, tape, slots[0]!), '2');
  assert.equal(stringAt(bytes, tape, slots[1]!), 'b');
  assert.equal(slots[2], -1);
  assert.equal(slots[3], 7, 'slots past the keys are left alone');
});

test('plain strings, string values and integer lexemes', () => {
  const document = '{"items": [["abc", "a\\u0062c", "é", 12, -0, 1.5, null, 123456789012345678901234567890]]}';
  const { bytes, tape } = elements(document)[0]!;
  type Eight = [number, number, number, number, number, number, number, number];
  const [plain, escaped, accented, int, negativeZero, float, nul, big] = children(tape, 0) as Eight;
  const start = plainStringStart(tape, plain, 3);
  assert.equal(new TextDecoder().decode(bytes.subarray(start, start + 3)), 'abc');
  assert.equal(plainStringStart(tape, plain, 4), -1, 'another length');
  assert.equal(plainStringStart(tape, escaped, 8), -1, 'escaped');
  assert.equal(plainStringStart(tape, int, 2), -1, 'not a string');
  assert.notEqual(plainStringStart(tape, accented, 2), -1, 'UTF-8 bytes count');
  assert.equal(stringAt(bytes, tape, escaped), 'abc');
  assert.equal(stringAt(bytes, tape, accented), 'é');
  assert.equal(stringAt(bytes, tape, int), null);
  assert.equal(stringAt(bytes, tape, -1), null);
  assert.equal(integerLexeme(bytes, tape, int), '12');
  assert.equal(integerLexeme(bytes, tape, negativeZero), '-0');
  assert.equal(integerLexeme(bytes, tape, big), '123456789012345678901234567890');
  assert.equal(integerLexeme(bytes, tape, float), undefined);
  assert.equal(integerLexeme(bytes, tape, nul), undefined);
  assert.equal(integerLexeme(bytes, tape, -1), undefined);
});
