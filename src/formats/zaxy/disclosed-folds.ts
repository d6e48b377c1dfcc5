/**
 * The roots that disclosed elements' plain proofs lead to (docs/zaxy.md, 'Merkle tree'), hashed a
 * batch of elements at a time. With a `Sha256Many` (the 4-lane hasher), a batch's leaves go in one
 * call, then its proofs level by level: step k of every proof at least k + 1 steps long in one
 * call, so the lanes always have messages. A subset's proof steps are most of its hashing
 * (~17 of them per element for 100k entries), each a 65-byte message, which one call at a time
 * into the scalar SHA-256 hashes slowly. Without one, each element's leaf and proof are hashed in
 * turn (`rootFromPackedProof`); the roots are the same either way.
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
    let folding = count;
    for (let level = 0; folding > 0; level++) {
      while (folding > 0 && this.#sides[order[folding - 1]!]!.length <= level) folding--;
      if (folding < MIN_FOLDING) {
        for (let j = 0; j < folding; j++) this.#finishOne(order[j]!, level, nodes);
        return;
      }
      // 0x01 ‖ sibling ‖ node when the sibling is on the left ('L'), else 0x01 ‖ node ‖ sibling.
      for (let j = 0; j < folding; j++) {
        const k = order[j]!;
        const siblingAt = (this.#siblingStarts[k]! >> 2) + 8 * level;
        const nodeAt = 8 * k;
        const first = (MESSAGE_SLOT * j + MESSAGE_AT + 1) >> 2;
        const left = this.#sides[k]!.charCodeAt(level) === SIDE_LEFT;
        const siblingTo = left ? first : first + 8;
        const nodeTo = left ? first + 8 : first;
        for (let i = 0; i < 8; i++) {
          messageWords[siblingTo + i] = siblingWords[siblingAt + i]!;
          messageWords[nodeTo + i] = nodeWords[nodeAt + i]!;
        }
      }
      many.digestMany(messages, messageStarts.subarray(0, folding), messageEnds.subarray(0, folding), out);
      for (let j = 0; j < folding; j++) {
        const nodeAt = 8 * order[j]!;
        for (let i = 0; i < 8; i++) nodeWords[nodeAt + i] = outWords[8 * j + i]!;
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
