/**
 * Choosing entries of a signed Zaxy bundle for recipient-side disclosure (docs/zaxy.md,
 * 'Selectors and disclosure': the chosen indices are entry positions, ascending). Pure functions
 * over the report's entry list; the subset itself is built by the core's `discloseSubset` in the
 * worker.
 * @module
 */
import type { ZaxyEntry } from './details.ts';

/** The filter a person sets in the disclosure panel; empty fields do not filter. */
export interface EntryFilter {
  /** Comma-separated entry kinds (`goal.created, entity:goal`), matched exactly. */
  readonly kinds: string;
  readonly grain: '' | 'event' | 'semantic';
  /** Inclusive bounds on `seq`, as typed (blank = unbounded). */
  readonly seqMin: string;
  readonly seqMax: string;
}

export const EMPTY_FILTER: EntryFilter = Object.freeze({ kinds: '', grain: '', seqMin: '', seqMax: '' });

function bound(value: string): number | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * True when the entry passes every non-empty field of the filter. Like Zaxy's own selector, an
 * entry without an integer `seq` fails any seq bound.
 * @example
 * entryMatches({ position: 0, kind: 'goal.created', grain: 'event', seq: 3 }, { ...EMPTY_FILTER, seqMin: '2' }); //
 * true
 */
export function entryMatches(entry: ZaxyEntry, filter: EntryFilter): boolean {
  const kinds = filter.kinds
    .split(',')
    .map((kind) => kind.trim())
    .filter((kind) => kind !== '');
  if (kinds.length > 0 && (entry.kind === undefined || !kinds.includes(entry.kind))) return false;
  if (filter.grain !== '' && entry.grain !== filter.grain) return false;
  const min = bound(filter.seqMin);
  const max = bound(filter.seqMax);
  if (min !== undefined || max !== undefined) {
    if (entry.seq === undefined || !Number.isInteger(entry.seq)) return false;
    if (min !== undefined && entry.seq < min) return false;
    if (max !== undefined && entry.seq > max) return false;
  }
  return true;
}

/**
 * Positions of the entries the filter matches, ascending.
 * @example
 * matchingPositions(entries, { ...EMPTY_FILTER, grain: 'event' }); // [0, 3, 5]
 */
export function matchingPositions(entries: readonly ZaxyEntry[], filter: EntryFilter): number[] {
  return entries.filter((entry) => entryMatches(entry, filter)).map((entry) => entry.position);
}

/**
 * The file name offered for a subset of `inputName` (`bundle.json` → `bundle.subset.json`).
 * @example
 * subsetFileName('https://x/y/bundle.json.gz'); // 'bundle.subset.json'
 */
export function subsetFileName(inputName: string): string {
  const base = inputName.split(/[/\\]/).pop() ?? '';
  const stem = base.replace(/(\.json)?(\.gz)?$/i, '');
  return `${stem === '' ? 'zaxy' : stem}.subset.json`;
}
