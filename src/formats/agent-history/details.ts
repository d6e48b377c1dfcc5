/**
 * What `verifyAgentHistory` puts in `report.details` (README, 'The report').
 * @module
 */
import type { NdjsonStreamDetails } from '../ndjson/details.ts';

/** The two shapes (docs/agent-history.md §1), as reported in `report.kind` and `details.schema`. */
export type AgentHistorySchema = 'design-1.0' | 'impl-2.0';

/** What a shape's checker counts. */
export interface AgentHistoryCounts {
  /** Session lines (design-1.0), or 1 when the closing session record was seen (impl-2.0). */
  readonly session_count: number;
  /** Messages: inside the sessions (design-1.0), or message lines (impl-2.0). */
  readonly message_count: number;
  /** Records per `type`; types the shape does not know are counted as `other`. */
  readonly records_by_type: Readonly<Record<string, number>>;
}

export interface AgentHistoryDetails extends NdjsonStreamDetails, AgentHistoryCounts {
  /** The shape, picked from the first record; `null` when no line held a record. */
  readonly schema: AgentHistorySchema | null;
}
