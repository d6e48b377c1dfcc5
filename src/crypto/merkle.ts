/**
 * Zaxy's binary Merkle tree (docs/zaxy.md, 'Merkle tree'), in the style of transparency-dev/merkle:
 * compute, then compare with evidence.
 *
 * - Leaf: SHA-256(0x00 ‖ canonical entry bytes). Node: SHA-256(0x01 ‖ left ‖ right). The distinct
 *   prefixes keep a node digest from ever passing as a leaf (second-preimage resistance).
 * - Layers pair positions (0,1), (2,3), …; an unpaired last node is promoted unchanged (not
 *   duplicated, not rehashed). Unlike RFC 6962 the tree size is not an input of proofs, so
 *   proofs vary in length and are not bound to a position.
 * - A proof step is `[sibling, side]` where side is the SIBLING's side: `"L"` when the node being
 *   proved is a right child. Verification treats only the exact string `"L"` as special; any
 *   other side value hashes the sibling on the right (what Zaxy does).
 * - Every proof is folded here, one step function for all: `rootFromInclusionProof` over a list
 *   of steps, `rootFromPackedProof` over siblings packed as a verifier decodes them. Verifiers
 *   compare the root it returns.
 * @module
 */
import type { Sha256, Sha256Many } from './sha256.ts';
import { toHex } from '../encoding/hex.ts';

/** Domain prefix of a leaf hash (docs/zaxy.md, 'Merkle tree'). */
export const LEAF_PREFIX = 0x00;
/** Domain prefix of an interior node hash (docs/zaxy.md, 'Merkle tree'). */
export const NODE_PREFIX = 0x01;
/** The character code of `L`, the side of a proof step's sibling on the left. */
export const SIDE_LEFT = 0x4c;

/** One proof step: the sibling digest and the sibling's side (`"L"`, `"R"`, or anything from a file). */
export interface ProofStep {
  readonly sibling: Uint8Array;
  readonly side: string;
}

/**
 * Leaf hash of canonical entry bytes: SHA-256(0x00 ‖ content).
 * @example
 * leafHash(new TextEncoder().encode('{}'), sha256); // 32 bytes
 */
export function leafHash(content: Uint8Array, sha256: Sha256): Uint8Array {
  return sha256.create().update(LEAF_BYTE).update(content).digest();
}

/**
 * Interior node hash: SHA-256(0x01 ‖ left ‖ right).
 * @example
 * nodeHash(leafA, leafB, sha256); // 32 bytes
 */
export function nodeHash(left: Uint8Array, right: Uint8Array, sha256: Sha256): Uint8Array {
  const message = new Uint8Array(1 + left.length + right.length);
  message[0] = NODE_PREFIX;
  message.set(left, 1);
  message.set(right, 1 + left.length);
  return sha256.digest(message);
}

const LEAF_BYTE = /* @__PURE__ */ new Uint8Array([LEAF_PREFIX]);

/**
 * A node message for two 32-byte digests, NODE_PREFIX then 64 bytes to fill: one per tree or
 * proof, reused for every node of it.
 */
function nodeMessage(): Uint8Array {
  const message = new Uint8Array(65);
  message[0] = NODE_PREFIX;
  return message;
}

/**
 * The root over leaf hashes. Requires at least one leaf (Zaxy raises `merkle_root requires at
 * least one leaf`; check before calling). The root of one leaf is that leaf.
 * @throws TypeError when `leaves` is empty (a precondition, not hostile data).
 * @example
 * merkleRoot([leafHash(a, sha256), leafHash(b, sha256)], sha256); // nodeHash(leafA, leafB)
 */
export function merkleRoot(leaves: readonly Uint8Array[], sha256: Sha256): Uint8Array {
  if (leaves.length === 0) throw new TypeError('merkleRoot requires at least one leaf');
  const packed = new Uint8Array(32 * leaves.length);
  leaves.forEach((leaf, i) => {
    if (leaf.length !== 32) throw new TypeError('merkleRoot: every leaf must be a 32-byte digest');
    packed.set(leaf, 32 * i);
  });
  return merkleRootPacked(packed, leaves.length, sha256);
}

/**
 * `merkleRoot` one leaf at a time, in O(log n) memory: a stack of the roots of complete subtrees
 * (2^h leaves at height h, like the bits of a binary counter). The level-by-level tree
 * (docs/zaxy.md, 'Merkle tree') pairs nodes from the left and promotes an unpaired last node, so
 * its root is those subtree roots joined from the smallest up, right to left: for 7 leaves, H(abcd,
 * H(ef, g)). Property-tested against `merkleRootPacked`.
 * @example
 * const fold = new MerkleFold(sha256);
 * for (const leaf of leaves) fold.add(leaf);
 * fold.root(); // merkleRoot(leaves, sha256)
 */
export class MerkleFold {
  /** `pending[h]`: the root of the complete subtree of 2^h leaves waiting for its right sibling. */
  private readonly pending: (Uint8Array | undefined)[] = [];
  private readonly message = nodeMessage();
  /** Leaves added. */
  count = 0;

  constructor(private readonly sha256: Sha256) {}

  /** Adds the next leaf (32 bytes; kept, so not to be reused by the caller). */
  add(leaf: Uint8Array): void {
    let node = leaf;
    let height = 0;
    for (let left = this.pending[height]; left !== undefined; left = this.pending[height]) {
      node = this.join(left, node);
      this.pending[height] = undefined;
      height++;
    }
    this.pending[height] = node;
    this.count++;
  }

  /**
   * Adds `count` leaves packed back to back (32 bytes each, copied), as `add` would one by one, with
   * the batch's nodes of each level hashed in one call to `many` (four messages at once in the
   * 4-lane hasher). Level h of the batch starts at leaf count / 2^h: when that is odd, its first
   * node's left sibling is the one waiting at height h; an odd last node waits there in turn.
   * @example
   * fold.addMany(leaves32xN, n, await loadSha256Many()); // as n calls of fold.add
   */
  addMany(packed: Uint8Array, count: number, many: Sha256Many): void {
    let nodes = packed.subarray(0, 32 * count);
    let width = count;
    let start = this.count;
    for (let height = 0; width > 0; height++) {
      if (start % 2 === 1) {
        const withLeft = new Uint8Array(32 * (width + 1));
        withLeft.set(this.pending[height]!);
        withLeft.set(nodes, 32);
        nodes = withLeft;
        width++;
        start--;
        this.pending[height] = undefined;
      }
      if (width % 2 === 1) this.pending[height] = nodes.slice(32 * (width - 1), 32 * width);
      const pairs = width >> 1;
      if (pairs === 0) break;
      const messages = new Uint8Array(65 * pairs);
      const starts = new Uint32Array(pairs);
      const ends = new Uint32Array(pairs);
      for (let i = 0; i < pairs; i++) {
        const at = 65 * i;
        messages[at] = NODE_PREFIX;
        messages.set(nodes.subarray(64 * i, 64 * i + 64), at + 1);
        starts[i] = at;
        ends[i] = at + 65;
      }
      const parents = new Uint8Array(32 * pairs);
      many.digestMany(messages, starts, ends, parents);
      nodes = parents;
      width = pairs;
      start /= 2;
    }
    this.count += count;
  }

  /** The root of the leaves added so far; undefined before the first. */
  root(): Uint8Array | undefined {
    let node: Uint8Array | undefined;
    for (const left of this.pending) {
      if (left !== undefined) node = node === undefined ? left : this.join(left, node);
    }
    return node;
  }

  private join(left: Uint8Array, right: Uint8Array): Uint8Array {
    this.message.set(left, 1);
    this.message.set(right, 33);
    return this.sha256.digest(this.message);
  }
}

/**
 * `merkleRoot` over `count` 32-byte leaves packed back to back (no per-leaf arrays: the fast path
 * for large bundles). `packed` is overwritten with intermediate layers.
 * @throws TypeError when `count` < 1 or `packed` is shorter than 32 × count.
 * @example
 * merkleRootPacked(leaves32xN, n, sha256);
 */
export function merkleRootPacked(packed: Uint8Array, count: number, sha256: Sha256): Uint8Array {
  if (!Number.isInteger(count) || count < 1) throw new TypeError('merkleRootPacked requires at least one leaf');
  if (packed.length < 32 * count) throw new TypeError('merkleRootPacked: packed holds fewer than count leaves');
  const message = nodeMessage();
  let width = count;
  while (width > 1) {
    let next = 0;
    for (let i = 0; i < width; i += 2) {
      if (i + 1 < width) {
        message.set(packed.subarray(32 * i, 32 * i + 64), 1);
        packed.set(sha256.digest(message), 32 * next);
      } else {
        // Promote the unpaired last node unchanged (docs/zaxy.md, 'Merkle tree').
        packed.copyWithin(32 * next, 32 * i, 32 * i + 32);
      }
      next++;
    }
    width = next;
  }
  return packed.slice(0, 32);
}

/**
 * The inclusion proof Zaxy's `disclose_subset` writes for leaf `index`: from the leaf up, one step
 * per layer in which the node has a partner (none where it is promoted).
 * @throws RangeError when `index` is not an integer in [0, leaves.length) (Zaxy: IndexError).
 * @example
 * inclusionProof(leaves, 2, sha256); // [{ sibling, side: 'R' | 'L' }, ...]
 */
export function inclusionProof(leaves: readonly Uint8Array[], index: number, sha256: Sha256): ProofStep[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length) throw new RangeError('index out of range');
  const proof: ProofStep[] = [];
  let layer = [...leaves];
  let position = index;
  while (layer.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < layer.length; i += 2) {
      if (i + 1 < layer.length) {
        if (i === position - (position % 2)) {
          proof.push(position % 2 === 0 ? { sibling: layer[i + 1]!, side: 'R' } : { sibling: layer[i]!, side: 'L' });
        }
        next.push(nodeHash(layer[i]!, layer[i + 1]!, sha256));
      } else {
        next.push(layer[i]!);
      }
    }
    position = Math.floor(position / 2);
    layer = next;
  }
  return proof;
}

/**
 * Every layer of the tree over `count` packed 32-byte leaves, leaves first, root last (one
 * 32-byte node). For producing many proofs from one tree (`proofFromLayers`).
 * @throws TypeError when `count` < 1 or `packed` is shorter than 32 × count.
 * @example
 * const layers = merkleLayersPacked(leaves32xN, n, sha256);
 * layers[layers.length - 1]; // the root
 */
export function merkleLayersPacked(packed: Uint8Array, count: number, sha256: Sha256): Uint8Array[] {
  if (!Number.isInteger(count) || count < 1) throw new TypeError('merkleLayersPacked requires at least one leaf');
  if (packed.length < 32 * count) throw new TypeError('merkleLayersPacked: packed holds fewer than count leaves');
  const layers = [packed.slice(0, 32 * count)];
  const message = nodeMessage();
  let layer = layers[0]!;
  let width = count;
  while (width > 1) {
    const nextWidth = Math.ceil(width / 2);
    const next = new Uint8Array(32 * nextWidth);
    for (let i = 0, j = 0; i < width; i += 2, j++) {
      if (i + 1 < width) {
        message.set(layer.subarray(32 * i, 32 * i + 64), 1);
        next.set(sha256.digest(message), 32 * j);
      } else {
        next.set(layer.subarray(32 * i, 32 * i + 32), 32 * j); // promoted unchanged (docs/zaxy.md, 'Merkle tree')
      }
    }
    layers.push(next);
    layer = next;
    width = nextWidth;
  }
  return layers;
}

/**
 * The inclusion proof of leaf `index` from precomputed layers; the same steps as
 * `inclusionProof` (one per layer in which the node has a partner).
 * @throws RangeError when `index` is not an integer in [0, leaf count).
 * @example
 * proofFromLayers(merkleLayersPacked(leaves, n, sha256), 3); // [{ sibling, side }, …]
 */
export function proofFromLayers(layers: readonly Uint8Array[], index: number): ProofStep[] {
  const count = layers[0]!.length / 32;
  if (!Number.isInteger(index) || index < 0 || index >= count) throw new RangeError('index out of range');
  const proof: ProofStep[] = [];
  let position = index;
  for (let level = 0; level < layers.length - 1; level++) {
    const layer = layers[level]!;
    const width = layer.length / 32;
    const partner = position % 2 === 0 ? position + 1 : position - 1;
    if (partner < width) {
      proof.push({ sibling: layer.slice(32 * partner, 32 * partner + 32), side: position % 2 === 0 ? 'R' : 'L' });
    }
    position = Math.floor(position / 2);
  }
  return proof;
}

/**
 * Folds a proof over a leaf hash and returns the root it implies (compute; compare separately).
 * Side `"L"` (exact string) puts the sibling on the left, any other side on the right; sibling
 * lengths are not checked (Zaxy decodes them with `bytes.fromhex` and hashes what it gets).
 * @example
 * rootFromInclusionProof(leafHash(content, sha256), proof, sha256); // 32 bytes
 */
export function rootFromInclusionProof(leaf: Uint8Array, proof: readonly ProofStep[], sha256: Sha256): Uint8Array {
  const message = nodeMessage();
  let node = leaf;
  for (const step of proof) node = proofStep(node, step.sibling, step.side === 'L', message, sha256);
  return node;
}

/**
 * `rootFromInclusionProof` over 32-byte siblings packed back to back, as a verifier decodes them
 * straight from a document: step k's sibling is `siblings[32k, 32k + 32)` and its side is the
 * character `sides[k]`, `L` for a sibling on the left and any other character for one on the
 * right (a step whose side is exactly `"L"` packs as `L`, any other side as, say, `R`). The same
 * step as `rootFromInclusionProof`, without a list of steps.
 * @throws TypeError when `siblings` holds fewer than `sides.length` siblings.
 * @example
 * rootFromPackedProof(leaf, siblings32xK, 'RLR', sha256); // 32 bytes
 */
export function rootFromPackedProof(leaf: Uint8Array, siblings: Uint8Array, sides: string, sha256: Sha256): Uint8Array {
  const count = sides.length;
  if (siblings.length < 32 * count) {
    throw new TypeError('rootFromPackedProof: siblings holds fewer than one sibling per side');
  }
  const message = nodeMessage();
  let node = leaf;
  for (let k = 0; k < count; k++) {
    node = proofStep(node, siblings.subarray(32 * k, 32 * k + 32), sides.charCodeAt(k) === SIDE_LEFT, message, sha256);
  }
  return node;
}

/**
 * One step of every proof fold (docs/zaxy.md, 'Merkle tree'): the parent of `node` and its
 * `sibling`, H(0x01 ‖ sibling ‖ node) when the sibling is on the left, else H(0x01 ‖ node ‖
 * sibling). Through `message` (from `nodeMessage`) when both are 32 bytes; a sibling of another
 * length (decoded leniently from a document) is hashed as it is.
 */
function proofStep(
  node: Uint8Array,
  sibling: Uint8Array,
  siblingOnLeft: boolean,
  message: Uint8Array,
  sha256: Sha256,
): Uint8Array {
  const left = siblingOnLeft ? sibling : node;
  const right = siblingOnLeft ? node : sibling;
  if (left.length !== 32 || right.length !== 32) return nodeHash(left, right, sha256);
  message.set(left, 1);
  message.set(right, 33);
  return sha256.digest(message);
}

export type InclusionResult =
  { readonly ok: true } | { readonly ok: false; readonly expected: string; readonly calculated: string };

/**
 * Verifies that `proof` leads from `leaf` to `root` (byte equality, so a root of another length
 * fails), reporting both roots on mismatch.
 * @example
 * verifyInclusion(leaf, proof, root, sha256); // { ok: true } or { ok: false, expected, calculated }
 */
export function verifyInclusion(
  leaf: Uint8Array,
  proof: readonly ProofStep[],
  root: Uint8Array,
  sha256: Sha256,
): InclusionResult {
  const calculated = rootFromInclusionProof(leaf, proof, sha256);
  if (bytesEqual(calculated, root)) return { ok: true };
  return { ok: false, expected: toHex(root), calculated: toHex(calculated) };
}

/** Byte equality: same length, same bytes (digests are public, so no constant-time need). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
