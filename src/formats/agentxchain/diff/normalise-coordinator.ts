/**
 * A coordinator export reduced to what `diff --export` compares (docs/agentxchain-diff.md §2.2).
 * Child repo statuses come from the repo status entries of the governance report
 * (docs/agentxchain-diff.md §2.2), fed with the coordinator's `summary.repo_run_statuses` (not
 * its state file) and the child exports in `repos`. Attacker-controlled and unverified: any value
 * may be of any type, `config.repo_order` may hold non-strings and duplicates.
 * @module
 */
import { prop, type ParsedValue } from '../js-semantics.ts';
import type { CoordinatorDiffSide } from './types.ts';
import {
  booleanMap,
  interpolate,
  numberOrNull,
  numericMap,
  stringList,
  stringMap,
  type DiffContext,
} from './values.ts';

/** Normalises a coordinator export whose `export_kind` is `kind`. */
export function normaliseCoordinator(context: DiffContext, artifact: ParsedValue, kind: string): CoordinatorDiffSide {
  const summary = prop(artifact, 'summary') || {};
  const events = prop(summary, 'aggregated_events') || {};
  const repos = prop(artifact, 'repos') || {};
  const entries = repoStatusEntries(context, artifact);
  const phaseOrder = prop(summary, 'workflow_phase_order');
  return {
    export_kind: kind,
    super_run_id: prop(summary, 'super_run_id') || null,
    status: prop(summary, 'status') || null,
    phase: prop(summary, 'phase') || null,
    workflow_phase_order: Array.isArray(phaseOrder) ? (phaseOrder as unknown[]) : null,
    project_name: prop(prop(artifact, 'coordinator'), 'project_name') || null,
    barrier_count: numberOrNull(prop(summary, 'barrier_count')),
    history_entries: numberOrNull(prop(summary, 'history_entries')),
    decision_entries: numberOrNull(prop(summary, 'decision_entries')),
    total_events: numberOrNull(prop(events, 'total_events')),
    repo_ids: stringList(entries.map((entry) => entry.repoId)),
    repos_with_events: stringList(prop(events, 'repos_with_events')),
    repo_statuses: stringMap(Object.fromEntries(entries.map((entry) => [entry.key, entry.status]))),
    coordinator_repo_statuses: stringMap(
      Object.fromEntries(
        entries.filter((entry) => entry.coordinatorStatus != null).map((entry) => [entry.key, entry.coordinatorStatus]),
      ),
    ),
    repo_export_status: booleanMap(
      Object.fromEntries(Object.entries(repos as object).map(([id, entry]) => [id, prop(entry, 'ok') === true])),
    ),
    event_type_counts: numericMap(prop(events, 'event_type_counts')),
  };
}

/** One repo status entry: what the diff keeps of it. */
interface RepoStatusEntry {
  /** The id as listed (any JSON value when it comes from `config.repo_order`). */
  readonly repoId: unknown;
  /** The id as a property key (`String(id)`). */
  readonly key: string;
  readonly status: unknown;
  readonly coordinatorStatus: unknown;
}

/**
 * The repo status entries (docs/agentxchain-diff.md §2.2), in order: `config.repo_order` when a
 * non-empty array (as it is), else the keys of `summary.repo_run_statuses`, then repo ids not yet
 * seen. A repo's own export is the authority when `repos[id].ok === true`.
 */
function repoStatusEntries(context: DiffContext, artifact: ParsedValue): RepoStatusEntry[] {
  // Coordinator view: {id: {status: value || null}} from the summary.
  const runStatuses = prop(prop(artifact, 'summary'), 'repo_run_statuses') || {};
  const coordinatorStatus = new Map<string, unknown>();
  for (const [id, status] of Object.entries(runStatuses as object)) coordinatorStatus.set(id, status || null);
  // Repo view: a snapshot per `repos` entry. The reference indexes them by id in a Map that skips the empty id.
  const snapshots = new Map<string, { ok: boolean; status: unknown }>();
  for (const [id, entry] of Object.entries(prop(artifact, 'repos') || {})) {
    if (id.length === 0) continue;
    const ok = prop(entry, 'ok');
    const status = ok ? (prop(prop(prop(entry, 'export'), 'summary'), 'status') ?? null) : null;
    snapshots.set(id, { ok: ok === true, status });
  }
  return repoOrder(artifact, coordinatorStatus, snapshots).map((repoId) => {
    // `coordinatorRepoRuns?.[repoId]` converts the id to a property key; an id the reference cannot convert crashes it.
    const key = interpolate(context, repoId, 'config.repo_order');
    const cs = coordinatorStatus.has(key) ? coordinatorStatus.get(key) : null;
    const snapshot = typeof repoId === 'string' ? snapshots.get(repoId) : undefined;
    const normalised = cs === 'linked' || cs === 'initialized' ? 'active' : cs || null;
    const status = snapshot?.ok === true ? snapshot.status || 'unknown' : normalised || 'unknown';
    return { repoId, key, status, coordinatorStatus: cs };
  });
}

/** `config.repo_order` if a non-empty array, else the coordinator's repo ids then the snapshots' ids not yet seen. */
function repoOrder(
  artifact: ParsedValue,
  coordinatorStatus: ReadonlyMap<string, unknown>,
  snapshots: ReadonlyMap<string, unknown>,
): unknown[] {
  const configured = prop(prop(artifact, 'config'), 'repo_order');
  if (Array.isArray(configured) && configured.length > 0) return [...(configured as unknown[])];
  return [...new Set<string>([...coordinatorStatus.keys(), ...snapshots.keys()])];
}
