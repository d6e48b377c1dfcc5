/**
 * The delegation summary as the report normalises it (docs/agentxchain-report.md §4.8): the
 * claimed `summary.delegation_summary` when well formed, else the reconstruction from the history
 * (the verifier's `summaries/delegation.ts`), else `null`.
 * @module
 */
import { buildExpectedDelegationSummary } from '../summaries/delegation.ts';
import { isJsonObject, isNonEmptyString, prop, type ParsedValue } from './values.ts';

export interface DelegationRow {
  delegation_id: string;
  to_role: string;
  charter: string;
  required_decision_ids: ParsedValue[];
  satisfied_decision_ids: ParsedValue[];
  missing_decision_ids: ParsedValue[];
  status: string;
  child_turn_id: string | null;
}

export interface DelegationChain {
  parent_turn_id: string;
  parent_role: string;
  delegations: DelegationRow[];
  review_turn_id: string | null;
  outcome: string;
}

export interface DelegationSummary {
  total_delegations_issued: number;
  delegation_chains: DelegationChain[];
}

const CHAIN_OUTCOMES = new Set<ParsedValue>(['completed', 'failed', 'mixed', 'pending']);
const DELEGATION_STATUSES = new Set<ParsedValue>(['completed', 'failed', 'pending']);

const nullOrNonEmpty = (value: ParsedValue): boolean => value === null || isNonEmptyString(value);
const listOf = (value: ParsedValue): ParsedValue[] => (Array.isArray(value) ? value : []);

function normalizeDelegation(value: ParsedValue): DelegationRow | null {
  if (!isJsonObject(value)) return null;
  const { delegation_id: id, to_role: role, charter, status, child_turn_id: child } = value;
  if (!isNonEmptyString(id) || !isNonEmptyString(role) || typeof charter !== 'string') return null;
  if (!DELEGATION_STATUSES.has(status) || !nullOrNonEmpty(child)) return null;
  return {
    delegation_id: id,
    to_role: role,
    charter,
    required_decision_ids: listOf(value['required_decision_ids']),
    satisfied_decision_ids: listOf(value['satisfied_decision_ids']),
    missing_decision_ids: listOf(value['missing_decision_ids']),
    status: status as string,
    child_turn_id: child as string | null,
  };
}

function normalizeChain(value: ParsedValue): DelegationChain | null {
  if (!isJsonObject(value)) return null;
  const { parent_turn_id: parent, parent_role: role, delegations, review_turn_id: review, outcome } = value;
  if (!isNonEmptyString(parent) || !isNonEmptyString(role) || !Array.isArray(delegations)) return null;
  if (!nullOrNonEmpty(review) || !CHAIN_OUTCOMES.has(outcome)) return null;
  const rows: DelegationRow[] = [];
  for (const delegation of delegations) {
    const row = normalizeDelegation(delegation);
    if (row === null) return null;
    rows.push(row);
  }
  return {
    parent_turn_id: parent,
    parent_role: role,
    delegations: rows,
    review_turn_id: review as string | null,
    outcome: outcome as string,
  };
}

/** Normalises a delegation summary; `null` when anything in it is malformed. */
export function normalizeDelegationSummary(value: ParsedValue): DelegationSummary | null {
  if (!isJsonObject(value)) return null;
  const total = value['total_delegations_issued'];
  if (!Number.isInteger(total) || (total as number) < 0 || !Array.isArray(value['delegation_chains'])) return null;
  const chains: DelegationChain[] = [];
  for (const chain of value['delegation_chains']) {
    const normalized = normalizeChain(chain);
    if (normalized === null) return null;
    chains.push(normalized);
  }
  return { total_delegations_issued: total as number, delegation_chains: chains };
}

/** §4.8 for a run export. */
export function delegationSummary(artifact: ParsedValue): DelegationSummary | null {
  const claimed = normalizeDelegationSummary(prop(prop(artifact, 'summary'), 'delegation_summary'));
  if (claimed !== null) return claimed;
  let rebuilt: ParsedValue;
  try {
    rebuilt = buildExpectedDelegationSummary(prop(artifact, 'files') || {});
  } catch {
    // Only where the verifier has already failed the export (a null history entry).
    return null;
  }
  return normalizeDelegationSummary(rebuilt);
}
