/**
 * The shape every inspector shares: a view asks the worker for a page of plain view models built
 * from the bytes that were verified (docs/architecture.md, "Views of verified content").
 */

/** What a view asks for: a page of items, optionally filtered and searched. */
export interface InspectRequest {
  /** Index of the first item (after filtering) to return. */
  readonly from: number;
  /** At most this many items. */
  readonly count: number;
  /** View-specific filter keys. */
  readonly filter?: Readonly<Record<string, string>>;
  /** Plain text, case-insensitive; not a regex. */
  readonly search?: string;
}

/** A page of plain view models (structured-clone safe: no functions, no class instances). */
export interface InspectPage<Item> {
  readonly items: readonly Item[];
  /** Items after filtering, before search. */
  readonly total: number;
  /** Items matching `search` (= total when no search). */
  readonly matches: number;
  /** Index (in the filtered list) of items[0]. */
  readonly firstIndex: number;
  /** Set when part of the artifact is past maxInspectBytes etc. */
  readonly notViewable?: string;
}

/** The verified bytes the worker kept (decompressed when the input was gzip). */
export interface InspectSource {
  /** Never a second fetch: the bytes that were verified. */
  readonly bytes: Uint8Array;
  /** False when only the first maxInspectBytes were kept. */
  readonly complete: boolean;
  readonly format: 'agentxchain' | 'zaxy' | 'agent-history' | 'codex-exec';
}

/**
 * One inspector per format. `index` is whatever the inspector built on its first call and wants
 * back on later calls (e.g. line offsets); the worker keeps it per job.
 */
export interface Inspector<Item, Index> {
  buildIndex(source: InspectSource): Index;
  page(source: InspectSource, index: Index, request: InspectRequest): InspectPage<Item>;
}
