/**
 * The subject of a run export's report (docs/agentxchain-report.md §4): the project, the run
 * with every digest in the reference's key order, and the artifact counts.
 * @module
 */
import { sortEn } from './collation.ts';
import { costSummary } from './cost-summary.ts';
import { dateTime } from './date-parse.ts';
import { delegationSummary } from './delegation.ts';
import { recentEventSummary, runEvents } from './events.ts';
import { humanAttention } from './human-attention.ts';
import { approvalPolicyEvents, gateActions, gateFailures, governanceEvents, timeoutEvents } from './ledger-digests.ts';
import { governedRunNextActions } from './next-actions.ts';
import { recoveryClassification } from './recovery-classification.ts';
import { recoverySummary } from './recovery.ts';
import { roleCharters } from './role-charters.ts';
import {
  budgetStatus,
  continuity,
  dashboardSession,
  gateSummary,
  hookSummary,
  intakeLinks,
  normalizeProvenance,
  workflowKitArtifacts,
} from './run-state.ts';
import { shipStatus } from './ship-status.ts';
import { DECISION_LEDGER, ledgerDecisions, timelineTurns, type TimelineTurn } from './turns.ts';
import { field, fileEntries, isObjectLike, prop, type ParsedValue } from './values.ts';

/** What building a subject needs besides the artifact. */
export interface SubjectOptions {
  /** The clock, in ms since the epoch. */
  readonly now: number;
  /** Fix the reference's recorded bugs (docs/agentxchain-report.md). */
  readonly corrected: boolean;
}

/** §4.6: created, completed (last timeline turn of a completed run) and the duration in seconds. */
function timing(artifact: ParsedValue, turns: readonly TimelineTurn[]) {
  const createdAt = field(prop(artifact, 'state'), 'created_at');
  const completedAt =
    prop(prop(artifact, 'summary'), 'status') === 'completed' && turns.length > 0
      ? turns[turns.length - 1]!.accepted_at || null
      : null;
  let duration: number | null = null;
  if (createdAt && completedAt) {
    const start = dateTime(createdAt);
    const end = dateTime(completedAt);
    if (Number.isFinite(start) && Number.isFinite(end) && end >= start) duration = Math.round((end - start) / 1000);
  }
  return { created_at: createdAt, completed_at: completedAt, duration_seconds: duration };
}

function activeRoles(state: ParsedValue): string[] {
  const turns = prop(state, 'active_turns') || {};
  const roles = new Set<string>();
  for (const turn of isObjectLike(turns) ? Object.values(turns) : []) {
    const role = prop(turn, 'assigned_role');
    if (typeof role === 'string' && role.length > 0) roles.add(role);
  }
  return sortEn([...roles], (role) => role);
}

/** §4: the `governed_run` subject. */
export function runSubject(artifact: ParsedValue, options: SubjectOptions) {
  const summary = prop(artifact, 'summary');
  const state = prop(artifact, 'state');
  const config = prop(artifact, 'config');
  const project = prop(artifact, 'project');
  const activeIds = (prop(summary, 'active_turn_ids') || []) as ParsedValue;
  const retainedIds = (prop(summary, 'retained_turn_ids') || []) as ParsedValue;
  const turns = timelineTurns(artifact, options.corrected);
  const ledger = fileEntries(artifact, DECISION_LEDGER);
  const events = runEvents(artifact);
  const times = timing(artifact, turns);
  return {
    kind: 'governed_run' as const,
    project: {
      id: field(project, 'id'),
      name: field(project, 'name'),
      goal: field(project, 'goal'),
      template: prop(project, 'template') || 'generic',
      protocol_mode: field(project, 'protocol_mode'),
      schema_version: field(project, 'schema_version'),
    },
    run: {
      run_id: field(summary, 'run_id'),
      status: field(summary, 'status'),
      phase: field(summary, 'phase'),
      blocked_on: field(state, 'blocked_on'),
      blocked_reason: field(state, 'blocked_reason'),
      provenance: normalizeProvenance(prop(summary, 'provenance') || prop(state, 'provenance')),
      inherited_context: prop(summary, 'inherited_context') || prop(state, 'inherited_context') || null,
      active_turn_count: prop(activeIds, 'length') as number,
      retained_turn_count: prop(retainedIds, 'length') as number,
      active_turn_ids: activeIds,
      retained_turn_ids: retainedIds,
      active_roles: activeRoles(state),
      budget_status: budgetStatus(state),
      cost_summary: costSummary(turns),
      dashboard_session: dashboardSession(summary),
      recent_event_summary: recentEventSummary(events, options.now),
      created_at: times.created_at,
      completed_at: times.completed_at,
      duration_seconds: times.duration_seconds,
      turns,
      decisions: ledgerDecisions(artifact),
      approval_policy_events: approvalPolicyEvents(ledger),
      governance_events: governanceEvents(ledger),
      gate_failures: gateFailures(ledger),
      gate_actions: gateActions(ledger),
      timeout_events: timeoutEvents(ledger),
      delegation_summary: delegationSummary(artifact),
      hook_summary: hookSummary(artifact),
      gate_summary: gateSummary(state),
      intake_links: intakeLinks(artifact),
      recovery_summary: recoverySummary(state, config),
      recovery_classification: recoveryClassification(events),
      next_actions: governedRunNextActions(state, config),
      continuity: continuity(artifact),
      workflow_kit_artifacts: workflowKitArtifacts(artifact),
      repo_decisions: field(summary, 'repo_decisions'),
      ship_status: shipStatus(artifact),
      human_attention: humanAttention(artifact),
      role_charters: roleCharters(artifact),
    },
    artifacts: {
      history_entries: prop(summary, 'history_entries') || 0,
      decision_entries: prop(summary, 'decision_entries') || 0,
      hook_audit_entries: prop(summary, 'hook_audit_entries') || 0,
      notification_audit_entries: prop(summary, 'notification_audit_entries') || 0,
      dispatch_artifact_files: prop(summary, 'dispatch_artifact_files') || 0,
      staging_artifact_files: prop(summary, 'staging_artifact_files') || 0,
      intake_present: Boolean(prop(summary, 'intake_present')),
      coordinator_present: Boolean(prop(summary, 'coordinator_present')),
    },
  };
}

export type RunSubject = ReturnType<typeof runSubject>;
