// The bytes a document reader keeps for a second reading (src/json/kept-bytes.ts): kept as pushed,
// in any chunking, whole on request; a large chunk that owns its memory is kept as it is, and
// small or borrowed ones are copied.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { KeptBytes } from '../../src/json/kept-bytes.ts';

/** A chunk of `size` bytes; `borrowed`: a view in the middle of a buffer twice as large and more. */
const chunk = fc.record({
  size: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 16 * 1024 - 2, max: 70 * 1024 })),
  borrowed: fc.boolean(),
  seed: fc.nat(255),
});

test('gives back every byte pushed, in order, whole and up to any length, for any chunking', () => {
  fc.assert(
    fc.property(fc.array(chunk, { maxLength: 12 }), fc.nat(), (chunks, cut) => {
      const kept = new KeptBytes();
      const expected: number[] = [];
      for (const [k, { size, borrowed, seed }] of chunks.entries()) {
        const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed + k) & 0xff);
        const pushed = borrowed ? new Uint8Array(3 * size + 8).subarray(size, 2 * size) : new Uint8Array(size);
        pushed.set(bytes);
        kept.push(pushed);
        expected.push(...bytes);
        // A whole made halfway does not lose what comes after.
        if (k === 1) assert.deepEqual([...kept.bytes()], expected);
      }
      assert.equal(kept.length, expected.length);
      const end = expected.length === 0 ? 0 : cut % (expected.length + 1);
      const prefix = [...kept.piecesUpTo(end)].flatMap((piece) => [...piece]);
      assert.deepEqual(prefix, expected.slice(0, end));
      assert.deepEqual([...kept.bytes()], expected);
    }),
    { numRuns: 60 },
  );
});

test('a large chunk that owns its memory is kept as it is; a borrowed view is copied', () => {
  const owned = new Uint8Array(32 * 1024).fill(1);
  const alone = new KeptBytes();
  alone.push(owned);
  assert.equal(alone.bytes(), owned, 'no copy');
  const big = new Uint8Array(4 << 20).fill(2);
  const borrowed = new KeptBytes();
  borrowed.push(big.subarray(0, 32 * 1024));
  assert.notEqual(borrowed.bytes().buffer, big.buffer, 'a view of a buffer 128 times its size is not kept');
  assert.deepEqual(borrowed.bytes(), big.subarray(0, 32 * 1024));
  // How the kit streams an input in memory: 1 MiB views of the caller's buffer, kept as they are.
  const input = new KeptBytes();
  const view = big.subarray(1 << 20, 2 << 20);
  input.push(view);
  assert.equal(input.bytes(), view, 'no copy');
});
