/**
 * `summary.delegation_summary` of run exports, reconstructed from `.agentxchain/history.jsonl`
 * (docs/agentxchain.md §6.1). The reconstruction mirrors the reference's code step by step,
 * including its JS semantics: `Map`s keyed by raw values (SameValueZero), `||` defaults, keys that
 * exist with the value `undefined` (which makes a claimed JSON chain unmatchable).
 * History entries are attacker-controlled: where the reference would crash (crash sites 3–5, §9) we stop
 * with an `UnprocessableValue` instead.
 * @module
 */
import { jsonDeepStrictEqual } from '../../../json/deep-equal.ts';
import { reportError, type CheckContext, type Scope } from '../context.ts';
import { path, prop, type ParsedObject, type ParsedValue } from '../js-semantics.ts';
import { reconstruct, UnprocessableValue } from '../unprocessable.ts';

const HISTORY = '.agentxchain/history.jsonl';

interface ExpectedDelegationSummary {
  readonly total_delegations_issued: number;
  readonly delegation_chains: readonly unknown[];
}

/**
 * Rebuilds the delegation summary the writer should have produced from the history entries,
 * or `null` when the export holds no history array.
 * @throws UnprocessableValue where the reference would crash.
 */
export function buildExpectedDelegationSummary(files: ParsedValue): ExpectedDelegationSummary | null {
  const history = path(files, HISTORY, 'data');
  if (!Array.isArray(history)) return null;
  const at = (...rest: (string | number)[]) => ['files', HISTORY, 'data', ...rest];

  const parents = new Map<unknown, { role: unknown; issued: unknown[]; index: number }>();
  const children = new Map<unknown, { turn_id: unknown; status: unknown }>();
  const reviews = new Map<unknown, { turn_id: unknown; results: unknown; index: number }>();
  for (let index = 0; index < history.length; index++) {
    const entry: ParsedValue = history[index];
    if (entry === null) throw new UnprocessableValue(at(index), 'is null');
    const issued = prop(entry, 'delegations_issued');
    if (issued && Array.isArray(issued))
      parents.set(prop(entry, 'turn_id'), { role: prop(entry, 'role'), issued, index });
    const context = prop(entry, 'delegation_context');
    if (context)
      children.set(prop(context, 'delegation_id'), {
        turn_id: prop(entry, 'turn_id'),
        status: prop(entry, 'status') || 'completed',
      });
    const review = prop(entry, 'delegation_review');
    if (review)
      reviews.set(prop(review, 'parent_turn_id'), {
        turn_id: prop(entry, 'turn_id'),
        results: prop(review, 'results') || [],
        index,
      });
  }

  let total = 0;
  const chains: unknown[] = [];
  for (const [parentTurnId, parent] of parents) {
    total += parent.issued.length;
    const review = reviews.get(parentTurnId);
    const resultsByDelegation = new Map<unknown, unknown>();
    if (review) {
      const results = review.results;
      const resultsAt = at(review.index, 'delegation_review', 'results');
      // `for…of` over a truthy value: arrays and strings iterate, anything else throws (crash site 5, §9).
      if (!Array.isArray(results) && typeof results !== 'string')
        throw new UnprocessableValue(resultsAt, 'is not iterable');
      let k = 0;
      for (const result of results as Iterable<unknown>) {
        if (result === null) throw new UnprocessableValue([...resultsAt, k], 'is null');
        const id = prop(result, 'delegation_id');
        if (id) resultsByDelegation.set(id, result);
        k++;
      }
    }
    const delegations = parent.issued.map((del, j) => {
      if (del === null) throw new UnprocessableValue(at(parent.index, 'delegations_issued', j), 'is null');
      const id = prop(del, 'id');
      const child = children.get(id);
      const result = resultsByDelegation.get(id);
      const required = prop(del, 'required_decision_ids');
      const satisfied = prop(result, 'satisfied_decision_ids');
      const missing = prop(result, 'missing_decision_ids');
      return {
        delegation_id: id,
        to_role: prop(del, 'to_role'),
        charter: prop(del, 'charter'),
        required_decision_ids: Array.isArray(required) ? required : [],
        satisfied_decision_ids: Array.isArray(satisfied) ? satisfied : [],
        missing_decision_ids: Array.isArray(missing) ? missing : [],
        status: prop(result, 'status') || child?.status || 'pending',
        child_turn_id: child?.turn_id || null,
      };
    });
    let outcome: string;
    if (!review) outcome = 'pending';
    else if (delegations.every((d) => d.status === 'completed')) outcome = 'completed';
    else if (delegations.every((d) => d.status === 'failed')) outcome = 'failed';
    else outcome = 'mixed';
    chains.push({
      parent_turn_id: parentTurnId,
      parent_role: parent.role,
      delegations,
      review_turn_id: review?.turn_id || null,
      outcome,
    });
  }
  return { total_delegations_issued: total, delegation_chains: chains };
}

/** §6.1: compares the claimed delegation summary with the reconstruction. */
export function verifyDelegationSummary(
  context: CheckContext,
  scope: Scope,
  summary: ParsedObject,
  files: ParsedValue,
): void {
  const claimed = summary['delegation_summary'];
  const built = reconstruct(context, scope, ['summary', 'delegation_summary'], 'summary.delegation_summary', () =>
    buildExpectedDelegationSummary(files),
  );
  if (built === undefined) return;
  const expected = built.value;
  const error = (field: string | null, message: string): void => {
    const segments = field === null ? ['summary', 'delegation_summary'] : ['summary', 'delegation_summary', field];
    reportError(context, scope, 'agentxchain.summary_mismatch', segments.join('.'), segments, message);
  };
  if (claimed == null && expected === null) return;
  if (claimed == null) {
    if (expected!.total_delegations_issued > 0) error(null, 'is null but history.jsonl contains delegation entries');
    return;
  }
  if (expected === null) {
    error(null, 'claims delegations but no history.jsonl in export');
    return;
  }
  // The claim itself is not type-checked: a string claim yields both errors below.
  if (prop(claimed, 'total_delegations_issued') !== expected.total_delegations_issued) {
    error('total_delegations_issued', 'must match reconstructed delegation count');
  }
  if (!jsonDeepStrictEqual(prop(claimed, 'delegation_chains'), expected.delegation_chains)) {
    error('delegation_chains', 'must match reconstructed delegation chains from history.jsonl');
  }
}
