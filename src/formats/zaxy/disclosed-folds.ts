/**
 * The roots that disclosed elements' plain proofs lead to (docs/zaxy.md, 'Merkle tree'), hashed a
 * batch of elements at a time. With a `Sha256Many` (the 4-lane hasher), a batch's leaves go in one
 * call, then its proofs level by level: step k of every proof at least k + 1 steps long in one
 * call, so the lanes always have messages. A subset's proof steps are most of its hashing
 * (~17 of them per element for 100k entries), each a 65-byte message, which one call at a time
 * into the scalar SHA-256 hashes slowly. The proofs of elements near each other in the tree meet
 * higher up, so a level's equal steps (same node, sibling and side) are hashed once: in the 1k
 * subset of a 100k bundle, about half of all steps. Without a `Sha256Many`, each element's leaf
 * and proof are hashed in turn (`rootFromPackedProof`); the roots are the same either way.
 * @module
 */
import { NODE_PREFIX, rootFromPackedProof, SIDE_LEFT } from '../../crypto/merkle.ts';
import type { Sha256, Sha256Many } from '../../crypto/sha256.ts';
import { createByteSink, ensureCapacity } from '../../json/canonical-tape.ts';

/** Elements a batch holds at most. */
const MAX_ELEMENTS = 1024;
/**
 * Leaf message and sibling bytes a batch holds at most (memory stays bounded, whatever the input).
 * Small on purpose: growing the batch's buffers to megabytes cost more than larger calls saved.
 */
const MAX_BYTES = 256 << 10;
/** Below this many proofs still folding at a level, the rest are folded one at a time. */
const MIN_FOLDING = 4;

/** Where a node message's 65 bytes start in its 96-byte slot: sibling and node then fall on 32-bit words. */
const MESSAGE_SLOT = 96;
const MESSAGE_AT = 31;

/** Elements waiting for their roots: their leaf messages, siblings (32 bytes a step) and sides. */
export class DisclosedFolds {
  readonly #messages = createByteSink(64 << 10);
  readonly #starts: number[] = [];
  /** Every element's siblings back to back (each at a multiple of 32 bytes). */
  readonly #siblings = createByteSink(64 << 10);
  readonly #siblingStarts: number[] = [];
  readonly #sides: string[] = [];

  /**
   * @param sha256 hashes one message (the fallback, and short levels)
   * @param sha256Many gives the hasher of many messages, once there is one
   */
  constructor(
    private readonly sha256: Sha256,
    private readonly sha256Many: (() => Sha256Many | undefined) | undefined,
  ) {}

  /** Elements added since the last `take`. */
  get size(): number {
    return this.#sides.length;
  }

  /** Whether the batch should be taken before more is added. */
  get full(): boolean {
    return this.size >= MAX_ELEMENTS || this.#messages.length + this.#siblings.length >= MAX_BYTES;
  }

  /**
   * Adds an element: its leaf message and its proof's siblings (both copied), and its sides.
   * @returns its place in the roots `take` gives
   */
  add(leafMessage: Uint8Array, siblings: Uint8Array, sides: string): number {
    const siblingBytes = 32 * sides.length;
    if (siblings.length < siblingBytes) throw new TypeError('DisclosedFolds.add: fewer siblings than sides');
    ensureCapacity(this.#messages, leafMessage.length).set(leafMessage, this.#messages.length);
    this.#starts.push(this.#messages.length);
    this.#messages.length += leafMessage.length;
    ensureCapacity(this.#siblings, siblingBytes).set(siblings.subarray(0, siblingBytes), this.#siblings.length);
    this.#siblingStarts.push(this.#siblings.length);
    this.#siblings.length += siblingBytes;
    this.#sides.push(sides);
    return this.size - 1;
  }

  /**
   * The roots of the elements added since the last call, in the order added (32 bytes each, views
   * of one fresh buffer), and an empty batch.
   */
  take(): Uint8Array[] {
    const count = this.size;
    const many = count >= MIN_FOLDING ? this.sha256Many?.() : undefined;
    const nodes = new Uint8Array(32 * count);
    if (many === undefined) this.#foldEach(nodes);
    else this.#foldByLevel(many, nodes);
    this.#starts.length = 0;
    this.#siblingStarts.length = 0;
    this.#sides.length = 0;
    this.#messages.length = 0;
    this.#siblings.length = 0;
    return Array.from({ length: count }, (_, k) => nodes.subarray(32 * k, 32 * k + 32));
  }

  #leafMessage(k: number): Uint8Array {
    const end = k + 1 < this.size ? this.#starts[k + 1]! : this.#messages.length;
    return this.#messages.bytes.subarray(this.#starts[k]!, end);
  }

  #siblingsOf(k: number, fromStep = 0): Uint8Array {
    const start = this.#siblingStarts[k]!;
    return this.#siblings.bytes.subarray(start + 32 * fromStep, start + 32 * this.#sides[k]!.length);
  }

  #foldEach(nodes: Uint8Array): void {
    for (let k = 0; k < this.size; k++) {
      const leaf = this.sha256.digest(this.#leafMessage(k));
      nodes.set(rootFromPackedProof(leaf, this.#siblingsOf(k), this.#sides[k]!, this.sha256), 32 * k);
    }
  }

  #foldByLevel(many: Sha256Many, nodes: Uint8Array): void {
    const count = this.size;
    const starts = Uint32Array.from(this.#starts);
    const ends = new Uint32Array(count);
    ends.set(starts.subarray(1));
    ends[count - 1] = this.#messages.length;
    many.digestMany(this.#messages.bytes, starts, ends, nodes);
    // Longest proofs first: the proofs still folding at level k are then the first ones.
    const order = Array.from({ length: count }, (_, k) => k).sort(
      (a, b) => this.#sides[b]!.length - this.#sides[a]!.length,
    );
    // Digests, siblings and the messages' halves are copied as 32-bit words (8 a digest): every
    // one starts at a multiple of 4 bytes (copying a word keeps its bytes, whatever the host's order).
    const nodeWords = new Int32Array(nodes.buffer, nodes.byteOffset, 8 * count);
    const siblingWords = new Int32Array(this.#siblings.bytes.buffer, 0, this.#siblings.length >> 2);
    const messages = new Uint8Array(MESSAGE_SLOT * count);
    const messageWords = new Int32Array(messages.buffer);
    const out = new Uint8Array(32 * count);
    const outWords = new Int32Array(out.buffer);
    const messageStarts = Uint32Array.from({ length: count }, (_, j) => MESSAGE_SLOT * j + MESSAGE_AT);
    const messageEnds = Uint32Array.from({ length: count }, (_, j) => MESSAGE_SLOT * j + MESSAGE_AT + 65);
    for (let j = 0; j < count; j++) messages[MESSAGE_SLOT * j + MESSAGE_AT] = NODE_PREFIX;
    // The steps of a level that are the same (same node, sibling and side: the proofs of elements
    // near each other in the tree meet higher up) are hashed once: `steps` finds them.
    const steps = new LevelSteps(count, nodeWords, siblingWords);
    const representative = new Int32Array(count);
    let folding = count;
    for (let level = 0; folding > 0; level++) {
      while (folding > 0 && this.#sides[order[folding - 1]!]!.length <= level) folding--;
      if (folding < MIN_FOLDING) {
        for (let j = 0; j < folding; j++) this.#finishOne(order[j]!, level, nodes);
        return;
      }
      steps.clear(folding);
      for (let j = 0; j < folding; j++) {
        const k = order[j]!;
        const siblingAt = (this.#siblingStarts[k]! >> 2) + 8 * level;
        const left = this.#sides[k]!.charCodeAt(level) === SIDE_LEFT;
        const known = steps.size;
        const found = steps.find(8 * k, siblingAt, left);
        representative[j] = found;
        if (found < known) continue; // the same step as an earlier one: its digest will do
        // 0x01 ‖ sibling ‖ node when the sibling is on the left ('L'), else 0x01 ‖ node ‖ sibling.
        const first = (MESSAGE_SLOT * found + MESSAGE_AT + 1) >> 2;
        const siblingTo = left ? first : first + 8;
        const nodeTo = left ? first + 8 : first;
        for (let i = 0; i < 8; i++) {
          messageWords[siblingTo + i] = siblingWords[siblingAt + i]!;
          messageWords[nodeTo + i] = nodeWords[8 * k + i]!;
        }
      }
      const unique = steps.size;
      many.digestMany(messages, messageStarts.subarray(0, unique), messageEnds.subarray(0, unique), out);
      for (let j = 0; j < folding; j++) {
        const nodeAt = 8 * order[j]!;
        const digestAt = 8 * representative[j]!;
        for (let i = 0; i < 8; i++) nodeWords[nodeAt + i] = outWords[digestAt + i]!;
      }
    }
  }

  /** Folds element `k`'s proof from step `level` on, one step at a time. */
  #finishOne(k: number, level: number, nodes: Uint8Array): void {
    const node = nodes.slice(32 * k, 32 * k + 32);
    const root = rootFromPackedProof(node, this.#siblingsOf(k, level), this.#sides[k]!.slice(level), this.sha256);
    nodes.set(root, 32 * k);
  }
}

/**
 * The distinct steps of one level: each step is a node (at `nodeAt` in `nodeWords`), a sibling
 * (at `siblingAt` in `siblingWords`) and a side. An open-addressing table over the steps found so
 * far; equal steps are compared word by word, so a step is only ever merged with its equal.
 */
class LevelSteps {
  readonly #slots: Int32Array;
  #mask = 0;
  /** Per distinct step: its node's and sibling's word offsets, and its side (1: left). */
  readonly #nodes: Int32Array;
  readonly #siblings: Int32Array;
  readonly #lefts: Uint8Array;
  #size = 0;

  constructor(
    capacity: number,
    private readonly nodeWords: Int32Array,
    private readonly siblingWords: Int32Array,
  ) {
    this.#slots = new Int32Array(tableSize(capacity));
    this.#nodes = new Int32Array(capacity);
    this.#siblings = new Int32Array(capacity);
    this.#lefts = new Uint8Array(capacity);
  }

  /** Distinct steps found since the last `clear`. */
  get size(): number {
    return this.#size;
  }

  /** Forgets the steps found; room for `steps` more. */
  clear(steps: number): void {
    const size = tableSize(steps);
    this.#slots.fill(0, 0, size);
    this.#mask = size - 1;
    this.#size = 0;
  }

  /** The number of the distinct step equal to this one (a new one, `size - 1`, if none is). */
  find(nodeAt: number, siblingAt: number, left: boolean): number {
    const { nodeWords, siblingWords } = this;
    const side = left ? 1 : 0;
    let slot = (Math.imul(nodeWords[nodeAt]! ^ siblingWords[siblingAt]!, 0x9e3779b1) >>> 8) & this.#mask;
    let free = -1;
    // A few probes at most: a file can make many steps fall in one slot (siblings are its own), and
    // must not make this quadratic. Past them the step counts as new, unrecorded: hashed again.
    for (let probe = 0; probe < MAX_PROBES; probe++) {
      const entry = this.#slots[slot]!;
      if (entry === 0) {
        free = slot;
        break;
      }
      const step = entry - 1;
      if (this.#lefts[step] === side && this.#equal(step, nodeAt, siblingAt)) return step;
      slot = (slot + 1) & this.#mask;
    }
    const step = this.#size++;
    if (free >= 0) this.#slots[free] = step + 1;
    this.#nodes[step] = nodeAt;
    this.#siblings[step] = siblingAt;
    this.#lefts[step] = side;
    return step;
  }

  #equal(step: number, nodeAt: number, siblingAt: number): boolean {
    const { nodeWords, siblingWords } = this;
    const otherNode = this.#nodes[step]!;
    const otherSibling = this.#siblings[step]!;
    for (let i = 0; i < 8; i++) {
      if (nodeWords[otherNode + i] !== nodeWords[nodeAt + i]) return false;
      if (siblingWords[otherSibling + i] !== siblingWords[siblingAt + i]) return false;
    }
    return true;
  }
}

/** Slots a step is looked for in, at most. */
const MAX_PROBES = 8;

/** A power of two at least twice `steps` (the table stays at most half full). */
function tableSize(steps: number): number {
  let size = 16;
  while (size < 2 * steps) size *= 2;
  return size;
}
