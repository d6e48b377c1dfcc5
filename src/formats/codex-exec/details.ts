/**
 * What `verifyCodexExec` puts in `report.details` (README, 'The report').
 * @module
 */
import type { NdjsonStreamDetails } from '../ndjson/details.ts';

/** What the event checker counts. */
export interface CodexExecCounts {
  /** `exec:begin` records: attempts begun. */
  readonly attempts: number;
  /** `exec:chunk` records. */
  readonly chunk_count: number;
  /** Records per `type` (`exec:begin`, `exec:chunk`, `exec:retry`, `exec:end`, `run:summary`, `other`). */
  readonly records_by_type: Readonly<Record<string, number>>;
}

export interface CodexExecDetails extends NdjsonStreamDetails, CodexExecCounts {
  /** Always `exec-jsonl`, like `report.kind`. */
  readonly schema: 'exec-jsonl';
}
