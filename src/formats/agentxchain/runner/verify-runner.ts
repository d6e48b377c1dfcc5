/**
 * Extended checks of the runner-interface artifacts inside a run export (docs/agentxchain.md §12):
 * the staged turn results `.agentxchain/staging/<turn_id>/turn-result.json` and the dispatch
 * bundle (`.agentxchain/dispatch/index.json`, `.agentxchain/dispatch/turns/<turn_id>/…`).
 *
 * The reference only counts these files. We check their shape (valibot schemas) and that they agree
 * with the exported state: every staged or dispatched turn is a key of `state.active_turns`, a staged
 * result's `turn_id` is the one its path names, `run_id` is `state.run_id`, the role is the active
 * turn's assigned role, and the delegation ids a result issues are unique. Findings use `runner.*`
 * codes with severity warning (errors with `strict`) and carry no compat text, so the
 * `--compat agentxchain` output never changes. All of these files are attacker-controlled data:
 * they are only read, never interpreted as paths on any file system.
 * @module
 */
import { safeParse, type GenericSchema } from 'valibot';
import type { FindingCode } from '../../../codes.ts';
import type { PathSegment } from '../../../report/path.ts';
import { reportWarning, type CheckContext, type Scope } from '../context.ts';
import { isJsonObject, type ParsedObject, type ParsedValue } from '../js-semantics.ts';
import { AssignmentSchema, DispatchIndexSchema, StagedTurnResultSchema } from './schemas.ts';

const STAGING_PREFIX = '.agentxchain/staging/';
const TURNS_PREFIX = '.agentxchain/dispatch/turns/';
const REJECTED_PREFIX = '.agentxchain/dispatch/rejected/';
const DISPATCH_INDEX = '.agentxchain/dispatch/index.json';
const LEGACY_STAGING = '.agentxchain/staging/turn-result.json';

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

interface RunnerState {
  readonly context: CheckContext;
  readonly scope: Scope;
  readonly active: ReadonlyMap<string, ParsedValue>;
  /** Turns already accepted (history.jsonl) or retained: the dispatch index may still list the last one. */
  readonly finished: ReadonlySet<unknown>;
  readonly runId: ParsedValue;
  findings: number;
}

function warn(state: RunnerState, code: FindingCode, segments: readonly PathSegment[], message: string): void {
  state.findings++;
  reportWarning(state.context, state.scope, code, segments, message);
}

/** The role `state.active_turns[turn]` assigns (`assigned_role`, or `role` in older states). */
function assignedRole(turn: ParsedValue): ParsedValue {
  if (!isJsonObject(turn)) return undefined;
  return turn['assigned_role'] ?? turn['role'];
}

function quoted(value: ParsedValue): string {
  return typeof value === 'string'
    ? `"${value.length > 80 ? `${value.slice(0, 80)}…` : value}"`
    : (JSON.stringify(value) ?? String(value));
}

/** Validates `data` against `schema`, one finding per issue, at the issue's path inside `data`. */
function checkShape(
  state: RunnerState,
  code: FindingCode,
  schema: GenericSchema,
  data: ParsedValue,
  at: readonly PathSegment[],
  what: string,
): boolean {
  const result = safeParse(schema, data, { abortEarly: false });
  if (result.success) return true;
  for (const issue of result.issues) {
    const inner = (issue.path ?? []).map((item) => item.key as PathSegment);
    const field = inner.length > 0 ? `${inner.join('.')}: ` : '';
    warn(state, code, [...at, ...inner], `${what}: ${field}${issue.message}`);
  }
  return false;
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
  const activeTurns = isJsonObject(stateObject['active_turns']) ? stateObject['active_turns'] : {};
  const history = files['.agentxchain/history.jsonl'];
  const historyData = isJsonObject(history) && Array.isArray(history['data']) ? history['data'] : [];
  const finished = new Set<unknown>(historyData.map((entry) => (isJsonObject(entry) ? entry['turn_id'] : undefined)));
  if (isJsonObject(stateObject['retained_turns']))
    for (const turn of Object.keys(stateObject['retained_turns'])) finished.add(turn);
  const state: RunnerState = {
    context,
    scope,
    active: new Map(Object.entries(activeTurns)),
    finished,
    runId: stateObject['run_id'],
    findings: 0,
  };

  const staged: RunnerSection['staged'][number][] = [];
  const bundles = new Map<string, string[]>();
  const rejected: string[] = [];
  let index: string | undefined;
  for (const path of Object.keys(files)) {
    if (path.startsWith(REJECTED_PREFIX)) rejected.push(path);
    else if (path === DISPATCH_INDEX) index = path;
    else if (path.startsWith(TURNS_PREFIX)) {
      const turn = turnOfPath(path, TURNS_PREFIX);
      if (turn !== null) bundles.set(turn, [...(bundles.get(turn) ?? []), path]);
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
  if (index !== undefined) for (const turn of checkDispatchIndex(state, index, files[index])) dispatched.add(turn);
  for (const [turn, paths] of bundles) checkBundle(state, turn, paths, files);

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

/**
 * `.agentxchain/dispatch/index.json`: shape, and each listed turn. The runner does not clear the
 * index when it accepts a turn, so a finished run's index still lists its last turn: entries for
 * turns already in history.jsonl are expected, and identity is only checked for active turns.
 * Returns the active turns it lists.
 */
function checkDispatchIndex(state: RunnerState, path: string, entry: ParsedValue): string[] {
  const at: PathSegment[] = ['files', path, 'data'];
  const data = jsonData(entry);
  if (data === undefined) return [];
  if (!isJsonObject(data)) {
    warn(state, 'runner.dispatch_invalid', at, 'the dispatch index must be a JSON object');
    return [];
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
  }
  return listedActive;
}

/** A dispatch bundle `.agentxchain/dispatch/turns/<turn>/`: the turn is active; ASSIGNMENT.json agrees. */
function checkBundle(state: RunnerState, turn: string, paths: readonly string[], files: ParsedObject): void {
  const assignmentPath = `${TURNS_PREFIX}${turn}/ASSIGNMENT.json`;
  const anchor = paths.includes(assignmentPath) ? assignmentPath : paths[0]!;
  if (!state.active.has(turn)) {
    warn(
      state,
      'runner.turn_not_active',
      ['files', anchor],
      `a dispatch bundle exists for turn ${turn}, which is not in state.active_turns`,
    );
  }
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
}
