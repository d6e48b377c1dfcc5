// Disclosed elements' proofs folded a batch at a time (src/formats/zaxy/disclosed-folds.ts): with the
// 4-lane hasher (leaves in one call, then the proofs level by level) and without it, the roots are
// those of each element's leaf and proof folded one at a time, for any mix of proof lengths (none,
// equal, one far longer than the rest), any sides and leaf messages, batch after batch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { nodeSha256 } from '../../bin/node-sha256.ts';
import { inclusionProof, merkleRoot, nodeHash, rootFromPackedProof } from '../../src/crypto/merkle.ts';
import { DisclosedFolds } from '../../src/formats/zaxy/disclosed-folds.ts';
import { loadSha256Many, type Sha256Many } from '../../wasm/sha256-lanes.ts';

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

/** The 4-lane hasher, counting the node messages (65 bytes, 0x01 first) it is given. */
function countingNodeMessages(): { many: Sha256Many; readonly nodeMessages: number } {
  let nodeMessages = 0;
  return {
    many: {
      digestMany(data, starts, ends, out) {
        for (let k = 0; k < starts.length; k++)
          if (ends[k]! - starts[k]! === 65 && data[starts[k]!] === 1) nodeMessages++;
        many!.digestMany(data, starts, ends, out);
      },
    },
    get nodeMessages() {
      return nodeMessages;
    },
  };
}

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

// Proofs of elements near each other in the tree meet higher up: a step they share (same node,
// sibling and side) is hashed once, and each element still gets its own root. Elements of a real
// tree, in tree order and shuffled, and with a tampered sibling (never merged with the real one).
test('steps shared by several proofs are hashed once; every root is still its own', () => {
  const size = 1000;
  const messages = Array.from({ length: size }, (_, i) => Uint8Array.of(0, i & 0xff, i >> 8));
  const leaves = messages.map((message) => nodeSha256.digest(message));
  const root = hex(merkleRoot(leaves, nodeSha256));
  const chosen = Array.from({ length: 180 }, (_, k) => (k * 389 + (k % 7) * 13) % size);
  for (const order of [[...chosen].sort((a, b) => a - b), chosen]) {
    const elements: Element[] = order.map((i) => ({
      message: messages[i]!,
      steps: inclusionProof(leaves, i, nodeSha256).map((step) => [step.sibling, step.side] as [Uint8Array, string]),
    }));
    const tampered = elements.length - 1;
    elements[tampered]!.steps[3]![0] = elements[tampered]!.steps[3]![0].map((byte) => byte ^ 1);
    // What one-at-a-time folding hashes: the distinct (step number, side, sibling, node) of all proofs.
    const distinct = new Set<string>();
    for (const { message, steps } of elements) {
      let node = nodeSha256.digest(message);
      steps.forEach(([sibling, side], k) => {
        distinct.add(`${k} ${side} ${hex(sibling)} ${hex(node)}`);
        node = side === 'L' ? nodeHash(sibling, node, nodeSha256) : nodeHash(node, sibling, nodeSha256);
      });
    }
    const counting = countingNodeMessages();
    const roots = foldAll(new DisclosedFolds(nodeSha256, () => counting.many), elements);
    assert.deepEqual(roots, expected(elements));
    assert.ok(
      roots.slice(0, tampered).every((value) => value === root),
      'the untampered proofs lead to the root',
    );
    assert.notEqual(roots[tampered], root);
    const steps = elements.reduce((sum, { steps }) => sum + steps.length, 0);
    assert.equal(counting.nodeMessages, distinct.size, 'each distinct step hashed once');
    assert.ok(distinct.size < steps / 2, `${distinct.size} distinct steps of ${steps}`);
  }
});

test('steps with the same node and sibling but another side are not merged', () => {
  const message = Uint8Array.of(0, 1, 2);
  const sibling = new Uint8Array(32).fill(7);
  const elements: Element[] = ['LL', 'RL', 'LR', 'RR', 'LL', 'RR'].map((sides) => ({
    message,
    steps: [...sides].map((side) => [sibling, side] as [Uint8Array, string]),
  }));
  const roots = foldAll(new DisclosedFolds(nodeSha256, () => many), elements);
  assert.deepEqual(roots, expected(elements));
  assert.equal(new Set(roots).size, 4);
});

// A file chooses its siblings: it can make every step of a level look alike to the table (the same
// first word once xored with the node), which must cost a few probes each, not a scan of all, and
// still give every root.
test('steps made to fall in one slot of the table still fold to their own roots', () => {
  const elements: Element[] = Array.from({ length: 600 }, (_, e) => {
    const message = Uint8Array.of(0, e & 0xff, e >> 8);
    let node = nodeSha256.digest(message);
    const steps: [Uint8Array, string][] = [];
    for (let k = 0; k < 3; k++) {
      const sibling = nodeSha256.digest(Uint8Array.of(e & 0xff, e >> 8, k));
      for (let i = 0; i < 4; i++) sibling[i] = node[i]! ^ 0x5a;
      const side = (e + k) % 2 ? 'L' : 'R';
      steps.push([sibling, side]);
      node = side === 'L' ? nodeHash(sibling, node, nodeSha256) : nodeHash(node, sibling, nodeSha256);
    }
    return { message, steps };
  });
  const counting = countingNodeMessages();
  assert.deepEqual(foldAll(new DisclosedFolds(nodeSha256, () => counting.many), elements), expected(elements));
  assert.equal(counting.nodeMessages, 600 * 3, 'no two different steps merged');
});
