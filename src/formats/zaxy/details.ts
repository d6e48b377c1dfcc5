/**
 * What `verifyZaxy` puts in `report.details` (README, 'The report'), one shape per `report.kind`:
 * a signed bundle, a disclosed subset, an unsigned envelope, or (kind `null`) a document that
 * could not be verified. Every shape carries `zaxy`, Zaxy's own answer.
 * @module
 */
import type { ZaxyResult } from './compat.ts';
import type { DisclosedStep, EntryFacts } from './scan.ts';

export type { ZaxyResult } from './compat.ts';
export type { DisclosedStep, EntryFacts } from './scan.ts';

/**
 * The signer facts of a signed bundle or subset, read from its header (each `null` when the field
 * is missing or not a string).
 */
export interface ZaxySignerDetails {
  readonly version: string | null;
  /** `ml-dsa-65` or `ed25519` (or whatever the document says). */
  readonly algorithm: string | null;
  /** Hex, as written. */
  readonly public_key: string | null;
  /**
   * First 16 hex digits of SHA-256 over the public key's bytes; `null` when the header could not
   * be read or the key is empty.
   */
  readonly fingerprint: string | null;
  readonly session_id: string | null;
  readonly created_at: string | null;
  readonly nonce: string | null;
  /** The signed `merkle_root`, as written. */
  readonly merkle_root: string | null;
  /** Whether the signature verified; `null` when it could not be checked (malformed, unknown algorithm). */
  readonly signature_valid: boolean | null;
}

/** `zaxy.portable.v1`: a signed bundle. */
export interface ZaxyBundleDetails extends ZaxySignerDetails {
  /** The Merkle root over the entries, when every entry's content could be canonicalised. */
  readonly computed_merkle_root: string | null;
  readonly entry_count: number;
  /** The first 10,000 entries' facts, in bundle order (a disclosure picker selects by position). */
  readonly entries: readonly EntryFacts[];
  /** `entries` lists fewer than `entry_count`. */
  readonly entries_truncated: boolean;
  /** Whether `public_key` is the pinned key; `null` when no key was pinned. */
  readonly pinned: boolean | null;
  readonly zaxy: ZaxyResult;
}

/** One disclosed element of a subset. */
export interface ZaxyDisclosedDetails {
  /**
   * The element's `index` (not signed): a number when it is an integer JavaScript holds exactly,
   * else its Python repr; `null` when absent.
   */
  readonly index: number | string | null;
  readonly kind: string | null;
  readonly grain: string | null;
  readonly seq: number | string | null;
  readonly valid_from: string | null;
  readonly proof_depth: number;
  /** The proof, leaf to root: `L` puts the sibling on the left, any other side on the right. */
  readonly proof: readonly DisclosedStep[];
  /** Whether the proof leads to the signed root; `null` when there was no root to compare with. */
  readonly included: boolean | null;
}

/** `zaxy.subset`: a disclosed subset. */
export interface ZaxySubsetDetails extends ZaxySignerDetails {
  readonly disclosed_count: number;
  /** The first 10,000 disclosed elements, in document order. */
  readonly disclosed: readonly ZaxyDisclosedDetails[];
  readonly disclosed_truncated: boolean;
  /** Elements whose proof leads to the signed root; `null` when the proofs could not all be checked. */
  readonly included_count: number | null;
  readonly pinned: boolean | null;
  readonly zaxy: ZaxyResult;
}

/** One entry of an unsigned envelope, with the id a signed export would give it. */
export interface ZaxyUnsignedEntryDetails extends EntryFacts {
  /** SHA-256 of the entry's canonical bytes; `null` when it has none (a lone surrogate). */
  readonly id: string | null;
}

/** `zaxy.export.unsigned.v1`: an unsigned envelope (nothing in it can be authenticated). */
export interface ZaxyUnsignedDetails {
  readonly version: 'zaxy.export.unsigned.v1';
  readonly session_id: string | null;
  readonly entry_count: number;
  /** The first 10,000 entries. */
  readonly entries: readonly ZaxyUnsignedEntryDetails[];
  readonly entries_truncated: boolean;
  readonly zaxy: ZaxyResult;
}

/** Kind `null`: the document was not verified (unreadable, not an object, over a limit, aborted). */
export interface ZaxyUnreadDetails {
  readonly zaxy: ZaxyResult;
}

/** `report.details` of a Zaxy report, whatever its kind. */
export type ZaxyDetails = ZaxyBundleDetails | ZaxySubsetDetails | ZaxyUnsignedDetails | ZaxyUnreadDetails;
