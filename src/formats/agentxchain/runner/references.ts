/**
 * The references of docs/agentxchain.md §12 ("References"): every id or path that an active turn,
 * a staged turn result, the dispatch index or a dispatch bundle uses to name another thing must
 * name something the export holds. What each reference must resolve to follows the reference
 * runner: `assignTurn` and `writeDispatchBundle` (governed-state.js, dispatch-bundle.js) write the
 * active turn, its bundle and the index from the same state, `finalizeDispatchManifest`
 * (dispatch-manifest.js) lists the bundle's files, and the turn-result validator requires a staged
 * result's `runtime_id` to be the active turn's and a delegation's `to_role` to be a defined role.
 * Fields that acceptance normalises (`proposed_next_role`, `phase_transition_request`) are not
 * resolved. A turn is only called unknown when the export holds the whole history, and a file only
 * missing when no file was left out. Each check is one map or set lookup per reference.
 * @module
 */
import type { PathSegment } from '../../../report/path.ts';
import { isJsonObject, type ParsedObject, type ParsedValue } from '../js-semantics.ts';
import {
  assignedRole,
  bundleDirOf,
  delegationKey,
  hasFile,
  isKnownTurn,
  quoted,
  stagingPathOf,
  warn,
  type RunnerState,
} from './runner-state.ts';

const UNRESOLVED = 'runner.reference_unresolved';

function unresolved(state: RunnerState, at: readonly PathSegment[], message: string): void {
  warn(state, UNRESOLVED, at, message);
}

/** A role id must be a key of `config.roles` (`human` too where the runner allows it). */
function resolveRole(
  state: RunnerState,
  at: readonly PathSegment[],
  role: ParsedValue,
  what: string,
  humanAllowed = false,
): void {
  if (state.roles === null || typeof role !== 'string' || state.roles.has(role)) return;
  if (humanAllowed && role === 'human') return;
  unresolved(state, at, `${what} names role ${quoted(role)}, which config.roles does not define`);
}

/** A turn id must name a turn of this run: active, retained or accepted (history.jsonl). */
function resolveTurn(state: RunnerState, at: readonly PathSegment[], turn: ParsedValue, what: string): void {
  if (typeof turn !== 'string' || isKnownTurn(state, turn) !== false) return;
  unresolved(
    state,
    at,
    `${what} names turn ${quoted(turn)}, which is neither in state.active_turns, nor retained, nor in history.jsonl`,
  );
}

/** A runtime id must be the one state.active_turns gives the turn. */
function resolveRuntime(
  state: RunnerState,
  at: readonly PathSegment[],
  runtime: ParsedValue,
  turn: string,
  what: string,
): void {
  const active = state.active.get(turn);
  const expected = isJsonObject(active) ? active['runtime_id'] : undefined;
  if (typeof runtime !== 'string' || typeof expected !== 'string' || runtime === expected) return;
  unresolved(
    state,
    at,
    `${what} names runtime ${quoted(runtime)}, but state.active_turns runs turn ${quoted(turn)} on ${quoted(expected)}`,
  );
}

/** A path the runner derives from the turn id must be that turn's own path. */
function resolveOwnPath(
  state: RunnerState,
  at: readonly PathSegment[],
  value: ParsedValue,
  expected: string,
  what: string,
): void {
  if (typeof value !== 'string' || value === expected) return;
  unresolved(state, at, `${what} is ${quoted(value)}, not ${quoted(expected)}, the path of its own turn`);
}

/** Applies `check` to each element of `list` when it is an array, with the element's path. */
function eachOf(
  list: ParsedValue,
  at: readonly PathSegment[],
  check: (item: ParsedValue, itemAt: PathSegment[]) => void,
): void {
  if (!Array.isArray(list)) return;
  (list as ParsedValue[]).forEach((item, i) => check(item, [...at, i]));
}

/** The delegation ids the accepted turn `parent` issued (history.jsonl `delegations_issued`), or null. */
function issuedBy(state: RunnerState, parent: ParsedObject): ReadonlySet<unknown> | null {
  const turn = parent['turn_id'] as string;
  const cached = state.issued.get(turn);
  if (cached !== undefined) return cached;
  const issued = parent['delegations_issued'];
  const ids = Array.isArray(issued)
    ? new Set<unknown>((issued as ParsedValue[]).map((d) => (isJsonObject(d) ? d['id'] : undefined)))
    : null;
  state.issued.set(turn, ids);
  return ids;
}

/** The accepted turn `parent` names, or undefined (with a finding) when history.jsonl does not hold it. */
function resolveParent(
  state: RunnerState,
  at: readonly PathSegment[],
  parent: ParsedValue,
  what: string,
): ParsedObject | undefined {
  if (typeof parent !== 'string' || state.history === null) return undefined;
  const entry = state.history.get(parent);
  if (entry === undefined)
    unresolved(state, at, `${what} names parent turn ${quoted(parent)}, which history.jsonl does not hold`);
  return entry;
}

/**
 * `state.active_turns[turn]`: its own turn and run ids, its role and runtime, the turns it names
 * (`concurrent_with`, `reissued_from`, `last_rejection.turn_id`) and its delegation context or review.
 */
export function checkActiveTurn(state: RunnerState, turn: string, value: ParsedValue): void {
  if (!isJsonObject(value)) return;
  const at: PathSegment[] = ['state', 'active_turns', turn];
  const what = `state.active_turns entry ${quoted(turn)}`;
  if (typeof value['turn_id'] === 'string' && value['turn_id'] !== turn)
    warn(state, 'runner.turn_id_mismatch', [...at, 'turn_id'], `${what} claims turn_id ${quoted(value['turn_id'])}`);
  const runId = value['run_id'];
  if (typeof runId === 'string' && typeof state.runId === 'string' && runId !== state.runId) {
    warn(
      state,
      'runner.run_id_mismatch',
      [...at, 'run_id'],
      `${what} belongs to run ${quoted(runId)}, but state.run_id is ${quoted(state.runId)}`,
    );
  }
  const roleKey = value['assigned_role'] !== undefined ? 'assigned_role' : 'role';
  resolveRole(state, [...at, roleKey], assignedRole(value), what);
  const runtime = value['runtime_id'];
  if (state.runtimes !== null && typeof runtime === 'string' && !state.runtimes.has(runtime))
    unresolved(
      state,
      [...at, 'runtime_id'],
      `${what} names runtime ${quoted(runtime)}, which config.runtimes does not define`,
    );
  eachOf(value['concurrent_with'], [...at, 'concurrent_with'], (sibling, siblingAt) =>
    resolveTurn(state, siblingAt, sibling, `${what} (concurrent_with)`),
  );
  resolveTurn(state, [...at, 'reissued_from'], value['reissued_from'], `${what} (reissued_from)`);
  const rejection = value['last_rejection'];
  if (isJsonObject(rejection) && typeof rejection['turn_id'] === 'string' && rejection['turn_id'] !== turn) {
    warn(
      state,
      'runner.turn_id_mismatch',
      [...at, 'last_rejection', 'turn_id'],
      `the last rejection of ${what} is for turn ${quoted(rejection['turn_id'])}`,
    );
  }
  checkDelegationContext(state, turn, value['delegation_context'], [...at, 'delegation_context'], what);
  checkDelegationReview(state, value['delegation_review'], [...at, 'delegation_review'], what);
}

/** A delegated child turn: its delegation is queued for it, issued by an accepted parent of that role. */
function checkDelegationContext(
  state: RunnerState,
  turn: string,
  context: ParsedValue,
  at: readonly PathSegment[],
  what: string,
): void {
  if (!isJsonObject(context)) return;
  const id = context['delegation_id'];
  if (typeof id === 'string' && !state.delegationQueue?.has(delegationKey(id, turn))) {
    unresolved(
      state,
      [...at, 'delegation_id'],
      `${what} fulfils delegation ${quoted(id)}, but no state.delegation_queue entry assigns it to this turn`,
    );
  }
  const parent = resolveParent(state, [...at, 'parent_turn_id'], context['parent_turn_id'], what);
  if (parent === undefined) return;
  const role = context['parent_role'];
  if (typeof role === 'string' && typeof parent['role'] === 'string' && role !== parent['role']) {
    warn(
      state,
      'runner.role_mismatch',
      [...at, 'parent_role'],
      `${what} names parent role ${quoted(role)}, but history.jsonl records turn ${quoted(context['parent_turn_id'])} as ${quoted(parent['role'])}`,
    );
  }
}

/** A delegation review: the parent is accepted; each result is a delegation it issued, done by a turn of the run. */
function checkDelegationReview(
  state: RunnerState,
  review: ParsedValue,
  at: readonly PathSegment[],
  what: string,
): void {
  if (!isJsonObject(review)) return;
  const parentId = review['parent_turn_id'];
  const parent = resolveParent(state, [...at, 'parent_turn_id'], parentId, what);
  const issued = parent === undefined ? null : issuedBy(state, parent);
  eachOf(review['results'], [...at, 'results'], (result, resultAt) => {
    if (!isJsonObject(result)) return;
    const id = result['delegation_id'];
    if (issued !== null && typeof id === 'string' && !issued.has(id)) {
      unresolved(
        state,
        [...resultAt, 'delegation_id'],
        `${what} reviews delegation ${quoted(id)}, which turn ${quoted(parentId)} did not issue`,
      );
    }
    resolveTurn(state, [...resultAt, 'child_turn_id'], result['child_turn_id'], `${what} (delegation review)`);
  });
}

/** A staged result of an active turn: its runtime, the roles it delegates to, the turns it objects to. */
export function checkStagedReferences(
  state: RunnerState,
  at: readonly PathSegment[],
  data: ParsedObject,
  turn: string | null,
): void {
  const what = 'the staged turn result';
  if (turn !== null) resolveRuntime(state, [...at, 'runtime_id'], data['runtime_id'], turn, what);
  eachOf(data['delegations'], [...at, 'delegations'], (delegation, delegationAt) => {
    if (isJsonObject(delegation))
      resolveRole(state, [...delegationAt, 'to_role'], delegation['to_role'], `a delegation of ${what}`);
  });
  eachOf(data['objections'], [...at, 'objections'], (objection, objectionAt) => {
    if (isJsonObject(objection))
      resolveTurn(state, [...objectionAt, 'against_turn_id'], objection['against_turn_id'], `an objection of ${what}`);
  });
}

/** The dispatch index entry of an active turn: its runtime, bundle and staging paths. */
export function checkIndexEntryReferences(
  state: RunnerState,
  at: readonly PathSegment[],
  listed: ParsedObject,
  turn: string,
): void {
  const what = `the dispatch index entry for turn ${quoted(turn)}`;
  resolveRuntime(state, [...at, 'runtime_id'], listed['runtime_id'], turn, what);
  resolveOwnPath(state, [...at, 'bundle_path'], listed['bundle_path'], bundleDirOf(turn), `${what}: bundle_path`);
  resolveOwnPath(
    state,
    [...at, 'staging_result_path'],
    listed['staging_result_path'],
    stagingPathOf(turn),
    `${what}: staging_result_path`,
  );
}

/** ASSIGNMENT.json of an active turn: runtime, staging path, delegation, siblings, next roles. */
export function checkAssignmentReferences(
  state: RunnerState,
  at: readonly PathSegment[],
  data: ParsedObject,
  turn: string,
): void {
  const what = `the assignment of turn ${quoted(turn)}`;
  resolveRuntime(state, [...at, 'runtime_id'], data['runtime_id'], turn, what);
  resolveOwnPath(
    state,
    [...at, 'staging_result_path'],
    data['staging_result_path'],
    stagingPathOf(turn),
    `${what}: staging_result_path`,
  );
  const context = data['delegation_context'];
  if (isJsonObject(context)) {
    const active = state.active.get(turn);
    const own = isJsonObject(active) ? active['delegation_context'] : undefined;
    for (const key of ['delegation_id', 'parent_turn_id']) {
      const value = context[key];
      const expected = isJsonObject(own) ? own[key] : undefined;
      if (typeof value !== 'string' || value === expected) continue;
      unresolved(
        state,
        [...at, 'delegation_context', key],
        `${what} names ${key} ${quoted(value)}, but state.active_turns gives the turn ${expected === undefined ? 'no delegation context' : quoted(expected)}`,
      );
    }
  }
  eachOf(data['active_siblings'], [...at, 'active_siblings'], (sibling, siblingAt) => {
    if (isJsonObject(sibling))
      resolveTurn(state, [...siblingAt, 'turn_id'], sibling['turn_id'], `${what} (active_siblings)`);
  });
  eachOf(data['allowed_next_roles'], [...at, 'allowed_next_roles'], (role, roleAt) =>
    resolveRole(state, roleAt, role, `${what} (allowed_next_roles)`, true),
  );
}

/** MANIFEST.json of a bundle: each file it lists is a file of the bundle. */
export function checkManifestFiles(
  state: RunnerState,
  at: readonly PathSegment[],
  data: ParsedObject,
  turn: string,
): void {
  if (!state.filesComplete) return;
  eachOf(data['files'], [...at, 'files'], (file, fileAt) => {
    const path = isJsonObject(file) ? file['path'] : undefined;
    if (typeof path !== 'string' || hasFile(state, `${bundleDirOf(turn)}/${path}`)) return;
    unresolved(
      state,
      [...fileAt, 'path'],
      `the manifest of turn ${quoted(turn)} lists ${quoted(path)}, which the exported bundle does not hold`,
    );
  });
}

/**
 * A bundle of an active turn is listed by the dispatch index of the run: the runner rewrites the
 * index, listing every active turn, each time it writes a bundle.
 */
export function checkBundleListed(
  state: RunnerState,
  turn: string,
  anchor: string,
  listed: ReadonlySet<string> | null,
): void {
  if (listed === null || !state.active.has(turn) || listed.has(turn)) return;
  unresolved(
    state,
    ['files', anchor],
    `a dispatch bundle exists for turn ${quoted(turn)}, but the dispatch index does not list it`,
  );
}
