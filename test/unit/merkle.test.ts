// Zaxy's Merkle tree (docs/zaxy.md, 'Merkle tree'): prefixes, promotion of the unpaired node,
// proof shapes, side semantics (only "L" is special), siblings of any length, and the
// packed/layered variants agreeing with the plain ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  inclusionProof,
  leafHash,
  LEAF_PREFIX,
  merkleLayersPacked,
  merkleRoot,
  merkleRootPacked,
  NODE_PREFIX,
  nodeHash,
  proofFromLayers,
  rootFromInclusionProof,
  rootFromPackedProof,
  verifyInclusion,
} from '../../src/crypto/merkle.ts';
import { toHex } from '../../src/encoding/hex.ts';
import { nodeSha256 as sha256 } from '../../bin/node-sha256.ts';

const h = (...parts: (number[] | Uint8Array)[]): Uint8Array => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(Uint8Array.from(part));
  return new Uint8Array(hash.digest());
};
const leaves = (n: number): Uint8Array[] =>
  Array.from({ length: n }, (_, i) => leafHash(new TextEncoder().encode(`{"i":${i}}`), sha256));

test('leaf = SHA-256(0x00 ‖ content), node = SHA-256(0x01 ‖ left ‖ right)', () => {
  assert.equal(LEAF_PREFIX, 0x00);
  assert.equal(NODE_PREFIX, 0x01);
  const content = new TextEncoder().encode('{}');
  assert.deepEqual(leafHash(content, sha256), h([0], content));
  const [a, b] = leaves(2) as [Uint8Array, Uint8Array];
  assert.deepEqual(nodeHash(a, b, sha256), h([1], a, b));
});

test('the unpaired last node is promoted unchanged (n = 1, 3, 5)', () => {
  const [a, b, c, d, e] = leaves(5) as Uint8Array[] as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  assert.deepEqual(merkleRoot([a], sha256), a);
  assert.deepEqual(merkleRoot([a, b, c], sha256), nodeHash(nodeHash(a, b, sha256), c, sha256));
  const ab = nodeHash(a, b, sha256);
  const cd = nodeHash(c, d, sha256);
  assert.deepEqual(merkleRoot([a, b, c, d, e], sha256), nodeHash(nodeHash(ab, cd, sha256), e, sha256));
  assert.throws(() => merkleRoot([], sha256), TypeError);
});

test("proofs: one step per layer with a partner; side is the sibling's side", () => {
  const five = leaves(5);
  assert.deepEqual(
    inclusionProof(five, 4, sha256).map((step) => step.side),
    ['L'],
    'index 4 of 5 is promoted twice',
  );
  assert.deepEqual(
    inclusionProof(five, 0, sha256).map((step) => step.side),
    ['R', 'R', 'R'],
  );
  assert.deepEqual(
    inclusionProof(five, 3, sha256).map((step) => step.side),
    ['L', 'L', 'R'],
  );
  assert.deepEqual(inclusionProof(leaves(1), 0, sha256), []);
  assert.deepEqual(inclusionProof(leaves(3), 2, sha256).length, 1);
  assert.throws(() => inclusionProof(five, 5, sha256), RangeError);
  assert.throws(() => inclusionProof(five, -1, sha256), RangeError);
});

test('only the exact side "L" puts the sibling on the left; anything else is "R"', () => {
  const tree = leaves(4);
  const root = merkleRoot(tree, sha256);
  const proof = inclusionProof(tree, 2, sha256);
  assert.deepEqual(
    proof.map((step) => step.side),
    ['R', 'L'],
  );
  const renamed = proof.map((step) => (step.side === 'R' ? { ...step, side: 'X' } : step));
  assert.deepEqual(verifyInclusion(tree[2]!, renamed, root, sha256), { ok: true });
  const words = proof.map((step) => ({ ...step, side: step.side === 'L' ? 'left' : 'right' }));
  assert.equal(verifyInclusion(tree[2]!, words, root, sha256).ok, false);
  const siblings = new Uint8Array([...proof[0]!.sibling, ...proof[1]!.sibling]);
  assert.deepEqual(rootFromPackedProof(tree[2]!, siblings, 'RL', sha256), root);
  assert.deepEqual(
    rootFromPackedProof(tree[2]!, siblings, 'XL', sha256),
    root,
    'packed: any other letter is a right sibling',
  );
  assert.notDeepEqual(rootFromPackedProof(tree[2]!, siblings, 'Rl', sha256), root, 'packed: only "L" is left');
});

test('siblings of any length are hashed as they are (bytes.fromhex does not check the length)', () => {
  const [leaf] = leaves(1) as [Uint8Array];
  const short = Uint8Array.from([1, 2, 3]);
  const long = new Uint8Array(40).fill(7);
  assert.deepEqual(rootFromInclusionProof(leaf, [{ sibling: short, side: 'R' }], sha256), h([1], leaf, short));
  assert.deepEqual(rootFromInclusionProof(leaf, [{ sibling: new Uint8Array(0), side: 'L' }], sha256), h([1], leaf));
  const two = rootFromInclusionProof(
    leaf,
    [
      { sibling: short, side: 'L' },
      { sibling: long, side: 'R' },
    ],
    sha256,
  );
  assert.deepEqual(two, h([1], h([1], short, leaf), long));
  assert.deepEqual(rootFromInclusionProof(short, [], sha256), short, 'no steps: the leaf itself');
  const shortLeaf = rootFromInclusionProof(short, [{ sibling: leaf, side: 'R' }], sha256);
  assert.deepEqual(shortLeaf, h([1], short, leaf), 'a leaf of another length too');
});

test('the packed fold reads one sibling per side and needs them all', () => {
  const tree = leaves(5);
  const proof = inclusionProof(tree, 3, sha256);
  const siblings = new Uint8Array(32 * proof.length + 32);
  proof.forEach((step, k) => siblings.set(step.sibling, 32 * k));
  const sides = proof.map((step) => step.side).join('');
  const root = merkleRoot(tree, sha256);
  assert.deepEqual(
    rootFromPackedProof(tree[3]!, siblings, sides, sha256),
    root,
    'a longer buffer: the rest is ignored',
  );
  assert.deepEqual(rootFromPackedProof(tree[3]!, new Uint8Array(0), '', sha256), tree[3]);
  const short = siblings.subarray(0, 32 * proof.length - 1);
  assert.throws(() => rootFromPackedProof(tree[3]!, short, sides, sha256), TypeError);
});

test('verifyInclusion reports expected and calculated roots', () => {
  const tree = leaves(3);
  const root = merkleRoot(tree, sha256);
  const result = verifyInclusion(tree[0]!, inclusionProof(tree, 1, sha256), root, sha256);
  assert.equal(result.ok, false);
  assert.deepEqual(result, {
    ok: false,
    expected: toHex(root),
    calculated: toHex(rootFromInclusionProof(tree[0]!, inclusionProof(tree, 1, sha256), sha256)),
  });
  assert.equal(
    verifyInclusion(tree[0]!, inclusionProof(tree, 0, sha256), root.subarray(0, 31), sha256).ok,
    false,
    'a root of another length never matches',
  );
});

test('packed root, layered proofs and the packed fold equal the plain ones for every size up to 70', () => {
  for (let n = 1; n <= 70; n++) {
    const tree = leaves(n);
    const packed = new Uint8Array(32 * n);
    tree.forEach((leaf, i) => packed.set(leaf, 32 * i));
    const root = merkleRoot(tree, sha256);
    assert.deepEqual(merkleRootPacked(packed.slice(), n, sha256), root);
    const layers = merkleLayersPacked(packed, n, sha256);
    assert.deepEqual(layers[layers.length - 1], root);
    for (let i = 0; i < n; i++) {
      const proof = proofFromLayers(layers, i);
      assert.deepEqual(proof, inclusionProof(tree, i, sha256), `n=${n} i=${i}`);
      const siblings = new Uint8Array(32 * proof.length);
      proof.forEach((step, k) => siblings.set(step.sibling, 32 * k));
      const sides = proof.map((step) => step.side).join('');
      assert.deepEqual(rootFromPackedProof(tree[i]!, siblings, sides, sha256), root, `packed fold, n=${n} i=${i}`);
    }
  }
});
