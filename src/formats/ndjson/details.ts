/**
 * The facts every NDJSON format reports in `report.details` about the stream itself (README,
 * 'The report'); each format adds its own counts.
 * @module
 */

export interface NdjsonStreamDetails {
  /** Lines read, blank ones included (the number of the last line seen). */
  readonly line_count: number;
  /** Bytes read from the input, before decompression. */
  readonly bytes_in: number;
  /** Bytes after decompression (as many as `bytes_in` for plain input). */
  readonly bytes_out: number;
  /** The input was gzip. */
  readonly compressed: boolean;
  /**
   * The checks over the whole input that were not made, because reading ended early: at damage in
   * the gzip container, or at a limit or an abort (which then stands alone: nothing after it is
   * compared). Absent when the input was read to its end.
   */
  readonly not_checked?: readonly string[];
}
