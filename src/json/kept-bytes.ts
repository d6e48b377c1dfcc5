/**
 * The bytes of a document kept as they were pushed, for a second reading, without copying them
 * into one buffer as they arrive (`createDocumentReader` in `reader.ts`).
 *
 * Why: a document's bytes arrive in chunks that are already in memory (a gzip decoder's output,
 * a file's reads). Copying every chunk into one growing buffer wrote the whole document again into
 * memory never touched before, and that is slow: in Chromium ~0.6 ms a MiB (the page faults of
 * fresh memory), ~2 ms of a 1k-entry Zaxy subset's ~28. Most documents are never read a second
 * time, so the copy is made only when one is (`bytes`), once.
 *
 * A chunk is kept as it is when it is large and owns most of its memory, or when it is a view of
 * 1 MiB or more (how the kit streams an input already in memory: the caller holds that buffer
 * anyway); smaller ones, and smaller views of a much larger buffer, are copied into blocks of this
 * module's own. So a stream of small views cannot make it hold far more than the document (one-byte
 * views of 64 KiB buffers would otherwise hold 64 KiB per byte).
 * @module
 */

/** Chunks at least this large that own most of their buffer are kept as they are. */
const SHARED_MIN_BYTES = 16 * 1024;
/** Views at least this large are kept as they are, whatever their buffer. */
const LARGE_VIEW_BYTES = 1024 * 1024;
/** Smaller chunks are copied into blocks of this size. */
const BLOCK_BYTES = 64 * 1024;

export class KeptBytes {
  /** The kept pieces, in order. */
  #pieces: Uint8Array[] = [];
  /** The block small chunks are being copied into (not yet among the pieces). */
  #block: Uint8Array | undefined;
  #blockLength = 0;
  #length = 0;

  /** Bytes kept. */
  get length(): number {
    return this.#length;
  }

  /** Keeps `chunk` (it must not change afterwards: chunks handed over by a stream do not). */
  push(chunk: Uint8Array): void {
    const n = chunk.byteLength;
    if (n === 0) return;
    this.#length += n;
    if (n >= LARGE_VIEW_BYTES || (n >= SHARED_MIN_BYTES && 2 * n >= chunk.buffer.byteLength)) {
      this.#sealBlock();
      this.#pieces.push(chunk);
      return;
    }
    for (let at = 0; at < n;) {
      if (this.#block === undefined) {
        this.#block = new Uint8Array(BLOCK_BYTES);
        this.#blockLength = 0;
      }
      const take = Math.min(n - at, this.#block.length - this.#blockLength);
      this.#block.set(chunk.subarray(at, at + take), this.#blockLength);
      this.#blockLength += take;
      at += take;
      if (this.#blockLength === this.#block.length) this.#sealBlock();
    }
  }

  /**
   * Every byte kept, in one buffer (made on the first call after a push, then kept in place of
   * the pieces).
   */
  bytes(): Uint8Array {
    this.#sealBlock();
    if (this.#pieces.length === 1) return this.#pieces[0]!;
    const whole = new Uint8Array(this.#length);
    let at = 0;
    for (const piece of this.#pieces) {
      whole.set(piece, at);
      at += piece.byteLength;
    }
    this.#pieces = [whole];
    return whole;
  }

  /** The kept pieces holding bytes [0, end), in order (the last one cut at `end`). */
  *piecesUpTo(end: number): Generator<Uint8Array> {
    this.#sealBlock();
    let at = 0;
    for (const piece of this.#pieces) {
      if (at >= end) return;
      yield piece.subarray(0, Math.min(piece.byteLength, end - at));
      at += piece.byteLength;
    }
  }

  #sealBlock(): void {
    if (this.#block === undefined || this.#blockLength === 0) return;
    this.#pieces.push(this.#block.subarray(0, this.#blockLength));
    this.#block = this.#block.subarray(this.#blockLength);
    this.#blockLength = 0;
    if (this.#block.byteLength === 0) this.#block = undefined;
  }
}
