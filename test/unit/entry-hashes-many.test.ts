// `hashEntries` with a `Sha256Many` (every leaf and id of a batch hashed in one call, then the
// fold's parents a level per call) must give what hashing one message at a time gives: the same
// Merkle root, the same mismatched entries and ids, for batches with and without claims, matching
// or not, and messages of every length; and a large bundle verified with the default SHA-256
// (which hashes its batches with the 4-lane hasher, wasm/sha256-lanes.ts) reports exactly as
// node:crypto one message at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MerkleFold } from '../../src/crypto/merkle.ts';
import type { Sha256Many } from '../../src/crypto/sha256.ts';
import { hashEntries } from '../../src/formats/zaxy/entry-hashes.ts';
import { digestInto, nodeSha256 } from '../../bin/node-sha256.ts';
import { defaultSha256Many } from '../../src/crypto/sha256-many.ts';
import { verifyZaxy } from '../../src/formats/zaxy/index.ts';
import { manyBatchBundle } from '../helpers/signed-zaxy.ts';

/** A `Sha256Many` over node:crypto that counts the messages of each call. */
function countingMany(): Sha256Many & { calls: number[] } {
  const many = {
    calls: [] as number[],
    digestMany(data: Uint8Array, starts: Uint32Array, ends: Uint32Array, out: Uint8Array): void {
      many.calls.push(starts.length);
      for (let k = 0; k < starts.length; k++) digestInto(data.subarray(starts[k]!, ends[k]!), out, 32 * k);
    },
  };
  return many;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

test('hashEntries: one call for the batch gives the root, mismatches and ids of one call per message', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          canonical: fc.uint8Array({ maxLength: 300 }),
          claim: fc.constantFrom('none', 'right', 'wrong'),
        }),
        { maxLength: 60 },
      ),
      (entries) => {
        // The batch as EntryHashBatches lays it out: each message is 0x00 then the canonical bytes.
        const starts = new Uint32Array(entries.length);
        const ends = new Uint32Array(entries.length);
        const parts: number[] = [];
        const claims = new Uint8Array(64 * entries.length);
        const claimed = new Uint8Array(entries.length);
        entries.forEach(({ canonical, claim }, k) => {
          starts[k] = parts.length;
          parts.push(0, ...canonical);
          ends[k] = parts.length;
          if (claim === 'none') return;
          claimed[k] = 1;
          const id = nodeSha256.digest(canonical);
          if (claim === 'wrong') id[5]! ^= 1;
          claims.set(new TextEncoder().encode(hex(id)), 64 * k);
        });
        const data = Uint8Array.from(parts);
        const oneByOne = new MerkleFold(nodeSha256);
        const expected = hashEntries(data, starts, ends, claims, claimed, oneByOne, nodeSha256);
        const many = countingMany();
        const batched = new MerkleFold(nodeSha256);
        const actual = hashEntries(data, starts, ends, claims, claimed, batched, nodeSha256, many);
        assert.deepEqual(actual, expected);
        assert.deepEqual(batched.root(), oneByOne.root());
        // One call for every leaf and id, then one per level of the fold: n leaves added to an
        // empty fold make n - popcount(n) parents (docs/zaxy.md, 'Merkle tree').
        const [first, ...levels] = many.calls;
        assert.equal(first, entries.length + claimed.reduce((sum, flag) => sum + flag, 0));
        const n = entries.length;
        const popcount = n.toString(2).replaceAll('0', '').length;
        assert.equal(
          levels.reduce((sum, messages) => sum + messages, 0),
          n - popcount,
        );
        assert.ok(levels.length <= Math.ceil(Math.log2(Math.max(n, 1))), `${levels.length} levels for ${n} leaves`);
        assert.equal(
          expected.mismatched.length,
          entries.filter((entry) => entry.claim === 'wrong').length,
          'the wrong claims, and only they, mismatch',
        );
      },
    ),
    { numRuns: 300 },
  );
});

test('a bundle of many batches under the default SHA-256 is hashed with the 4-lane hasher, reporting as node:crypto does', async () => {
  const strip = (report: Awaited<ReturnType<typeof verifyZaxy>>) => ({ ...report, stats: undefined });
  const variants: [string, (entries: { id: unknown; content: Record<string, unknown> }[]) => void][] = [
    ['untouched', () => undefined],
    ['content changed far in', (entries) => void (entries[2500]!.content['kind'] = 'changed')],
    ['id of another entry', (entries) => void (entries[3000]!.id = entries[3]!.id)],
  ];
  let lanesUsed = false;
  for (const [name, change] of variants) {
    const bytes = manyBatchBundle(120, change);
    // The default hasher is loaded at the first full batch and used once there.
    const byDefault = await verifyZaxy(bytes);
    lanesUsed ||= defaultSha256Many() !== undefined;
    assert.deepEqual(strip(byDefault), strip(await verifyZaxy(bytes, { sha256: nodeSha256 })), name);
  }
  assert.ok(lanesUsed, 'the 4-lane hasher loaded (Node has WebAssembly SIMD)');
});
