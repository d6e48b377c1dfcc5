/**
 * Run exports (`agentxchain_run_export`), docs/agentxchain.md §5, in the reference's order.
 * Every read of artifact data is null-safe (§2), like the reference's optional chaining.
 * @module
 */
import { jsonDeepStrictEqual } from '../../json/deep-equal.ts';
import type { FindingCode } from '../../codes.ts';
import type { PathSegment } from '../../report/path.ts';
import { reportError, type CheckContext, type Scope } from './context.ts';
import {
  compareEn,
  isJsonObject,
  isNonEmptyString,
  path,
  prop,
  type ParsedObject,
  type ParsedValue,
} from './js-semantics.ts';
import { verifyDashboardSession } from './summaries/dashboard.ts';
import { verifyDelegationSummary } from './summaries/delegation.ts';
import { verifyWorkflowPhaseOrder } from './summaries/phase-order.ts';
import { verifyRepoDecisions } from './summaries/repo-decisions.ts';

/** Reports at a dotted reference path whose JSON-path segments are its parts. */
function at(context: CheckContext, scope: Scope, code: FindingCode, dotted: string, message: string): void {
  reportError(context, scope, code, dotted, dotted.split('.') as PathSegment[], message);
}

function countJsonl(files: ParsedValue, relPath: string): number {
  const data = path(files, relPath, 'data');
  return Array.isArray(data) ? data.length : 0;
}

/** `Object.keys(files || {})`: a truthy primitive string yields its indices, other primitives none. */
function fileKeys(files: ParsedValue): string[] {
  return Object.keys(files || {});
}

function isArrayOfNonEmptyStrings(value: ParsedValue): boolean {
  return Array.isArray(value) && value.every(isNonEmptyString);
}

/** §5: the checks of a run export (top-level checks and `files` already done). */
export function verifyRunExport(context: CheckContext, scope: Scope, artifact: ParsedObject): void {
  const { config, files } = artifact;

  // §5.1–5.2
  if (!isNonEmptyString(artifact['project_root']))
    at(context, scope, 'agentxchain.field_invalid', 'project_root', 'must be a non-empty string');
  const project = artifact['project'];
  if (!isJsonObject(project)) {
    at(context, scope, 'agentxchain.field_invalid', 'project', 'must be an object');
  } else {
    const protocolMode = prop(config, 'protocol_mode') || prop(artifact['state'], 'protocol_mode') || 'governed';
    if (project['id'] !== path(config, 'project', 'id'))
      at(context, scope, 'agentxchain.project_mismatch', 'project.id', 'must match config.project.id');
    if (project['name'] !== path(config, 'project', 'name'))
      at(context, scope, 'agentxchain.project_mismatch', 'project.name', 'must match config.project.name');
    if (project['template'] !== (prop(config, 'template') || 'generic')) {
      at(
        context,
        scope,
        'agentxchain.project_mismatch',
        'project.template',
        'must match config.template or implicit generic',
      );
    }
    if (project['protocol_mode'] !== protocolMode)
      at(context, scope, 'agentxchain.project_mismatch', 'project.protocol_mode', 'must match exported protocol mode');
  }

  // §5.3–5.4: without summary or state nothing else can be compared.
  const summary = artifact['summary'];
  if (!isJsonObject(summary)) {
    at(context, scope, 'agentxchain.field_invalid', 'summary', 'must be an object');
    return;
  }
  const state = artifact['state'];
  if (!isJsonObject(state)) {
    at(context, scope, 'agentxchain.field_invalid', 'state', 'must be an object');
    return;
  }

  // §5.5–5.6: the top-level copies must equal the embedded files' data.
  if (!jsonDeepStrictEqual(config, path(files, 'agentxchain.json', 'data'))) {
    reportError(
      context,
      scope,
      'agentxchain.config_mismatch',
      'config',
      ['config'],
      'must match files.agentxchain.json.data',
    );
  }
  if (!jsonDeepStrictEqual(state, path(files, '.agentxchain/state.json', 'data'))) {
    reportError(
      context,
      scope,
      'agentxchain.state_mismatch',
      'state',
      ['state'],
      'must match files..agentxchain/state.json.data',
    );
  }

  // §5.7: workspace only when the key exists.
  if ('workspace' in artifact) verifyWorkspace(context, scope, artifact['workspace']);

  // §5.8: turn ids, sorted with ICU collation as the writer does.
  const activeTurnIds = Object.keys(state['active_turns'] || {}).sort(compareEn);
  const retainedTurnIds = Object.keys(state['retained_turns'] || {}).sort(compareEn);
  if (!jsonDeepStrictEqual(summary['active_turn_ids'], activeTurnIds)) {
    at(
      context,
      scope,
      'agentxchain.summary_mismatch',
      'summary.active_turn_ids',
      'must match sorted state.active_turns keys',
    );
  }
  if (!jsonDeepStrictEqual(summary['retained_turn_ids'], retainedTurnIds)) {
    at(
      context,
      scope,
      'agentxchain.summary_mismatch',
      'summary.retained_turn_ids',
      'must match sorted state.retained_turns keys',
    );
  }

  // §5.9: strict equality; falsy state values normalise to null.
  if (summary['run_id'] !== (state['run_id'] || null))
    at(context, scope, 'agentxchain.summary_mismatch', 'summary.run_id', 'must match state.run_id');
  if (summary['status'] !== (state['status'] || null))
    at(context, scope, 'agentxchain.summary_mismatch', 'summary.status', 'must match state.status');
  if (summary['phase'] !== (state['phase'] || null))
    at(context, scope, 'agentxchain.summary_mismatch', 'summary.phase', 'must match state.phase');

  // §5.10
  verifyWorkflowPhaseOrder(context, scope, summary);

  // §5.11: counts derived from the files map.
  const counts: readonly [string, number, string][] = [
    [
      'history_entries',
      countJsonl(files, '.agentxchain/history.jsonl'),
      'must match .agentxchain/history.jsonl entry count',
    ],
    [
      'decision_entries',
      countJsonl(files, '.agentxchain/decision-ledger.jsonl'),
      'must match .agentxchain/decision-ledger.jsonl entry count',
    ],
    [
      'hook_audit_entries',
      countJsonl(files, '.agentxchain/hook-audit.jsonl'),
      'must match .agentxchain/hook-audit.jsonl entry count',
    ],
    [
      'notification_audit_entries',
      countJsonl(files, '.agentxchain/notification-audit.jsonl'),
      'must match .agentxchain/notification-audit.jsonl entry count',
    ],
    [
      'dispatch_artifact_files',
      fileKeys(files).filter((p) => p.startsWith('.agentxchain/dispatch/')).length,
      'must match .agentxchain/dispatch file count',
    ],
    [
      'staging_artifact_files',
      fileKeys(files).filter((p) => p.startsWith('.agentxchain/staging/')).length,
      'must match .agentxchain/staging file count',
    ],
  ];
  for (const [field, expected, message] of counts) {
    if (summary[field] !== expected) at(context, scope, 'agentxchain.summary_mismatch', `summary.${field}`, message);
  }
  // Crash site 1 (§9): the reference calls Object.keys(files) here and crashes on a null or missing files;
  // that export already failed with `files: must be an object …`, so these two checks are skipped.
  if (files !== null && files !== undefined) {
    const keys = Object.keys(files);
    if (summary['intake_present'] !== keys.some((p) => p.startsWith('.agentxchain/intake/'))) {
      at(context, scope, 'agentxchain.summary_mismatch', 'summary.intake_present', 'must match intake file presence');
    }
    if (summary['coordinator_present'] !== keys.some((p) => p.startsWith('.agentxchain/multirepo/'))) {
      at(
        context,
        scope,
        'agentxchain.summary_mismatch',
        'summary.coordinator_present',
        'must match multirepo file presence',
      );
    }
  }

  // §5.12–5.14
  verifyDelegationSummary(context, scope, summary, files);
  verifyRepoDecisions(context, scope, summary, files, config);
  verifyDashboardSession(context, scope, summary);
}

/** §5.7: the workspace block's shape (no cross-checks, as in the reference). */
function verifyWorkspace(context: CheckContext, scope: Scope, workspace: ParsedValue): void {
  if (!isJsonObject(workspace)) {
    at(context, scope, 'agentxchain.field_invalid', 'workspace', 'must be an object');
    return;
  }
  const git = workspace['git'];
  if (!isJsonObject(git)) {
    at(context, scope, 'agentxchain.field_invalid', 'workspace.git', 'must be an object');
    return;
  }
  const headSha = git['head_sha'];
  if (typeof git['is_repo'] !== 'boolean')
    at(context, scope, 'agentxchain.field_invalid', 'workspace.git.is_repo', 'must be a boolean');
  if (headSha !== null && !isNonEmptyString(headSha))
    at(context, scope, 'agentxchain.field_invalid', 'workspace.git.head_sha', 'must be a string or null');
  if (!isArrayOfNonEmptyStrings(git['dirty_paths'])) {
    at(
      context,
      scope,
      'agentxchain.field_invalid',
      'workspace.git.dirty_paths',
      'must be an array of non-empty strings',
    );
  }
  if (typeof git['restore_supported'] !== 'boolean')
    at(context, scope, 'agentxchain.field_invalid', 'workspace.git.restore_supported', 'must be a boolean');
  if (!isArrayOfNonEmptyStrings(git['restore_blockers'])) {
    at(
      context,
      scope,
      'agentxchain.field_invalid',
      'workspace.git.restore_blockers',
      'must be an array of non-empty strings',
    );
  }
}
