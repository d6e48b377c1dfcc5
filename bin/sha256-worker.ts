/**
 * The CLI's hashing thread (see `nodeEntryHasher` in node-sha256.ts): hashes each batch of
 * entries, folds their leaves into their array's Merkle root and compares their ids, in the
 * order the requests arrive, so that the main thread only parses and canonicalises.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { MerkleFold } from '../src/crypto/merkle.ts';
import { hexEquals } from '../src/formats/zaxy/entry-hashes.ts';
import { digestInto, nodeSha256 } from './node-sha256.ts';
import { entryJobLayout, type EntryHashAnswer, type EntryHashRequest } from './sha256-job.ts';

/** The Merkle root so far of each `entries` array being hashed. */
const folds = new Map<number, MerkleFold>();

function answer(request: EntryHashRequest): EntryHashAnswer {
  if (request.kind === 'root') {
    const fold = folds.get(request.session);
    folds.delete(request.session);
    return { root: fold?.root() ?? null };
  }
  const { memory, count, dataBytes } = request;
  const layout = entryJobLayout(count, dataBytes);
  const starts = new Uint32Array(memory, 0, count);
  const ends = new Uint32Array(memory, layout.ends, count);
  const claimed = new Uint8Array(memory, layout.claimed, count);
  const claims = new Uint8Array(memory, layout.claims, 64 * count);
  const data = new Uint8Array(memory, layout.data, dataBytes);
  let fold = folds.get(request.session);
  if (fold === undefined) folds.set(request.session, (fold = new MerkleFold(nodeSha256)));
  const mismatched: number[] = [];
  const ids: number[] = [];
  const id = new Uint8Array(32);
  for (let k = 0; k < count; k++) {
    const leaf = new Uint8Array(32);
    digestInto(data.subarray(starts[k]!, ends[k]!), leaf, 0);
    fold.add(leaf);
    if (claimed[k] === 0) continue;
    digestInto(data.subarray(starts[k]! + 1, ends[k]!), id, 0);
    if (!hexEquals(claims, 64 * k, id)) {
      mismatched.push(k);
      ids.push(...id);
    }
  }
  return { mismatched: Uint32Array.from(mismatched), ids: Uint8Array.from(ids) };
}

parentPort?.on('message', (request: EntryHashRequest) => parentPort!.postMessage(answer(request)));
