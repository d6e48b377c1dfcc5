/**
 * Helpers for showing `report.details`. The report comes from the core (through the worker), so
 * its details have their format's type (README, 'The report'); but every string in them may come
 * from the artifact, so the views clip what they show, and a field a format leaves out (an export
 * whose verification stopped early) shows as missing.
 * @module
 */
import type { ZaxyDetails } from '../src/formats/zaxy/details.ts';

/** Longest artifact string shown in full; longer ones are clipped so a hostile 10 MB path cannot stall layout. */
const MAX_SHOWN_CHARS = 2000;

/**
 * Returns the value as display text, clipped to a sane length (`undefined` for anything else,
 * such as `null` or an object echoed from the artifact).
 * @example
 * text('abc'); // 'abc'
 */
export function text(value: unknown, max = MAX_SHOWN_CHARS): string | undefined {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

/** What a missing fact shows as. */
export const DASH = '–';

/**
 * A fact as shown: "–" when it is missing, `null` or empty.
 * @example
 * show(null); // '–'
 */
export function show(value: string | number | null | undefined): string {
  return value === undefined || value === null || value === '' ? DASH : String(value);
}

/** An entry of a Zaxy bundle as the disclosure picker sees it. */
export interface ZaxyEntry {
  /** Position in the bundle's `entries` (what disclosure selects by). */
  readonly position: number;
  readonly kind?: string | undefined;
  readonly grain?: string | undefined;
  /** `seq` as a number when it is an integer (big ones arrive as decimal strings). */
  readonly seq?: number | undefined;
  /** `seq` as shown. */
  readonly seqText?: string | undefined;
  readonly validFrom?: string | undefined;
}

/** An integer `seq`, given as a number or as the decimal string of a big integer. */
function seqNumber(value: number | string | null): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d{1,400}$/.test(value)) return Number(value);
  return undefined;
}

/**
 * The entries a Zaxy report lists (a signed bundle's or an unsigned envelope's; none for a
 * subset), in bundle order.
 * @example
 * zaxyEntries(report.details).filter((entry) => entry.grain === 'event');
 */
export function zaxyEntries(details: ZaxyDetails): ZaxyEntry[] {
  if (!('entries' in details)) return [];
  return details.entries.map((entry, position) => ({
    position,
    kind: text(entry.kind),
    grain: text(entry.grain),
    seq: seqNumber(entry.seq),
    seqText: text(entry.seq, 40),
    validFrom: text(entry.valid_from),
  }));
}
