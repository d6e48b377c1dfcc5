/**
 * The diff object of two normalised sides (docs/agentxchain-diff.md §3), keys in the reference's
 * order, then its regressions and summary.
 * @module
 */
import {
  anyChanged,
  fieldChanges,
  listChange,
  mapChanges,
  numericChanges,
  numericMapChanges,
  type Fields,
} from './compare.ts';
import { coordinatorRegressions, runRegressions } from './regressions.ts';
import { diffSummary } from './summary.ts';
import type {
  CoordinatorDiffSide,
  CoordinatorExportDiff,
  RunDiffSide,
  RunExportDiff,
  RunNumericField,
} from './types.ts';
import type { DiffContext } from './values.ts';

const RUN_SCALARS: Fields<keyof RunExportDiff['scalar_changes']> = [
  ['run_id', 'Run ID'],
  ['status', 'Status'],
  ['phase', 'Phase'],
  ['project_name', 'Project'],
  ['project_goal', 'Goal'],
  ['provenance_trigger', 'Trigger'],
  ['dashboard_status', 'Dashboard'],
];

const RUN_COUNTERS: Fields<RunNumericField> = [
  ['history_entries', 'History entries'],
  ['decision_entries', 'Decision entries'],
  ['hook_audit_entries', 'Hook audit entries'],
  ['notification_audit_entries', 'Notification audit entries'],
  ['dispatch_artifact_files', 'Dispatch artifacts'],
  ['staging_artifact_files', 'Staging artifacts'],
  ['total_delegations_issued', 'Delegations'],
  ['active_repo_decision_count', 'Active repo decisions'],
  ['overridden_repo_decision_count', 'Overridden repo decisions'],
];

const COORDINATOR_SCALARS: Fields<keyof CoordinatorExportDiff['scalar_changes']> = [
  ['super_run_id', 'Super run ID'],
  ['status', 'Status'],
  ['phase', 'Phase'],
  ['project_name', 'Project'],
];

const COORDINATOR_COUNTERS: Fields<keyof CoordinatorExportDiff['numeric_changes']> = [
  ['barrier_count', 'Barriers'],
  ['history_entries', 'History entries'],
  ['decision_entries', 'Decision entries'],
  ['total_events', 'Aggregated events'],
];

/** `left_ref` and `right_ref`. */
export interface DiffRefs {
  readonly left: string | null;
  readonly right: string | null;
}

/** The diff of two run exports. */
export function runDiff(context: DiffContext, left: RunDiffSide, right: RunDiffSide, refs: DiffRefs): RunExportDiff {
  const scalarChanges = fieldChanges(left, right, RUN_SCALARS);
  const counterChanges = numericChanges(left, right, RUN_COUNTERS);
  const listChanges = {
    active_turn_ids: listChange('Active turns', left.active_turn_ids, right.active_turn_ids),
    retained_turn_ids: listChange('Retained turns', left.retained_turn_ids, right.retained_turn_ids),
    active_repo_decision_ids: listChange(
      'Active repo decisions',
      left.active_repo_decision_ids,
      right.active_repo_decision_ids,
    ),
    overridden_repo_decision_ids: listChange(
      'Overridden repo decisions',
      left.overridden_repo_decision_ids,
      right.overridden_repo_decision_ids,
    ),
  };
  const regressions = runRegressions(context, left, right);
  const diff = {
    comparison_mode: 'export',
    subject_kind: 'run',
    export_kind: left.export_kind,
    left_ref: refs.left,
    right_ref: refs.right,
    changed: anyChanged(scalarChanges, counterChanges, listChanges),
    left,
    right,
    scalar_changes: scalarChanges,
    numeric_changes: counterChanges,
    list_changes: listChanges,
    regressions,
    regression_count: regressions.length,
    has_regressions: regressions.length > 0,
  } as const;
  return { ...diff, summary: diffSummary(context, diff) };
}

/** The diff of two coordinator exports. */
export function coordinatorDiff(
  context: DiffContext,
  left: CoordinatorDiffSide,
  right: CoordinatorDiffSide,
  refs: DiffRefs,
): CoordinatorExportDiff {
  const scalarChanges = fieldChanges(left, right, COORDINATOR_SCALARS);
  const counterChanges = numericChanges(left, right, COORDINATOR_COUNTERS);
  const listChanges = {
    repo_ids: listChange('Repos', left.repo_ids, right.repo_ids),
    repos_with_events: listChange('Repos with events', left.repos_with_events, right.repos_with_events),
  };
  const repoStatusChanges = mapChanges(context, 'Repo status', left.repo_statuses, right.repo_statuses);
  const repoExportChanges = mapChanges(context, 'Repo export ok', left.repo_export_status, right.repo_export_status);
  const eventTypeChanges = numericMapChanges('Event type', left.event_type_counts, right.event_type_counts);
  const regressions = coordinatorRegressions(context, left, right);
  const diff = {
    comparison_mode: 'export',
    subject_kind: 'coordinator',
    export_kind: left.export_kind,
    left_ref: refs.left,
    right_ref: refs.right,
    changed: anyChanged(
      scalarChanges,
      counterChanges,
      listChanges,
      repoStatusChanges,
      repoExportChanges,
      eventTypeChanges,
    ),
    left,
    right,
    scalar_changes: scalarChanges,
    numeric_changes: counterChanges,
    list_changes: listChanges,
    repo_status_changes: repoStatusChanges,
    repo_export_changes: repoExportChanges,
    event_type_changes: eventTypeChanges,
    regressions,
    regression_count: regressions.length,
    has_regressions: regressions.length > 0,
  } as const;
  return { ...diff, summary: diffSummary(context, diff) };
}
