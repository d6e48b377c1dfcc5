/**
 * The subject of a coordinator export's report (docs/agentxchain-report.md §5): the workspace,
 * its run (status, drift between the coordinator and its child repos, what to do next), its
 * histories, and one row per child repo with the child's own digests.
 * @module
 */
import { sortEn } from './collation.ts';
import {
  aggregatedEventTimeline,
  barrierLedgerTimeline,
  barrierSummary,
  coordinatorTimeline,
  recoveryReport,
  type CoordinatorTimelineEntry,
} from './coordinator-timeline.ts';
import { isParsableTimestamp, parseDate } from './date-parse.ts';
import { recentEventSummary } from './events.ts';
import { approvalPolicyEvents, gateFailures, governanceEvents, timeoutEvents } from './ledger-digests.ts';
import { recoverySummary } from './recovery.ts';
import { continuity, gateSummary, hookSummary, toRecord } from './run-state.ts';
import type { SubjectOptions } from './run-subject.ts';
import { ledgerDecisions, timelineTurns } from './turns.ts';
import {
  field,
  fileData,
  fileEntries,
  isJsonObject,
  isNonBlankString,
  isNonEmptyArray,
  isNonEmptyString,
  keysOf,
  prop,
  text,
  type ParsedValue,
} from './values.ts';

const LEDGER = '.agentxchain/multirepo/decision-ledger.jsonl';

/** One child repo row (with the child's digests when its export is present). */
function repoRow(repoId: string, entry: ParsedValue, corrected: boolean): Record<string, ParsedValue> {
  const ok = prop(entry, 'ok');
  const child = prop(entry, 'export');
  const childSummary = prop(child, 'summary');
  const childProject = prop(child, 'project');
  const row: Record<string, ParsedValue> = {
    repo_id: repoId,
    path: field(entry, 'path'),
    ok: Boolean(ok),
    status: ok ? field(childSummary, 'status') : null,
    run_id: ok ? field(childSummary, 'run_id') : null,
    phase: ok ? field(childSummary, 'phase') : null,
    project_id: ok ? field(childProject, 'id') : null,
    project_name: ok ? field(childProject, 'name') : null,
    error: ok ? null : field(entry, 'error'),
  };
  if (!ok || !child) return row;
  const ledger = fileEntries(child, '.agentxchain/decision-ledger.jsonl');
  row['turns'] = timelineTurns(child, corrected);
  row['decisions'] = ledgerDecisions(child);
  row['approval_policy_events'] = approvalPolicyEvents(ledger);
  row['governance_events'] = governanceEvents(ledger);
  row['gate_failures'] = gateFailures(ledger);
  row['timeout_events'] = timeoutEvents(ledger);
  row['hook_summary'] = hookSummary(child);
  row['gate_summary'] = gateSummary(prop(child, 'state'));
  row['recovery_summary'] = recoverySummary(prop(child, 'state'), prop(child, 'config'));
  row['continuity'] = continuity(child);
  row['blocked_on'] = field(prop(child, 'state'), 'blocked_on');
  return row;
}

interface RepoStatusEntry {
  status: string;
  run_id_mismatch: { repo_id: ParsedValue; expected_run_id: ParsedValue; actual_run_id: ParsedValue } | null;
  status_drift: { repo_id: ParsedValue; coordinator_status: ParsedValue; repo_status: ParsedValue } | null;
}

/** Where coordinator and repo authority agree or not, one entry per repo, in repo order. */
function repoStatusEntries(
  config: ParsedValue,
  repoRuns: ParsedValue,
  rows: readonly Record<string, ParsedValue>[],
): RepoStatusEntry[] {
  let order: readonly ParsedValue[];
  const configured = prop(config, 'repo_order');
  if (isNonEmptyArray(configured)) {
    order = configured;
  } else {
    const seen = new Set<string>();
    const ids: string[] = [];
    for (const id of [...keysOf(repoRuns), ...rows.map((row) => row['repo_id'])]) {
      if (typeof id === 'string' && id.length > 0 && !seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
    order = ids;
  }
  const byId = new Map(rows.map((row) => [row['repo_id'], row]));
  return order.map((id) => {
    const run = prop(repoRuns, id as string) || {};
    const row = byId.get(id);
    const authority = prop(row, 'ok') === true;
    const coordinatorStatus = prop(run, 'status') || null;
    const normalized =
      coordinatorStatus === 'linked' || coordinatorStatus === 'initialized' ? 'active' : coordinatorStatus || null;
    const repoStatus = authority ? prop(row, 'status') || null : null;
    const repoRunId = authority ? (prop(row, 'run_id') ?? null) : null;
    const expectedRunId = prop(run, 'run_id');
    return {
      status: text(authority ? repoStatus || 'unknown' : normalized || 'unknown'),
      run_id_mismatch:
        authority && expectedRunId && repoRunId && expectedRunId !== repoRunId
          ? { repo_id: id, expected_run_id: expectedRunId, actual_run_id: repoRunId }
          : null,
      status_drift:
        authority && normalized && repoStatus && normalized !== repoStatus
          ? { repo_id: id, coordinator_status: coordinatorStatus, repo_status: repoStatus }
          : null,
    };
  });
}

function blockedReasonOf(value: ParsedValue): string | null {
  if (isNonBlankString(value)) return value;
  if (isJsonObject(value)) {
    if (isNonBlankString(value['reason'])) return value['reason'];
    if (isNonBlankString(value['category'])) return value['category'];
  }
  return null;
}

type PendingGate = Record<string, ParsedValue> & { gate: string; gate_type: string };

function pendingGateOf(value: ParsedValue): PendingGate | null {
  if (!isJsonObject(value) || !isNonEmptyString(value['gate']) || !isNonEmptyString(value['gate_type'])) return null;
  const gate: PendingGate = { gate: value['gate'], gate_type: value['gate_type'] };
  if (isNonEmptyString(value['from'])) gate['from'] = value['from'];
  if (isNonEmptyString(value['to'])) gate['to'] = value['to'];
  if (Array.isArray(value['required_repos'])) gate['required_repos'] = value['required_repos'];
  if (Array.isArray(value['human_barriers'])) gate['human_barriers'] = value['human_barriers'];
  if (isNonEmptyString(value['requested_at'])) gate['requested_at'] = value['requested_at'];
  return gate;
}

function terminalNote(status: ParsedValue, mismatches: number, drifts: number): string | null {
  if (status !== 'completed') return null;
  const kinds = [...(mismatches > 0 ? ['run-id drift'] : []), ...(drifts > 0 ? ['status drift'] : [])];
  if (kinds.length === 0) return null;
  return `Child repo ${kinds.join(' and ')} ${kinds.length > 1 ? 'remain' : 'remains'} visible for audit, but this coordinator is already completed, so no recovery command is emitted.`;
}

interface CoordinatorAction {
  code: string;
  command: string;
  reason: string;
}

function nextActions(
  status: ParsedValue,
  blockedReason: string | null,
  gate: PendingGate | null,
  mismatches: readonly NonNullable<RepoStatusEntry['run_id_mismatch']>[],
  drifts: readonly NonNullable<RepoStatusEntry['status_drift']>[],
): CoordinatorAction[] {
  if (status === 'completed') return [];
  const because = blockedReason ? `: ${blockedReason}` : '';
  const approve = (reason: string): CoordinatorAction => ({
    code: 'pending_gate',
    command: 'agentxchain multi approve-gate',
    reason,
  });
  const afterResume = gate
    ? [approve(`After resume succeeds, approve pending gate "${gate.gate}" (${gate.gate_type}).`)]
    : [];
  if (mismatches.length > 0) {
    return [
      {
        code: 'repo_run_id_mismatch',
        command: 'agentxchain multi resume',
        reason: `Coordinator run identity drift detected${because}. Resume after reconciling the affected child repos.`,
      },
      ...mismatches.map((m) => ({
        code: 'repo_run_id_mismatch',
        command: 'agentxchain multi resume',
        reason: `Repo "${text(m.repo_id)}" run identity drifted: coordinator expects "${text(m.expected_run_id)}" but repo has "${text(m.actual_run_id)}". Re-link the correct child run, then resume.`,
      })),
      ...afterResume,
    ];
  }
  if (drifts.length > 0) {
    return [
      {
        code: 'resync',
        command: 'agentxchain multi resync',
        reason: `Coordinator state disagrees with repo authority for: ${drifts.map((d) => text(d.repo_id)).join(', ')}.`,
      },
      ...(gate ? [approve(`If resync preserves gate "${gate.gate}", approve it afterward.`)] : []),
    ];
  }
  if (status === 'blocked') {
    return [
      {
        code: 'resume',
        command: 'agentxchain multi resume',
        reason: `Coordinator is blocked${because}. Resume after fixing the underlying issue.`,
      },
      ...afterResume,
    ];
  }
  if (gate) return [approve(`Coordinator is waiting on pending gate "${gate.gate}" (${gate.gate_type}).`)];
  if (status === 'active' || status === 'paused')
    return [
      {
        code: 'step',
        command: 'agentxchain multi step',
        reason: 'Coordinator has no blocked state or pending gate and can continue.',
      },
    ];
  return [];
}

function coordinatorTiming(artifact: ParsedValue, timeline: readonly CoordinatorTimelineEntry[]) {
  const state = fileData(artifact, '.agentxchain/multirepo/state.json');
  const created =
    timeline.find((e) => e.type === 'run_initialized' && isParsableTimestamp(e.timestamp))?.timestamp ||
    (isParsableTimestamp(prop(state, 'created_at')) ? prop(state, 'created_at') : null);
  let completed: ParsedValue = null;
  if (prop(prop(artifact, 'summary'), 'status') === 'completed' || prop(state, 'status') === 'completed') {
    completed =
      [...timeline].reverse().find((e) => e.type === 'run_completed' && isParsableTimestamp(e.timestamp))?.timestamp ||
      (isParsableTimestamp(prop(state, 'updated_at')) ? prop(state, 'updated_at') : null);
  }
  let duration: number | null = null;
  if (isParsableTimestamp(created) && isParsableTimestamp(completed)) {
    const start = parseDate(created);
    const end = parseDate(completed);
    if (end >= start) duration = Math.round((end - start) / 1000);
  }
  return { created_at: created, completed_at: completed, duration_seconds: duration };
}

/** §5: the `coordinator_workspace` subject. */
export function coordinatorSubject(artifact: ParsedValue, options: SubjectOptions) {
  const state = fileData(artifact, '.agentxchain/multirepo/state.json') || {};
  const summary = prop(artifact, 'summary');
  const coordinator = prop(artifact, 'coordinator');
  const status = prop(state, 'status') || prop(summary, 'status') || null;
  const phase = prop(state, 'phase') || prop(summary, 'phase') || null;
  const repos = prop(artifact, 'repos') || {};
  const rows = sortEn(Object.entries(repos), ([id]) => id).map(([id, entry]) => repoRow(id, entry, options.corrected));
  const errorCount = rows.filter((row) => !row['ok']).length;
  const timeline = coordinatorTimeline(artifact);
  const aggregated = aggregatedEventTimeline(artifact);
  const ledger = fileEntries(artifact, LEDGER);
  const blockedReason = blockedReasonOf(prop(state, 'blocked_reason'));
  const gate = pendingGateOf(prop(state, 'pending_gate'));
  const repoRuns = prop(state, 'repo_runs') || {};
  const entries = repoStatusEntries(prop(artifact, 'config'), repoRuns, rows);
  const mismatches = entries.flatMap((e) => (e.run_id_mismatch ? [e.run_id_mismatch] : []));
  const drifts = entries.flatMap((e) => (e.status_drift ? [e.status_drift] : []));
  // The reference recomputes the drift for its next actions without the configured repo order.
  const unordered = repoStatusEntries(undefined, repoRuns, rows).flatMap((e) =>
    e.status_drift ? [e.status_drift] : [],
  );
  const statusCounts = new Map<string, number>();
  for (const entry of entries) statusCounts.set(entry.status, (statusCounts.get(entry.status) ?? 0) + 1);
  const times = coordinatorTiming(artifact, timeline);
  return {
    kind: 'coordinator_workspace' as const,
    coordinator: {
      project_id: field(coordinator, 'project_id'),
      project_name: field(coordinator, 'project_name'),
      schema_version: field(coordinator, 'schema_version'),
      repo_count: prop(coordinator, 'repo_count') || 0,
      workstream_count: prop(coordinator, 'workstream_count') || 0,
    },
    run: {
      super_run_id: prop(state, 'super_run_id') || prop(summary, 'super_run_id') || null,
      status,
      phase,
      blocked_reason: blockedReason,
      pending_gate: gate,
      run_id_mismatches: mismatches,
      repo_status_drifts: drifts,
      terminal_observability_note: terminalNote(status, mismatches.length, drifts.length),
      recent_coordinator_events: recentEventSummary(timeline, options.now),
      recent_child_repo_events: recentEventSummary(aggregated, options.now),
      next_actions: nextActions(status, blockedReason, gate, mismatches, unordered),
      created_at: times.created_at,
      completed_at: times.completed_at,
      duration_seconds: times.duration_seconds,
      barrier_count: prop(summary, 'barrier_count') || 0,
      repo_status_counts: toRecord(statusCounts),
      repo_ok_count: rows.length - errorCount,
      repo_error_count: errorCount,
    },
    coordinator_timeline: timeline,
    aggregated_event_timeline: aggregated,
    barrier_summary: barrierSummary(artifact),
    barrier_ledger_timeline: barrierLedgerTimeline(artifact),
    decision_digest: fileEntries(artifact, LEDGER)
      .filter((d) => typeof prop(d, 'id') === 'string')
      .map((d) => ({
        id: prop(d, 'id') as string,
        turn_id: field(d, 'turn_id'),
        role: field(d, 'role'),
        phase: field(d, 'phase'),
        category: field(d, 'category'),
        statement: prop(d, 'statement') || '',
      })),
    approval_policy_events: approvalPolicyEvents(ledger),
    governance_events: governanceEvents(ledger),
    timeout_events: timeoutEvents(ledger),
    recovery_report: recoveryReport(artifact),
    repos: rows,
    artifacts: {
      history_entries: prop(summary, 'history_entries') || 0,
      decision_entries: prop(summary, 'decision_entries') || 0,
    },
  };
}

export type CoordinatorSubject = ReturnType<typeof coordinatorSubject>;
