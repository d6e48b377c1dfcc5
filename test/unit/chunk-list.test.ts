// A document's bytes kept as its stream handed them over (src/stream/chunk-list.ts): every byte
// back, in any chunking, by range, whole, and for a passing use; a chunk that owns its memory, or a
// view of 1 MiB or more, is kept as it is, and a small view of a larger buffer is copied.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ChunkList } from '../../src/stream/chunk-list.ts';

/** A chunk of `size` bytes; `borrowed`: a view in the middle of a buffer more than twice as large. */
const chunk = fc.record({
  size: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 64 * 1024 - 2, max: 150 * 1024 })),
  borrowed: fc.boolean(),
  seed: fc.nat(255),
});

test('gives back every byte pushed, by range, whole and for a passing use, for any chunking', () => {
  fc.assert(
    fc.property(fc.array(chunk, { maxLength: 10 }), fc.nat(), fc.nat(), (chunks, a, b) => {
      const list = new ChunkList();
      const parts: Uint8Array[] = [];
      const all = (): Uint8Array => Uint8Array.from(parts.flatMap((part) => Array.from(part)));
      for (const [k, { size, borrowed, seed }] of chunks.entries()) {
        const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed + k) & 0xff);
        const pushed = borrowed ? new Uint8Array(3 * size + 8).subarray(size, 2 * size) : new Uint8Array(size);
        pushed.set(bytes);
        list.push(pushed);
        parts.push(bytes);
        // A whole made halfway does not lose what comes after.
        if (k === 1) assert.deepEqual(list.bytes(), all());
      }
      const expected = all();
      assert.equal(list.length, expected.length);
      const start = expected.length === 0 ? 0 : a % (expected.length + 1);
      const end = start + (expected.length === 0 ? 0 : b % (expected.length - start + 1));
      assert.deepEqual(list.read(start, end), expected.subarray(start, end));
      assert.deepEqual(list.readTransient(start, end), expected.subarray(start, end));
      // The next passing read may reuse that memory; a plain read never does.
      const kept = list.read(start, end);
      list.readTransient(0, expected.length);
      assert.deepEqual(kept, expected.subarray(start, end));
      assert.deepEqual(list.bytes(), expected);
    }),
    { numRuns: 60 },
  );
});

test('a chunk that owns its memory, or a view of 1 MiB, is kept as it is; a smaller borrowed view is copied', () => {
  const owned = new Uint8Array(64 * 1024).fill(1);
  const alone = new ChunkList();
  alone.push(owned);
  assert.equal(alone.bytes().buffer, owned.buffer, 'no copy');
  const big = new Uint8Array(4 << 20).fill(2);
  const borrowed = new ChunkList();
  borrowed.push(big.subarray(0, 64 * 1024));
  assert.notEqual(borrowed.bytes().buffer, big.buffer, 'a view of a buffer 64 times its size is not kept');
  assert.deepEqual(borrowed.bytes(), big.subarray(0, 64 * 1024));
  // How the kit streams an input in memory: 1 MiB views of the caller's buffer, kept as they are.
  const input = new ChunkList();
  const view = big.subarray(1 << 20, 2 << 20);
  input.push(view);
  assert.ok(input.bytes().buffer === big.buffer && input.bytes().byteOffset === 1 << 20, 'no copy');
});
