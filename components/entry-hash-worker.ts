/**
 * The entry-hashing worker: the browser's counterpart of the CLI's hashing thread
 * (bin/sha256-worker.ts). The verification worker starts it for a large Zaxy bundle
 * (`helper-threads.ts`) and sends it the bundle's entries a batch at a time; it hashes a batch's
 * leaves and ids four at a time with WebAssembly SIMD (`wasm/sha256-lanes.ts`; where that cannot
 * run, each entry with the kit's default SHA-256), folds the leaves into each `entries` array's
 * Merkle root and compares the ids (`hashEntries`, docs/zaxy.md, 'Merkle tree'), while the
 * verification worker goes on parsing. Protocol in `helper-protocol.ts`.
 * @module
 */
import { loadSha256 } from '#sha256';
import { MerkleFold } from '../src/crypto/merkle.ts';
import type { Sha256, Sha256Many } from '../src/crypto/sha256.ts';
import { hashEntries } from '../src/formats/zaxy/entry-hashes.ts';
import { loadSha256Many } from '#sha256-lanes';
import type { FromEntryHashWorker, ToEntryHashWorker } from './helper-protocol.ts';

/** The worker global, typed for what this module uses (the project compiles with DOM types). */
const scope = self as unknown as {
  postMessage(message: FromEntryHashWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToEntryHashWorker>) => void): void;
};

/** The Merkle root so far of each `entries` array being hashed. */
const folds = new Map<number, MerkleFold>();

/** Leaves and ids of a batch in one call, four lanes at a time; undefined where SIMD cannot run. */
const many: Promise<Sha256Many | undefined> = loadSha256Many();

const sha256: Promise<Sha256 | undefined> = Promise.all([loadSha256(), many]).then(
  ([loaded]) => (scope.postMessage({ kind: 'ready' }), loaded),
  (error: unknown) => {
    scope.postMessage({ kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) });
    return undefined;
  },
);

/** Requests are answered one after the other, in the order they came. */
let queue: Promise<void> = Promise.resolve();

scope.addEventListener('message', (event) => {
  const request = event.data;
  queue = queue.then(async () => {
    const hash = await sha256;
    if (hash === undefined) return;
    try {
      const message = answer(request, hash, await many);
      // A batch's buffer goes back to the client, which copies its next batch into it.
      scope.postMessage(message, message.kind === 'added' ? [message.spare] : []);
    } catch (error) {
      scope.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  });
});

function answer(request: ToEntryHashWorker, hash: Sha256, lanes: Sha256Many | undefined): FromEntryHashWorker {
  if (request.kind === 'root') {
    const fold = folds.get(request.session);
    folds.delete(request.session);
    return { kind: 'root', root: fold?.root() };
  }
  let fold = folds.get(request.session);
  if (fold === undefined) folds.set(request.session, (fold = new MerkleFold(hash)));
  const { data, starts, ends, claims, claimed } = request;
  const mismatches = hashEntries(data, starts, ends, claims, claimed, fold, hash, lanes);
  return { kind: 'added', spare: data.buffer as ArrayBuffer, ...mismatches };
}
