// Disclosed elements' proofs folded a batch at a time (src/formats/zaxy/disclosed-folds.ts): with the
// 4-lane hasher (leaves in one call, then the proofs level by level) and without it, the roots are
// those of each element's leaf and proof folded one at a time, for any mix of proof lengths (none,
// equal, one far longer than the rest), any sides and leaf messages, batch after batch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { nodeSha256 } from '../../bin/node-sha256.ts';
import { rootFromPackedProof } from '../../src/crypto/merkle.ts';
import { DisclosedFolds } from '../../src/formats/zaxy/disclosed-folds.ts';
import { loadSha256Many } from '../../wasm/sha256-lanes.ts';

const many = await loadSha256Many();
assert.ok(many, 'the 4-lane hasher loads in Node');

const element = fc.record({
  message: fc.uint8Array({ maxLength: 300 }),
  steps: fc.array(fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom('L', 'R')), {
    maxLength: 24,
  }),
});

type Element = { message: Uint8Array; steps: [Uint8Array, string][] };

const packed = (steps: [Uint8Array, string][]): Uint8Array => {
  const siblings = new Uint8Array(32 * steps.length);
  steps.forEach(([sibling], k) => siblings.set(sibling, 32 * k));
  return siblings;
};
const sidesOf = (steps: [Uint8Array, string][]): string => steps.map(([, side]) => side).join('');
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** Each element folded on its own: the roots the batches must give. */
const expected = (elements: Element[]): string[] =>
  elements.map(({ message, steps }) =>
    hex(rootFromPackedProof(nodeSha256.digest(message), packed(steps), sidesOf(steps), nodeSha256)),
  );

/**
 * Folds the elements batch by batch. Each element's message and siblings are passed in one reused
 * buffer, overwritten right after `add` (as the scan reuses its own): `add` must have copied them.
 */
function foldAll(folds: DisclosedFolds, elements: Element[]): string[] {
  const roots: string[] = [];
  let reused = new Uint8Array(0);
  for (const { message, steps } of elements) {
    const siblings = packed(steps);
    if (reused.length < message.length + siblings.length) reused = new Uint8Array(message.length + siblings.length);
    reused.set(message);
    reused.set(siblings, message.length);
    const place = folds.add(reused.subarray(0, message.length), reused.subarray(message.length), sidesOf(steps));
    assert.equal(place, folds.size - 1);
    reused.fill(0xee);
    if (folds.full) roots.push(...folds.take().map(hex));
  }
  roots.push(...folds.take().map(hex));
  assert.equal(folds.size, 0);
  return roots;
}

test('batched roots equal one-at-a-time roots, with and without the 4-lane hasher', () => {
  fc.assert(
    fc.property(fc.array(element, { maxLength: 40 }), (elements) => {
      const want = expected(elements);
      assert.deepEqual(foldAll(new DisclosedFolds(nodeSha256, () => many), elements), want);
      assert.deepEqual(foldAll(new DisclosedFolds(nodeSha256, undefined), elements), want);
    }),
    { numRuns: 150 },
  );
});

test('one proof far longer than the others, and batches taken when full', () => {
  const random = (n: number, seed: number): Uint8Array =>
    Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
  const elements: Element[] = Array.from({ length: 3000 }, (_, k) => ({
    message: random(k % 97, k),
    steps: Array.from({ length: k === 5 ? 700 : k % 19 }, (_, s) => [random(32, k + s), (k + s) % 3 ? 'L' : 'R']),
  }));
  const folds = new DisclosedFolds(nodeSha256, () => many);
  const roots = foldAll(folds, elements);
  assert.deepEqual(roots, expected(elements));
});

test('add refuses siblings shorter than the sides say', () => {
  const folds = new DisclosedFolds(nodeSha256, () => many);
  assert.throws(() => folds.add(new Uint8Array(3), new Uint8Array(63), 'LR'), TypeError);
  assert.equal(folds.size, 0);
});
