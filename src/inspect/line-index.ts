/**
 * Where each line of the kept bytes starts, noted once so an inspector can read any line again
 * without keeping a decoded copy (docs/architecture.md, 'Web component': views page items out of
 * the verified bytes). Lines are numbered as the NDJSON verifiers number them: every `\n` ends
 * one, blank lines count, and a last line without `\n` still counts.
 * @module
 */

/** Start offsets of the lines of one byte array. */
export interface LineIndex {
  /** `starts[i]` is the offset of line `i + 1`; only the first `count` entries are used. */
  readonly starts: Uint32Array;
  readonly count: number;
  /** Length of the bytes indexed. */
  readonly size: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Notes where every line starts (one pass, `indexOf` per line).
 * @example
 * indexLines(new TextEncoder().encode('a\nbc\n')).count; // 2
 */
export function indexLines(bytes: Uint8Array): LineIndex {
  let starts = new Uint32Array(1024);
  let count = 0;
  let at = 0;
  while (at < bytes.length) {
    if (count === starts.length) {
      const grown = new Uint32Array(starts.length * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[count++] = at;
    const end = bytes.indexOf(LF, at);
    if (end < 0) break;
    at = end + 1;
  }
  return { starts, count, size: bytes.length };
}

/**
 * The bytes of line `number` (1-based), without its `\n` and without the `\r` of a `\r\n`: a view
 * into `bytes`, no copy. Empty for a number out of range.
 * @example
 * const bytes = new TextEncoder().encode('a\r\nbc');
 * lineBytes(bytes, indexLines(bytes), 2); // the bytes of 'bc'
 */
export function lineBytes(bytes: Uint8Array, index: LineIndex, number: number): Uint8Array {
  if (!(number >= 1 && number <= index.count)) return bytes.subarray(0, 0);
  const start = index.starts[number - 1]!;
  let end = number < index.count ? index.starts[number]! - 1 : index.size;
  if (number === index.count && end > start && bytes[end - 1] === LF) end--;
  if (end > start && bytes[end - 1] === CR) end--;
  return bytes.subarray(start, end);
}
