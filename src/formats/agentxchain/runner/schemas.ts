/**
 * Shapes of the runner-interface artifacts a run export carries for turns in flight
 * (docs/agentxchain.md §12; the reference's `turn-result-validator.js` and `dispatch-bundle.js`).
 *
 * These are the files as the runner and the agent leave them, *before* acceptance: the reference
 * normalises a staged result when it accepts it (decision ids such as `DEC-DEV-22cd` become
 * `DEC-001`, status synonyms are mapped, missing defaults filled in), so a staged file may
 * legitimately hold what normalisation will fix. The schemas therefore check what normalisation
 * cannot repair: the identity fields, the types, the enumerations it does not rewrite, and the
 * delegation contract (`del-NNN`, required decisions `DEC-n`). Unknown keys are allowed. A
 * non-empty string is one that is not all white space (`trim()` leaves something); the shapes are
 * `shape.ts`'s, worded as valibot words them.
 * @module
 */
import {
  array,
  boolean,
  either,
  integer,
  matching,
  nullish,
  object,
  oneOf,
  optional,
  record,
  string,
  type Shape,
} from './shape.ts';

const nonEmptyString = matching(/\S/, 'must be a non-empty string');
const roleName = matching(/^[a-z0-9_-]+$/, 'must match ^[a-z0-9_-]+$');
const decisionId = matching(/^DEC-\d+$/, 'must match DEC-NNN');

/** A delegation a staged result issues (validateDelegation in the reference). */
export const DelegationSchema: Shape = object({
  id: matching(/^del-\d{3}$/, 'must match del-NNN'),
  to_role: roleName,
  charter: nonEmptyString,
  acceptance_contract: array(nonEmptyString, 'must be a non-empty array'),
  required_decision_ids: optional(array(decisionId, 'must be a non-empty array when provided')),
});

/** The staged turn result `.agentxchain/staging/<turn_id>/turn-result.json` (§12). */
export const StagedTurnResultSchema: Shape = object({
  schema_version: oneOf(['1.0']),
  run_id: nonEmptyString,
  turn_id: nonEmptyString,
  role: roleName,
  runtime_id: optional(string),
  status: optional(string),
  summary: optional(string),
  decisions: optional(
    array(
      object({
        // Any id: acceptance rewrites ids that are not DEC-NNN.
        id: optional(string),
        category: optional(string),
        statement: optional(string),
        rationale: optional(string),
        durability: optional(oneOf(['run', 'repo'], 'must be "run" or "repo"')),
        overrides: optional(decisionId),
      }),
    ),
  ),
  objections: optional(
    array(
      object({
        id: optional(string),
        severity: oneOf(['low', 'medium', 'high', 'blocking'], 'must be one of: low, medium, high, blocking'),
        statement: optional(string),
        status: optional(
          oneOf(['raised', 'acknowledged', 'resolved', 'escalated', 'resolved_by_human', 'resolved_by_director']),
        ),
      }),
    ),
  ),
  files_changed: optional(array(either(string, object({ path: string }), '(string | Object)'))),
  artifacts_created: optional(array(string)),
  verification: optional(
    object({
      status: optional(oneOf(['pass', 'fail', 'skipped'], 'must be one of: pass, fail, skipped')),
      commands: optional(array(nonEmptyString)),
      evidence_summary: optional(string),
      machine_evidence: optional(array(object({ command: nonEmptyString, exit_code: integer }))),
    }),
  ),
  artifact: optional(
    object({ type: optional(oneOf(['workspace', 'patch', 'commit', 'review'])), ref: nullish(string) }),
  ),
  proposed_next_role: optional(roleName),
  phase_transition_request: nullish(string),
  run_completion_request: nullish(boolean),
  needs_human_reason: nullish(string),
  cost: nullish(object({})),
  delegations: optional(array(DelegationSchema)),
});

/** One active turn as listed in the dispatch index. */
const DispatchIndexEntrySchema = object({
  turn_id: nonEmptyString,
  role: roleName,
  runtime_id: optional(string),
  attempt: optional(integer),
  status: optional(string),
  bundle_path: optional(string),
  staging_result_path: optional(string),
});

/** `.agentxchain/dispatch/index.json`: the turns currently dispatched. */
export const DispatchIndexSchema: Shape = object({
  run_id: nonEmptyString,
  phase: optional(string),
  updated_at: optional(string),
  active_turns: record(DispatchIndexEntrySchema, 'must be an object keyed by turn id'),
});

/** `.agentxchain/dispatch/turns/<turn_id>/ASSIGNMENT.json`: what the runner told the agent. */
export const AssignmentSchema: Shape = object({
  run_id: nonEmptyString,
  turn_id: nonEmptyString,
  phase: optional(string),
  role: roleName,
  runtime_id: optional(string),
  staging_result_path: optional(string),
  attempt: optional(integer),
});
