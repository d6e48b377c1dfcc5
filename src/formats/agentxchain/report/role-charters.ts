/**
 * Whether each role of the config is well formed (docs/agentxchain-report.md §4.21): a mandate,
 * coherent authority, a way to produce governed artifacts, and a place in the workflow.
 * @module
 */
import { capabilityContract, effectiveGateArtifacts, runtimeOf } from './capabilities.ts';
import { compareCodeUnits } from './collation.ts';
import { keysOf, prop, type ParsedValue } from './values.ts';

export interface RoleCharters {
  total: number;
  well_formed: number;
  incomplete: number;
  incomplete_role_ids: string[];
}

const AUTHORITIES = new Set<ParsedValue>(['authoritative', 'proposed', 'review_only']);
const INCOHERENT = new Set(['none', 'unknown', 'invalid_review_only_binding', 'invalid_authoritative_binding']);
const PRODUCING = new Set(['direct', 'planning_only', 'patch_authoring', 'proposal_apply_required', 'tool_defined']);
const OWNING = new Set(['yes', 'proposal_apply_required', 'tool_defined']);

/** Phases whose routing names the role as entry role or allowed next role. */
function routedPhases(routing: ParsedValue, roleId: string): string[] {
  return keysOf(routing).filter((phase) => {
    const route = prop(routing, phase);
    const next = prop(route, 'allowed_next_roles');
    return prop(route, 'entry_role') === roleId || (Array.isArray(next) && next.includes(roleId));
  });
}

function isWellFormed(config: ParsedValue, roleId: string): boolean {
  const roles = prop(config, 'roles') || {};
  const routing = prop(config, 'routing') || {};
  const gates = prop(config, 'gates') || {};
  const role = prop(roles, roleId) || null;
  const mandate = prop(role, 'mandate');
  const hasMandate = typeof mandate === 'string' && mandate.trim().length > 0;
  const runtimeKey = prop(role, 'runtime_id') || prop(role, 'runtime');
  const runtime = runtimeKey ? runtimeOf(config, role) : undefined;
  const contract = capabilityContract(role, runtime);
  const coherent =
    AUTHORITIES.has(prop(role, 'write_authority')) && !!runtime && !INCOHERENT.has(contract.effective_write_path);
  const phases = routedPhases(routing, roleId);
  let produces = false;
  if (PRODUCING.has(contract.effective_write_path)) {
    produces = phases.some((phase) => {
      const gateId = prop(prop(routing, phase), 'exit_gate');
      const gate = gateId ? prop(gates, gateId as string) : null;
      return !!gate && effectiveGateArtifacts(config, gate, phase).some((a) => a.required);
    });
  }
  if (!produces && OWNING.has(contract.workflow_artifact_ownership)) {
    produces = keysOf(routing).some((phase) => {
      const gateId = prop(prop(routing, phase), 'exit_gate');
      const gate = (gateId ? prop(gates, gateId as string) : null) || {};
      return effectiveGateArtifacts(config, gate, phase).some((a) => a.owned_by === roleId);
    });
  }
  return hasMandate && coherent && produces && phases.length > 0;
}

/** §4.21; `null` without a config. */
export function roleCharters(artifact: ParsedValue): RoleCharters | null {
  const config = prop(artifact, 'config') || null;
  if (!config) return null;
  const ids = keysOf(prop(config, 'roles') || {}).sort(compareCodeUnits);
  const incomplete = ids.filter((id) => !isWellFormed(config, id));
  return {
    total: ids.length,
    well_formed: ids.length - incomplete.length,
    incomplete: incomplete.length,
    incomplete_role_ids: incomplete,
  };
}
