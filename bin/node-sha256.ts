/**
 * node:crypto's SHA-256 (OpenSSL, SHA-NI) as the core's `Sha256`, for the CLI (and the Node tests
 * and benchmarks, which must hash as the CLI does): several times faster than WASM on large inputs.
 *
 * A Zaxy bundle hashes 300k small messages (ids, leaves, nodes), so the cost per call decides, not
 * the hashing. Measured on Node 20, 65-byte messages: `createHash(…).digest()` ~1.0 µs,
 * `crypto.hash(…, 'buffer')` ~0.98 µs, but `crypto.hash(…, 'latin1')` ~0.21 µs: the time goes
 * into allocating Node's result buffer, not into OpenSSL. So one-shot digests ask for a latin1
 * string, one character per byte, and copy it into a plain Uint8Array (~0.27 µs in all).
 *
 * Batches (`batch.digestMany`: a bundle's entry ids and leaves) are hashed on a worker thread,
 * the machine's other core, while the main thread goes on parsing.
 * @module
 */
import crypto, { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Sha256, Sha256Batch, Sha256Hasher } from '../src/crypto/sha256.ts';
import type { Sha256Job } from './sha256-worker.ts';

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'latin1') => string;

/**
 * `crypto.hash` arrived in Node 20.12 / 21.7; older Nodes use `createHash`. (Cast: Node's typings
 * list only 'binary', its other name for latin1, whose lookup is slower.)
 */
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

/**
 * Writes the SHA-256 of `data` into `target` at `offset`.
 * @example
 * digestInto(bytes, digests, 32 * i);
 */
export function digestInto(data: Uint8Array, target: Uint8Array, offset: number): void {
  if (oneShot === undefined) {
    target.set(createHash('sha256').update(data).digest(), offset);
    return;
  }
  const text = oneShot('sha256', data, 'latin1');
  for (let i = 0; i < 32; i++) target[offset + i] = text.charCodeAt(i);
}

/**
 * `Sha256Batch` on a worker thread, started at the first batch. The worker keeps the process
 * alive only while a batch is out.
 *
 * A batch travels in shared memory, not in transferred buffers: detaching any ArrayBuffer makes
 * V8 check for detached buffers on every typed-array access from then on, which made the parser
 * twice as slow. Each batch is copied into a SharedArrayBuffer (`Sha256Job` has the layout), the
 * worker writes the digests into it too, and it is used again once they are copied out.
 */
function workerBatch(): Sha256Batch {
  let worker: Worker | undefined;
  const waiting: { job: Sha256Job; resolve: (digests: Uint8Array) => void; reject: (error: unknown) => void }[] = [];
  const spare: SharedArrayBuffer[] = [];
  const start = (): Worker => {
    // Bundled, the CLI sits in dist/cli.js beside dist/sha256-worker.js; from source (tests, tsx),
    // a bootstrap registers tsx in the worker and loads the .ts file.
    const file = import.meta.url.endsWith('.ts') ? './sha256-worker-source.mjs' : './sha256-worker.js';
    const started = new Worker(new URL(file, import.meta.url));
    started.unref();
    started.on('message', () => {
      const { job, resolve } = waiting.shift()!;
      const digests = new Uint8Array(job.memory, 8 * job.count + job.dataBytes, 32 * job.count).slice();
      spare.push(job.memory);
      resolve(digests);
      if (waiting.length === 0) started.unref();
    });
    const fail = (error: unknown): void => {
      worker = undefined;
      for (const job of waiting.splice(0)) job.reject(error);
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`the SHA-256 worker thread exited (code ${code})`)));
    return started;
  };
  return {
    digestMany(data, starts, ends) {
      worker ??= start();
      const running = worker;
      const count = starts.length;
      const bytes = 8 * count + data.byteLength + 32 * count;
      const reused = spare.findIndex((memory) => memory.byteLength >= bytes);
      const memory = reused >= 0 ? spare.splice(reused, 1)[0]! : new SharedArrayBuffer(Math.max(bytes, 1 << 20));
      new Uint32Array(memory, 0, count).set(starts);
      new Uint32Array(memory, 4 * count, count).set(ends);
      new Uint8Array(memory, 8 * count, data.byteLength).set(data);
      const job: Sha256Job = { memory, count, dataBytes: data.byteLength };
      return new Promise<Uint8Array>((resolve, reject) => {
        if (waiting.length === 0) running.ref();
        waiting.push({ job, resolve, reject });
        running.postMessage(job);
      });
    },
  };
}

/**
 * node:crypto's SHA-256; digests are plain Uint8Arrays (not Buffers).
 * @example
 * const report = await verify(input, { sha256: nodeSha256 });
 */
export const nodeSha256: Sha256 = {
  digest(data) {
    const digest = new Uint8Array(32);
    digestInto(data, digest, 0);
    return digest;
  },
  create(): Sha256Hasher {
    const hash = createHash('sha256');
    const hasher: Sha256Hasher = {
      update: (data) => (hash.update(data), hasher),
      digest: () => new Uint8Array(hash.digest()),
    };
    return hasher;
  },
  batch: workerBatch(),
};
