/**
 * Shapes of the runner-interface artifacts a run export carries for turns in flight
 * (docs/agentxchain.md §12; the reference's `turn-result-validator.js` and `dispatch-bundle.js`).
 *
 * These are the files as the runner and the agent leave them, *before* acceptance: the reference
 * normalises a staged result when it accepts it (decision ids such as `DEC-DEV-22cd` become
 * `DEC-001`, status synonyms are mapped, missing defaults filled in), so a staged file may
 * legitimately hold what normalisation will fix. The schemas therefore check what normalisation
 * cannot repair: the identity fields, the types, the enumerations it does not rewrite, and the
 * delegation contract (`del-NNN`, required decisions `DEC-n`). Unknown keys are allowed.
 * @module
 */
import {
  array,
  boolean,
  custom,
  integer,
  literal,
  looseObject,
  minLength,
  nullish,
  number,
  optional,
  picklist,
  pipe,
  record,
  regex,
  string,
  trim,
  union,
  type GenericSchema,
} from 'valibot';

const nonEmptyString = pipe(string(), trim(), minLength(1, 'must be a non-empty string'));
const roleName = pipe(string(), regex(/^[a-z0-9_-]+$/, 'must match ^[a-z0-9_-]+$'));
const decisionId = pipe(string(), regex(/^DEC-\d+$/, 'must match DEC-NNN'));

/** A delegation a staged result issues (validateDelegation in the reference). */
export const DelegationSchema = looseObject({
  id: pipe(string(), regex(/^del-\d{3}$/, 'must match del-NNN')),
  to_role: roleName,
  charter: nonEmptyString,
  acceptance_contract: pipe(array(nonEmptyString), minLength(1, 'must be a non-empty array')),
  required_decision_ids: optional(pipe(array(decisionId), minLength(1, 'must be a non-empty array when provided'))),
});

/** The staged turn result `.agentxchain/staging/<turn_id>/turn-result.json` (§12). */
export const StagedTurnResultSchema = looseObject({
  schema_version: literal('1.0'),
  run_id: nonEmptyString,
  turn_id: nonEmptyString,
  role: roleName,
  runtime_id: optional(string()),
  status: optional(string()),
  summary: optional(string()),
  decisions: optional(
    array(
      looseObject({
        // Any id: acceptance rewrites ids that are not DEC-NNN.
        id: optional(string()),
        category: optional(string()),
        statement: optional(string()),
        rationale: optional(string()),
        durability: optional(picklist(['run', 'repo'], 'must be "run" or "repo"')),
        overrides: optional(decisionId),
      }),
    ),
  ),
  objections: optional(
    array(
      looseObject({
        id: optional(string()),
        severity: picklist(['low', 'medium', 'high', 'blocking'], 'must be one of: low, medium, high, blocking'),
        statement: optional(string()),
        status: optional(
          picklist(['raised', 'acknowledged', 'resolved', 'escalated', 'resolved_by_human', 'resolved_by_director']),
        ),
      }),
    ),
  ),
  files_changed: optional(array(union([string(), looseObject({ path: string() })]))),
  artifacts_created: optional(array(string())),
  verification: optional(
    looseObject({
      status: optional(picklist(['pass', 'fail', 'skipped'], 'must be one of: pass, fail, skipped')),
      commands: optional(array(nonEmptyString)),
      evidence_summary: optional(string()),
      machine_evidence: optional(array(looseObject({ command: nonEmptyString, exit_code: pipe(number(), integer()) }))),
    }),
  ),
  artifact: optional(
    looseObject({ type: optional(picklist(['workspace', 'patch', 'commit', 'review'])), ref: nullish(string()) }),
  ),
  proposed_next_role: optional(roleName),
  phase_transition_request: nullish(string()),
  run_completion_request: nullish(boolean()),
  needs_human_reason: nullish(string()),
  cost: nullish(looseObject({})),
  delegations: optional(array(DelegationSchema)),
});

/** One active turn as listed in the dispatch index. */
const DispatchIndexEntrySchema = looseObject({
  turn_id: nonEmptyString,
  role: roleName,
  runtime_id: optional(string()),
  attempt: optional(pipe(number(), integer())),
  status: optional(string()),
  bundle_path: optional(string()),
  staging_result_path: optional(string()),
});

/** `.agentxchain/dispatch/index.json`: the turns currently dispatched. */
export const DispatchIndexSchema = looseObject({
  run_id: nonEmptyString,
  phase: optional(string()),
  updated_at: optional(string()),
  // valibot's record accepts arrays (their indices are string keys): require a plain object first.
  active_turns: pipe(
    custom<Record<string, unknown>>(
      (turns) => typeof turns === 'object' && turns !== null && !Array.isArray(turns),
      'must be an object keyed by turn id',
    ),
    record(string(), DispatchIndexEntrySchema),
  ),
});

/** `.agentxchain/dispatch/turns/<turn_id>/ASSIGNMENT.json`: what the runner told the agent. */
export const AssignmentSchema = looseObject({
  run_id: nonEmptyString,
  turn_id: nonEmptyString,
  phase: optional(string()),
  role: roleName,
  runtime_id: optional(string()),
  staging_result_path: optional(string()),
  attempt: optional(pipe(number(), integer())),
});

/** JSON files of a dispatch bundle whose inner shape the kit does not constrain. */
export const BundleObjectSchema: GenericSchema = looseObject({});
