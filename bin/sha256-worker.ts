/**
 * The CLI's hashing thread (see `nodeSha256.batch` in node-sha256.ts): answers each batch of
 * messages with their SHA-256 digests, in the order the batches arrive, so that the main thread
 * parses and canonicalises while this one hashes.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { digestInto } from './node-sha256.ts';

export interface Sha256Job {
  readonly data: Uint8Array;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

parentPort?.on('message', ({ data, starts, ends }: Sha256Job) => {
  const digests = new Uint8Array(32 * starts.length);
  for (let i = 0; i < starts.length; i++) digestInto(data.subarray(starts[i]!, ends[i]!), digests, 32 * i);
  parentPort!.postMessage(digests, [digests.buffer]);
});
