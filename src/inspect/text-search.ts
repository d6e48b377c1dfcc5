/**
 * The kit's own search of view items: plain text, case-insensitive, never a regular expression
 * (a hostile pattern cannot backtrack), counted exactly over every item, including the ones a
 * view has not drawn (virtualised rows and collapsed bodies defeat the browser's find).
 * @module
 */

/** A compiled needle: `test` answers whether any of an item's texts contains it. */
export interface TextSearch {
  readonly needle: string;
  test(texts: readonly string[]): boolean;
}

/**
 * Compiles `search` (undefined or blank means no search).
 * @example
 * createTextSearch('Err')?.test(['an ERROR here']); // true
 */
export function createTextSearch(search: string | undefined): TextSearch | undefined {
  if (search === undefined || search.trim() === '') return undefined;
  const needle = search.toLowerCase();
  return {
    needle,
    test(texts) {
      for (const text of texts) if (text.toLowerCase().includes(needle)) return true;
      return false;
    },
  };
}

/**
 * Start offsets of the case-insensitive occurrences of `needle` in `text`, for highlighting
 * (at most `max`). Lower-casing may change lengths for a few characters; those offsets are then
 * approximate, never out of range.
 * @example
 * findOccurrences('a b A', 'a'); // [0, 4]
 */
export function findOccurrences(text: string, needle: string, max = 1000): number[] {
  if (needle === '') return [];
  const lower = text.toLowerCase();
  const found: number[] = [];
  for (let at = lower.indexOf(needle); at >= 0 && found.length < max; at = lower.indexOf(needle, at + needle.length))
    found.push(Math.min(at, text.length));
  return found;
}

/** A page's window over `total` items: the clamped start and end. */
export function pageWindow(total: number, from: number, count: number): { start: number; end: number } {
  const start = Math.max(0, Math.min(Number.isFinite(from) ? Math.floor(from) : 0, total));
  const size = Math.max(0, Math.min(Number.isFinite(count) ? Math.floor(count) : 0, 10_000));
  return { start, end: Math.min(total, start + size) };
}
