/**
 * What needs a human (docs/agentxchain-report.md §4.20): a pending approval (credentialed or
 * not), a manual gate action or operator intervention, a budget or policy halt.
 * @module
 */
import { prop, type ParsedValue } from './values.ts';

export interface HumanAttention {
  overall: 'clear' | 'attention';
  items_count: number;
  blocking_count: number;
  categories: string[];
}

/** The gate awaiting approval, or `null`. */
function pendingApprovalGate(state: ParsedValue, blockedOn: string | null): ParsedValue {
  if (!state) return null;
  if (blockedOn !== null && blockedOn.startsWith('human_approval:'))
    return blockedOn.slice('human_approval:'.length) || null;
  return (
    prop(prop(state, 'pending_run_completion'), 'gate') || prop(prop(state, 'pending_phase_transition'), 'gate') || null
  );
}

/** `isCredentialedExitGate`: the phase's exit gate is declared `credentialed: true`. */
function isCredentialedExitGate(config: ParsedValue, phase: ParsedValue): boolean {
  if (!phase) return false;
  const gateId = prop(prop(prop(config, 'routing'), phase as string), 'exit_gate');
  return prop(prop(prop(config, 'gates'), gateId as string), 'credentialed') === true;
}

/** §4.20 of a run export. */
export function humanAttention(artifact: ParsedValue): HumanAttention {
  const state = prop(artifact, 'state') || null;
  const config = prop(artifact, 'config') || null;
  const blockedOn = typeof prop(state, 'blocked_on') === 'string' ? (prop(state, 'blocked_on') as string) : null;
  const categories: string[] = [];
  if (pendingApprovalGate(state, blockedOn)) {
    let credentialed = false;
    try {
      credentialed = isCredentialedExitGate(config, prop(state, 'phase') || null);
    } catch {
      // The reference isolates a failing category: it counts as not credentialed.
    }
    categories.push(credentialed ? 'credentialed_gate' : 'approval');
  }
  if (blockedOn !== null && (blockedOn.startsWith('gate_action:') || blockedOn.startsWith('human:')))
    categories.push('manual_action');
  if (blockedOn !== null && (blockedOn === 'budget:exhausted' || blockedOn.startsWith('policy:')))
    categories.push('budget_policy');
  return {
    overall: categories.length === 0 ? 'clear' : 'attention',
    items_count: categories.length,
    blocking_count: categories.length,
    categories,
  };
}
