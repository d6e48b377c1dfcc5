/**
 * Extended checks of the runner-interface artifacts inside a run export (docs/agentxchain.md §12):
 * the staged turn results `.agentxchain/staging/<turn_id>/turn-result.json` and the dispatch
 * bundle (`.agentxchain/dispatch/index.json`, `.agentxchain/dispatch/turns/<turn_id>/…`).
 *
 * The reference only counts these files. We check their shape (`schemas.ts`) and that they agree
 * with the exported state: every staged or dispatched turn is a key of `state.active_turns`, a staged
 * result's `turn_id` is the one its path names, `run_id` is `state.run_id`, the role is the active
 * turn's assigned role, and the delegation ids a result issues are unique; and every other id or path
 * these files and `state.active_turns` use to name something resolves (`references.ts`). Findings use `runner.*`
 * codes with severity warning (errors with `strict`) and carry no compat text, so the
 * `--compat agentxchain` output never changes. All of these files are attacker-controlled data:
 * they are only read, never interpreted as paths on any file system.
 * @module
 */
import type { FindingCode } from '../../../codes.ts';
import type { PathSegment } from '../../../report/path.ts';
import type { CheckContext, Scope } from '../context.ts';
import { isJsonObject, type ParsedObject, type ParsedValue } from '../js-semantics.ts';
import {
  checkActiveTurn,
  checkAssignmentReferences,
  checkBundleListed,
  checkIndexEntryReferences,
  checkManifestFiles,
  checkStagedReferences,
} from './references.ts';
import {
  assignedRole,
  bundleDirOf,
  DISPATCH_INDEX,
  LEGACY_STAGING,
  quoted,
  REJECTED_PREFIX,
  runnerStateOf,
  STAGING_PREFIX,
  TURNS_PREFIX,
  warn,
  type RunnerState,
} from './runner-state.ts';
import { AssignmentSchema, DispatchIndexSchema, StagedTurnResultSchema } from './schemas.ts';
import type { Shape, ShapeIssue } from './shape.ts';

/** `report.details.runner`: what the export says is in flight. */
export interface RunnerSection {
  /** `state.active_turns`, with each turn's assigned role. */
  readonly active_turns: { readonly turn_id: string; readonly role: string | null; readonly status: string | null }[];
  /** Turns with a dispatch bundle directory, or listed as active in the dispatch index. */
  readonly dispatched: string[];
  /** Staged results: the file, the turn its path names (null for the legacy single path) and the turn it claims. */
  readonly staged: {
    readonly path: string;
    readonly turn_id: string | null;
    readonly claimed_turn_id: string | null;
  }[];
  /** Rejected attempts preserved under `.agentxchain/dispatch/rejected/` (not checked: they were rejected). */
  readonly rejected: string[];
  /** Number of `runner.*` findings for this export. */
  readonly findings: number;
}

/** Checks `data` against `shape`, one finding per issue, at the issue's path inside `data`. */
function checkShape(
  state: RunnerState,
  code: FindingCode,
  shape: Shape,
  data: ParsedValue,
  at: readonly PathSegment[],
  what: string,
): void {
  const issues: ShapeIssue[] = [];
  shape(data, [], issues);
  for (const { path, message } of issues)
    warn(state, code, [...at, ...path], `${what}: ${path.length > 0 ? `${path.join('.')}: ` : ''}${message}`);
}

/** The turn directory named by a path under `prefix` (`<prefix><turn_id>/…`), or null. */
function turnOfPath(path: string, prefix: string): string | null {
  const rest = path.slice(prefix.length);
  const slash = rest.indexOf('/');
  return slash > 0 ? rest.slice(0, slash) : null;
}

/**
 * Runs the runner checks for one run export and returns its section, or `undefined` when the
 * export has no files map or no state object, or nothing in flight.
 */
export function verifyRunnerArtifacts(
  context: CheckContext,
  scope: Scope,
  artifact: ParsedObject,
): RunnerSection | undefined {
  const files = artifact['files'];
  const stateObject = artifact['state'];
  if (!isJsonObject(files) || !isJsonObject(stateObject)) return undefined;
  const state = runnerStateOf(context, scope, artifact, files, stateObject);
  for (const [turn, value] of state.active) checkActiveTurn(state, turn, value);

  const staged: RunnerSection['staged'][number][] = [];
  const bundles = new Map<string, string[]>();
  const rejected: string[] = [];
  let index: string | undefined;
  for (const path of Object.keys(files)) {
    if (path.startsWith(REJECTED_PREFIX)) rejected.push(path);
    else if (path === DISPATCH_INDEX) index = path;
    else if (path.startsWith(TURNS_PREFIX)) {
      const turn = turnOfPath(path, TURNS_PREFIX);
      if (turn !== null) {
        const paths = bundles.get(turn);
        if (paths === undefined) bundles.set(turn, [path]);
        else paths.push(path);
      }
    } else if (
      path === LEGACY_STAGING ||
      (path.startsWith(STAGING_PREFIX) &&
        path.endsWith('/turn-result.json') &&
        turnOfPath(path, STAGING_PREFIX) !== null)
    ) {
      staged.push(
        checkStagedResult(state, path, files[path], path === LEGACY_STAGING ? null : turnOfPath(path, STAGING_PREFIX)),
      );
    }
  }
  const dispatched = new Set<string>(bundles.keys());
  const listing = index === undefined ? null : checkDispatchIndex(state, index, files[index]);
  if (listing !== null) for (const turn of listing.active) dispatched.add(turn);
  for (const [turn, paths] of bundles) checkBundle(state, turn, paths, files, listing?.listed ?? null);

  if (state.active.size === 0 && staged.length === 0 && dispatched.size === 0 && rejected.length === 0)
    return undefined;
  return {
    active_turns: [...state.active].map(([turn_id, turn]) => ({
      turn_id,
      role: typeof assignedRole(turn) === 'string' ? (assignedRole(turn) as string) : null,
      status: isJsonObject(turn) && typeof turn['status'] === 'string' ? turn['status'] : null,
    })),
    dispatched: [...dispatched],
    staged,
    rejected,
    findings: state.findings,
  };
}

/** The `data` of a json file entry, or undefined when there is none to check (truncated, not an entry). */
function jsonData(entry: ParsedValue): ParsedValue {
  if (!isJsonObject(entry) || entry['format'] !== 'json') return undefined;
  return entry['data'] ?? undefined;
}

/** Checks the run id, and the role against the active turn's assigned role. */
function checkIdentity(
  state: RunnerState,
  data: ParsedObject,
  at: readonly PathSegment[],
  turn: string | null,
  what: string,
  roleKey: string,
): void {
  const runId = data['run_id'];
  if (typeof state.runId === 'string' && typeof runId === 'string' && runId !== state.runId) {
    warn(
      state,
      'runner.run_id_mismatch',
      [...at, 'run_id'],
      `${what} belongs to run ${quoted(runId)}, but state.run_id is ${quoted(state.runId)}`,
    );
  }
  if (turn === null || !state.active.has(turn)) return;
  const expected = assignedRole(state.active.get(turn));
  const role = data[roleKey];
  if (typeof expected === 'string' && typeof role === 'string' && role !== expected) {
    warn(
      state,
      'runner.role_mismatch',
      [...at, roleKey],
      `${what} is for role ${quoted(role)}, but state.active_turns assigns turn ${turn} to ${quoted(expected)}`,
    );
  }
}

/** A staged turn result (§12): shape, the turn it is staged for, identity, unique delegation ids. */
function checkStagedResult(
  state: RunnerState,
  path: string,
  entry: ParsedValue,
  pathTurn: string | null,
): RunnerSection['staged'][number] {
  const at: PathSegment[] = ['files', path, 'data'];
  const data = jsonData(entry);
  const claimed = isJsonObject(data) && typeof data['turn_id'] === 'string' ? data['turn_id'] : null;
  const row = { path, turn_id: pathTurn, claimed_turn_id: claimed };
  if (pathTurn !== null && !state.active.has(pathTurn)) {
    warn(
      state,
      'runner.turn_not_active',
      ['files', path],
      `a turn result is staged for turn ${pathTurn}, which is not in state.active_turns`,
    );
  }
  if (data === undefined) return row;
  if (!isJsonObject(data)) {
    warn(state, 'runner.turn_result_invalid', at, 'the staged turn result must be a JSON object');
    return row;
  }
  checkShape(state, 'runner.turn_result_invalid', StagedTurnResultSchema, data, at, 'staged turn result');
  if (pathTurn !== null && claimed !== null && claimed !== pathTurn) {
    warn(
      state,
      'runner.turn_id_mismatch',
      [...at, 'turn_id'],
      `the turn result staged under turn ${pathTurn} claims turn_id ${quoted(claimed)}`,
    );
  }
  if (pathTurn === null && claimed !== null && !state.active.has(claimed)) {
    warn(
      state,
      'runner.turn_not_active',
      [...at, 'turn_id'],
      `the staged turn result is for turn ${claimed}, which is not in state.active_turns`,
    );
  }
  checkIdentity(state, data, at, pathTurn ?? claimed, 'the staged turn result', 'role');
  checkStagedReferences(state, at, data, pathTurn ?? claimed);
  const delegations = data['delegations'];
  if (Array.isArray(delegations)) {
    const seen = new Set<unknown>();
    delegations.forEach((delegation, i) => {
      const id = isJsonObject(delegation) ? delegation['id'] : undefined;
      if (id === undefined) return;
      if (seen.has(id))
        warn(
          state,
          'runner.delegation_id_duplicate',
          [...at, 'delegations', i, 'id'],
          `delegation id ${quoted(id)} is issued more than once`,
        );
      seen.add(id);
    });
  }
  return row;
}

/** What the dispatch index lists: its active turns, and all its turns when it is an index of this run. */
interface IndexListing {
  readonly active: string[];
  /** Every turn the index lists, or null when it cannot tell (no readable index of this run). */
  readonly listed: ReadonlySet<string> | null;
}

/**
 * `.agentxchain/dispatch/index.json`: shape, and each listed turn. The runner does not clear the
 * index when it accepts a turn, so a finished run's index still lists its last turn: entries for
 * turns already in history.jsonl are expected, and identity is only checked for active turns.
 */
function checkDispatchIndex(state: RunnerState, path: string, entry: ParsedValue): IndexListing {
  const at: PathSegment[] = ['files', path, 'data'];
  const data = jsonData(entry);
  if (data === undefined) return { active: [], listed: null };
  if (!isJsonObject(data)) {
    warn(state, 'runner.dispatch_invalid', at, 'the dispatch index must be a JSON object');
    return { active: [], listed: null };
  }
  checkShape(state, 'runner.dispatch_invalid', DispatchIndexSchema, data, at, 'dispatch index');
  const turns = isJsonObject(data['active_turns']) ? data['active_turns'] : {};
  const listedActive = Object.keys(turns).filter((turn) => state.active.has(turn));
  if (listedActive.length > 0) checkIdentity(state, data, at, null, 'the dispatch index', 'role');
  for (const [turn, listed] of Object.entries(turns)) {
    const listedAt = [...at, 'active_turns', turn];
    if (!state.active.has(turn)) {
      if (!state.finished.has(turn)) {
        warn(
          state,
          'runner.turn_not_active',
          listedAt,
          `the dispatch index lists turn ${turn}, which is neither in state.active_turns nor in history.jsonl`,
        );
      }
      continue;
    }
    if (!isJsonObject(listed)) continue;
    if (typeof listed['turn_id'] === 'string' && listed['turn_id'] !== turn) {
      warn(
        state,
        'runner.turn_id_mismatch',
        [...listedAt, 'turn_id'],
        `the dispatch index entry for turn ${turn} claims turn_id ${quoted(listed['turn_id'])}`,
      );
    }
    checkIdentity(state, listed, listedAt, turn, `the dispatch index entry for turn ${turn}`, 'role');
    checkIndexEntryReferences(state, listedAt, listed, turn);
  }
  // An index another run left behind (its run_id is not this run's) says nothing about this run's bundles.
  const ofThisRun = typeof data['run_id'] !== 'string' || data['run_id'] === state.runId;
  const listed = ofThisRun && isJsonObject(data['active_turns']) ? new Set(Object.keys(turns)) : null;
  return { active: listedActive, listed };
}

/**
 * A dispatch bundle `.agentxchain/dispatch/turns/<turn>/`: the turn is active and listed by the
 * index; ASSIGNMENT.json and MANIFEST.json agree with it.
 */
function checkBundle(
  state: RunnerState,
  turn: string,
  paths: readonly string[],
  files: ParsedObject,
  listed: ReadonlySet<string> | null,
): void {
  const assignmentPath = `${bundleDirOf(turn)}/ASSIGNMENT.json`;
  const anchor = paths.includes(assignmentPath) ? assignmentPath : paths[0]!;
  if (!state.active.has(turn)) {
    warn(
      state,
      'runner.turn_not_active',
      ['files', anchor],
      `a dispatch bundle exists for turn ${turn}, which is not in state.active_turns`,
    );
  }
  checkBundleListed(state, turn, anchor, listed);
  const manifestPath = `${bundleDirOf(turn)}/MANIFEST.json`;
  if (paths.includes(manifestPath)) checkManifest(state, turn, manifestPath, files[manifestPath]);
  if (!paths.includes(assignmentPath)) return;
  const at: PathSegment[] = ['files', assignmentPath, 'data'];
  const data = jsonData(files[assignmentPath]);
  if (data === undefined) return;
  if (!isJsonObject(data)) {
    warn(state, 'runner.dispatch_invalid', at, 'ASSIGNMENT.json must be a JSON object');
    return;
  }
  checkShape(state, 'runner.dispatch_invalid', AssignmentSchema, data, at, 'ASSIGNMENT.json');
  if (typeof data['turn_id'] === 'string' && data['turn_id'] !== turn) {
    warn(
      state,
      'runner.turn_id_mismatch',
      [...at, 'turn_id'],
      `the assignment in the bundle of turn ${turn} claims turn_id ${quoted(data['turn_id'])}`,
    );
  }
  checkIdentity(state, data, at, turn, `the assignment of turn ${turn}`, 'role');
  if (state.active.has(turn)) checkAssignmentReferences(state, at, data, turn);
}

/** MANIFEST.json of a bundle (`finalizeDispatchManifest`): its turn, run and role, and the files it lists. */
function checkManifest(state: RunnerState, turn: string, path: string, entry: ParsedValue): void {
  const at: PathSegment[] = ['files', path, 'data'];
  const data = jsonData(entry);
  if (!isJsonObject(data)) return;
  if (typeof data['turn_id'] === 'string' && data['turn_id'] !== turn) {
    warn(
      state,
      'runner.turn_id_mismatch',
      [...at, 'turn_id'],
      `the manifest in the bundle of turn ${turn} claims turn_id ${quoted(data['turn_id'])}`,
    );
  }
  checkIdentity(state, data, at, turn, `the manifest of turn ${turn}`, 'role');
  checkManifestFiles(state, at, data, turn);
}
