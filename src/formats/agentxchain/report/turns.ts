/**
 * The history timeline and the decision list (docs/agentxchain-report.md §4.3, §4.4).
 * @module
 */
import { stableSorted } from './collation.ts';
import { arrayOr, field, fileEntries, isFiniteNumber, isNonEmptyArray, prop, type ParsedValue } from './values.ts';

export const HISTORY = '.agentxchain/history.jsonl';
export const DECISION_LEDGER = '.agentxchain/decision-ledger.jsonl';

/** One turn of the timeline, keys in the reference's order (optional keys are omitted when undefined). */
export interface TimelineTurn {
  turn_id: string;
  role: string;
  status: ParsedValue;
  summary: ParsedValue;
  phase: ParsedValue;
  phase_transition: ParsedValue;
  files_changed_count: number;
  concurrent_with?: ParsedValue[] | undefined;
  sibling_attributed_files?: ParsedValue[] | undefined;
  decisions: ParsedValue[];
  objections: ParsedValue[];
  cost_usd: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  started_at: ParsedValue;
  duration_ms: number | null;
  accepted_at: ParsedValue;
}

/** A decision of the ledger. */
export interface LedgerDecision {
  id: string;
  turn_id: ParsedValue;
  role: ParsedValue;
  phase: ParsedValue;
  statement: ParsedValue;
}

/**
 * The turn's cost in USD. The reference reads `cost.total_usd` only, while accepted turns record
 * `cost.usd`; `corrected` reads `cost.usd` when `total_usd` is not a number.
 */
function costUsd(cost: ParsedValue, corrected: boolean): number | null {
  const total = prop(cost, 'total_usd');
  if (typeof total === 'number') return total;
  const usd = prop(cost, 'usd');
  return corrected && typeof usd === 'number' ? usd : null;
}

/** `ids.map(d => d?.id || d).filter(Boolean)` over an array, else `[]`. */
function idsOf(list: ParsedValue): ParsedValue[] {
  return arrayOr(list)
    .map((item) => prop(item, 'id') || item)
    .filter(Boolean);
}

/** `(a.accepted_sequence || 0) - (b.accepted_sequence || 0)` with JS subtraction. */
function sequenceDifference(a: ParsedValue, b: ParsedValue): number {
  return ((prop(a, 'accepted_sequence') || 0) as number) - ((prop(b, 'accepted_sequence') || 0) as number);
}

/** §4.3: the history timeline of an export (run or child). */
export function timelineTurns(artifact: ParsedValue, corrected: boolean): TimelineTurn[] {
  const entries = fileEntries(artifact, HISTORY).filter(
    (e) => typeof prop(e, 'turn_id') === 'string' && typeof prop(e, 'role') === 'string',
  );
  return stableSorted(entries, sequenceDifference).map((e) => {
    const cost = prop(e, 'cost');
    const tokens = (key: string): number | null => {
      const value = prop(cost, key);
      return isFiniteNumber(value) ? value : null;
    };
    const concurrent = prop(e, 'concurrent_with');
    const siblings = prop(prop(e, 'observed_artifact'), 'attributed_to_concurrent_siblings');
    const files = prop(e, 'files_changed');
    const duration = prop(e, 'duration_ms');
    return {
      turn_id: prop(e, 'turn_id') as string,
      role: prop(e, 'role') as string,
      status: prop(e, 'status') || 'unknown',
      summary: prop(e, 'summary') || '',
      phase: field(e, 'phase'),
      phase_transition: field(e, 'phase_transition_request'),
      files_changed_count: Array.isArray(files) ? files.length : 0,
      concurrent_with: isNonEmptyArray(concurrent) ? concurrent : undefined,
      sibling_attributed_files: isNonEmptyArray(siblings) ? siblings : undefined,
      decisions: idsOf(prop(e, 'decisions')),
      objections: idsOf(prop(e, 'objections')),
      cost_usd: costUsd(cost, corrected),
      input_tokens: tokens('input_tokens'),
      output_tokens: tokens('output_tokens'),
      started_at: field(e, 'started_at'),
      duration_ms: typeof duration === 'number' ? duration : null,
      accepted_at: field(e, 'accepted_at'),
    };
  });
}

/** §4.4: ledger entries with a string `id`, file order. */
export function ledgerDecisions(artifact: ParsedValue, ledgerPath = DECISION_LEDGER): LedgerDecision[] {
  return fileEntries(artifact, ledgerPath)
    .filter((d) => typeof prop(d, 'id') === 'string')
    .map((d) => ({
      id: prop(d, 'id') as string,
      turn_id: field(d, 'turn_id'),
      role: field(d, 'role'),
      phase: field(d, 'phase'),
      statement: prop(d, 'statement') || '',
    }));
}
