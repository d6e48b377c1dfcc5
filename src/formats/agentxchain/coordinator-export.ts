/**
 * Coordinator exports (`agentxchain_coordinator_export`), docs/agentxchain.md §8:
 * the coordinator block, the summary against the multirepo state files, then each repo entry,
 * whose child export is verified recursively under the prefix `repos.<id>.export: `.
 * Nesting is attacker-controlled: it is bounded by `context.maxNesting`, past which a child gets a
 * `limit.json_depth` finding instead of a deeper recursion.
 * @module
 */
import { jsonDeepStrictEqual } from '../../json/deep-equal.ts';
import type { FindingCode } from '../../codes.ts';
import { jsonPath, type PathSegment } from '../../report/path.ts';
import { childScope, reportError, throwIfAborted, type CheckContext, type Scope } from './context.ts';
import { isJsonObject, isNonEmptyString, path, prop, type ParsedObject, type ParsedValue } from './js-semantics.ts';
import { verifyAggregatedEvents } from './summaries/aggregated-events.ts';
import { verifyWorkflowPhaseOrder } from './summaries/phase-order.ts';
import { reconstruct, UnprocessableValue } from './unprocessable.ts';

const MULTIREPO_STATE = '.agentxchain/multirepo/state.json';

/** A child export's outcome, for `report.details.repos` (top level only). */
export interface RepoRow {
  readonly id: string;
  readonly ok: boolean | null;
  /** `pass`/`fail` for a verified child export; `not-checked` when ok is false; `invalid` for a malformed entry. */
  readonly overall: 'pass' | 'fail' | 'not-checked' | 'invalid';
  readonly file_count: number | null;
}

/** Verifies one export of any kind (injected to break the module cycle with `verify-artifact.ts`). */
export type VerifyChild = (context: CheckContext, scope: Scope, artifact: ParsedObject) => void;

function at(context: CheckContext, scope: Scope, code: FindingCode, dotted: string, message: string): void {
  reportError(context, scope, code, dotted, dotted.split('.') as PathSegment[], message);
}

function countJsonl(files: ParsedValue, relPath: string): number {
  const data = path(files, relPath, 'data');
  return Array.isArray(data) ? data.length : 0;
}

function keyCount(value: ParsedValue): number {
  return Object.keys((value || {}) as object).length;
}

/**
 * §8.3: `{repo_id: run.status || "unknown"}` over `S.repo_runs` (arrays included, keys as indices).
 * Assigned on a plain object, as the reference does, so a `__proto__` key is dropped the same way.
 * @throws UnprocessableValue for a `null` run (crash site 8, §9).
 */
function expectedRepoRunStatuses(coordinatorState: ParsedValue): Record<string, unknown> {
  const statuses: Record<string, unknown> = {};
  const runs = prop(coordinatorState, 'repo_runs');
  if (runs && typeof runs === 'object') {
    for (const [repoId, run] of Object.entries(runs)) {
      if (run === null)
        throw new UnprocessableValue(['files', MULTIREPO_STATE, 'data', 'repo_runs', repoId], 'is null');
      statuses[repoId] = prop(run, 'status') || 'unknown';
    }
  }
  return statuses;
}

/** §8: the checks of a coordinator export (top-level checks and `files` already done). */
export function verifyCoordinatorExport(
  context: CheckContext,
  scope: Scope,
  artifact: ParsedObject,
  verifyChild: VerifyChild,
): RepoRow[] {
  const { config, files } = artifact;

  // §8.1–8.2
  if (!isNonEmptyString(artifact['workspace_root']))
    at(context, scope, 'agentxchain.field_invalid', 'workspace_root', 'must be a non-empty string');
  const coordinator = artifact['coordinator'];
  if (!isJsonObject(coordinator)) {
    at(context, scope, 'agentxchain.field_invalid', 'coordinator', 'must be an object');
  } else {
    if (coordinator['project_id'] !== (path(config, 'project', 'id') || null)) {
      at(context, scope, 'agentxchain.project_mismatch', 'coordinator.project_id', 'must match config.project.id');
    }
    if (coordinator['project_name'] !== (path(config, 'project', 'name') || null)) {
      at(context, scope, 'agentxchain.project_mismatch', 'coordinator.project_name', 'must match config.project.name');
    }
    if (coordinator['repo_count'] !== keyCount(prop(config, 'repos'))) {
      at(context, scope, 'agentxchain.project_mismatch', 'coordinator.repo_count', 'must match config.repos size');
    }
    if (coordinator['workstream_count'] !== keyCount(prop(config, 'workstreams'))) {
      at(
        context,
        scope,
        'agentxchain.project_mismatch',
        'coordinator.workstream_count',
        'must match config.workstreams size',
      );
    }
  }

  // §8.3: a non-object summary is reported, and the checks go on.
  const summary = artifact['summary'];
  if (!isJsonObject(summary)) {
    at(context, scope, 'agentxchain.field_invalid', 'summary', 'must be an object');
  } else {
    verifyCoordinatorSummary(context, scope, summary, files);
  }

  // §8.4
  if (!jsonDeepStrictEqual(config, path(files, 'agentxchain-multi.json', 'data'))) {
    reportError(
      context,
      scope,
      'agentxchain.config_mismatch',
      'config',
      ['config'],
      'must match files.agentxchain-multi.json.data',
    );
  }

  // §8.5–8.6
  const repos = artifact['repos'];
  if (!isJsonObject(repos)) {
    at(context, scope, 'agentxchain.field_invalid', 'repos', 'must be an object');
    return [];
  }
  const rows: RepoRow[] = [];
  for (const [repoId, entry] of Object.entries(repos)) {
    throwIfAborted(context);
    rows.push(verifyRepoEntry(context, scope, repoId, entry, verifyChild));
  }

  // §8.7
  verifyAggregatedEvents(context, scope, summary, repos);
  return rows;
}

function verifyCoordinatorSummary(
  context: CheckContext,
  scope: Scope,
  summary: ParsedObject,
  files: ParsedValue,
): void {
  const coordinatorState = path(files, MULTIREPO_STATE, 'data') || null;
  const barriers = path(files, '.agentxchain/multirepo/barriers.json', 'data');
  const barrierCount = isJsonObject(barriers) ? Object.keys(barriers).length : 0;
  if (summary['super_run_id'] !== (prop(coordinatorState, 'super_run_id') || null)) {
    at(
      context,
      scope,
      'agentxchain.summary_mismatch',
      'summary.super_run_id',
      'must match coordinator state super_run_id',
    );
  }
  if (summary['status'] !== (prop(coordinatorState, 'status') || null)) {
    at(context, scope, 'agentxchain.summary_mismatch', 'summary.status', 'must match coordinator state status');
  }
  if (summary['phase'] !== (prop(coordinatorState, 'phase') || null)) {
    at(context, scope, 'agentxchain.summary_mismatch', 'summary.phase', 'must match coordinator state phase');
  }
  verifyWorkflowPhaseOrder(context, scope, summary);
  // The reference computes the statuses before any comparison and crashes there on a null run
  // (crash site 8, §9); the computation has no side effects, so reporting it here keeps the natural order.
  const statuses = reconstruct(context, scope, ['summary', 'repo_run_statuses'], 'summary.repo_run_statuses', () =>
    expectedRepoRunStatuses(coordinatorState),
  );
  if (statuses !== undefined && !jsonDeepStrictEqual(summary['repo_run_statuses'], statuses.value)) {
    at(
      context,
      scope,
      'agentxchain.summary_mismatch',
      'summary.repo_run_statuses',
      'must match coordinator state repo run statuses',
    );
  }
  if (summary['barrier_count'] !== barrierCount)
    at(context, scope, 'agentxchain.summary_mismatch', 'summary.barrier_count', 'must match barriers.json object size');
  if (summary['history_entries'] !== countJsonl(files, '.agentxchain/multirepo/history.jsonl')) {
    at(
      context,
      scope,
      'agentxchain.summary_mismatch',
      'summary.history_entries',
      'must match multirepo history entry count',
    );
  }
  if (summary['decision_entries'] !== countJsonl(files, '.agentxchain/multirepo/decision-ledger.jsonl')) {
    at(
      context,
      scope,
      'agentxchain.summary_mismatch',
      'summary.decision_entries',
      'must match multirepo decision entry count',
    );
  }
}

/** §8.6: one repo entry, and its child export when `ok` is true. */
function verifyRepoEntry(
  context: CheckContext,
  scope: Scope,
  repoId: string,
  entry: ParsedValue,
  verifyChild: VerifyChild,
): RepoRow {
  const refPath = `repos.${repoId}`;
  const error = (field: string | null, message: string): void => {
    const segments: PathSegment[] = field === null ? ['repos', repoId] : ['repos', repoId, field];
    reportError(
      context,
      scope,
      'agentxchain.repo_entry_invalid',
      field === null ? refPath : `${refPath}.${field}`,
      segments,
      message,
    );
  };
  if (!isJsonObject(entry)) {
    error(null, 'must be an object');
    return { id: repoId, ok: null, overall: 'invalid', file_count: null };
  }
  if (!isNonEmptyString(entry['path'])) error('path', 'must be a non-empty string');
  const ok = entry['ok'];
  if (typeof ok !== 'boolean') {
    error('ok', 'must be a boolean');
    return { id: repoId, ok: null, overall: 'invalid', file_count: null };
  }
  if (!ok) {
    if (!isNonEmptyString(entry['error'])) error('error', 'must be a non-empty string when ok is false');
    return { id: repoId, ok, overall: 'not-checked', file_count: null };
  }
  const child = entry['export'];
  if (!isJsonObject(child)) {
    error('export', 'must be an object when ok is true');
    return { id: repoId, ok, overall: 'invalid', file_count: null };
  }
  const fileCount = isJsonObject(child['files']) ? Object.keys(child['files']).length : 0;
  const nested = childScope(scope, repoId);
  if (nested.level > context.maxNesting) {
    // Not a reference error (it has no limit): the kit refuses to recurse without bound.
    context.collector.add(
      'limit.json_depth',
      jsonPath(nested.segments),
      `child exports are nested more than ${context.maxNesting} levels deep (limits.maxJsonDepth); this one was not verified`,
    );
    return { id: repoId, ok, overall: 'not-checked', file_count: fileCount };
  }
  const before = context.errorCount;
  verifyChild(context, nested, child);
  return { id: repoId, ok, overall: context.errorCount > before ? 'fail' : 'pass', file_count: fileCount };
}
