/**
 * Governance regressions between two normalised exports (docs/agentxchain-diff.md §4), in the
 * reference's order with one counter per diff: ids are `<PREFIX>-<n padded to 3>`. The run rules
 * also run on coordinators, where the run-only fields are absent and never fire.
 * @module
 */
import type { CoordinatorDiffSide, DiffRegression, RunDiffSide } from './types.ts';
import { inheritedMember, interpolate, own, sameJson, stringList, unionKeys, type DiffContext } from './values.ts';

const BLOCKED_OR_FAILED = new Set<unknown>(['blocked', 'failed', 'error', 'crashed']);
const GATE_PASSED = new Set<unknown>(['passed', 'approved', 'satisfied']);
const GATE_FAILED = new Set<unknown>(['failed', 'blocked', 'rejected']);

/** The fields every side has (the rules read them from both kinds). */
type CommonSide = Pick<RunDiffSide, 'status' | 'phase' | 'workflow_phase_order'> &
  Partial<Omit<RunDiffSide, 'status' | 'phase' | 'workflow_phase_order'>>;

/** Collects regressions and numbers them. */
class RegressionList {
  readonly items: DiffRegression[] = [];

  add(prefix: string, body: Omit<DiffRegression, 'id'>): void {
    this.items.push({ id: `${prefix}-${String(this.items.length + 1).padStart(3, '0')}`, ...body });
  }
}

/**
 * Rules 1–8 (docs/agentxchain-diff.md §4.1). `subject` words the status rule: the reference says
 * "Run" for coordinators too; corrected mode says "Coordinator".
 */
function runRules(
  context: DiffContext,
  list: RegressionList,
  left: CommonSide,
  right: CommonSide,
  subject: 'Run' | 'Coordinator',
): void {
  const text = (value: unknown, where: string): string => interpolate(context, value, where);
  // 1. Status entered blocked / failed / error / crashed.
  if (left.status && right.status && !BLOCKED_OR_FAILED.has(left.status) && BLOCKED_OR_FAILED.has(right.status)) {
    list.add('REG-STATUS', {
      category: 'status',
      severity: 'error',
      message: `${subject} status regressed from ${text(left.status, 'left status')} to ${text(right.status, 'right status')}`,
      field: 'status',
      left: left.status,
      right: right.status,
    });
  }
  // 2. Workflow phase order drift.
  const leftOrder = left.workflow_phase_order;
  const rightOrder = right.workflow_phase_order;
  const hasLeft = Array.isArray(leftOrder) && leftOrder.length > 0;
  const hasRight = Array.isArray(rightOrder) && rightOrder.length > 0;
  const drift = hasLeft && hasRight && !sameJson(leftOrder, rightOrder);
  if (drift) {
    list.add('REG-PHASE-ORDER', {
      category: 'phase',
      severity: 'warning',
      message: 'Workflow phase order changed between exports; directional phase comparison skipped',
      field: 'workflow_phase_order',
      left: leftOrder,
      right: rightOrder,
    });
  }
  // 3. Phase lost, or moved backward in the right export's order.
  if (left.phase && right.phase === null) {
    list.add('REG-PHASE', {
      category: 'phase',
      severity: 'warning',
      message: `Phase regressed from "${text(left.phase, 'left phase')}" to null (phase information lost)`,
      field: 'phase',
      left: left.phase,
      right: null,
    });
  } else if (left.phase && right.phase && left.phase !== right.phase && hasLeft && hasRight && !drift) {
    const from = (rightOrder as readonly unknown[]).indexOf(left.phase);
    const to = (rightOrder as readonly unknown[]).indexOf(right.phase);
    if (from !== -1 && to !== -1 && to < from) {
      list.add('REG-PHASE', {
        category: 'phase',
        severity: 'warning',
        message: `Phase moved backward from "${text(left.phase, 'left phase')}" (position ${from}) to "${text(right.phase, 'right phase')}" (position ${to})`,
        field: 'phase',
        left: left.phase,
        right: right.phase,
      });
    }
  }
  // 4, 5. Budget flags turned on.
  if (left.budget_warn_mode === false && right.budget_warn_mode === true) {
    list.add('REG-BUDGET-WARN', {
      category: 'budget',
      severity: 'warning',
      message: 'Budget entered warn mode (over budget)',
      field: 'budget_warn_mode',
      left: false,
      right: true,
    });
  }
  if (left.budget_exhausted === false && right.budget_exhausted === true) {
    list.add('REG-BUDGET-EXHAUST', {
      category: 'budget',
      severity: 'error',
      message: 'Budget exhausted',
      field: 'budget_exhausted',
      left: false,
      right: true,
    });
  }
  // 6. More overridden repo decisions.
  const leftOverrides = countOf(left.overridden_repo_decision_count);
  const rightOverrides = countOf(right.overridden_repo_decision_count);
  if (rightOverrides > leftOverrides) {
    list.add('REG-DECISION-OVERRIDE', {
      category: 'decisions',
      severity: 'warning',
      message: `Repo decision overrides increased from ${leftOverrides} to ${rightOverrides}`,
      field: 'overridden_repo_decision_count',
      left: leftOverrides,
      right: rightOverrides,
    });
  }
  // 7. Delegations newly missing required decisions.
  const leftMissing = left.delegation_missing_decisions ?? {};
  const rightMissing = right.delegation_missing_decisions ?? {};
  for (const id of unionKeys(leftMissing, rightMissing)) {
    const before = stringList(own(leftMissing, id));
    const after = stringList(own(rightMissing, id));
    const known = new Set(before);
    const newlyMissing = after.filter((decision) => !known.has(decision));
    if (newlyMissing.length > 0) {
      list.add('REG-DELEGATION-MISSING', {
        category: 'delegation',
        severity: 'error',
        message: `Delegation "${id}" is now missing required decisions: ${newlyMissing.join(', ')}`,
        field: `delegation_summary.${id}.missing_decision_ids`,
        left: before,
        right: after,
      });
    }
  }
  // 8. Gates that passed and now fail, with the right export's gate-action cause.
  const leftGates = left.phase_gate_status ?? {};
  const rightGates = right.phase_gate_status ?? {};
  for (const id of unionKeys(leftGates, rightGates)) {
    const before = own(leftGates, id) || null;
    const after = own(rightGates, id) || null;
    if (before && after && GATE_PASSED.has(before) && GATE_FAILED.has(after)) {
      let cause = '';
      if (right.blocked_category === 'gate_action_failed') {
        cause = right.blocked_gate_action_timed_out
          ? ` (gate action timed out after ${String(right.blocked_gate_action_timeout_ms)}ms)`
          : ' (gate action failed)';
      }
      list.add('REG-GATE', {
        category: 'gate',
        severity: 'error',
        message: `Gate "${id}" regressed from ${before} to ${after}${cause}`,
        field: `phase_gate_status.${id}`,
        left: before,
        right: after,
      });
    }
  }
}

/** A count for comparison: non-numbers are 0. */
function countOf(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/** The regressions of a run diff. */
export function runRegressions(context: DiffContext, left: RunDiffSide, right: RunDiffSide): DiffRegression[] {
  const list = new RegressionList();
  runRules(context, list, left, right, 'Run');
  return list.items;
}

/** The regressions of a coordinator diff: the run rules, then rules 9–11 (docs/agentxchain-diff.md §4.2). */
export function coordinatorRegressions(
  context: DiffContext,
  left: CoordinatorDiffSide,
  right: CoordinatorDiffSide,
): DiffRegression[] {
  const list = new RegressionList();
  runRules(context, list, left, right, context.mode === 'reference' ? 'Run' : 'Coordinator');
  // 9. Child repos: only while one of the two coordinators is not completed.
  if (!(left.status === 'completed' && right.status === 'completed')) {
    for (const id of unionKeys(left.repo_statuses, right.repo_statuses)) {
      const after = own(right.repo_statuses, id) || null;
      if (!after || !BLOCKED_OR_FAILED.has(after)) continue;
      // A key only the right has, named like an Object.prototype member, reads the inherited member on the left.
      const inherited =
        Object.hasOwn(left.repo_statuses, id) || context.mode !== 'reference' ? undefined : inheritedMember(id);
      const before = inherited ? inherited.text : own(left.repo_statuses, id) || null;
      if (before && !BLOCKED_OR_FAILED.has(before)) {
        list.add('REG-REPO-STATUS', {
          category: 'repo_status',
          severity: 'error',
          message: `Child repo "${id}" status regressed from ${before} to ${after}`,
          field: `repo_statuses.${id}`,
          left: inherited ? inherited.value : before,
          right: after,
        });
      }
    }
    for (const id of unionKeys(left.repo_export_status, right.repo_export_status)) {
      if (own(left.repo_export_status, id) === true && own(right.repo_export_status, id) === false) {
        list.add('REG-REPO-EXPORT', {
          category: 'repo_export',
          severity: 'error',
          message: `Child repo "${id}" export regressed from ok to failed`,
          field: `repo_export_status.${id}`,
          left: true,
          right: false,
        });
      }
    }
  }
  // 10. Fewer barriers.
  const leftBarriers = countOf(left.barrier_count);
  const rightBarriers = countOf(right.barrier_count);
  if (leftBarriers > 0 && rightBarriers < leftBarriers) {
    list.add('REG-BARRIER', {
      category: 'barrier',
      severity: 'warning',
      message: `Barrier count decreased from ${leftBarriers} to ${rightBarriers}`,
      field: 'barrier_count',
      left: leftBarriers,
      right: rightBarriers,
    });
  }
  // 11. Fewer aggregated events.
  const leftEvents = countOf(left.total_events);
  const rightEvents = countOf(right.total_events);
  if (leftEvents > 0 && rightEvents < leftEvents) {
    list.add('REG-EVENT-LOSS', {
      category: 'events',
      severity: 'warning',
      message: `Aggregated event count decreased from ${leftEvents} to ${rightEvents}`,
      field: 'total_events',
      left: leftEvents,
      right: rightEvents,
    });
  }
  return list.items;
}
