/**
 * The smaller run-state digests of the report (docs/agentxchain-report.md §4.9, §4.10, §4.11,
 * §4.13, §4.15–§4.18): hooks, gates, intake links, continuity, provenance, budget, dashboard
 * session and workflow-kit artifacts.
 * @module
 */
import { sortEn, stableSorted } from './collation.ts';
import { parseDate } from './date-parse.ts';
import {
  field,
  fileData,
  integerOrNull,
  isFiniteNumber,
  isJsonObject,
  isNonEmptyArray,
  isNonEmptyString,
  isObjectLike,
  keysOf,
  prop,
  text,
  trimmed,
  type ParsedValue,
} from './values.ts';

export interface HookSummary {
  total: number;
  blocked: number;
  events: Record<string, number>;
}

/** §4.9. */
export function hookSummary(artifact: ParsedValue): HookSummary | null {
  const data = fileData(artifact, '.agentxchain/hook-audit.jsonl');
  if (!isNonEmptyArray(data)) return null;
  const events = new Map<string, number>();
  let blocked = 0;
  for (const entry of data) {
    const event = text(prop(entry, 'event') || 'unknown');
    events.set(event, (events.get(event) ?? 0) + 1);
    if (prop(entry, 'blocked') || prop(entry, 'result') === 'blocked') blocked++;
  }
  return { total: data.length, blocked, events: toRecord(events) };
}

/** A Map as a plain object in insertion order; integer-like keys move first, as in a JS object. */
export function toRecord<V>(entries: Map<string, V>): Record<string, V> {
  const record: Record<string, V> = {};
  for (const [key, value] of entries)
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  return record;
}

export interface GateStatus {
  gate_id: string;
  status: string;
}

/** §4.10. */
export function gateSummary(state: ParsedValue): GateStatus[] {
  const gates = prop(state, 'phase_gate_status');
  if (!isJsonObject(gates)) return [];
  return sortEn(Object.keys(gates), (id) => id).map((id) => ({
    gate_id: id,
    status: isNonEmptyString(gates[id]) ? (gates[id] as string) : 'unknown',
  }));
}

export interface IntakeLink {
  intent_id: string;
  event_id: ParsedValue;
  status: ParsedValue;
  priority: ParsedValue;
  template: ParsedValue;
  target_turn: ParsedValue;
  started_at: ParsedValue;
  updated_at: ParsedValue;
}

const INTENTS = '.agentxchain/intake/intents/';

/** §4.11. */
export function intakeLinks(artifact: ParsedValue): IntakeLink[] {
  const runId = prop(prop(artifact, 'summary'), 'run_id');
  if (!isNonEmptyString(runId)) return [];
  const files = prop(artifact, 'files');
  const intents: ParsedValue[] = [];
  for (const key of keysOf(files)) {
    if (!key.startsWith(INTENTS)) continue;
    const entry = prop(files, key);
    if (prop(entry, 'format') !== 'json') continue;
    const value = prop(entry, 'data');
    if (isObjectLike(value) && prop(value, 'target_run') === runId && typeof prop(value, 'intent_id') === 'string')
      intents.push(value);
  }
  const timeOf = (x: ParsedValue): number =>
    parseDate(prop(x, 'updated_at') || prop(x, 'started_at') || prop(x, 'created_at') || 0);
  return stableSorted(intents, (a, b) => timeOf(a) - timeOf(b)).map((x) => ({
    intent_id: prop(x, 'intent_id') as string,
    event_id: field(x, 'event_id'),
    status: field(x, 'status'),
    priority: field(x, 'priority'),
    template: field(x, 'template'),
    target_turn: field(x, 'target_turn'),
    started_at: field(x, 'started_at'),
    updated_at: field(x, 'updated_at'),
  }));
}

export interface Continuity {
  session_id: ParsedValue;
  run_id: ParsedValue;
  started_at: ParsedValue;
  last_checkpoint_at: ParsedValue;
  last_turn_id: ParsedValue;
  last_phase: ParsedValue;
  last_role: ParsedValue;
  checkpoint_reason: ParsedValue;
  stale_checkpoint: boolean;
}

/** §4.13. */
export function continuity(artifact: ParsedValue): Continuity | null {
  const checkpoint = fileData(artifact, '.agentxchain/session.json');
  if (!isObjectLike(checkpoint)) return null;
  const run = prop(prop(artifact, 'summary'), 'run_id') || prop(prop(artifact, 'state'), 'run_id') || null;
  const checkpointRun = prop(checkpoint, 'run_id');
  return {
    session_id: field(checkpoint, 'session_id'),
    run_id: field(checkpoint, 'run_id'),
    started_at: field(checkpoint, 'started_at'),
    last_checkpoint_at: field(checkpoint, 'last_checkpoint_at'),
    last_turn_id: field(checkpoint, 'last_turn_id'),
    last_phase: field(checkpoint, 'last_phase'),
    last_role: field(checkpoint, 'last_role'),
    checkpoint_reason: field(checkpoint, 'checkpoint_reason'),
    stale_checkpoint: !!(checkpointRun && run && checkpointRun !== run),
  };
}

export interface Provenance {
  trigger: string;
  parent_run_id: string | null;
  trigger_reason: string | null;
  intake_intent_id: string | null;
  created_by: string;
}

const TRIGGERS = new Set(['manual', 'continuation', 'recovery', 'intake', 'vision_scan', 'schedule', 'coordinator']);
const CREATORS = new Set(['operator', 'continuous_loop', 'coordinator']);

/** §4.15 (`normalizeRunProvenance`). */
export function normalizeProvenance(value: ParsedValue): Provenance | null {
  if (!isJsonObject(value)) return null;
  const trigger = trimmed(value['trigger']);
  if (trigger === null || !TRIGGERS.has(trigger)) return null;
  const creator = trimmed(value['created_by']);
  return {
    trigger,
    parent_run_id: trimmed(value['parent_run_id']),
    trigger_reason: trimmed(value['trigger_reason']),
    intake_intent_id: trimmed(value['intake_intent_id']),
    created_by: creator !== null && CREATORS.has(creator) ? creator : 'operator',
  };
}

/** The "Provenance" line of the renderers; `null` for none or for a plain manual run. */
export function provenanceLine(provenance: Provenance | null): string | null {
  if (provenance === null) return null;
  const { trigger, parent_run_id: parent, intake_intent_id: intent, trigger_reason: reason } = provenance;
  if (trigger === 'manual' && !parent && !intent && !reason && provenance.created_by !== 'coordinator') return null;
  const parts = [trigger];
  if (parent) parts.push(`from ${parent}`);
  if (intent) parts.push(`intent ${intent}`);
  const creator =
    provenance.created_by === 'coordinator'
      ? ' (created by coordinator)'
      : provenance.created_by === 'continuous_loop'
        ? ' (created by continuous loop)'
        : '';
  return `${parts.join(' ')}${creator}${reason ? ` ("${reason}")` : ''}`;
}

/** §4.16. */
export function budgetStatus(state: ParsedValue): Record<string, ParsedValue> | null {
  const budget = prop(state, 'budget_status');
  if (!isJsonObject(budget)) return null;
  const result: Record<string, ParsedValue> = {};
  if (isFiniteNumber(budget['spent_usd'])) result['spent_usd'] = budget['spent_usd'];
  if (isFiniteNumber(budget['remaining_usd'])) result['remaining_usd'] = budget['remaining_usd'];
  if (budget['warn_mode'] === true) result['warn_mode'] = true;
  if (budget['exhausted'] === true) result['exhausted'] = true;
  if (budget['exhausted_at']) result['exhausted_at'] = budget['exhausted_at'];
  if (budget['exhausted_after_turn']) result['exhausted_after_turn'] = budget['exhausted_after_turn'];
  return Object.keys(result).length > 0 ? result : null;
}

export interface DashboardSession {
  status: string;
  pid: number | null;
  url: string | null;
  started_at: string | null;
}

const DASHBOARD_STATUSES = new Set<ParsedValue>(['running', 'pid_only', 'stale', 'not_running']);

/** §4.17. */
export function dashboardSession(summary: ParsedValue): DashboardSession | null {
  const session = prop(summary, 'dashboard_session');
  if (!isJsonObject(session) || !DASHBOARD_STATUSES.has(session['status'])) return null;
  return {
    status: session['status'] as string,
    pid: integerOrNull(session['pid']),
    url: isNonEmptyString(session['url']) ? session['url'] : null,
    started_at: isNonEmptyString(session['started_at']) ? session['started_at'] : null,
  };
}

/** The "Dashboard session" line of the renderers. */
export function dashboardLine(session: DashboardSession): string {
  const pid = session.pid || '?';
  switch (session.status) {
    case 'running':
      return `running at ${session.url || 'unknown url'} (PID: ${pid})`;
    case 'pid_only':
      return `pid_only (PID: ${pid}, session metadata missing)`;
    case 'stale':
      return `stale session files${session.pid ? ` (PID: ${session.pid})` : ''}${session.url ? ` at ${session.url}` : ''}`;
    default:
      return 'not_running';
  }
}

export interface WorkflowArtifact {
  path: string;
  required: boolean;
  semantics: ParsedValue;
  owned_by: ParsedValue;
  owner_resolution: 'explicit' | 'entry_role';
  exists: boolean;
}

/** §4.18. */
export function workflowKitArtifacts(artifact: ParsedValue): WorkflowArtifact[] | null {
  const config = prop(artifact, 'config');
  if (!config || typeof config !== 'object' || !prop(config, 'workflow_kit')) return null;
  const phase = prop(prop(artifact, 'summary'), 'phase') || prop(prop(artifact, 'state'), 'phase');
  if (!phase) return null;
  const phaseKit = prop(prop(prop(config, 'workflow_kit'), 'phases'), phase as string);
  const artifacts = prop(phaseKit, 'artifacts');
  if (!phaseKit || !isNonEmptyArray(artifacts)) return [];
  const files = prop(artifact, 'files');
  const rows = artifacts
    .filter((a) => a && typeof prop(a, 'path') === 'string')
    .map((a) => {
      const path = prop(a, 'path') as string;
      const explicit = isNonEmptyString(prop(a, 'owned_by'));
      return {
        path,
        required: prop(a, 'required') !== false,
        semantics: field(a, 'semantics'),
        owned_by: explicit
          ? prop(a, 'owned_by')
          : prop(prop(prop(config, 'routing'), phase as string), 'entry_role') || null,
        owner_resolution: explicit ? ('explicit' as const) : ('entry_role' as const),
        exists: isObjectLike(files) && Object.hasOwn(files, path),
      };
    });
  return sortEn(rows, (row) => row.path);
}
