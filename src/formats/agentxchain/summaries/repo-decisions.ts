/**
 * `summary.repo_decisions` of run exports, reconstructed from `.agentxchain/repo-decisions.jsonl`
 * and the exported config's role authorities (docs/agentxchain.md §6.2).
 * The reconstruction mirrors the reference's summariser, JS semantics included (plain property
 * reads of `config.roles[role]` find inherited names such as `constructor`; keys copied even when
 * `undefined`; default `sort()` of categories). Decision entries are attacker-controlled: a `null`
 * entry (crash site 6, §9) or an unprintable category (site 10) stops the reconstruction with a finding.
 * @module
 */
import { jsonDeepStrictEqual } from '../../../json/deep-equal.ts';
import { reportError, type CheckContext, type Scope } from '../context.ts';
import { path, prop, type ParsedObject, type ParsedValue } from '../js-semantics.ts';
import { reconstruct, UnprocessableValue } from '../unprocessable.ts';

const REPO_DECISIONS = '.agentxchain/repo-decisions.jsonl';

interface Authority {
  readonly level: unknown;
  readonly source: string;
}

/** §6.2: the authority of a role under `config.roles`, or `null`. */
export function roleAuthority(role: ParsedValue, config: ParsedValue): Authority | null {
  const roles = prop(config, 'roles');
  if (!config || !roles) return null;
  if (role === 'human') {
    const human = prop(roles, 'human');
    const level = prop(human, 'decision_authority');
    if (human && typeof level === 'number') return { level, source: 'configured' };
    return { level: 100, source: 'human_default' };
  }
  // Plain property read: ToPropertyKey of an unprintable role throws, as in the reference.
  const entry = prop(roles, role);
  if (!entry) return { level: 0, source: 'unknown_role' };
  const level = prop(entry, 'decision_authority');
  if (typeof level !== 'number') return null;
  return { level, source: 'configured' };
}

interface ExpectedRepoDecisions {
  readonly total: number;
  readonly active_count: number;
  readonly overridden_count: number;
  readonly active: readonly Record<string, unknown>[];
  readonly overridden: readonly Record<string, unknown>[];
  readonly operator_summary: Record<string, unknown>;
}

/**
 * Rebuilds the repo-decision summary, or `null` when the file's data is not a non-empty array.
 * @throws UnprocessableValue where the reference would crash.
 */
export function buildExpectedRepoDecisions(files: ParsedValue, config: ParsedValue): ExpectedRepoDecisions | null {
  const decisions = path(files, REPO_DECISIONS, 'data');
  if (!Array.isArray(decisions) || decisions.length === 0) return null;
  const nullIndex = decisions.indexOf(null);
  if (nullIndex !== -1) throw new UnprocessableValue(['files', REPO_DECISIONS, 'data', nullIndex], 'is null');
  const active = decisions.filter((d) => prop(d, 'status') === 'active');
  const overridden = decisions.filter((d) => prop(d, 'status') === 'overridden');

  const activeEntries = active.map((d) => {
    const authority = roleAuthority(prop(d, 'role'), config);
    return {
      id: prop(d, 'id'),
      category: prop(d, 'category'),
      statement: prop(d, 'statement'),
      role: prop(d, 'role'),
      run_id: prop(d, 'run_id'),
      overrides: prop(d, 'overrides') || null,
      durability: prop(d, 'durability') || 'repo',
      authority_level: authority?.level ?? null,
      authority_source: authority?.source || null,
    };
  });
  const overriddenEntries = overridden.map((d) => {
    const authority = roleAuthority(prop(d, 'role'), config);
    return {
      id: prop(d, 'id'),
      overridden_by: prop(d, 'overridden_by'),
      statement: prop(d, 'statement'),
      overrides: prop(d, 'overrides') || null,
      durability: prop(d, 'durability') || 'repo',
      role: prop(d, 'role') || null,
      authority_level: authority?.level ?? null,
      authority_source: authority?.source || null,
    };
  });

  // Default sort compares String() of each value: an unprintable category throws (crash site 10, §9).
  const categories = [...new Set(activeEntries.map((d) => d.category).filter(Boolean))];
  try {
    categories.sort();
  } catch (error) {
    const culprit = active.findIndex((d) => {
      try {
        String(prop(d, 'category'));
        return false;
      } catch {
        return true;
      }
    });
    if (culprit === -1) throw error;
    throw new UnprocessableValue(
      ['files', REPO_DECISIONS, 'data', decisions.indexOf(active[culprit]), 'category'],
      'cannot be converted to a string',
    );
  }
  let highest: (typeof activeEntries)[number] | undefined;
  for (const entry of activeEntries) {
    if (
      typeof entry.authority_level === 'number' &&
      (highest === undefined || entry.authority_level > (highest.authority_level as number))
    )
      highest = entry;
  }
  return {
    total: decisions.length,
    active_count: active.length,
    overridden_count: overridden.length,
    active: activeEntries,
    overridden: overriddenEntries,
    operator_summary: {
      active_categories: categories,
      highest_active_authority_level: highest?.authority_level ?? null,
      highest_active_authority_role: highest?.role ?? null,
      highest_active_authority_source: highest?.authority_source ?? null,
      superseding_active_count: activeEntries.filter((d) => d.overrides).length,
      overridden_with_successor_count: overriddenEntries.filter((d) => d.overridden_by).length,
    },
  };
}

/**
 * `".agentxchain/repo-decisions.jsonl" in (files || {})` (§6.2). A truthy primitive `files` makes the
 * reference throw (crash site 2, §9); it holds no file, and its own `files: must be an object` error
 * already fails the export, so it counts as "no file" here.
 */
function hasRepoDecisionsFile(files: ParsedValue): boolean {
  return typeof files === 'object' && files !== null && REPO_DECISIONS in files;
}

/** §6.2: compares the claimed repo-decision summary with the reconstruction. */
export function verifyRepoDecisions(
  context: CheckContext,
  scope: Scope,
  summary: ParsedObject,
  files: ParsedValue,
  config: ParsedValue,
): void {
  const claimed = summary['repo_decisions'];
  const hasFile = hasRepoDecisionsFile(files);
  const built = reconstruct(context, scope, ['summary', 'repo_decisions'], 'summary.repo_decisions', () =>
    buildExpectedRepoDecisions(files, config || null),
  );
  if (built === undefined) return;
  const expected = built.value;
  const error = (field: string | null, message: string): void => {
    const segments = field === null ? ['summary', 'repo_decisions'] : ['summary', 'repo_decisions', field];
    reportError(context, scope, 'agentxchain.summary_mismatch', segments.join('.'), segments, message);
  };
  if (claimed == null && expected === null) return;
  if (claimed != null && !hasFile && expected === null) {
    error(null, 'claims repo decisions but no .agentxchain/repo-decisions.jsonl in export');
    return;
  }
  if (claimed === null) {
    error(null, 'is null but repo-decisions.jsonl contains entries');
    return;
  }
  if (claimed === undefined) {
    // Crash site 7 (§9): the reference reads `undefined.total` here and crashes; §9 gives this text.
    error(null, 'is missing but repo-decisions.jsonl contains entries');
    return;
  }
  if (expected === null) {
    error(null, 'claims repo decisions but repo-decisions.jsonl is empty');
    return;
  }
  if (prop(claimed, 'total') !== expected.total) error('total', 'must match reconstructed repo decision count');
  if (prop(claimed, 'active_count') !== expected.active_count)
    error('active_count', 'must match reconstructed active count');
  if (prop(claimed, 'overridden_count') !== expected.overridden_count)
    error('overridden_count', 'must match reconstructed overridden count');
  if (!jsonDeepStrictEqual(prop(claimed, 'active'), expected.active))
    error('active', 'must match reconstructed active decisions from repo-decisions.jsonl');
  if (!jsonDeepStrictEqual(prop(claimed, 'overridden'), expected.overridden)) {
    error('overridden', 'must match reconstructed overridden decisions from repo-decisions.jsonl');
  }
  if (!jsonDeepStrictEqual(prop(claimed, 'operator_summary'), expected.operator_summary)) {
    error('operator_summary', 'must match reconstructed repo decision operator summary');
  }
}
