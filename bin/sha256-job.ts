/**
 * How the CLI's main thread (node-sha256.ts) and its hashing thread (sha256-worker.ts) talk:
 * requests, answers, and the layout of a batch in shared memory.
 * @module
 */

/** A batch of entries to hash, or the end of an `entries` array (its Merkle root). */
export type EntryHashRequest =
  | {
      readonly kind: 'add';
      readonly session: number;
      readonly memory: SharedArrayBuffer;
      readonly count: number;
      readonly dataBytes: number;
    }
  | { readonly kind: 'root'; readonly session: number };

/** The answer to an `add` (the entries whose id differs) or to a `root`. */
export interface EntryHashAnswer {
  readonly mismatched?: Uint32Array;
  readonly ids?: Uint8Array;
  readonly root?: Uint8Array | null;
}

/**
 * Byte offsets in a batch's shared memory, in this order: `count` message starts and `count`
 * ends (32-bit), `count` claimed flags, the claimed ids (64 bytes each), then the messages' bytes.
 * @example
 * entryJobLayout(2, 100).total; // 8 + 8 + 2 + 128 + 100
 */
export function entryJobLayout(
  count: number,
  dataBytes: number,
): { ends: number; claimed: number; claims: number; data: number; total: number } {
  const ends = 4 * count;
  const claimed = ends + 4 * count;
  const claims = claimed + count;
  const data = claims + 64 * count;
  return { ends, claimed, claims, data, total: data + dataBytes };
}
