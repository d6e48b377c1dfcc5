/**
 * Shapes of the finding-code tables. Each format keeps its codes in `src/formats/<id>/codes.ts`,
 * in two tables over the same keys (the compiler holds them equal): the verdict dimension each
 * code fails, which verification needs, and a one-line summary, which only documentation needs,
 * so that bundles of the verifiers carry no summaries. `src/codes.ts` joins them.
 * @module
 */
import type { Dimension } from './types.ts';

/** A code's row in the joined table `CODES`. */
export interface CodeInfo {
  /** Which verdict dimension an error with this code fails (`input` makes the overall `error`). */
  readonly dimension: Dimension;
  /** One line for the README table: what the code means. */
  readonly summary: string;
}

/** Code → the dimension it fails. */
export type DimensionTable = Readonly<Record<string, Dimension>>;

/** Code → its one-line summary, for exactly the codes of `Table`. */
export type SummaryTable<Table extends DimensionTable> = Readonly<Record<keyof Table, string>>;
