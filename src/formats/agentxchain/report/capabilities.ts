/**
 * What a role can do with its runtime (docs/agentxchain-report.md §4.22) and which files a gate
 * requires (§4.12, the effective gate artifacts): the reference's `runtime-capabilities.js` and
 * `getEffectiveGateArtifacts`, as far as the report uses them.
 * @module
 */
import { isJsonObject, isNonEmptyString, prop, type ParsedValue } from './values.ts';

/** `(effective_write_path, workflow_artifact_ownership)` of a role bound to a runtime. */
export interface CapabilityContract {
  readonly effective_write_path: string;
  readonly workflow_artifact_ownership: string;
}

const BASE: Record<string, [string, string]> = {
  manual: ['direct', 'yes'],
  local_cli: ['direct', 'yes'],
  api_proxy: ['proposal_only', 'proposal_apply_required'],
  remote_agent: ['proposal_only', 'proposal_apply_required'],
  mcp: ['tool_defined', 'tool_defined'],
};

const contract = (path: string, ownership: string): CapabilityContract => ({
  effective_write_path: path,
  workflow_artifact_ownership: ownership,
});
const UNKNOWN = contract('unknown', 'unknown');

/** The runtime a role is bound to: `C.runtimes[role.runtime_id || role.runtime]`. */
export function runtimeOf(config: ParsedValue, role: ParsedValue): ParsedValue {
  const id = prop(role, 'runtime_id') || prop(role, 'runtime');
  return prop(prop(config, 'runtimes'), id as string);
}

/** §4.22: the contract of `role` on `runtime`. */
export function capabilityContract(role: ParsedValue, runtime: ParsedValue): CapabilityContract {
  const type = prop(runtime, 'type');
  const base = (typeof type === 'string' && Object.hasOwn(BASE, type) ? BASE[type] : undefined) ?? [
    'unknown',
    'unknown',
  ];
  let canWrite = base[0];
  let ownership = base[1];
  const capabilities = prop(runtime, 'capabilities');
  if (isJsonObject(capabilities)) {
    if (isNonEmptyString(capabilities['can_write_files'])) canWrite = capabilities['can_write_files'];
    if (isNonEmptyString(capabilities['workflow_artifact_ownership']))
      ownership = capabilities['workflow_artifact_ownership'];
  }
  const authority = prop(role, 'write_authority') || 'unknown';
  if (authority === 'review_only') {
    if (type === 'manual') return contract('planning_only', 'yes');
    if (canWrite === 'direct' && type === 'local_cli') return contract('invalid_review_only_binding', 'invalid');
    if (canWrite === 'tool_defined' || ownership === 'tool_defined') return contract('tool_defined', 'tool_defined');
    if (canWrite === 'proposal_only') return contract('review_artifact_only', 'no');
    if (canWrite === 'direct')
      return ownership === 'yes' ? contract('planning_only', 'yes') : contract('review_artifact_only', 'no');
    return UNKNOWN;
  }
  if (authority === 'proposed') {
    if (type === 'manual') return contract('patch_authoring', 'yes');
    if (canWrite === 'direct') return contract('patch_authoring', ownership);
    if (canWrite === 'proposal_only') return contract('proposal_apply_required', 'proposal_apply_required');
    if (canWrite === 'tool_defined') return contract('tool_defined', 'tool_defined');
    return UNKNOWN;
  }
  if (authority === 'authoritative') {
    if (canWrite === 'direct') return contract('direct', ownership);
    if (canWrite === 'proposal_only') return contract('invalid_authoritative_binding', 'invalid');
    if (canWrite === 'tool_defined') return contract('tool_defined', 'tool_defined');
    return UNKNOWN;
  }
  return UNKNOWN;
}

/** One file a gate requires in a phase. */
export interface GateArtifact {
  readonly path: string;
  required: boolean;
  owned_by: string | null;
}

/**
 * The effective artifacts of a gate in a phase: the gate's `requires_files`, then the phase's
 * workflow-kit artifacts merged in by path (insertion order by path).
 */
export function effectiveGateArtifacts(config: ParsedValue, gate: ParsedValue, phase: ParsedValue): GateArtifact[] {
  const byPath = new Map<string, GateArtifact>();
  const required = prop(gate, 'requires_files');
  if (Array.isArray(required)) {
    for (const path of required) {
      if (typeof path === 'string' && !byPath.has(path)) byPath.set(path, { path, required: true, owned_by: null });
    }
  }
  const artifacts = prop(prop(prop(prop(config, 'workflow_kit'), 'phases'), phase as string), 'artifacts');
  if (Array.isArray(artifacts)) {
    for (const artifact of artifacts) {
      const path = prop(artifact, 'path');
      if (!artifact || !path) continue;
      const key = path as string;
      const owner = prop(artifact, 'owned_by');
      const existing = byPath.get(key);
      if (existing) {
        existing.required = existing.required || prop(artifact, 'required') !== false;
        if (isNonEmptyString(owner)) existing.owned_by = owner;
      } else {
        byPath.set(key, {
          path: key,
          required: prop(artifact, 'required') !== false,
          owned_by: isNonEmptyString(owner) ? owner : null,
        });
      }
    }
  }
  return [...byPath.values()];
}
