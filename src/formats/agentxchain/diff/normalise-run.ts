/**
 * A run export reduced to what `diff --export` compares (docs/agentxchain-diff.md §2.1). Every read
 * is the reference's: `x || {}` defaults, optional chaining through any value, `typeof` tests.
 * The artifact is attacker-controlled and unverified: anything may be of any type here.
 * @module
 */
import { compareEn, isJsonObject, path, prop, type ParsedValue } from '../js-semantics.ts';
import type { RunDiffSide } from './types.ts';
import { crashAt, gateStatusMap, numberOrNull, stringList, type DiffContext } from './values.ts';

/** Normalises a run export whose `export_kind` is `kind`. */
export function normaliseRun(context: DiffContext, artifact: ParsedValue, kind: string): RunDiffSide {
  const summary = prop(artifact, 'summary') || {};
  const repoDecisions = prop(summary, 'repo_decisions') || {};
  const state = prop(artifact, 'state') || {};
  const budget = prop(state, 'budget_status') || {};
  const blocked = prop(state, 'blocked_reason');
  const phaseOrder = prop(summary, 'workflow_phase_order');
  const timeoutMs = path(blocked, 'gate_action', 'timeout_ms');
  return {
    export_kind: kind,
    run_id: prop(summary, 'run_id') || null,
    status: prop(summary, 'status') || null,
    phase: prop(summary, 'phase') || null,
    workflow_phase_order: Array.isArray(phaseOrder) ? (phaseOrder as unknown[]) : null,
    project_name: path(artifact, 'project', 'name') || null,
    project_goal: prop(summary, 'project_goal') || path(artifact, 'project', 'goal') || null,
    provenance_trigger: path(summary, 'provenance', 'trigger') || null,
    dashboard_status: path(summary, 'dashboard_session', 'status') || null,
    history_entries: numberOrNull(prop(summary, 'history_entries')),
    decision_entries: numberOrNull(prop(summary, 'decision_entries')),
    hook_audit_entries: numberOrNull(prop(summary, 'hook_audit_entries')),
    notification_audit_entries: numberOrNull(prop(summary, 'notification_audit_entries')),
    dispatch_artifact_files: numberOrNull(prop(summary, 'dispatch_artifact_files')),
    staging_artifact_files: numberOrNull(prop(summary, 'staging_artifact_files')),
    total_delegations_issued: numberOrNull(path(summary, 'delegation_summary', 'total_delegations_issued')),
    active_repo_decision_count: numberOrNull(prop(repoDecisions, 'active_count')),
    overridden_repo_decision_count: numberOrNull(prop(repoDecisions, 'overridden_count')),
    active_turn_ids: stringList(prop(summary, 'active_turn_ids')),
    retained_turn_ids: stringList(prop(summary, 'retained_turn_ids')),
    active_repo_decision_ids: decisionIds(context, repoDecisions, 'active'),
    overridden_repo_decision_ids: decisionIds(context, repoDecisions, 'overridden'),
    budget_warn_mode: prop(budget, 'warn_mode') === true,
    budget_exhausted: prop(budget, 'exhausted') === true,
    phase_gate_status: gateStatusMap(context, prop(state, 'phase_gate_status') || {}),
    blocked_category: prop(blocked, 'category') || null,
    blocked_gate_action_timed_out: path(blocked, 'gate_action', 'timed_out') === true,
    blocked_gate_action_timeout_ms: numberOrNull(timeoutMs),
    delegation_missing_decisions: missingDecisionsByDelegation(prop(summary, 'delegation_summary')),
  };
}

/**
 * `(repo_decisions[key] || []).map(e => e?.id)` as a string list. A truthy non-array has no `map`:
 * the reference throws there; corrected mode reads it as no ids.
 */
function decisionIds(context: DiffContext, repoDecisions: ParsedValue, key: 'active' | 'overridden'): string[] {
  const entries = prop(repoDecisions, key) || [];
  if (!Array.isArray(entries)) {
    if (context.mode === 'reference') {
      throw crashAt(
        `summary.repo_decisions.${key}`,
        new TypeError(`summary.repo_decisions.${key}.map is not a function`),
      );
    }
    return [];
  }
  return stringList((entries as unknown[]).map((entry) => prop(entry, 'id')));
}

/**
 * For every delegation object with a non-blank string `delegation_id` in every chain: trimmed id →
 * string list of its `missing_decision_ids`. Entries stably sorted by id (`localeCompare(…, 'en')`)
 * before `Object.fromEntries`, so a later duplicate id overwrites the value at the first one's place.
 */
function missingDecisionsByDelegation(summary: ParsedValue): Record<string, string[]> {
  if (!isJsonObject(summary)) return {};
  const chains = Array.isArray(summary['delegation_chains']) ? (summary['delegation_chains'] as unknown[]) : [];
  const entries: [string, string[]][] = [];
  for (const chain of chains) {
    const delegations = prop(chain, 'delegations');
    if (!Array.isArray(delegations)) continue;
    for (const delegation of delegations as unknown[]) {
      if (!isJsonObject(delegation)) continue;
      const id = delegation['delegation_id'];
      if (typeof id !== 'string' || !id.trim()) continue;
      entries.push([id.trim(), stringList(delegation['missing_decision_ids'])]);
    }
  }
  return Object.fromEntries(entries.sort(([a], [b]) => compareEn(a, b))) as Record<string, string[]>;
}
