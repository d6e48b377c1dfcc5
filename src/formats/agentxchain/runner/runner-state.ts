/**
 * What the runner checks know about one run export (docs/agentxchain.md §12): the active turns, the
 * turns the run has finished, the roles and runtimes of its config, and whether the export holds
 * all of its files and its whole history, so that a reference is only called dangling when the
 * export could have held what it names. Built once per export; every lookup is a map or set hit.
 * @module
 */
import type { FindingCode } from '../../../codes.ts';
import type { PathSegment } from '../../../report/path.ts';
import { reportWarning, type CheckContext, type Scope } from '../context.ts';
import { isJsonObject, type ParsedObject, type ParsedValue } from '../js-semantics.ts';

export const STAGING_PREFIX = '.agentxchain/staging/';
export const TURNS_PREFIX = '.agentxchain/dispatch/turns/';
export const REJECTED_PREFIX = '.agentxchain/dispatch/rejected/';
export const DISPATCH_INDEX = '.agentxchain/dispatch/index.json';
export const LEGACY_STAGING = '.agentxchain/staging/turn-result.json';
const HISTORY = '.agentxchain/history.jsonl';

/** The staged result path the runner gives a turn (`getTurnStagingResultPath` in the reference). */
export function stagingPathOf(turn: string): string {
  return `${STAGING_PREFIX}${turn}/turn-result.json`;
}

/** The dispatch bundle directory of a turn (`getDispatchTurnDir` in the reference), without a trailing slash. */
export function bundleDirOf(turn: string): string {
  return `${TURNS_PREFIX}${turn}`;
}

export interface RunnerState {
  readonly context: CheckContext;
  readonly scope: Scope;
  readonly files: ParsedObject;
  readonly active: ReadonlyMap<string, ParsedValue>;
  /** Turns already accepted (history.jsonl) or retained: the dispatch index may still list the last one. */
  readonly finished: ReadonlySet<unknown>;
  readonly runId: ParsedValue;
  /** Role ids of `config.roles`, or null when the config has no roles object (nothing to resolve against). */
  readonly roles: ReadonlySet<string> | null;
  /** Runtime ids of `config.runtimes`, or null when the config has none. */
  readonly runtimes: ReadonlySet<string> | null;
  /** history.jsonl entries by turn id, or null when the export may not hold the whole history. */
  readonly history: ReadonlyMap<string, ParsedObject> | null;
  /** Keys of `state.retained_turns`. */
  readonly retained: ReadonlySet<string>;
  /** `state.delegation_queue` as `[delegation_id, child_turn_id]` keys, or null when it is not an array. */
  readonly delegationQueue: ReadonlySet<string> | null;
  /** False when `summary.export_files_truncated` says files were left out: file references are not resolved. */
  readonly filesComplete: boolean;
  /** Delegation ids issued by accepted turns, filled as they are looked up. */
  readonly issued: Map<string, ReadonlySet<unknown> | null>;
  findings: number;
}

/** Builds the state of one run export; `files` and `stateObject` are the export's objects. */
export function runnerStateOf(
  context: CheckContext,
  scope: Scope,
  artifact: ParsedObject,
  files: ParsedObject,
  stateObject: ParsedObject,
): RunnerState {
  const activeTurns = isJsonObject(stateObject['active_turns']) ? stateObject['active_turns'] : {};
  const historyEntry = files[HISTORY];
  const historyData = isJsonObject(historyEntry) && Array.isArray(historyEntry['data']) ? historyEntry['data'] : [];
  const finished = new Set<unknown>(historyData.map((entry) => (isJsonObject(entry) ? entry['turn_id'] : undefined)));
  const retained = isJsonObject(stateObject['retained_turns']) ? Object.keys(stateObject['retained_turns']) : [];
  for (const turn of retained) finished.add(turn);
  const summary = artifact['summary'];
  const filesComplete = !(isJsonObject(summary) && summary['export_files_truncated'] === true);
  const config = artifact['config'];
  return {
    context,
    scope,
    files,
    active: new Map(Object.entries(activeTurns)),
    finished,
    runId: stateObject['run_id'],
    roles: keysOf(isJsonObject(config) ? config['roles'] : undefined),
    runtimes: keysOf(isJsonObject(config) ? config['runtimes'] : undefined),
    history: filesComplete ? historyOf(historyEntry) : null,
    retained: new Set(retained),
    delegationQueue: queueOf(stateObject['delegation_queue']),
    filesComplete,
    issued: new Map(),
    findings: 0,
  };
}

function keysOf(value: ParsedValue): ReadonlySet<string> | null {
  return isJsonObject(value) ? new Set(Object.keys(value)) : null;
}

/** The whole history by turn id (first entry wins), or null when it is windowed or unreadable. */
function historyOf(entry: ParsedValue): ReadonlyMap<string, ParsedObject> | null {
  const byTurn = new Map<string, ParsedObject>();
  if (entry === undefined) return byTurn; // no turn accepted yet
  if (!isJsonObject(entry) || entry['truncated'] === true || !Array.isArray(entry['data'])) return null;
  for (const item of entry['data'] as ParsedValue[]) {
    if (isJsonObject(item) && typeof item['turn_id'] === 'string' && !byTurn.has(item['turn_id']))
      byTurn.set(item['turn_id'], item);
  }
  return byTurn;
}

/** A set key for a delegation and the child turn it is assigned to. */
export function delegationKey(delegationId: string, childTurn: string): string {
  return JSON.stringify([delegationId, childTurn]);
}

function queueOf(queue: ParsedValue): ReadonlySet<string> | null {
  if (!Array.isArray(queue)) return null;
  const keys = new Set<string>();
  for (const entry of queue as ParsedValue[])
    if (isJsonObject(entry) && typeof entry['delegation_id'] === 'string' && typeof entry['child_turn_id'] === 'string')
      keys.add(delegationKey(entry['delegation_id'], entry['child_turn_id']));
  return keys;
}

/** Whether `turn` is a turn of this run (active, retained or in history.jsonl); undefined when that cannot be told. */
export function isKnownTurn(state: RunnerState, turn: string): boolean | undefined {
  if (state.active.has(turn) || state.retained.has(turn)) return true;
  if (state.history === null) return undefined;
  return state.history.has(turn);
}

/** Whether the export holds a file at `path` (an own key of `files`). */
export function hasFile(state: RunnerState, path: string): boolean {
  return Object.prototype.hasOwnProperty.call(state.files, path);
}

/** Reports a `runner.*` warning (an error with `strict`) and counts it for `details.runner.findings`. */
export function warn(state: RunnerState, code: FindingCode, segments: readonly PathSegment[], message: string): void {
  state.findings++;
  reportWarning(state.context, state.scope, code, segments, message);
}

/** The role `state.active_turns[turn]` assigns (`assigned_role`, or `role` in older states). */
export function assignedRole(turn: ParsedValue): ParsedValue {
  if (!isJsonObject(turn)) return undefined;
  return turn['assigned_role'] ?? turn['role'];
}

/** A value for a message: strings quoted and cut at 80 characters, anything else as JSON. */
export function quoted(value: ParsedValue): string {
  return typeof value === 'string'
    ? `"${value.length > 80 ? `${value.slice(0, 80)}…` : value}"`
    : (JSON.stringify(value) ?? String(value));
}
