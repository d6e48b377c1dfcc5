/**
 * The CLI's hashing thread (see `nodeEntryHasher` in node-sha256.ts): hashes each batch of
 * entries, folds their leaves into their array's Merkle root and compares their ids, in the
 * order the requests arrive, so that the main thread only parses and canonicalises.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { MerkleFold } from '../src/crypto/merkle.ts';
import { hashEntries } from '../src/formats/zaxy/entry-hashes.ts';
import { nodeSha256 } from './node-sha256.ts';
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
  let fold = folds.get(request.session);
  if (fold === undefined) folds.set(request.session, (fold = new MerkleFold(nodeSha256)));
  return hashEntries(
    new Uint8Array(memory, layout.data, dataBytes),
    new Uint32Array(memory, 0, count),
    new Uint32Array(memory, layout.ends, count),
    new Uint8Array(memory, layout.claims, 64 * count),
    new Uint8Array(memory, layout.claimed, count),
    fold,
    nodeSha256,
  );
}

parentPort?.on('message', (request: EntryHashRequest) => parentPort!.postMessage(answer(request)));
