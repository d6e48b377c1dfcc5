/**
 * The helper worker of the verification worker (`verify-worker.ts`), which imports this module for
 * a large input only: it passes the core the option that moves work to the machine's other core,
 * `entryHasher`, a Zaxy bundle's entry hashes on `entry-hash-worker.ts` through
 * `entry-hash-client.ts`. That client is imported at a bundle's first batch of entries (no other
 * input loads it), and kept, with its worker, from one verification to the next while it is idle:
 * warm, it pays off for smaller bundles. Where the work is done never changes the report.
 *
 * When it pays off, measured in Chromium (bench/helper-threads.bench.ts, paired runs, 2 cores shared
 * with other work, load average ~1.7; bundles of the first N entries of the 100k-entry one, whose
 * .gz is 1/8 of it): a new helper costs a verification ~40–50 ms (its start, and its code's first
 * run) and pays off from ~16 MB: 13 MB plain ~345 ms in place vs ~385 helped, gzipped ~425 vs
 * ~415; the 100k-entry bundle .gz (10 MB, 56 MB plain) ~1270 vs ~970. Warm, from ~4 MB: 6.5 MB
 * ~100 vs ~80 ms, 13 MB ~175 vs ~135, 13 MB gzipped ~215 vs ~155, the 100k-entry .gz ~1110 vs ~700.
 *
 * Measured and not adopted: a gunzip worker, decompressing a `.gz` input on the other core while
 * this one parses (its chunks transferred, both directions paced by credit). It took ~100 ms of
 * the 54 MB AgentXchain export's ~310 ms off the verification worker's thread, but its start
 * (~30–60 ms to the first output) and the scheduling of three threads on two cores left the wall
 * time unchanged or worse (AgentXchain .gz ~315 ms either way; the Zaxy bundle .gz ~790 ms with
 * entry hashes alone, ~870 with both), for 2.3 KB more on the AgentXchain path. Nor did the gunzip
 * on the entry-hashing worker itself (two threads, not three), measured later with a new helper a
 * run: the Zaxy bundle .gz 547 ms against 542 with entry hashes alone; the verification worker
 * waited ~80 ms of each run for the helper to start and send its first output. Nor did starting
 * the helper in the verification worker's warm-up, while a person chooses a file: the built demo,
 * the 100k-entry bundle .gz chosen 1 s after the click, 554 -> 533 ms (paired, 12 runs; the
 * AgentXchain export the same), but every click, whatever the file, would then fetch the
 * entry-hashing worker (12.9 KB gzip) and start a thread: Zaxy code before the format is known.
 * @module
 */
import type { EntryHasher, EntryHasherFactory } from '../src/formats/zaxy/entry-hashes.ts';
import type { VerifyInput } from '../src/stream/input.ts';
import type { AutoVerifyOptions } from '../src/verify.ts';
import type { EntryHashHelper } from './entry-hash-client.ts';
import type { HelperChoice } from './worker-protocol.ts';

/** Input size (a .gz counted as `GZIP_RATIO` times its size) from which a cold helper pays off. */
const COLD_FROM_BYTES = 16 << 20;
/** The same for a helper that already hashed a bundle. */
const WARM_FROM_BYTES = 4 << 20;
/** What a .gz Zaxy bundle is counted as, times its size (the bench data's: 5.3 to 8). */
const GZIP_RATIO = 5;

/** The helpers of one verification. */
export interface Helpers {
  /** The core's options that hand work to them. */
  readonly options: Pick<AutoVerifyOptions, 'entryHasher'>;
  /** Which helpers did work (the verification worker reports it beside the report). */
  used(): Required<HelperChoice>;
  /** The verification ended: a helper left with work (it was cancelled or failed) is stopped. */
  close(): void;
}

/** The entry-hashing helper, kept between verifications, and its client while that loads. */
let shared: EntryHashHelper | undefined;
let loading: Promise<EntryHashHelper> | undefined;
/** Verifications under way (a new one may start before a cancelled one has stopped). */
let running = 0;

/**
 * Helpers for one verification of `input`: those `choice` sets to `true`, or (`undefined`) every
 * helper that pays off for an input of this size.
 * @example
 * const helpers = await startHelpers(file, undefined);
 * try { report = await verify(file, { ...options, ...helpers.options }); } finally { helpers.close(); }
 */
export async function startHelpers(input: VerifyInput, choice: HelperChoice | undefined): Promise<Helpers> {
  const wanted =
    choice === undefined
      ? (await bundleSize(input)) >= (shared?.hashed() ? WARM_FROM_BYTES : COLD_FROM_BYTES)
      : choice.entryHashes === true;
  const before = shared?.hashed() ?? 0;
  running++;
  return {
    options: wanted ? { entryHasher: lazyEntryHasher } : {},
    used: () => ({ entryHashes: (shared?.hashed() ?? 0) > before }),
    close() {
      // Still busy once no verification is under way: batches of one that was cancelled or failed.
      if (--running > 0 || shared === undefined || shared.reusable()) return;
      shared.close();
      shared = loading = undefined;
    },
  };
}

/** The size of a Blob or bytes, a .gz (RFC 1952 magic 1f 8b) counted `GZIP_RATIO` times. */
async function bundleSize(input: VerifyInput): Promise<number> {
  const head = new Uint8Array(await new Response((input as Blob).slice?.(0, 2)).arrayBuffer());
  const size = (input as Blob).size ?? (input as Uint8Array).byteLength;
  return head[0] === 0x1f && head[1] === 0x8b ? GZIP_RATIO * size : size;
}

/**
 * Zaxy's entry hashes on the shared helper, through its client, imported at the first batch.
 * Batches that come while it loads are copied (the core reuses its buffers) and handed over in
 * order: each waits on the promise of its array's hasher, whose reactions run in the order they
 * were added, the first of them making later batches go straight to the hasher.
 */
const lazyEntryHasher: EntryHasherFactory = () => {
  // The client transfers each batch's buffer to the helper, which detaches it. The first time a
  // typed array's buffer is detached in a thread, V8 throws away the code it has optimized there
  // (~30 functions of the parser and of canonical JSON: "dependent prototype chain changed" in
  // Chromium's `--js-flags=--trace-deopt`) and optimizes it again. At the bundle's first batch,
  // that is the code just optimized for its entries, recompiled while both cores are busy. So a
  // buffer of 8 bytes is detached here (ECMAScript's `ArrayBuffer.prototype.transfer`), when the
  // entries begin. Chromium, the 100k-entry bundle .gz, paired: on a fresh page, with a buffer
  // detached before the first run, 820 -> 760 ms (medians of 6); the built demo, chosen 1 s after
  // the click, 941 -> 859 ms (12 runs), with V8's marks for deoptimization 34 -> 3.
  (new Uint8Array(8).buffer as { transfer?(): ArrayBuffer }).transfer?.();
  let hasher: EntryHasher | undefined;
  let pending: Promise<EntryHasher> | undefined;
  const later = (): Promise<EntryHasher> => {
    if (pending === undefined) {
      loading ??= import('./entry-hash-client.ts').then(
        ({ entryHashHelper }) => (shared = entryHashHelper(startEntryHashWorker)),
      );
      pending = loading.then((helper) => helper.factory());
      void pending.then((ready) => (hasher = ready));
    }
    return pending;
  };
  return {
    add(data, starts, ends, claims, claimed) {
      if (hasher !== undefined) return hasher.add(data, starts, ends, claims, claimed);
      const copies = [data, starts, ends, claims, claimed].map((array) => array.slice()) as [
        Uint8Array,
        Uint32Array,
        Uint32Array,
        Uint8Array,
        Uint8Array,
      ];
      return later().then((ready) => ready.add(...copies));
    },
    root: () => (hasher === undefined ? later().then((ready) => ready.root()) : hasher.root()),
  };
};

/**
 * The literal `new Worker(new URL('./….ts', import.meta.url), { type: 'module' })` lets bundlers
 * (Vite, webpack 5) bundle the helper; build/build.mjs points it at the compiled .js file. When
 * this module comes from another origin than the page (the CDN build loaded from a CDN), the helper
 * beside it (build/cdn.mjs) is started through a same-origin `blob:` module instead: a worker's URL
 * must be same-origin (HTML Standard, "Dedicated workers"), as `verify-client.ts` explains for the
 * verification worker, which this worker then is. Its dynamic `import()` is checked against
 * `script-src`, which lists the CDN; and unlike the verification worker, the helper needs no
 * messages held meanwhile: it is sent none before it says it is ready.
 */
/**
 * The helper's file in the CDN build. A name, not a literal in `new URL(…)`: Vite would resolve a
 * literal `./entry-hash-worker.js` to the .ts source and copy that into the app as an asset.
 */
const CDN_HELPER_FILE = './entry-hash-worker.js';

function startEntryHashWorker(): Worker {
  const name = 'verify-export entry hashes';
  if (new URL(import.meta.url).origin === location.origin)
    return new Worker(new URL('./entry-hash-worker.ts', import.meta.url), { type: 'module', name });
  const source = `await import(${JSON.stringify(new URL(CDN_HELPER_FILE, import.meta.url).href)});`;
  return new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module', name });
}
