/**
 * The CLI's hashing thread (see `nodeSha256.batch` in node-sha256.ts): answers each batch of
 * messages with their SHA-256 digests, in the order the batches arrive, so that the main thread
 * parses and canonicalises while this one hashes.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { digestInto } from './node-sha256.ts';

/**
 * One batch in shared memory: `count` message starts, `count` ends, the `dataBytes` they index,
 * then room for the `count` digests, which the worker writes there before it answers.
 */
export interface Sha256Job {
  readonly memory: SharedArrayBuffer;
  readonly count: number;
  readonly dataBytes: number;
}

parentPort?.on('message', ({ memory, count, dataBytes }: Sha256Job) => {
  const starts = new Uint32Array(memory, 0, count);
  const ends = new Uint32Array(memory, 4 * count, count);
  const data = new Uint8Array(memory, 8 * count, dataBytes);
  const digests = new Uint8Array(memory, 8 * count + dataBytes, 32 * count);
  for (let i = 0; i < count; i++) digestInto(data.subarray(starts[i]!, ends[i]!), digests, 32 * i);
  parentPort!.postMessage(null);
});
