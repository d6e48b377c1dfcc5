/**
 * The coordinator's own histories (docs/agentxchain-report.md §5): its timeline with one narrative
 * line per entry, the child-repo events it aggregated, its barriers and their transitions, and
 * the recovery report.
 * @module
 */
import { sortEn } from './collation.ts';
import { decodeUtf8Lenient } from '../../../encoding/utf8.ts';
import { decodeContentBase64 } from '../base64-fast-path.ts';
import { toRecord } from './run-state.ts';
import {
  arrayOr,
  field,
  fileData,
  isJsonObject,
  isNonEmptyArray,
  keysOf,
  prop,
  text,
  type ParsedObject,
  type ParsedValue,
} from './values.ts';

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
const lengthOf = (value: ParsedValue): number => (Array.isArray(value) ? value.length : 0);

/** The narrative line of one coordinator history entry. */
function narrative(e: ParsedObject): string {
  const type = text(e['type'] || 'unknown');
  const or = (key: string, fallback: string): string => text(e[key] || fallback);
  switch (type) {
    case 'run_initialized':
      return `Coordinator run initialized with ${count(e['repo_runs'] ? keysOf(e['repo_runs']).length : 0, 'repo')}`;
    case 'turn_dispatched':
      return `Dispatched turn to ${or('repo_id', 'unknown')} (${or('role', '?')}) in workstream ${or('workstream_id', 'unknown')}`;
    case 'acceptance_projection':
      return `Projected acceptance from ${or('repo_id', 'unknown')}${e['repo_turn_id'] ? ` (turn ${text(e['repo_turn_id'])})` : ''}${e['summary'] ? ` — ${text(e['summary'])}` : ''}`;
    case 'context_generated':
      return `Generated cross-repo context for ${or('target_repo_id', 'unknown')} from ${count(lengthOf(e['upstream_repo_ids']), 'upstream repo')}`;
    case 'phase_transition_requested':
      return `Requested phase transition: ${or('from', '?')} → ${or('to', '?')}`;
    case 'phase_transition_approved':
      return `Phase transition approved: ${or('from', '?')} → ${or('to', '?')}`;
    case 'run_completion_requested':
      return `Requested run completion (gate: ${or('gate', 'unknown')})`;
    case 'run_completed':
      return 'Coordinator run completed';
    case 'state_resynced':
      return `Resynced state for ${count(lengthOf(e['resynced_repos']), 'repo')}, ${count(lengthOf(e['barrier_changes']), 'barrier change')}`;
    case 'blocked_resolved':
      return `Blocked state resolved: ${or('from', '?')} → ${or('to', '?')}`;
    default:
      return `${type} event${e['timestamp'] ? ` at ${text(e['timestamp'])}` : ''}`;
  }
}

export interface CoordinatorTimelineEntry {
  type: ParsedValue;
  timestamp: ParsedValue;
  summary: string;
  repo_id: ParsedValue;
  workstream_id: ParsedValue;
  details: Record<string, ParsedValue> | null;
}

/** `coordinator_timeline`. */
export function coordinatorTimeline(artifact: ParsedValue): CoordinatorTimelineEntry[] {
  const data = fileData(artifact, '.agentxchain/multirepo/history.jsonl');
  if (!isNonEmptyArray(data)) return [];
  return data.filter(isJsonObject).map((e) => {
    const details: Record<string, ParsedValue> = {};
    if (e['gate']) details['gate'] = e['gate'];
    if (e['projection_ref']) details['projection_ref'] = e['projection_ref'];
    if (e['context_ref']) details['context_ref'] = e['context_ref'];
    if (isNonEmptyArray(e['barrier_changes'])) details['barrier_changes'] = e['barrier_changes'];
    if (e['blocked_reason']) details['blocked_reason'] = e['blocked_reason'];
    return {
      type: e['type'] || 'unknown',
      timestamp: e['timestamp'] || null,
      summary: narrative(e),
      repo_id: e['repo_id'] || e['target_repo_id'] || null,
      workstream_id: e['workstream_id'] || null,
      details: Object.keys(details).length > 0 ? details : null,
    };
  });
}

export interface AggregatedEvent {
  repo_id: ParsedValue;
  type: ParsedValue;
  timestamp: ParsedValue;
  run_id: ParsedValue;
  event_id: ParsedValue;
  summary: string;
}

/** `aggregated_event_timeline`: `summary.aggregated_events.events`. */
export function aggregatedEventTimeline(artifact: ParsedValue): AggregatedEvent[] {
  const events = prop(prop(prop(artifact, 'summary'), 'aggregated_events'), 'events');
  if (!isNonEmptyArray(events)) return [];
  return events.map((e) => {
    const type = prop(e, 'event_type') || prop(e, 'type') || 'unknown';
    return {
      repo_id: field(e, 'repo_id'),
      type,
      timestamp: field(e, 'timestamp'),
      run_id: field(e, 'run_id'),
      event_id: field(e, 'event_id'),
      summary: `[${text(prop(e, 'repo_id') || '?')}] ${text(type)} at ${text(prop(e, 'timestamp') || '?')}`,
    };
  });
}

export interface BarrierRow {
  barrier_id: string;
  workstream_id: ParsedValue;
  type: ParsedValue;
  status: ParsedValue;
  required_repos: readonly ParsedValue[];
  satisfied_repos: readonly ParsedValue[];
  required_decision_ids_by_repo?: ParsedObject;
  satisfied_decision_ids_by_repo?: Record<string, ParsedValue[]>;
}

/** `barrier_summary`. */
export function barrierSummary(artifact: ParsedValue): BarrierRow[] {
  const data = fileData(artifact, '.agentxchain/multirepo/barriers.json');
  if (!isJsonObject(data)) return [];
  const entries = sortEn(
    Object.entries(data).filter((entry): entry is [string, ParsedObject] => isJsonObject(entry[1])),
    ([id]) => id,
  );
  return entries.map(([id, b]) => {
    const row: BarrierRow = {
      barrier_id: id,
      workstream_id: b['workstream_id'] || null,
      type: b['type'] || 'unknown',
      status: b['status'] || 'unknown',
      required_repos: arrayOr(b['required_repos']),
      satisfied_repos: arrayOr(b['satisfied_repos']),
    };
    const ids = b['required_decision_ids_by_repo'] || b['alignment_decision_ids'] || null;
    if (isJsonObject(ids)) {
      row.required_decision_ids_by_repo = ids;
      const satisfied = new Set(row.satisfied_repos);
      const byRepo = new Map<string, ParsedValue[]>();
      for (const [repo, list] of Object.entries(ids))
        byRepo.set(repo, satisfied.has(repo) && (Array.isArray(list) || typeof list === 'string') ? [...list] : []);
      row.satisfied_decision_ids_by_repo = toRecord(byRepo);
    }
    return row;
  });
}

function transitionSummary(e: ParsedObject): string {
  const id = text(e['barrier_id'] || '?');
  const previous = text(e['previous_status'] || '?');
  const next = text(e['new_status'] || '?');
  const repo = prop(e['causation'], 'repo_id') || null;
  if (previous === 'pending' && next === 'partially_satisfied')
    return `Barrier ${id}: first repo satisfied${repo ? ` (${text(repo)})` : ''}`;
  if (previous === 'partially_satisfied' && next === 'satisfied')
    return `Barrier ${id}: all repos satisfied${repo ? ` (${text(repo)} completed the set)` : ''}`;
  if (previous === 'pending' && next === 'satisfied')
    return `Barrier ${id}: satisfied${repo ? ` (single-repo barrier, ${text(repo)})` : ''}`;
  if (next === 'completed') return `Barrier ${id}: completed`;
  return `Barrier ${id}: ${previous} → ${next}`;
}

export interface BarrierTransition {
  barrier_id: ParsedValue;
  timestamp: ParsedValue;
  previous_status: ParsedValue;
  new_status: ParsedValue;
  summary: string;
  workstream_id: ParsedValue;
  repo_id: ParsedValue;
  trigger: ParsedValue;
}

/** `barrier_ledger_timeline`. */
export function barrierLedgerTimeline(artifact: ParsedValue): BarrierTransition[] {
  const data = fileData(artifact, '.agentxchain/multirepo/barrier-ledger.jsonl');
  if (!isNonEmptyArray(data)) return [];
  return data
    .filter((e): e is ParsedObject => isJsonObject(e) && e['type'] === 'barrier_transition')
    .map((e) => ({
      barrier_id: e['barrier_id'] || 'unknown',
      timestamp: e['timestamp'] || null,
      previous_status: e['previous_status'] || 'unknown',
      new_status: e['new_status'] || 'unknown',
      summary: transitionSummary(e),
      workstream_id: field(e['causation'], 'workstream_id'),
      repo_id: field(e['causation'], 'repo_id'),
      trigger: field(e['causation'], 'trigger'),
    }));
}

export interface RecoveryReport {
  present: true;
  trigger: string | null;
  impact: string | null;
  mitigation: string | null;
  owner: string | null;
  exit_condition: string | null;
}

/** A `## Heading` section of the recovery report: up to the next `## ` line, trimmed; null when empty or "(…)". */
function section(content: string, heading: string): string | null {
  const match = new RegExp(`^${heading}\\s*$`, 'm').exec(content);
  if (!match) return null;
  const start = match.index + match[0].length;
  const rest = content.slice(start);
  const next = /^## /m.exec(rest);
  const body = (next ? rest.slice(0, next.index) : rest).trim();
  return !body || /^\(.*\)$/.test(body) ? null : body;
}

/** `recovery_report`. */
export function recoveryReport(artifact: ParsedValue): RecoveryReport | null {
  const entry = prop(prop(artifact, 'files'), '.agentxchain/multirepo/RECOVERY_REPORT.md');
  if (!entry) return null;
  const data = prop(entry, 'data');
  const base64 = prop(entry, 'content_base64');
  const content =
    typeof data === 'string' ? data : base64 ? decodeUtf8Lenient(decodeContentBase64(text(base64))) : null;
  if (!content) return null;
  return {
    present: true,
    trigger: section(content, '## Trigger'),
    impact: section(content, '## Impact'),
    mitigation: section(content, '## Mitigation'),
    owner: section(content, '## Owner'),
    exit_condition: section(content, '## Exit Condition'),
  };
}
