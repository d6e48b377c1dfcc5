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

/** Elements a batch holds at most. */
const MAX_ELEMENTS = 1024;
/** Leaf message and sibling bytes a batch holds at most (memory stays bounded, whatever the input). */
const MAX_BYTES = 2 << 20;
/** Below this many proofs still folding at a level, the rest are folded one at a time. */
const MIN_FOLDING = 4;

/** Elements waiting for their roots: their leaf messages, siblings (32 bytes a step) and sides. */
export class DisclosedFolds {
  #messages = new Uint8Array(64 << 10);
  #messagesLength = 0;
  readonly #starts: number[] = [];
  readonly #siblings: Uint8Array[] = [];
  readonly #sides: string[] = [];
  #bytes = 0;

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
    return this.size >= MAX_ELEMENTS || this.#bytes >= MAX_BYTES;
  }

  /**
   * Adds an element: its leaf message (copied) and its proof (kept: not changed after).
   * @returns its place in the roots `take` gives
   */
  add(leafMessage: Uint8Array, siblings: Uint8Array, sides: string): number {
    if (this.#messagesLength + leafMessage.length > this.#messages.length) {
      const grown = new Uint8Array(Math.max(2 * this.#messages.length, this.#messagesLength + leafMessage.length));
      grown.set(this.#messages.subarray(0, this.#messagesLength));
      this.#messages = grown;
    }
    this.#messages.set(leafMessage, this.#messagesLength);
    this.#starts.push(this.#messagesLength);
    this.#messagesLength += leafMessage.length;
    this.#siblings.push(siblings);
    this.#sides.push(sides);
    this.#bytes += leafMessage.length + siblings.length;
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
    this.#siblings.length = 0;
    this.#sides.length = 0;
    this.#messagesLength = 0;
    this.#bytes = 0;
    return Array.from({ length: count }, (_, k) => nodes.subarray(32 * k, 32 * k + 32));
  }

  #leafMessage(k: number): Uint8Array {
    const end = k + 1 < this.size ? this.#starts[k + 1]! : this.#messagesLength;
    return this.#messages.subarray(this.#starts[k]!, end);
  }

  #foldEach(nodes: Uint8Array): void {
    for (let k = 0; k < this.size; k++) {
      const leaf = this.sha256.digest(this.#leafMessage(k));
      nodes.set(rootFromPackedProof(leaf, this.#siblings[k]!, this.#sides[k]!, this.sha256), 32 * k);
    }
  }

  #foldByLevel(many: Sha256Many, nodes: Uint8Array): void {
    const count = this.size;
    const starts = Uint32Array.from(this.#starts);
    const ends = new Uint32Array(count);
    ends.set(starts.subarray(1));
    ends[count - 1] = this.#messagesLength;
    many.digestMany(this.#messages, starts, ends, nodes);
    // Longest proofs first: the proofs still folding at level k are then the first ones.
    const order = Array.from({ length: count }, (_, k) => k).sort(
      (a, b) => this.#sides[b]!.length - this.#sides[a]!.length,
    );
    const messages = new Uint8Array(65 * count);
    const out = new Uint8Array(32 * count);
    const messageStarts = Uint32Array.from({ length: count }, (_, j) => 65 * j);
    const messageEnds = Uint32Array.from({ length: count }, (_, j) => 65 * j + 65);
    let folding = count;
    for (let level = 0; folding > 0; level++) {
      while (folding > 0 && this.#sides[order[folding - 1]!]!.length <= level) folding--;
      if (folding < MIN_FOLDING) {
        for (let j = 0; j < folding; j++) this.#finishOne(order[j]!, level, nodes);
        return;
      }
      // 0x01 ‖ sibling ‖ node when the sibling is on the left ('L'), else 0x01 ‖ node ‖ sibling,
      // copied byte by byte (a view per copy cost more than the copy).
      for (let j = 0; j < folding; j++) {
        const k = order[j]!;
        const siblings = this.#siblings[k]!;
        const siblingAt = 32 * level;
        const nodeAt = 32 * k;
        const at = 65 * j;
        const siblingTo = this.#sides[k]!.charCodeAt(level) === SIDE_LEFT ? at + 1 : at + 33;
        const nodeTo = siblingTo === at + 1 ? at + 33 : at + 1;
        messages[at] = NODE_PREFIX;
        for (let i = 0; i < 32; i++) {
          messages[siblingTo + i] = siblings[siblingAt + i]!;
          messages[nodeTo + i] = nodes[nodeAt + i]!;
        }
      }
      many.digestMany(messages, messageStarts.subarray(0, folding), messageEnds.subarray(0, folding), out);
      for (let j = 0; j < folding; j++) nodes.set(out.subarray(32 * j, 32 * j + 32), 32 * order[j]!);
    }
  }

  /** Folds element `k`'s proof from step `level` on, one step at a time. */
  #finishOne(k: number, level: number, nodes: Uint8Array): void {
    const node = nodes.slice(32 * k, 32 * k + 32);
    const root = rootFromPackedProof(
      node,
      this.#siblings[k]!.subarray(32 * level),
      this.#sides[k]!.slice(level),
      this.sha256,
    );
    nodes.set(root, 32 * k);
  }
}
