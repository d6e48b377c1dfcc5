/**
 * The two hashes of every signed-bundle entry (zaxy spec §6, §8 step 4): its Merkle leaf
 * SHA-256(0x00 ‖ canonical) and its id SHA-256(canonical). With a batch hasher (`Sha256.batch`:
 * the CLI's worker thread) they are computed a batch at a time while the parser goes on; without
 * one, each entry is hashed when it is committed.
 *
 * The scanner writes an entry's canonical bytes straight into the current batch (`begin`), then
 * commits or abandons them. Results reach `onHashed` in entry order, once per committed entry.
 * Memory: the bytes of the batch being filled, plus a few bytes per entry of the batches the
 * hasher has not answered yet.
 * @module
 */
import type { Sha256 } from '../../crypto/sha256.ts';
import { createByteSink, type ByteSink, ensureCapacity } from '../../json/canonical-tape.ts';

/** Canonical bytes per batch: few enough round trips to a worker, little enough held meanwhile. */
const BATCH_BYTES = 512 * 1024;

/**
 * Receives one hashed entry: its leaf at `digests[at..at+32)`, its id at `digests[at+32..at+64)`,
 * and its claimed id (64 bytes of its JSON string) at `claims[claimAt..]`, or `claimAt` -1 when it
 * was not handed over. Plain arguments, no objects: this runs once per entry of a large bundle.
 */
export type OnHashed = (index: number, wantLeaf: boolean, digests: Uint8Array, at: number, claims: Uint8Array, claimAt: number) => void;

/**
 * The entries of one batch, kept until its digests come back. The flags are 0/1 numbers, not
 * booleans: arrays of small integers stay in V8's fastest element kind, and a boolean pushed
 * into a fresh one made the optimised code of this hot path start over.
 */
interface Batch {
  readonly starts: number[];
  readonly indices: number[];
  readonly wantLeaf: (0 | 1)[];
  /** 64 bytes per entry: its claimed id (when `hasClaim`). */
  claims: Uint8Array;
  readonly hasClaim: (0 | 1)[];
}

export class EntryHashBatches {
  /** Canonical bytes of the batch being filled (reused: `digestMany` is done with them when it returns). */
  private readonly sink: ByteSink = createByteSink(BATCH_BYTES + (1 << 16));
  private batch: Batch = EntryHashBatches.emptyBatch();
  private begun = -1;
  private delivered: Promise<void> = Promise.resolve();
  /** The two digests of an entry hashed at once (no batch hasher). */
  private readonly now = new Uint8Array(64);

  constructor(
    private readonly sha256: Sha256,
    private readonly onHashed: OnHashed,
  ) {}

  private static emptyBatch(): Batch {
    return { starts: [], indices: [], wantLeaf: [], claims: new Uint8Array(128 * 1024), hasClaim: [] };
  }

  /** The sink to append the next entry's canonical bytes to (its 0x00 leaf prefix is written). */
  begin(): ByteSink {
    const sink = this.sink;
    ensureCapacity(sink, 1);
    this.begun = sink.length;
    sink.bytes[sink.length++] = 0x00;
    return sink;
  }

  /** The canonical bytes written since `begin` (without the prefix). */
  canonical(): Uint8Array {
    return this.sink.bytes.subarray(this.begun + 1, this.sink.length);
  }

  /** Forgets what was written since `begin` (the entry has no canonical form). */
  abandon(): void {
    this.sink.length = this.begun;
    this.begun = -1;
  }

  /**
   * Commits the entry begun last. `claimedId` and `claimAt`, when given, locate 64 bytes: the
   * entry's id string as it stands in the document, to compare with the hex of the computed id.
   */
  commit(index: number, wantLeaf: boolean, claimedId?: Uint8Array, claimAt = 0): void {
    if (this.sha256.batch === undefined) return this.hashNow(index, wantLeaf, claimedId, claimAt);
    const batch = this.batch;
    const k = batch.starts.length;
    batch.starts.push(this.begun);
    batch.indices.push(index);
    batch.wantLeaf.push(wantLeaf ? 1 : 0);
    batch.hasClaim.push(claimedId === undefined ? 0 : 1);
    if (claimedId !== undefined) {
      if (batch.claims.length < 64 * (k + 1)) {
        const grown = new Uint8Array(batch.claims.length * 2);
        grown.set(batch.claims);
        batch.claims = grown;
      }
      batch.claims.set(claimedId.subarray(claimAt, claimAt + 64), 64 * k);
    }
    this.begun = -1;
    if (this.sink.length >= BATCH_BYTES) this.flush();
  }

  /** Without a batch hasher there is nothing to overlap with, and no batch worth holding. */
  private hashNow(index: number, wantLeaf: boolean, claimedId: Uint8Array | undefined, claimAt: number): void {
    const sink = this.sink;
    if (wantLeaf) this.now.set(this.sha256.digest(sink.bytes.subarray(this.begun, sink.length)), 0);
    this.now.set(this.sha256.digest(sink.bytes.subarray(this.begun + 1, sink.length)), 32);
    sink.length = 0;
    this.begun = -1;
    this.onHashed(index, wantLeaf, this.now, 0, claimedId ?? this.now, claimedId === undefined ? -1 : claimAt);
  }

  /** Hands every committed entry to the hasher and resolves once all have reached `onHashed`. */
  settled(): Promise<void> {
    this.flush();
    return this.delivered;
  }

  private flush(): void {
    const batch = this.batch;
    const count = batch.starts.length;
    if (count === 0) return;
    this.batch = EntryHashBatches.emptyBatch();
    // Two messages per entry over the same bytes: the leaf with the prefix, the id without.
    const starts = new Uint32Array(2 * count);
    const ends = new Uint32Array(2 * count);
    for (let k = 0; k < count; k++) {
      const end = k + 1 < count ? batch.starts[k + 1]! : this.sink.length;
      starts[2 * k] = batch.starts[k]!;
      starts[2 * k + 1] = batch.starts[k]! + 1;
      ends[2 * k] = end;
      ends[2 * k + 1] = end;
    }
    const digests = this.sha256.batch!.digestMany(this.sink.bytes.subarray(0, this.sink.length), starts, ends);
    this.sink.length = 0;
    // Deliver in entry order, whatever order the hasher answers in.
    const delivered = Promise.all([this.delivered, digests]).then(([, hashed]) => {
      for (let k = 0; k < count; k++) {
        this.onHashed(batch.indices[k]!, batch.wantLeaf[k] === 1, hashed, 64 * k, batch.claims, batch.hasClaim[k] === 1 ? 64 * k : -1);
      }
    });
    // A failed batch is reported by `settled`; until then it must not count as unhandled.
    delivered.catch(() => undefined);
    this.delivered = delivered;
  }
}
