// The kit's `zaxy.index_unbound` check (src/formats/zaxy/subset.ts, `indexProblem`): a disclosed
// element's unsigned `index` against the sides of its proof (docs/zaxy.md, 'Merkle tree'). Held to
// real proofs: in trees of every size up to 70, every leaf's own index passes, and leaf 0's proof
// fails every other index; and to the two ways an index can disagree, worded as the report says.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeSha256 } from '../../bin/node-sha256.ts';
import { inclusionProof } from '../../src/crypto/merkle.ts';
import { indexProblem } from '../../src/formats/zaxy/subset.ts';

const sidesOf = (leaves: Uint8Array[], leaf: number): string =>
  inclusionProof(leaves, leaf, nodeSha256)
    .map((step) => (step.side === 'L' ? 'L' : 'R'))
    .join('');

test("real proofs: every leaf's own index passes; leaf 0's proof fails every other index", () => {
  for (let size = 1; size <= 70; size++) {
    const leaves = Array.from({ length: size }, (_, k) => nodeSha256.digest(Uint8Array.of(k)));
    for (let leaf = 0; leaf < size; leaf++) {
      assert.equal(indexProblem({ index: BigInt(leaf), sides: sidesOf(leaves, leaf) }), undefined, `${size}/${leaf}`);
    }
    const first = sidesOf(leaves, 0);
    for (let other = 1; other < size; other++)
      assert.notEqual(indexProblem({ index: BigInt(other), sides: first }), undefined, `size ${size}, index ${other}`);
  }
});

test('an index the sides contradict, or that a proof is too short for, is worded as such', () => {
  // Leaf 5 of 8 (binary 101): sides L, R, L. Index 4 (100) needs the sibling on the right first.
  const leaves = Array.from({ length: 8 }, (_, k) => nodeSha256.digest(Uint8Array.of(k)));
  assert.equal(sidesOf(leaves, 5), 'LRL');
  assert.equal(
    indexProblem({ index: 4n, sides: 'LRL' }),
    'index 4 does not match the proof: step sides say another position (the index is not signed)',
  );
  assert.equal(
    indexProblem({ index: 13n, sides: 'LRL' }),
    'index 13 does not match the proof: it is too short for this position (the index is not signed)',
  );
});

test('an index that is missing or not a non-negative integer is named as such', () => {
  assert.match(indexProblem({ index: undefined, sides: 'L' })!, /has no index/);
  assert.match(indexProblem({ index: -1n, sides: '' })!, /index -1 is not a non-negative integer/);
  assert.match(indexProblem({ index: '3', sides: '' })!, /index '3' is not a non-negative integer/);
});
