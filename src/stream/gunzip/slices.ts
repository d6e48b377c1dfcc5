/**
 * How both gunzip cores feed their inflater (the fflate or node:zlib one in `members.ts`, the
 * platform's in `native.ts`): DEFLATE input goes in slices sized from the ratio seen so far, so
 * that one slice never expands into more than about `TARGET_OUTPUT_PER_SLICE` bytes (a gzip bomb
 * gets small slices, text large ones); and the bytes that followed a member's end inside a slice
 * are taken again, before any new input.
 * @module
 */

/** Output one slice should produce at most, roughly (bounds memory on bombs). */
const TARGET_OUTPUT_PER_SLICE = 1 << 20;
const MIN_SLICE = 1 << 10;
/** The largest slice: a buffer of this size can hold any slice. */
export const MAX_SLICE = 256 << 10;
/** First slice: small, so even a maximal-ratio (1032:1) first slice stays about 4 MiB. */
export const FIRST_SLICE = 4 << 10;

/**
 * The size of the next slice, from the bytes the last one took in and gave out.
 * @example
 * nextSliceSize(4096, 1 << 20); // 4096: that slice gave the target output, so the next is as large
 * nextSliceSize(4096, 4096); // 262144, MAX_SLICE: stored data does not expand
 */
export function nextSliceSize(input: number, output: number): number {
  return Math.max(
    MIN_SLICE,
    Math.min(MAX_SLICE, Math.floor((TARGET_OUTPUT_PER_SLICE * input) / Math.max(input, output))),
  );
}

/**
 * Bytes that followed the end of a member inside a slice already taken in. The cores learn where
 * a member ended only after its last slice went in, so these bytes (the trailer, further
 * members, trailing garbage) are taken again, first.
 */
export interface Replay {
  /** Sets the bytes to take again (when a member ended inside a slice). */
  hold(bytes: Uint8Array): void;
  /** True while held bytes wait. */
  readonly waiting: boolean;
  /** Takes every held byte; those may end further members, whose leftovers come first. */
  drain(): Promise<void>;
}

/**
 * A `Replay` that feeds the held bytes to `take`, which takes a prefix and returns its length (and
 * may `hold` new leftovers when a member ends).
 * @example
 * const replay = createReplay((bytes) => take(bytes));
 * await replay.drain();
 */
export function createReplay(take: (bytes: Uint8Array) => Promise<number>): Replay {
  let held: Uint8Array | undefined;
  return {
    hold(bytes) {
      held = bytes;
    },
    get waiting() {
      return held !== undefined;
    },
    async drain() {
      while (held) {
        const bytes: Uint8Array = held;
        held = undefined;
        let at = 0;
        while (at < bytes.byteLength) {
          at += await take(bytes.subarray(at));
          const again = held as Uint8Array | undefined; // held by take() when a member ended
          if (again) {
            // Another member ended inside: its leftovers come before the rest of these bytes.
            const rest = bytes.subarray(at);
            const joined = new Uint8Array(again.byteLength + rest.byteLength);
            joined.set(again);
            joined.set(rest, again.byteLength);
            held = joined;
            break;
          }
        }
      }
    },
  };
}
