// Merkle properties (docs/zaxy.md, 'Merkle tree'): for random trees of 1..300 leaves, every
// inclusion proof verifies; flipping any bit of the leaf, of any proof sibling, or of the root
// makes it fail; changing a side from "L" to anything else (or back) makes it fail. Both folds the
// Zaxy verifier decides with are held to this: `rootFromInclusionProof` (proofs of any shape) and
// `rootFromPackedProof` (proofs read straight from the document, siblings packed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  bytesEqual,
  inclusionProof,
  MerkleFold,
  merkleRoot,
  type ProofStep,
  rootFromInclusionProof,
  rootFromPackedProof,
  verifyInclusion,
} from '../../src/crypto/merkle.ts';
import { nodeSha256 as sha256 } from '../../bin/node-sha256.ts';
import { loadSha256Many } from '../../wasm/sha256-lanes.ts';

const tree = fc.integer({ min: 1, max: 300 }).chain((n) =>
  fc.record({
    leaves: fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { minLength: n, maxLength: n }),
    index: fc.nat(n - 1),
    bit: fc.nat(255),
    step: fc.nat(),
  }),
);

function flip(bytes: Uint8Array, bit: number): Uint8Array {
  const out = bytes.slice();
  out[bit >> 3]! ^= 1 << (bit & 7);
  return out;
}

// Batches of leaves (a level of the batch per call of the 4-lane hasher) fold as one leaf at a time
// would: the same root after every batch, whatever the batch sizes and however adds are mixed.
test('MerkleFold.addMany gives what add gives leaf by leaf, for any batch sizes', async () => {
  const many = await loadSha256Many();
  assert.ok(many, 'the 4-lane hasher loads in Node');
  fc.assert(
    fc.property(
      fc.array(fc.record({ size: fc.integer({ min: 0, max: 70 }), batched: fc.boolean() }), { maxLength: 12 }),
      fc.nat(),
      (batches, seed) => {
        const oneByOne = new MerkleFold(sha256);
        const batched = new MerkleFold(sha256);
        let n = seed;
        for (const { size, batched: inOneCall } of batches) {
          const packed = new Uint8Array(32 * size);
          for (let k = 0; k < size; k++) {
            const leaf = sha256.digest(new Uint8Array([n & 255, (n >> 8) & 255, n >> 16]));
            n++;
            packed.set(leaf, 32 * k);
            oneByOne.add(leaf);
            if (!inOneCall) batched.add(leaf.slice());
          }
          if (inOneCall) {
            batched.addMany(packed, size, many);
            packed.fill(0); // copied: later changes to the caller's buffer change nothing
          }
          assert.equal(batched.count, oneByOne.count);
          assert.deepEqual(batched.root(), oneByOne.root(), `after ${oneByOne.count} leaves`);
        }
      },
    ),
    { numRuns: 300 },
  );
});

// The fold (one leaf at a time, a stack of subtree roots) must give the level-by-level root for
// every leaf count, not only the powers of two; and every root on the way.
test('MerkleFold gives merkleRoot for 1..300 leaves, after each leaf', () => {
  const fold = new MerkleFold(sha256);
  assert.equal(fold.root(), undefined);
  const leaves: Uint8Array[] = [];
  for (let n = 1; n <= 300; n++) {
    const leaf = sha256.digest(new Uint8Array([n & 255, n >> 8]));
    leaves.push(leaf);
    fold.add(leaf);
    assert.deepEqual(fold.root(), merkleRoot(leaves, sha256), `${n} leaves`);
    assert.equal(fold.count, n);
  }
});

test('every disclosure of a random tree verifies', () => {
  fc.assert(
    fc.property(tree, ({ leaves }) => {
      const root = merkleRoot(leaves, sha256);
      for (let i = 0; i < leaves.length; i++) {
        assert.deepEqual(verifyInclusion(leaves[i]!, inclusionProof(leaves, i, sha256), root, sha256), { ok: true });
      }
    }),
    { numRuns: 25 },
  );
});

test('flipping any bit of the leaf, a sibling, or the root fails; so does changing a side', () => {
  fc.assert(
    fc.property(tree, ({ leaves, index, bit, step }) => {
      const root = merkleRoot(leaves, sha256);
      const proof = inclusionProof(leaves, index, sha256);
      const leaf = leaves[index]!;
      assert.equal(verifyInclusion(flip(leaf, bit), proof, root, sha256).ok, false, 'leaf bit');
      assert.equal(verifyInclusion(leaf, proof, flip(root, bit), sha256).ok, false, 'root bit');
      if (proof.length > 0) {
        const k = step % proof.length;
        const sibling: ProofStep[] = proof.map((s, j) => (j === k ? { ...s, sibling: flip(s.sibling, bit) } : s));
        assert.equal(verifyInclusion(leaf, sibling, root, sha256).ok, false, 'sibling bit');
        const side: ProofStep[] = proof.map((s, j) => (j === k ? { ...s, side: s.side === 'L' ? 'R' : 'L' } : s));
        assert.equal(verifyInclusion(leaf, side, root, sha256).ok, false, 'side');
        assert.equal(verifyInclusion(leaf, proof.slice(0, -1), root, sha256).ok, false, 'truncated');
        assert.equal(verifyInclusion(leaf, [...proof, proof[0]!], root, sha256).ok, false, 'extended');
      }
    }),
    { numRuns: 300 },
  );
});

/** A proof as the verifier packs it: siblings back to back, one side letter per step. */
function pack(proof: readonly ProofStep[]): { siblings: Uint8Array; sides: string } {
  const siblings = new Uint8Array(32 * proof.length);
  proof.forEach((step, k) => siblings.set(step.sibling, 32 * k));
  return { siblings, sides: proof.map((step) => (step.side === 'L' ? 'L' : 'R')).join('') };
}

test('the packed fold and rootFromInclusionProof give merkleRoot for every index of a random tree', () => {
  fc.assert(
    fc.property(tree, ({ leaves }) => {
      const root = merkleRoot(leaves, sha256);
      for (let i = 0; i < leaves.length; i++) {
        const proof = inclusionProof(leaves, i, sha256);
        const { siblings, sides } = pack(proof);
        assert.deepEqual(rootFromInclusionProof(leaves[i]!, proof, sha256), root, `index ${i}`);
        assert.deepEqual(rootFromPackedProof(leaves[i]!, siblings, sides, sha256), root, `index ${i}, packed`);
      }
    }),
    { numRuns: 25 },
  );
});

test('the packed fold: flipping any bit of the leaf or a sibling, or any side, changes the root', () => {
  fc.assert(
    fc.property(tree, ({ leaves, index, bit, step }) => {
      const root = merkleRoot(leaves, sha256);
      const { siblings, sides } = pack(inclusionProof(leaves, index, sha256));
      const leaf = leaves[index]!;
      const holds = (l: Uint8Array, s: Uint8Array, d: string): boolean =>
        bytesEqual(rootFromPackedProof(l, s, d, sha256), root);
      assert.equal(holds(leaf, siblings, sides), true);
      assert.equal(holds(flip(leaf, bit), siblings, sides), false, 'leaf bit');
      if (sides.length > 0) {
        const k = step % sides.length;
        assert.equal(holds(leaf, flip(siblings, 256 * k + bit), sides), false, 'sibling bit');
        const side = sides.slice(0, k) + (sides[k] === 'L' ? 'R' : 'L') + sides.slice(k + 1);
        assert.equal(holds(leaf, siblings, side), false, 'side');
        // Only "L" is special: any other letter is a right sibling, like "R".
        const renamed = sides.slice(0, k) + (sides[k] === 'L' ? 'L' : 'X') + sides.slice(k + 1);
        assert.equal(holds(leaf, siblings, renamed), true, 'another letter for R');
        assert.equal(holds(leaf, siblings, sides.slice(0, -1)), false, 'truncated');
        const longer = new Uint8Array([...siblings, ...siblings.subarray(0, 32)]);
        assert.equal(holds(leaf, longer, sides + sides[0]), false, 'extended');
      }
    }),
    { numRuns: 300 },
  );
});
