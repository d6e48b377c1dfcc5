// An EntryHasher may hand its batches back unhashed (`DeclinedBatch`, src/formats/zaxy/entry-hashes.ts:
// the browser's entry-hashing worker could not start); the core then hashes them in place, and the
// report is the one hashing in place gives, for bundles of many batches with every kind of entry
// problem, and with findings cut short by maxFindings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyZaxy } from '../../src/formats/zaxy/index.ts';
import type { EntryHasherFactory } from '../../src/formats/zaxy/entry-hashes.ts';
import { manyBatchBundle } from '../helpers/signed-zaxy.ts';
import { nodeSha256 } from '../../bin/node-sha256.ts';

/** A hasher that hands every batch back, copied, after a turn of the event loop; counts them. */
function declining(): { factory: EntryHasherFactory; declined: () => number; rootsAsked: () => number } {
  let declined = 0;
  let rootsAsked = 0;
  return {
    factory: () => ({
      add(data, starts, ends, claims, claimed) {
        const batch = {
          declined: true as const,
          data: data.slice(),
          starts: starts.slice(),
          ends: ends.slice(),
          claims: claims.slice(),
          claimed: claimed.slice(),
        };
        declined++;
        return new Promise((resolve) => setTimeout(() => resolve(batch), 1));
      },
      async root() {
        rootsAsked++;
        return undefined;
      },
    }),
    declined: () => declined,
    rootsAsked: () => rootsAsked,
  };
}

const strip = (report: Awaited<ReturnType<typeof verifyZaxy>>) => ({ ...report, stats: undefined });

test('batches a hasher hands back are hashed in place: the in-place report, for bundles of many batches', async () => {
  const variants: [string, (entries: { id: unknown; content: Record<string, unknown> }[]) => void][] = [
    ['copies, untouched', () => undefined],
    ['content changed far in', (entries) => void (entries[2500]!.content['kind'] = 'changed')],
    ['uppercase id', (entries) => void (entries[100]!.id = String(entries[100]!.id).toUpperCase())],
    ['id of another entry', (entries) => void (entries[3000]!.id = entries[3]!.id)],
    ['no id', (entries) => void delete (entries as { id?: unknown }[])[1500]!.id],
  ];
  for (const [name, change] of variants) {
    const bytes = manyBatchBundle(120, change);
    const hasher = declining();
    const handedBack = await verifyZaxy(bytes, { sha256: nodeSha256, entryHasher: hasher.factory });
    assert.ok(hasher.declined() > 1, `${name}: several batches went to the hasher (${hasher.declined()})`);
    assert.equal(hasher.rootsAsked(), 0, `${name}: no root is asked of a hasher that declined`);
    assert.deepEqual(strip(handedBack), strip(await verifyZaxy(bytes, { sha256: nodeSha256 })), name);
  }
});

test('batches handed back keep the first entries’ id findings past maxFindings', async () => {
  const bytes = manyBatchBundle(120, (entries) =>
    entries.forEach((entry, index) => {
      entry.id = index < 10 ? String(index % 10).repeat(64) : `short-${index}`;
    }),
  );
  for (const maxFindings of [1, 5]) {
    const handedBack = await verifyZaxy(bytes, {
      sha256: nodeSha256,
      entryHasher: declining().factory,
      limits: { maxFindings },
    });
    const inPlace = await verifyZaxy(bytes, { sha256: nodeSha256, limits: { maxFindings } });
    assert.deepEqual(handedBack.findings, inPlace.findings, `maxFindings ${maxFindings}`);
  }
});
