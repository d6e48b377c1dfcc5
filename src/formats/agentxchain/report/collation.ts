/**
 * The orders the reference sorts in (docs/agentxchain-report.md "JavaScript semantics"): ICU
 * collation for `localeCompare(…, 'en')` and for the host default locale (en-US on the reference
 * host), code-unit order for `Array.prototype.sort()` and `<`. Every sort is stable, and a
 * comparator result of NaN counts as "equal", as V8's TimSort treats it.
 * @module
 */
import { compareDefaultLocale, compareEn } from '../js-semantics.ts';

export { compareDefaultLocale, compareEn };

/** `a < b ? -1 : a > b ? 1 : 0` on UTF-16 code units (the default `Array.prototype.sort()` order). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A stable sort of a copy of `items` by `compare`, with NaN results read as 0. */
export function stableSorted<T>(items: readonly T[], compare: (a: T, b: T) => number): T[] {
  return [...items].sort((a, b) => {
    const order = compare(a, b);
    return Number.isNaN(order) ? 0 : order;
  });
}

/** `items.sort((a, b) => key(a).localeCompare(key(b), 'en'))` on a copy. */
export function sortEn<T>(items: readonly T[], key: (item: T) => string): T[] {
  return stableSorted(items, (a, b) => compareEn(key(a), key(b)));
}

/** `items.sort((a, b) => key(a).localeCompare(key(b)))` on a copy, host default locale (en-US). */
export function sortDefaultLocale<T>(items: readonly T[], key: (item: T) => string): T[] {
  return stableSorted(items, (a, b) => compareDefaultLocale(key(a), key(b)));
}
