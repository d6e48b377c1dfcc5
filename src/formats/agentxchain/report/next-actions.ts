/**
 * What to do next on a governed run (docs/agentxchain-report.md §4.23): the runtime guidance,
 * then the recovery action of the run's blocked state, as `{command, reason}` entries.
 * @module
 */
import { runtimeGuidance } from './recovery.ts';
import { isJsonObject, prop, text, type ParsedValue } from './values.ts';

export interface NextAction {
  command: string;
  reason: string;
}

/** The run's active turns: `state.active_turns` entries that are objects. */
function activeTurns(state: ParsedValue): Map<string, ParsedValue> {
  const turns = prop(state, 'active_turns');
  const map = new Map<string, ParsedValue>();
  if (!isJsonObject(turns)) return map;
  for (const [id, turn] of Object.entries(turns)) if (isJsonObject(turn)) map.set(id, turn);
  return map;
}

/** The command that resumes a retained turn (the reference's `deriveRetainedTurnRecoveryCommand`). */
function retainedTurnCommand(state: ParsedValue, config: ParsedValue, preferred: ParsedValue): string {
  const turns = activeTurns(state);
  const isActive = (id: ParsedValue): boolean => !!id && turns.has(text(id));
  const blockedTurn = prop(prop(state, 'blocked_reason'), 'turn_id');
  const escalationTurn = prop(prop(state, 'escalation'), 'from_turn_id');
  let turnId: string | null = null;
  if (isActive(preferred)) turnId = text(preferred);
  else if (isActive(blockedTurn)) turnId = text(blockedTurn);
  else if (isActive(escalationTurn)) turnId = text(escalationTurn);
  else if (turns.size === 1) turnId = [...turns.keys()][0]!;
  if (turnId === null) return 'agentxchain step --resume';
  const runtimeId = prop(turns.get(turnId), 'runtime_id');
  const type = prop(prop(prop(config, 'runtimes'), runtimeId as string), 'type') || 'manual';
  const command = type === 'manual' ? 'agentxchain resume' : 'agentxchain step --resume';
  return turns.size > 1 ? `${command} --turn ${turnId}` : command;
}

/** `agentxchain resume` when no turn is retained, else the retained-turn command. */
function blockedCommand(state: ParsedValue, config: ParsedValue, retained: boolean, turnId: ParsedValue): string {
  return retained ? retainedTurnCommand(state, config, turnId) : 'agentxchain resume';
}

const LEGACY_ESCALATION = new Set([
  'Resolve the escalation, then run agentxchain step --resume',
  'Resolve the escalation, then run agentxchain step',
]);

function policyId(state: ParsedValue): string | null {
  const blockedOn = prop(state, 'blocked_on');
  if (typeof blockedOn !== 'string' || !blockedOn.startsWith('policy:')) return null;
  return blockedOn.slice('policy:'.length).trim() || null;
}

function policyAction(command: string, id: string | null): string {
  return id
    ? `Resolve policy "${id}" condition, then run ${command}`
    : `Resolve the policy condition, then run ${command}`;
}

/** The action a persisted recovery's stale text is replaced with (only with a config). */
function refreshedAction(
  state: ParsedValue,
  config: ParsedValue,
  recovery: ParsedValue,
  retained: boolean,
): string | null {
  if (!config) return null;
  const typed = prop(recovery, 'typed_reason');
  const current = prop(recovery, 'recovery_action') || null;
  const turnId =
    prop(prop(state, 'blocked_reason'), 'turn_id') ?? prop(prop(state, 'escalation'), 'from_turn_id') ?? null;
  const command = () => blockedCommand(state, config, retained, turnId);
  if (typed === 'retries_exhausted' || (typed === 'operator_escalation' && LEGACY_ESCALATION.has(current as string)))
    return `Resolve the escalation, then run ${command()}`;
  if (typed === 'needs_human' && current === 'Resolve the stated issue, then run agentxchain step --resume')
    return `Resolve the stated issue, then run ${command()}`;
  if (
    typed === 'hook_tamper' &&
    current === 'Disable or fix the hook, verify protected files, then run agentxchain step --resume'
  )
    return `Disable or fix the hook, verify protected files, then run ${command()}`;
  if (typed === 'policy_escalation') return policyAction(command(), policyId(state));
  if (
    typed === 'conflict_loop' &&
    typeof current === 'string' &&
    current.startsWith('Serialize the conflicting work, then run agentxchain step --resume')
  ) {
    return turnId
      ? `Serialize the conflicting work, then run agentxchain reject-turn --turn ${text(turnId)} --reassign`
      : 'Serialize the conflicting work, then run agentxchain reject-turn --reassign';
  }
  return null;
}

const INSPECT = 'Inspect state.json and resolve manually before rerunning agentxchain step';

/** `D(T, C)`: the typed reason and recovery action of the run's state, or `null`. */
function recoveryDescriptor(
  state: ParsedValue,
  config: ParsedValue,
): { typed: ParsedValue; action: ParsedValue } | null {
  if (!state || typeof state !== 'object') return null;
  if (prop(state, 'pending_run_completion'))
    return { typed: 'pending_run_completion', action: 'agentxchain approve-completion' };
  if (prop(state, 'pending_phase_transition'))
    return { typed: 'pending_phase_transition', action: 'agentxchain approve-transition' };
  const retained = activeTurns(state).size > 0;
  const recovery = prop(prop(state, 'blocked_reason'), 'recovery');
  if (recovery && typeof recovery === 'object') {
    return {
      typed: prop(recovery, 'typed_reason') || 'unknown_block',
      action: refreshedAction(state, config, recovery, retained) || prop(recovery, 'recovery_action') || INSPECT,
    };
  }
  const blockedOn = prop(state, 'blocked_on');
  if (typeof blockedOn !== 'string' || !blockedOn.trim()) return null;
  const blockedTurn = prop(prop(state, 'blocked_reason'), 'turn_id') ?? null;
  if (blockedOn.startsWith('human:'))
    return {
      typed: 'needs_human',
      action: `Resolve the stated issue, then run ${blockedCommand(state, config, retained, blockedTurn)}`,
    };
  if (blockedOn.startsWith('human_approval:'))
    return { typed: 'pending_phase_transition', action: 'agentxchain approve-transition' };
  if (blockedOn.startsWith('escalation:')) {
    const operator =
      blockedOn.startsWith('escalation:operator:') || prop(prop(state, 'escalation'), 'source') === 'operator';
    const turnId = blockedTurn ?? prop(prop(state, 'escalation'), 'from_turn_id') ?? null;
    const command = retained ? retainedTurnCommand(state, config, turnId) : 'agentxchain resume';
    return {
      typed: operator ? 'operator_escalation' : 'retries_exhausted',
      action: `Resolve the escalation, then run ${command}`,
    };
  }
  if (blockedOn.startsWith('dispatch:'))
    return {
      typed: 'dispatch_error',
      action: `Resolve the dispatch issue, then run ${blockedCommand(state, config, retained, blockedTurn)}`,
    };
  if (blockedOn.startsWith('policy:'))
    return {
      typed: 'policy_escalation',
      action: policyAction(blockedCommand(state, config, retained, blockedTurn), policyId(state)),
    };
  if (blockedOn.startsWith('timeout:')) return { typed: 'timeout', action: 'agentxchain resume' };
  return { typed: 'unknown_block', action: INSPECT };
}

/** §4.23: the governed run's next actions. */
export function governedRunNextActions(state: ParsedValue, config: ParsedValue): NextAction[] {
  const descriptor = recoveryDescriptor(state, config);
  const guidance = runtimeGuidance(state, config);
  const actions: NextAction[] = [];
  const seen = new Set<string>();
  const push = (command: ParsedValue, reason: ParsedValue): void => {
    if (typeof command !== 'string' || !command.trim() || typeof reason !== 'string' || !reason.trim()) return;
    const key = `${command}|${reason}`;
    if (seen.has(key)) return;
    seen.add(key);
    actions.push({ command, reason });
  };
  for (const entry of guidance) push(entry.command, entry.reason);
  if (descriptor?.action) {
    push(
      descriptor.action,
      guidance.length > 0
        ? `After resolving the ${guidance[0]!.code} blocker, continue the run.`
        : `Run is blocked: ${text(descriptor.typed)}.`,
    );
  }
  return actions;
}
