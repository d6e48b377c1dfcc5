/**
 * Run and coordinator events: the normalised entry (docs/agentxchain-report.md §4.14) and the
 * recent-event summary, the one part of the report that reads the clock (§3).
 * @module
 */
import { isValidTimestamp } from './date-parse.ts';
import { isJsonObject, prop, trimmed, type ParsedValue } from './values.ts';

/** A normalised event, key order as the reference builds it. */
export interface NormalizedEvent {
  event_type: string;
  timestamp: string | null;
  phase: string | null;
  status: string | null;
  turn_id: string | null;
  role_id: string | null;
  repo_id: string | null;
  summary: string;
}

/** The recent-event summary. */
export interface RecentEventSummary {
  window_minutes: number;
  freshness: 'no_events' | 'unknown' | 'recent' | 'quiet';
  recent_count: number;
  latest_event: NormalizedEvent | null;
}

const WINDOW_MINUTES = 15;
const WINDOW_MS = WINDOW_MINUTES * 60 * 1000;

/** The run's events: `.agentxchain/events.jsonl` data when an array, objects only, file order. */
export function runEvents(artifact: ParsedValue): ParsedValue[] {
  const entry = prop(prop(artifact, 'files'), '.agentxchain/events.jsonl');
  const data = entry ? (prop(entry, 'data') ?? null) : null;
  return Array.isArray(data) ? data.filter(isJsonObject) : [];
}

const PLAIN_TYPES = new Set([
  'turn_dispatched',
  'turn_accepted',
  'turn_rejected',
  'turn_conflicted',
  'turn_checkpointed',
  'turn_stalled',
  'turn_start_failed',
  'runtime_spawn_failed',
  'stdout_attach_failed',
  'dispatch_progress',
]);
const GATE_TYPES = new Set(['gate_pending', 'gate_approved', 'gate_failed']);
const COUNTED_TYPES = new Set(['intents_migrated', 'intents_superseded', 'intent_retired_by_phase_advance']);
const BARE_TYPES = new Set([
  'run_blocked',
  'run_completed',
  'run_started',
  'escalation_raised',
  'escalation_resolved',
  'budget_exceeded_warn',
]);

/** Normalises one event; `null` for a non-object. */
export function normalizeEvent(event: ParsedValue): NormalizedEvent | null {
  if (!isJsonObject(event)) return null;
  const eventType = trimmed(event['event_type']) || trimmed(event['type']) || 'unknown_event';
  const turn = isJsonObject(event['turn']) ? event['turn'] : null;
  const repoId = trimmed(event['repo_id']);
  const roleId =
    trimmed(prop(turn, 'role_id')) ||
    trimmed(prop(turn, 'assigned_role')) ||
    trimmed(event['role_id']) ||
    trimmed(event['role']) ||
    null;
  return {
    event_type: eventType,
    timestamp: trimmed(event['timestamp']),
    phase: trimmed(event['phase']),
    status: trimmed(event['status']),
    turn_id: trimmed(prop(turn, 'turn_id')) || trimmed(event['turn_id']) || null,
    role_id: roleId,
    repo_id: repoId,
    summary: eventSummary(event, eventType, repoId, roleId),
  };
}

function eventSummary(
  event: Record<string, ParsedValue>,
  type: string,
  repoId: string | null,
  roleId: string | null,
): string {
  const head = `${repoId ? `[${repoId}] ` : ''}${type}`;
  const role = roleId ? ` [${roleId}]` : '';
  const payload = event['payload'];
  const fromPayload = (key: string): string | null => trimmed(prop(payload, key));
  if (PLAIN_TYPES.has(type)) return head + role;
  if (type === 'phase_entered') {
    const from = fromPayload('from');
    const to = fromPayload('to') || trimmed(event['phase']);
    return from && to ? `${head} ${from} -> ${to}` : head;
  }
  if (GATE_TYPES.has(type)) {
    const gate = fromPayload('gate_id') || trimmed(event['gate']);
    return gate ? `${head} (${gate})` : head;
  }
  if (type === 'conflict_resolved') {
    const resolution = fromPayload('resolution');
    return `${head}${role}${resolution ? ` via ${resolution}` : ''}`;
  }
  if (type === 'coordinator_retry' || type === 'coordinator_retry_projection_warning') {
    const workstream = fromPayload('workstream_id');
    const repo = fromPayload('repo_id');
    const base = `${head}${workstream ? ` ${workstream}` : ''}${repo ? ` (${repo})` : ''}`;
    return type === 'coordinator_retry' ? base : `${base} — reconciliation required`;
  }
  if (COUNTED_TYPES.has(type)) {
    const count = [
      prop(payload, 'archived_count'),
      prop(payload, 'superseded_count'),
      prop(payload, 'retired_count'),
    ].find((n) => typeof n === 'number' && Number.isFinite(n));
    return count === undefined ? head : `${head} (${count as number})`;
  }
  if (BARE_TYPES.has(type)) return head;
  if (type === 'session_continuation') {
    const previous = fromPayload('previous_run_id');
    const next = fromPayload('next_run_id');
    if (!previous || !next) return head;
    const objective = fromPayload('objective');
    return `${head} ${previous} -> ${next}${objective ? ` (${objective})` : ''}`;
  }
  return trimmed(event['summary']) || head;
}

/** §3: the recent-event summary of `events` (in list order) at `now` (ms since the epoch). */
export function recentEventSummary(events: readonly ParsedValue[], now: number): RecentEventSummary {
  const normalized: NormalizedEvent[] = [];
  for (const event of events) {
    const entry = normalizeEvent(event);
    if (entry !== null) normalized.push(entry);
  }
  const latest = normalized.at(-1);
  if (latest === undefined)
    return { window_minutes: WINDOW_MINUTES, freshness: 'no_events', recent_count: 0, latest_event: null };
  const isRecent = (timestamp: string) => now - new Date(timestamp).getTime() <= WINDOW_MS;
  let recent = 0;
  for (const entry of normalized) if (isValidTimestamp(entry.timestamp) && isRecent(entry.timestamp)) recent++;
  const freshness = !isValidTimestamp(latest.timestamp) ? 'unknown' : isRecent(latest.timestamp) ? 'recent' : 'quiet';
  return { window_minutes: WINDOW_MINUTES, freshness, recent_count: recent, latest_event: latest };
}
