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
 * A bundle's entries (ids, leaves and the Merkle root) are hashed on a worker thread, the
 * machine's other core, while the main thread goes on parsing (`nodeEntryHasher`).
 * @module
 */
import crypto, { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Sha256, Sha256Hasher } from '../src/crypto/sha256.ts';
import type { EntryHasherFactory } from '../src/formats/zaxy/entry-hashes.ts';
import { entryJobLayout, type EntryHashAnswer, type EntryHashRequest } from './sha256-job.ts';

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
 * The CLI's `EntryHasher` (ZaxyOptions.entryHasher): entries are hashed and their leaves folded
 * into the Merkle root on a worker thread, started at the first batch, while the main thread
 * goes on parsing. The worker keeps the process alive only while a request is out.
 *
 * A batch travels in shared memory, not in transferred buffers: detaching any ArrayBuffer makes
 * V8 check for detached buffers on every typed-array access from then on, which made the parser
 * twice as slow. Each batch is copied into a SharedArrayBuffer (`entryJobLayout`), used again once
 * the worker has answered. Answers (id mismatches, the root) are small and come as messages.
 */
function workerEntryHasher(): EntryHasherFactory {
  let worker: Worker | undefined;
  let sessions = 0;
  const waiting: {
    memory: SharedArrayBuffer | undefined;
    resolve: (answer: EntryHashAnswer) => void;
    reject: (error: unknown) => void;
  }[] = [];
  const spare: SharedArrayBuffer[] = [];
  const start = (): Worker => {
    // Bundled, the CLI sits in dist/cli.js beside dist/sha256-worker.js; from source (tests, tsx),
    // a bootstrap registers tsx in the worker and loads the .ts file.
    const file = import.meta.url.endsWith('.ts') ? './sha256-worker-source.mjs' : './sha256-worker.js';
    const started = new Worker(new URL(file, import.meta.url));
    started.unref();
    started.on('message', (answer: EntryHashAnswer) => {
      const { memory, resolve } = waiting.shift()!;
      if (memory !== undefined) spare.push(memory);
      resolve(answer);
      if (waiting.length === 0) started.unref();
    });
    const fail = (error: unknown): void => {
      worker = undefined;
      for (const request of waiting.splice(0)) request.reject(error);
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`the SHA-256 worker thread exited (code ${code})`)));
    return started;
  };
  const ask = (request: EntryHashRequest, memory: SharedArrayBuffer | undefined): Promise<EntryHashAnswer> => {
    worker ??= start();
    const running = worker;
    return new Promise<EntryHashAnswer>((resolve, reject) => {
      if (waiting.length === 0) running.ref();
      waiting.push({ memory, resolve, reject });
      running.postMessage(request);
    });
  };
  return () => {
    const session = sessions++;
    return {
      async add(data, starts, ends, claims, claimed) {
        const count = starts.length;
        const layout = entryJobLayout(count, data.byteLength);
        const reused = spare.findIndex((memory) => memory.byteLength >= layout.total);
        const memory =
          reused >= 0 ? spare.splice(reused, 1)[0]! : new SharedArrayBuffer(Math.max(layout.total, 1 << 20));
        new Uint32Array(memory, 0, count).set(starts);
        new Uint32Array(memory, layout.ends, count).set(ends);
        new Uint8Array(memory, layout.claimed, count).set(claimed.subarray(0, count));
        new Uint8Array(memory, layout.claims, 64 * count).set(claims.subarray(0, 64 * count));
        new Uint8Array(memory, layout.data, data.byteLength).set(data);
        const answer = await ask({ kind: 'add', session, memory, count, dataBytes: data.byteLength }, memory);
        return { mismatched: answer.mismatched!, ids: answer.ids! };
      },
      async root() {
        const answer = await ask({ kind: 'root', session }, undefined);
        return answer.root ?? undefined;
      },
    };
  };
}

/**
 * Hashes a bundle's entries on a worker thread (see `workerEntryHasher`).
 * @example
 * const report = await verify(input, { sha256: nodeSha256, entryHasher: nodeEntryHasher });
 */
export const nodeEntryHasher: EntryHasherFactory = workerEntryHasher();

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
};
