/**
 * One AgentXchain export, top-level checks first (docs/agentxchain.md §3), then the kind's own
 * checks. Used for the artifact itself and, recursively, for every child export of a coordinator.
 * @module
 */
import { verifyCoordinatorExport, type RepoRow } from './coordinator-export.ts';
import { reportError, type CheckContext, type Scope } from './context.ts';
import { verifyFilesMap, type FileRow } from './files.ts';
import { describeValue, isJsonObject, isParsableDate, jsString, type ParsedObject } from './js-semantics.ts';
import { verifyRunExport } from './run-export.ts';
import { verifyRunnerArtifacts, type RunnerSection } from './runner/verify-runner.ts';

export const RUN_EXPORT = 'agentxchain_run_export';
export const COORDINATOR_EXPORT = 'agentxchain_coordinator_export';

/** What the top level reports in `details`. */
export interface ExportRows {
  readonly files: FileRow[];
  readonly repos: RepoRow[];
  /** Runner-interface artifacts of a run export (docs/agentxchain.md §12), when anything is in flight. */
  readonly runner?: RunnerSection;
}

/** §3: verifies one export object (the caller has checked that it is a JSON object). */
export function verifyExportObject(context: CheckContext, scope: Scope, artifact: ParsedObject): ExportRows {
  const schemaVersion = artifact['schema_version'];
  if (schemaVersion !== '0.2' && schemaVersion !== '0.3') {
    reportError(
      context,
      scope,
      'agentxchain.schema_version_unsupported',
      'schema_version',
      ['schema_version'],
      'must be one of "0.2", "0.3"',
    );
  }
  const exportKind = artifact['export_kind'];
  if (typeof exportKind !== 'string')
    reportError(context, scope, 'agentxchain.export_kind_invalid', 'export_kind', ['export_kind'], 'must be a string');
  if (!isParsableDate(artifact['exported_at'])) {
    reportError(
      context,
      scope,
      'agentxchain.field_invalid',
      'exported_at',
      ['exported_at'],
      'must be a valid ISO timestamp',
    );
  }
  if (!isJsonObject(artifact['config']))
    reportError(context, scope, 'agentxchain.field_invalid', 'config', ['config'], 'must be an object');
  const files = verifyFilesMap(context, scope, artifact['files']);

  if (exportKind === RUN_EXPORT) {
    verifyRunExport(context, scope, artifact);
    // The kit's own extended checks: warnings only, never part of the reference's verdict.
    const runner = verifyRunnerArtifacts(context, scope, artifact);
    return runner === undefined ? { files, repos: [] } : { files, repos: [], runner };
  }
  if (exportKind === COORDINATOR_EXPORT) {
    return { files, repos: verifyCoordinatorExport(context, scope, artifact, verifyChildExport) };
  }
  // Crash site 10 (§9): interpolating an object with its own toString key crashes the reference.
  const shown = jsString(exportKind);
  reportError(
    context,
    scope,
    'agentxchain.export_kind_invalid',
    'export_kind',
    ['export_kind'],
    shown === undefined
      ? `unsupported export kind (${describeValue(exportKind)})`
      : `unsupported export kind "${shown}"`,
  );
  return { files, repos: [] };
}

/** A child export (`repos.<id>.export`), verified like a top-level one (§8.6). */
function verifyChildExport(context: CheckContext, scope: Scope, artifact: ParsedObject): void {
  verifyExportObject(context, scope, artifact);
}
