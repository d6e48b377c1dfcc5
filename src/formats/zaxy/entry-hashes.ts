/**
 * The two hashes of every signed-bundle entry (docs/zaxy.md, 'Merkle tree'; 'verify_export order',
 * step 4), its Merkle leaf SHA-256(0x00 ‖ canonical) and its id SHA-256(canonical), and the Merkle
 * root of the leaves.
 *
 * The scanner writes an entry's canonical bytes (`begin`), then commits or abandons them; they are
 * hashed a batch at a time (`hashEntries`). With an `EntryHasher` (the CLI's worker thread; in the
 * browser, the element's helper worker, components/entry-hash-client.ts) the batches go there and
 * are hashed, leaves folded into the root there too, while the parser goes on; only id mismatches
 * come back. Without one, each batch is hashed here when it is full; so is
 * a bundle of less than one batch (sooner than a thread could start), and every batch a hasher
 * hands back (its thread could not start). Either way the root is folded leaf by leaf
 * (`MerkleFold`): no list of leaves.
 *
 * Memory: the canonical bytes of the batch being filled, plus a few bytes per entry of the
 * batches the hasher has not answered yet.
 * @module
 */
import { LEAF_PREFIX, MerkleFold } from '../../crypto/merkle.ts';
import type { Sha256, Sha256Many } from '../../crypto/sha256.ts';
import { createByteSink, type ByteSink, ensureCapacity } from '../../json/canonical-tape.ts';

/** Canonical bytes per batch: few enough round trips to a worker, little enough held meanwhile. */
const BATCH_BYTES = 512 * 1024;

/**
 * Hashes one `entries` array's entries elsewhere (the CLI: a worker thread), in the order added.
 * A replacement must hash exactly as described, or verdicts change.
 */
export interface EntryHasher {
  /**
   * The next entries: entry k's message is `data[starts[k]..ends[k])`, the 0x00 leaf prefix then
   * its canonical bytes. SHA-256 of the message is its leaf, folded into the Merkle root
   * (docs/zaxy.md, 'Merkle tree') of every leaf added so far; SHA-256 of the canonical bytes is its
   * id, compared with the 64 bytes at `claims[64k..]` when `claimed[k]` is 1 (equal when they are
   * its lowercase hex). Resolves to the entries whose id differs: `mismatched[j]` is a k,
   * `ids[32j..32j+32)` its id; or to the batch itself, copied (`DeclinedBatch`), when the hasher
   * cannot hash it (the browser's helper worker could not start), which the caller then hashes in
   * place. A hasher declines every batch of an `entries` array or none of them. The arguments are
   * read or copied before the call returns: the caller may reuse them.
   */
  add(
    data: Uint8Array,
    starts: Uint32Array,
    ends: Uint32Array,
    claims: Uint8Array,
    claimed: Uint8Array,
  ): Promise<Mismatches | DeclinedBatch>;
  /** Once every `add` is answered: the root of all the leaves added (undefined when none were). */
  root(): Promise<Uint8Array | undefined>;
}

/** A fresh `EntryHasher` for each `entries` array (a duplicate key starts another). */
export type EntryHasherFactory = () => EntryHasher;

/** Entries of a batch whose id differs: `mismatched[j]` is a k, `ids[32j..32j+32)` its id. */
export interface Mismatches {
  readonly mismatched: Uint32Array;
  readonly ids: Uint8Array;
}

/** A batch an `EntryHasher` hands back unhashed: the arguments of its `add`, copied. */
export interface DeclinedBatch {
  readonly declined: true;
  readonly data: Uint8Array;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly claims: Uint8Array;
  readonly claimed: Uint8Array;
}

/**
 * What `EntryHasher.add` does, wherever it is done (here, or on the CLI's worker thread): each
 * entry's leaf folded into `fold`, its id compared with its claim when it has one. With `many`,
 * every leaf and id of the batch is hashed in one call (`Sha256Many`), the leaves then folded a
 * level at a time (`MerkleFold.addMany`, one call a level), and the ids compared.
 * @example
 * const { mismatched } = hashEntries(data, starts, ends, claims, claimed, new MerkleFold(sha256), sha256);
 */
export function hashEntries(
  data: Uint8Array,
  starts: Uint32Array,
  ends: Uint32Array,
  claims: Uint8Array,
  claimed: Uint8Array,
  fold: MerkleFold,
  sha256: Sha256,
  many?: Sha256Many,
): Mismatches {
  const count = starts.length;
  const digests = many === undefined ? undefined : digestAll(many, data, starts, ends, claimed);
  // The leaves are the first `count` digests; the fold hashes their parents level by level.
  if (digests !== undefined) fold.addMany(digests, count, many!);
  let nextId = count;
  const mismatched: number[] = [];
  const ids: Uint8Array[] = [];
  for (let k = 0; k < count; k++) {
    if (digests === undefined) fold.add(sha256.digest(data.subarray(starts[k]!, ends[k]!)));
    if (claimed[k] !== 1) continue;
    const id = digests?.subarray(32 * nextId, 32 * ++nextId) ?? sha256.digest(data.subarray(starts[k]! + 1, ends[k]!));
    if (hexEquals(claims, 64 * k, id)) continue;
    mismatched.push(k);
    ids.push(id);
  }
  const packed = new Uint8Array(32 * ids.length);
  ids.forEach((id, j) => packed.set(id, 32 * j));
  return { mismatched: Uint32Array.from(mismatched), ids: packed };
}

/**
 * The leaves of a batch's entries (their messages as given), then the ids of the claimed ones
 * (the same messages without the 0x00 prefix), in entry order, 32 bytes each, in one call.
 */
function digestAll(
  many: Sha256Many,
  data: Uint8Array,
  starts: Uint32Array,
  ends: Uint32Array,
  claimed: Uint8Array,
): Uint8Array {
  const count = starts.length;
  let claims = 0;
  for (let k = 0; k < count; k++) if (claimed[k] === 1) claims++;
  const messageStarts = new Uint32Array(count + claims);
  const messageEnds = new Uint32Array(count + claims);
  messageStarts.set(starts);
  messageEnds.set(ends);
  for (let k = 0, j = count; k < count; k++) {
    if (claimed[k] !== 1) continue;
    messageStarts[j] = starts[k]! + 1;
    messageEnds[j++] = ends[k]!;
  }
  const digests = new Uint8Array(32 * (count + claims));
  many.digestMany(data, messageStarts, messageEnds, digests);
  return digests;
}

/**
 * Receives an entry whose id is not the hash of its content: the id computed, and the claimed
 * id (64 characters, as it stands in the document).
 */
export type OnMismatch = (index: number, id: Uint8Array, claimed: string) => void;

/** The entries of one batch, kept until their results come back. */
interface Batch {
  readonly starts: number[];
  readonly indices: number[];
  /** 64 bytes per entry: its claimed id (when `claimed[k]` is 1). */
  claims: Uint8Array;
  claimed: Uint8Array;
}

const ASCII = /* @__PURE__ */ new TextDecoder();
const HEX_DIGITS = /* @__PURE__ */ new TextEncoder().encode('0123456789abcdef');

export class EntryHashBatches {
  /** Canonical bytes of the batch being filled. */
  private readonly sink: ByteSink = createByteSink(BATCH_BYTES + (1 << 16));
  private batch: Batch = EntryHashBatches.emptyBatch();
  private begun = -1;
  private delivered: Promise<void> = Promise.resolve();
  /** Leaves of the batches hashed here. */
  private readonly fold: MerkleFold;
  private readonly hasher: EntryHasher | undefined;
  /** Batches handed to the hasher (none: no root to ask for, and no thread to start). */
  private sent = 0;
  /** Batches hashed here, without a hasher. */
  private hashedHere = 0;
  /** The hasher handed the batches back: they were hashed here, and so is the root. */
  private declined = false;

  /**
   * @param sha256Many gives a hasher of many messages for the batches hashed here, once it has one
   *   (asked at each full batch, so a bundle of less than one batch never asks).
   */
  constructor(
    private readonly sha256: Sha256,
    hasher: EntryHasherFactory | undefined,
    private readonly onMismatch: OnMismatch,
    private readonly sha256Many?: () => Sha256Many | undefined,
  ) {
    this.fold = new MerkleFold(sha256);
    this.hasher = hasher?.();
  }

  private static emptyBatch(): Batch {
    return { starts: [], indices: [], claims: new Uint8Array(64 * 1024), claimed: new Uint8Array(1024) };
  }

  /** The sink to append the next entry's canonical bytes to (its 0x00 leaf prefix is written). */
  begin(): ByteSink {
    const sink = this.sink;
    ensureCapacity(sink, 1);
    this.begun = sink.length;
    sink.bytes[sink.length++] = LEAF_PREFIX;
    return sink;
  }

  /** The canonical bytes written since `begin` (without the prefix). */
  canonical(): Uint8Array {
    return this.sink.bytes.subarray(this.begun + 1, this.sink.length);
  }

  /** Forgets what was written since `begin` (the entry has no canonical form, so no leaf). */
  abandon(): void {
    this.sink.length = this.begun;
    this.begun = -1;
  }

  /**
   * Commits the entry begun last: its leaf joins the root. `claimedId` and `claimAt`, when given,
   * locate 64 bytes, the entry's id string as it stands in the document, to compare with the hex
   * of the computed id (`onMismatch` when they differ).
   */
  commit(index: number, claimedId?: Uint8Array, claimAt = 0): void {
    const batch = this.batch;
    const k = batch.starts.length;
    batch.starts.push(this.begun);
    batch.indices.push(index);
    if (batch.claimed.length <= k) batch.claimed = grown(batch.claimed, k + 1);
    if (claimedId !== undefined) {
      if (batch.claims.length < 64 * (k + 1)) batch.claims = grown(batch.claims, 64 * (k + 1));
      batch.claims.set(claimedId.subarray(claimAt, claimAt + 64), 64 * k);
      batch.claimed[k] = 1;
    }
    this.begun = -1;
    if (this.sink.length >= BATCH_BYTES) this.flush(false);
  }

  /** Hands every committed entry over; resolves once all are hashed, to the root of their leaves. */
  async settled(): Promise<Uint8Array | undefined> {
    this.flush(true);
    await this.delivered;
    return this.sent === 0 || this.declined ? this.fold.root() : this.hasher!.root();
  }

  /** Hashes the batch, here or by the hasher; `last`: no entry will follow. */
  private flush(last: boolean): void {
    const batch = this.batch;
    const count = batch.starts.length;
    if (count === 0) return;
    this.batch = EntryHashBatches.emptyBatch();
    const data = this.sink.bytes.subarray(0, this.sink.length);
    const starts = Uint32Array.from(batch.starts);
    const ends = new Uint32Array(count);
    for (let k = 0; k < count; k++) ends[k] = k + 1 < count ? batch.starts[k + 1]! : data.length;
    const claimed = batch.claimed.subarray(0, count);
    // Without a hasher, and for a bundle of less than one batch (sooner than a thread could start).
    if (this.hasher === undefined || (last && this.sent === 0)) {
      // Not for a bundle of less than one batch: it would load the hasher for nothing.
      const many = last && this.hashedHere === 0 ? undefined : this.sha256Many?.();
      this.hashedHere++;
      this.report(batch, hashEntries(data, starts, ends, batch.claims, claimed, this.fold, this.sha256, many));
      this.sink.length = 0;
      return;
    }
    this.sent++;
    const answer = this.hasher.add(data, starts, ends, batch.claims, claimed);
    this.sink.length = 0;
    // Report in entry order, whatever order the hasher answers in; hash here what it hands back.
    const delivered = Promise.all([this.delivered, answer]).then(([, answered]) => {
      if (!('declined' in answered)) return this.report(batch, answered);
      this.declined = true;
      const { data, starts, ends, claims, claimed } = answered;
      this.report(batch, hashEntries(data, starts, ends, claims, claimed, this.fold, this.sha256, this.sha256Many?.()));
    });
    // A failed batch is reported by `settled`; until then it must not count as unhandled.
    delivered.catch(() => undefined);
    this.delivered = delivered;
  }

  private report(batch: Batch, { mismatched, ids }: Mismatches): void {
    for (let j = 0; j < mismatched.length; j++) {
      const k = mismatched[j]!;
      this.onMismatch(
        batch.indices[k]!,
        ids.slice(32 * j, 32 * j + 32),
        ASCII.decode(batch.claims.subarray(64 * k, 64 * k + 64)),
      );
    }
  }
}

function grown(buffer: Uint8Array, needed: number): Uint8Array {
  let size = buffer.length * 2;
  while (size < needed) size *= 2;
  const bigger = new Uint8Array(size);
  bigger.set(buffer);
  return bigger;
}

/**
 * Whether the 64 bytes at `claimed[from..]` are the lowercase hex of `id[at..at+32)`, compared in
 * place (no string).
 * @example
 * hexEquals(new TextEncoder().encode('00'.repeat(32)), 0, new Uint8Array(32)); // true
 */
export function hexEquals(claimed: Uint8Array, from: number, id: Uint8Array, at = 0): boolean {
  for (let i = 0; i < 32; i++) {
    const byte = id[at + i]!;
    if (claimed[from + 2 * i] !== HEX_DIGITS[byte >> 4] || claimed[from + 2 * i + 1] !== HEX_DIGITS[byte & 15])
      return false;
  }
  return true;
}
