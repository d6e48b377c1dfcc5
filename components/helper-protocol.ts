/**
 * The messages between the verification worker (`verify-worker.ts`, through
 * `entry-hash-client.ts`) and the helper worker it starts on the machine's other core
 * (`helper-threads.ts`): the entry-hashing worker (`entry-hash-worker.ts`). Types only.
 *
 * The helper answers in the order it was asked, so neither side numbers its messages. Its first
 * message says whether it could start (`ready`) or not (`unavailable`); it is sent nothing before,
 * and if it cannot start, the work is done in the verification worker.
 * @module
 */
import type { Mismatches } from '../src/formats/zaxy/entry-hashes.ts';

/** A helper that started (`ready`) or could not (its SHA-256 did not load there). */
export type HelperStart = { readonly kind: 'ready' } | { readonly kind: 'unavailable'; readonly reason: string };

/**
 * To the entry-hashing worker: a batch of one `entries` array (`session`), as `EntryHasher.add`
 * receives it, or the question for that array's Merkle root once every batch was sent.
 */
export type ToEntryHashWorker =
  | {
      readonly kind: 'add';
      readonly session: number;
      readonly data: Uint8Array;
      readonly starts: Uint32Array;
      readonly ends: Uint32Array;
      readonly claims: Uint8Array;
      readonly claimed: Uint8Array;
    }
  | { readonly kind: 'root'; readonly session: number };

/** From the entry-hashing worker: its start, then one answer per request, in order. */
export type FromEntryHashWorker =
  | HelperStart
  | ({
      readonly kind: 'added';
      /** The buffer of the batch's `data`, moved back once hashed: the next batch is copied into it. */
      readonly spare: ArrayBuffer;
    } & Mismatches)
  | { readonly kind: 'root'; readonly root: Uint8Array | undefined }
  | { readonly kind: 'failed'; readonly message: string };
