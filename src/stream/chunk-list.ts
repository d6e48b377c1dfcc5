/**
 * A document's bytes kept as its stream handed them over, addressed by absolute offsets, for the
 * readers that read a document again after a first pass: the AgentXchain skimmer's deferred
 * strings (`src/formats/agentxchain/deferred-strings.ts`) and the JSON document reader's second
 * reading (`src/json/reader.ts`).
 *
 * Why not one buffer: copying every chunk into one document-sized buffer writes the whole document
 * again into memory never touched before, and that is slow (in Chromium ~0.6 ms a MiB, the page
 * faults of fresh memory). So chunks are kept as they are when they own their memory: 64 KiB or
 * more and at least 3/4 of a buffer of their own (a gzip decoder's output, a browser File's
 * reads, the CLI's 1 MiB file reads), or views of 1 MiB or more (how the kit streams an input
 * already in memory: the caller holds that buffer anyway).
 *
 * Why not every chunk: a stream's chunks may be small views of much larger buffers (workerd hands
 * out its request body that way), and keeping such chunks would keep those buffers whole (a 54 MB
 * export once held 200 MB in workerd). So the other chunks are copied into blocks of our own,
 * which start at 64 KiB, so small documents stay small, and double up to 1 MiB.
 *
 * A stream's chunks are the reader's once read (WHATWG Streams); a source that wrote into a chunk
 * after handing it over would change what is verified.
 * @module
 */

const MIN_BLOCK_BYTES = 64 * 1024;
const MAX_BLOCK_BYTES = 1024 * 1024;
/** Views at least this large are kept as they are, whatever their buffer. */
const LARGE_VIEW_BYTES = 1024 * 1024;
/** A `readTransient` buffer up to this size is kept for the next call. */
const KEEP_TRANSIENT_BYTES = 4 * 1024 * 1024;

export class ChunkList {
  #blocks: Uint8Array[] = [];
  /** Absolute offset of each block's first byte. */
  #starts: number[] = [];
  /** Bytes used in the last block. */
  #used = 0;
  #length = 0;
  /** Where `readTransient` copies bytes that span blocks. */
  #transient = new Uint8Array(0);

  get length(): number {
    return this.#length;
  }

  /** The bytes, a view per block. */
  get chunks(): Uint8Array[] {
    return this.#blocks.map((block, b) => (b === this.#blocks.length - 1 ? block.subarray(0, this.#used) : block));
  }

  push(chunk: Uint8Array): void {
    if (isOwnBuffer(chunk) || chunk.byteLength >= LARGE_VIEW_BYTES) return this.#adopt(chunk);
    let from = 0;
    while (from < chunk.byteLength) {
      let block = this.#blocks[this.#blocks.length - 1];
      if (block === undefined || this.#used === block.byteLength) {
        block = new Uint8Array(Math.min(MAX_BLOCK_BYTES, Math.max(MIN_BLOCK_BYTES, 2 * (block?.byteLength ?? 0))));
        this.#blocks.push(block);
        this.#starts.push(this.#length);
        this.#used = 0;
      }
      const take = Math.min(block.byteLength - this.#used, chunk.byteLength - from);
      block.set(chunk.subarray(from, from + take), this.#used);
      this.#used += take;
      this.#length += take;
      from += take;
    }
  }

  /** Keeps `chunk` as the next block, after the used part of the last one. */
  #adopt(chunk: Uint8Array): void {
    const last = this.#blocks.length - 1;
    if (last >= 0 && this.#used < this.#blocks[last]!.byteLength)
      this.#blocks[last] = this.#blocks[last]!.subarray(0, this.#used);
    this.#blocks.push(chunk);
    this.#starts.push(this.#length);
    this.#used = chunk.byteLength;
    this.#length += chunk.byteLength;
  }

  /** Bytes [start, end): a view when they lie in one block, else a copy of their own. */
  read(start: number, end: number): Uint8Array {
    return this.#read(start, end, (size) => new Uint8Array(size));
  }

  /**
   * Bytes [start, end) for a use that ends before the next `readTransient`: a view when they lie in
   * one block, else a copy in a buffer this list reuses (a copy of its own each time was most of
   * reading an AgentXchain export's file contents again, whose tokens nearly all span two blocks).
   */
  readTransient(start: number, end: number): Uint8Array {
    return this.#read(start, end, (size) => {
      if (size > KEEP_TRANSIENT_BYTES) return new Uint8Array(size);
      // Doubling, but never past KEEP_TRANSIENT_BYTES (`size` is within it here).
      if (this.#transient.byteLength < size)
        this.#transient = new Uint8Array(
          Math.min(KEEP_TRANSIENT_BYTES, Math.max(size, 2 * this.#transient.byteLength)),
        );
      return this.#transient.subarray(0, size);
    });
  }

  /** Every byte, in one buffer (made on the first call after a push, then kept in place of the blocks). */
  bytes(): Uint8Array {
    const chunks = this.chunks;
    if (chunks.length === 1) return chunks[0]!;
    const whole = this.read(0, this.#length);
    this.#blocks = [whole];
    this.#starts = [0];
    this.#used = whole.byteLength;
    return whole;
  }

  #read(start: number, end: number, copyInto: (size: number) => Uint8Array): Uint8Array {
    let b = this.#blockAt(start);
    const first = this.#blocks[b];
    if (first === undefined) return new Uint8Array(0);
    const offset = start - this.#starts[b]!;
    if (offset + (end - start) <= first.byteLength) return first.subarray(offset, offset + (end - start));
    const out = copyInto(end - start);
    let at = 0;
    for (let position = start; position < end; b++) {
      const block = this.#blocks[b]!;
      const from = position - this.#starts[b]!;
      const take = Math.min(block.byteLength - from, end - position);
      out.set(block.subarray(from, from + take), at);
      at += take;
      position += take;
    }
    return out;
  }

  /** Index of the block holding absolute offset `at` (binary search). */
  #blockAt(at: number): number {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.#starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** Whether `chunk` is kept rather than copied: 64 KiB or more, and at least 3/4 of a buffer of its own. */
function isOwnBuffer(chunk: Uint8Array): boolean {
  return (
    chunk.byteLength >= MIN_BLOCK_BYTES &&
    chunk.buffer instanceof ArrayBuffer &&
    chunk.byteLength * 4 >= chunk.buffer.byteLength * 3
  );
}
