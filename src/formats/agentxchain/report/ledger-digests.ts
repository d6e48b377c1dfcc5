/**
 * Digests of a decision ledger (docs/agentxchain-report.md §4.7): approval-policy events, gate
 * failures, gate actions, governance events and timeout events.
 * @module
 */
import { sortDefaultLocale } from './collation.ts';
import { arrayOr, field, integerOrNull, isJsonObject, numberOrNull, prop, text, type ParsedValue } from './values.ts';

export interface ApprovalPolicyEvent {
  gate_type: ParsedValue;
  action: ParsedValue;
  matched_rule: ParsedValue;
  from_phase: ParsedValue;
  to_phase: ParsedValue;
  reason: ParsedValue;
  gate_id: ParsedValue;
  timestamp: ParsedValue;
}

export interface GateFailure {
  gate_type: ParsedValue;
  gate_id: ParsedValue;
  phase: ParsedValue;
  from_phase: ParsedValue;
  to_phase: ParsedValue;
  requested_by_turn: ParsedValue;
  failed_at: ParsedValue;
  queued_request: boolean;
  reasons: readonly ParsedValue[];
  missing_files: readonly ParsedValue[];
  missing_verification: boolean;
}

export interface GateAction {
  attempt_id: ParsedValue;
  gate_id: ParsedValue;
  gate_type: ParsedValue;
  phase: ParsedValue;
  requested_by_turn: ParsedValue;
  trigger_command: ParsedValue;
  action_index: number | null;
  action_label: ParsedValue;
  command: ParsedValue;
  status: ParsedValue;
  exit_code: number | null;
  signal: ParsedValue;
  stdout_tail: ParsedValue;
  stderr_tail: ParsedValue;
  spawn_error: ParsedValue;
  timeout_ms: number | null;
  timed_out: boolean;
  timestamp: ParsedValue;
}

/** A governance event: the common head, then the fields of its type. */
export type GovernanceEvent = Record<string, ParsedValue> & { type: string };

export interface TimeoutEvent {
  type: string;
  scope: ParsedValue;
  phase: ParsedValue;
  turn_id: ParsedValue;
  limit_minutes: number | null;
  elapsed_minutes: number | null;
  exceeded_by_minutes: number | null;
  action: ParsedValue;
  timestamp: ParsedValue;
}

const GOVERNANCE_TYPES = new Set([
  'policy_escalation',
  'conflict_detected',
  'conflict_rejected',
  'conflict_resolution_selected',
  'operator_escalated',
  'escalation_resolved',
]);

/** `(x.timestamp || "")` as the string `localeCompare` converts it to. */
const timestampKey = (item: { timestamp: ParsedValue }): string => text(item.timestamp || '');

/** `approval_policy_events`: ledger entries of type `approval_policy`, file order. */
export function approvalPolicyEvents(entries: readonly ParsedValue[]): ApprovalPolicyEvent[] {
  return entries
    .filter((d) => prop(d, 'type') === 'approval_policy')
    .map((d) => ({
      gate_type: field(d, 'gate_type'),
      action: field(d, 'action'),
      matched_rule: field(d, 'matched_rule'),
      from_phase: field(d, 'from_phase'),
      to_phase: field(d, 'to_phase'),
      reason: prop(d, 'reason') || '',
      gate_id: field(d, 'gate_id'),
      timestamp: field(d, 'timestamp'),
    }));
}

/** `gate_failures`: ledger entries of type `gate_failure`, file order. */
export function gateFailures(entries: readonly ParsedValue[]): GateFailure[] {
  return entries
    .filter((d) => prop(d, 'type') === 'gate_failure')
    .map((d) => ({
      gate_type: field(d, 'gate_type'),
      gate_id: field(d, 'gate_id'),
      phase: field(d, 'phase'),
      from_phase: field(d, 'from_phase'),
      to_phase: field(d, 'to_phase'),
      requested_by_turn: field(d, 'requested_by_turn'),
      failed_at: field(d, 'failed_at'),
      queued_request: prop(d, 'queued_request') === true,
      reasons: arrayOr(prop(d, 'reasons')),
      missing_files: arrayOr(prop(d, 'missing_files')),
      missing_verification: prop(d, 'missing_verification') === true,
    }));
}

/** `gate_actions`: ledger entries of type `gate_action`, by timestamp (host default collation). */
export function gateActions(entries: readonly ParsedValue[]): GateAction[] {
  const actions = entries
    .filter((d) => d && prop(d, 'type') === 'gate_action')
    .map((d) => ({
      attempt_id: field(d, 'attempt_id'),
      gate_id: field(d, 'gate_id'),
      gate_type: field(d, 'gate_type'),
      phase: field(d, 'phase'),
      requested_by_turn: field(d, 'requested_by_turn'),
      trigger_command: field(d, 'trigger_command'),
      action_index: integerOrNull(prop(d, 'action_index')),
      action_label: field(d, 'action_label'),
      command: field(d, 'command'),
      status: prop(d, 'status') || 'unknown',
      exit_code: integerOrNull(prop(d, 'exit_code')),
      signal: field(d, 'signal'),
      stdout_tail: field(d, 'stdout_tail'),
      stderr_tail: field(d, 'stderr_tail'),
      spawn_error: field(d, 'spawn_error'),
      timeout_ms: integerOrNull(prop(d, 'timeout_ms')),
      timed_out: prop(d, 'timed_out') === true,
      timestamp: field(d, 'timestamp'),
    }));
  return sortDefaultLocale(actions, timestampKey);
}

/** Non-empty strings of an array. */
function nonEmptyStrings(list: readonly ParsedValue[]): string[] {
  return list.filter((v): v is string => typeof v === 'string' && v.length > 0);
}

function conflictingFiles(conflict: ParsedValue): string[] {
  if (!isJsonObject(conflict)) return [];
  const files = Array.isArray(conflict['conflicting_files'])
    ? conflict['conflicting_files']
    : Array.isArray(conflict['files'])
      ? conflict['files']
      : null;
  return files === null ? [] : nonEmptyStrings(files);
}

function acceptedSinceTurnIds(conflict: ParsedValue): string[] {
  if (!isJsonObject(conflict)) return [];
  if (Array.isArray(conflict['accepted_since_turn_ids'])) return nonEmptyStrings(conflict['accepted_since_turn_ids']);
  if (!Array.isArray(conflict['accepted_since'])) return [];
  const ids: string[] = [];
  for (const item of conflict['accepted_since']) {
    if (typeof item === 'string') ids.push(item);
    else if (typeof prop(item, 'turn_id') === 'string') ids.push(prop(item, 'turn_id') as string);
  }
  return ids.filter((id) => id.length > 0);
}

function conflictFields(d: ParsedValue): Record<string, ParsedValue> {
  const conflict = prop(d, 'conflict');
  const ratio = prop(conflict, 'overlap_ratio');
  return {
    conflicting_files: conflictingFiles(conflict),
    accepted_since_turn_ids: acceptedSinceTurnIds(conflict),
    overlap_ratio: typeof ratio === 'number' ? ratio : null,
  };
}

function governanceEvent(d: ParsedValue): GovernanceEvent {
  const type = prop(d, 'decision') as string;
  const head: GovernanceEvent = {
    type,
    timestamp: field(d, 'timestamp'),
    turn_id: field(d, 'turn_id'),
    role: field(d, 'role'),
    phase: field(d, 'phase'),
  };
  switch (type) {
    case 'policy_escalation': {
      const violations = prop(d, 'violations');
      // A null element throws in the reference (`v.policy_id`); it reads as an empty violation here.
      head['violations'] = Array.isArray(violations)
        ? violations.map((v) => ({
            policy_id: field(v, 'policy_id'),
            rule: field(v, 'rule'),
            message: field(v, 'message'),
          }))
        : [];
      return head;
    }
    case 'conflict_detected':
      return { ...head, ...conflictFields(d) };
    case 'conflict_rejected':
      return { ...head, ...conflictFields(d), operator_reason: field(d, 'operator_reason') };
    case 'conflict_resolution_selected':
      return {
        ...head,
        ...conflictFields(d),
        resolution_method: prop(d, 'resolution_chosen') || prop(prop(d, 'conflict'), 'resolution') || null,
      };
    case 'operator_escalated':
      return { ...head, blocked_on: field(d, 'blocked_on'), reason: field(prop(d, 'escalation'), 'reason') };
    default:
      return { ...head, resolved_via: field(d, 'resolved_via'), previous_blocked_on: field(d, 'blocked_on') };
  }
}

/** `governance_events`: escalations and conflicts of the ledger, by timestamp (host default collation). */
export function governanceEvents(entries: readonly ParsedValue[]): GovernanceEvent[] {
  const events = entries.filter((d) => GOVERNANCE_TYPES.has(prop(d, 'decision') as string)).map(governanceEvent);
  return sortDefaultLocale(events, (event) => text(event['timestamp'] || ''));
}

/** `timeout_events`: ledger entries whose type starts with `timeout`, file order. */
export function timeoutEvents(entries: readonly ParsedValue[]): TimeoutEvent[] {
  return entries
    .filter((d) => {
      const type = prop(d, 'type');
      return typeof type === 'string' && type.startsWith('timeout');
    })
    .map((d) => ({
      type: prop(d, 'type') as string,
      scope: field(d, 'scope'),
      phase: field(d, 'phase'),
      turn_id: field(d, 'turn_id'),
      limit_minutes: numberOrNull(prop(d, 'limit_minutes')),
      elapsed_minutes: numberOrNull(prop(d, 'elapsed_minutes')),
      exceeded_by_minutes: numberOrNull(prop(d, 'exceeded_by_minutes')),
      action: field(d, 'action'),
      timestamp: field(d, 'timestamp'),
    }));
}
