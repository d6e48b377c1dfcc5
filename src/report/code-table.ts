/**
 * Shape of a finding-code table. Each format keeps its own table in `src/formats/<id>/codes.ts`;
 * `codes.ts` joins them into the one closed list.
 * @module
 */
import type { Dimension } from './types.ts';

export interface CodeInfo {
  /** Which verdict dimension an error with this code fails (`input` makes the overall `error`). */
  readonly dimension: Dimension;
  /** One line for the README table: what the code means. */
  readonly summary: string;
}

export type CodeTable = Readonly<Record<string, CodeInfo>>;
