/**
 * The recovery summary of a blocked run and the runtime guidance for a failed gate
 * (docs/agentxchain-report.md §4.12).
 * @module
 */
import { compareEn, stableSorted } from './collation.ts';
import { capabilityContract, effectiveGateArtifacts, runtimeOf } from './capabilities.ts';
import { field, isJsonObject, isNonEmptyString, prop, text, type ParsedValue } from './values.ts';

export interface GuidanceEntry {
  code: string;
  phase: ParsedValue;
  gate_id: ParsedValue;
  role_id: string;
  artifact_path: string;
  command: string;
  reason: string;
}

export interface RecoverySummary {
  category: ParsedValue;
  typed_reason: ParsedValue;
  owner: ParsedValue;
  recovery_action: ParsedValue;
  detail: ParsedValue;
  turn_retained: boolean | null;
  blocked_at: ParsedValue;
  turn_id: ParsedValue;
  runtime_guidance: GuidanceEntry[];
}

/** `recovery_summary` of a run or child export (`state`, `config`). */
export function recoverySummary(state: ParsedValue, config: ParsedValue): RecoverySummary | null {
  const blocked = prop(state, 'blocked_reason');
  const recovery = prop(blocked, 'recovery');
  if (!isJsonObject(blocked) || !isJsonObject(recovery)) return null;
  const retained = recovery['turn_retained'];
  return {
    category: field(blocked, 'category'),
    typed_reason: field(recovery, 'typed_reason'),
    owner: field(recovery, 'owner'),
    recovery_action: field(recovery, 'recovery_action'),
    detail: field(recovery, 'detail'),
    turn_retained: typeof retained === 'boolean' ? retained : null,
    blocked_at: field(blocked, 'blocked_at'),
    turn_id: field(blocked, 'turn_id'),
    runtime_guidance: runtimeGuidance(state, config),
  };
}

const PRIORITY: Record<string, number> = {
  invalid_binding: 1,
  review_only_remote_dead_end: 2,
  proposal_apply_required: 3,
  tool_defined_proof_not_strong_enough: 4,
};

/** `G(T, C)`: what the runtimes of the owners of a failed gate's missing files must change. */
export function runtimeGuidance(state: ParsedValue, config: ParsedValue): GuidanceEntry[] {
  if (!isJsonObject(state) || !isJsonObject(config)) return [];
  const failure = state['last_gate_failure'];
  if (!isJsonObject(failure)) return [];
  const phase = isNonEmptyString(failure['phase']) ? failure['phase'] : state['phase'];
  const routing = prop(prop(config, 'routing'), phase as string);
  const gateId = isNonEmptyString(failure['gate_id']) ? failure['gate_id'] : prop(routing, 'exit_gate') || null;
  const missing = Array.isArray(failure['missing_files']) ? failure['missing_files'].filter(isNonEmptyString) : [];
  const gate = gateId ? prop(prop(config, 'gates'), gateId as string) : undefined;
  if (!phase || !gateId || !gate || missing.length === 0) return [];
  const entries: GuidanceEntry[] = [];
  for (const artifact of effectiveGateArtifacts(config, gate, phase)) {
    if (!artifact.required || !missing.includes(artifact.path)) continue;
    const roleId = artifact.owned_by || prop(routing, 'entry_role');
    if (!roleId) continue;
    const role = prop(prop(config, 'roles'), roleId as string);
    if (!role) continue;
    const runtime = runtimeOf(config, role);
    if (!runtime) continue;
    const id = text(roleId);
    const { effective_write_path: writePath, workflow_artifact_ownership: ownership } = capabilityContract(
      role,
      runtime,
    );
    const binding = `${text(prop(role, 'write_authority'))}/${text(prop(runtime, 'type'))}`;
    const at = `Artifact "${artifact.path}" is owned by "${id}"`;
    const entry = (code: string, command: string, reason: string): GuidanceEntry => ({
      code,
      phase,
      gate_id: gateId,
      role_id: id,
      artifact_path: artifact.path,
      command,
      reason,
    });
    const edit = `Edit agentxchain.json for role "${id}", then run agentxchain validate`;
    if (writePath.startsWith('invalid_') || ownership === 'invalid') {
      entries.push(entry('invalid_binding', edit, `${at}, but ${binding} resolves to ${writePath}.`));
    } else if (ownership === 'no') {
      entries.push(
        entry(
          'review_only_remote_dead_end',
          edit,
          `${at}, but ${binding} can only return review artifacts and cannot satisfy workflow ownership.`,
        ),
      );
    } else if (ownership === 'proposal_apply_required') {
      const turn = failure['requested_by_turn'] || state['last_completed_turn_id'];
      entries.push(
        entry(
          'proposal_apply_required',
          turn ? `agentxchain proposal apply ${text(turn)}` : 'agentxchain proposal list',
          `${at}, and ${binding} stages required files behind proposal apply.`,
        ),
      );
    } else if (ownership === 'tool_defined') {
      entries.push(
        entry(
          'tool_defined_proof_not_strong_enough',
          `agentxchain role show ${id}`,
          `${at}, but ${text(prop(runtime, 'type'))} leaves the file-write contract tool-defined and not statically provable.`,
        ),
      );
    }
  }
  const sorted = stableSorted(
    entries,
    (a, b) =>
      PRIORITY[a.code]! - PRIORITY[b.code]! ||
      compareEn(a.command, b.command) ||
      compareEn(a.artifact_path, b.artifact_path),
  );
  const seen = new Set<string>();
  return sorted.filter((e) => {
    const key = `${e.code}|${e.role_id}|${e.command}|${e.artifact_path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
