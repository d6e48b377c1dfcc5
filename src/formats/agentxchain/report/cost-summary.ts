/**
 * The cost summary over the timeline (docs/agentxchain-report.md §4.5): float sums in timeline
 * order, per-role and per-phase rows in `localeCompare(…, 'en')` order.
 * @module
 */
import { sortEn } from './collation.ts';
import type { TimelineTurn } from './turns.ts';
import { isFiniteNumber } from './values.ts';

export interface RoleCost {
  role: string;
  usd: number;
  turns: number;
  input_tokens: number;
  output_tokens: number;
}

export interface PhaseCost {
  phase: string;
  usd: number;
  turns: number;
}

export interface CostSummary {
  total_usd: number;
  total_input_tokens: number | null;
  total_output_tokens: number | null;
  turn_count: number;
  costed_turn_count: number;
  by_role: RoleCost[];
  by_phase: PhaseCost[];
}

/** §4.5: `null` for an empty timeline. */
export function costSummary(turns: readonly TimelineTurn[]): CostSummary | null {
  if (turns.length === 0) return null;
  let total = 0;
  let costed = 0;
  let input = 0;
  let output = 0;
  let anyTokens = false;
  const roles = new Map<string, RoleCost>();
  const phases = new Map<string, PhaseCost>();
  for (const turn of turns) {
    const usd = isFiniteNumber(turn.cost_usd) ? turn.cost_usd : 0;
    if (isFiniteNumber(turn.cost_usd)) {
      total += turn.cost_usd;
      costed++;
    }
    const turnInput = isFiniteNumber(turn.input_tokens) ? turn.input_tokens : 0;
    const turnOutput = isFiniteNumber(turn.output_tokens) ? turn.output_tokens : 0;
    if (turn.input_tokens != null || turn.output_tokens != null) anyTokens = true;
    input += turnInput;
    output += turnOutput;
    const roleName = String(turn.role || 'unknown');
    let role = roles.get(roleName);
    if (!role) roles.set(roleName, (role = { role: roleName, usd: 0, turns: 0, input_tokens: 0, output_tokens: 0 }));
    role.usd += usd;
    role.turns++;
    role.input_tokens += turnInput;
    role.output_tokens += turnOutput;
    const phaseName = String(turn.phase || 'unknown');
    let phase = phases.get(phaseName);
    if (!phase) phases.set(phaseName, (phase = { phase: phaseName, usd: 0, turns: 0 }));
    phase.usd += usd;
    phase.turns++;
  }
  return {
    total_usd: total,
    total_input_tokens: anyTokens ? input : null,
    total_output_tokens: anyTokens ? output : null,
    turn_count: turns.length,
    costed_turn_count: costed,
    by_role: sortEn([...roles.values()], (r) => r.role),
    by_phase: sortEn([...phases.values()], (p) => p.phase),
  };
}
