// Generates the runner-interface test vectors of docs/agentxchain.md §12 (run: `node --import tsx
// test/vectors/agentxchain/generate.ts`).
//
// Each vector is a small synthetic AgentXchain run export with a turn in flight (a dispatch bundle
// and a staged turn result), built from scratch here (no shared fixture is copied), named by the
// mutation applied to the in-flight base, with:
//   desc           what was changed and why it is (or is not) a runner-level inconsistency
//   codes          the runner.* finding codes the kit must report, sorted (empty for passing vectors)
//   compat_overall what `agentxchain verify export` says: always "pass", because every file entry
//                  is re-sealed (bytes, sha256, content_base64, data) and the summary recomputed,
//                  so only the runner checks can see the mutation
//   artifact       the export itself
// Every runner check has at least one passing and one failing vector.
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HERE = dirname(fileURLToPath(import.meta.url));
const RUN = 'run_5a1e0c0ffee0b0a7';
const TURN = 'turn_d15ea5e0c0ffee01';
const PARENT = 'turn_a11ce0000000beef';
const UNKNOWN = 'turn_0000000000000bad';

/** The in-flight base: pm accepted (history), dev dispatched and staged. */
function base(): { config: Json; state: Json; files: Record<string, unknown> } {
  const config = {
    schema_version: '1.0',
    project: { id: 'vector-demo', name: 'Vector demo' },
    roles: {
      pm: { title: 'PM', write_authority: 'review_only', runtime: 'manual-pm', decision_authority: 60 },
      dev: { title: 'Dev', write_authority: 'authoritative', runtime: 'manual-dev', decision_authority: 70 },
    },
    runtimes: { 'manual-pm': { type: 'manual' }, 'manual-dev': { type: 'manual' } },
  };
  const state = {
    schema_version: '1.1',
    run_id: RUN,
    status: 'active',
    phase: 'implementation',
    active_turns: {
      [TURN]: { turn_id: TURN, run_id: RUN, assigned_role: 'dev', status: 'dispatched', attempt: 1, runtime_id: 'manual-dev', concurrent_with: [] },
    },
    retained_turns: {},
    delegation_queue: [] as Json[],
  };
  const history = [{ turn_id: PARENT, run_id: RUN, role: 'pm', status: 'completed', summary: 'Planned the work.' }];
  const assignment = {
    run_id: RUN,
    turn_id: TURN,
    phase: 'implementation',
    role: 'dev',
    runtime_id: 'manual-dev',
    staging_result_path: `.agentxchain/staging/${TURN}/turn-result.json`,
    allowed_next_roles: ['dev', 'pm', 'human'],
    attempt: 1,
    active_siblings: [],
  };
  const index = {
    run_id: RUN,
    phase: 'implementation',
    updated_at: '2026-11-22T00:00:00.000Z',
    active_turns: {
      [TURN]: {
        turn_id: TURN,
        role: 'dev',
        runtime_id: 'manual-dev',
        attempt: 1,
        status: 'assigned',
        bundle_path: `.agentxchain/dispatch/turns/${TURN}`,
        staging_result_path: `.agentxchain/staging/${TURN}/turn-result.json`,
      },
    },
  };
  const staged = {
    schema_version: '1.0',
    run_id: RUN,
    turn_id: TURN,
    role: 'dev',
    runtime_id: 'manual-dev',
    status: 'completed',
    summary: 'Implemented the staging layout.',
    decisions: [{ id: 'DEC-7', category: 'implementation', statement: 'One directory per turn.', rationale: 'Isolation.' }],
    objections: [{ id: 'OBJ-001', severity: 'low', statement: 'Naming could be clearer.', status: 'raised', against_turn_id: PARENT }],
    files_changed: ['src/staging.js'],
    artifacts_created: [],
    verification: { status: 'pass', commands: ['npm test'], evidence_summary: 'ok', machine_evidence: [{ command: 'npm test', exit_code: 0 }] },
    artifact: { type: 'workspace', ref: null },
    proposed_next_role: 'pm',
    phase_transition_request: null,
    run_completion_request: null,
    needs_human_reason: null,
    cost: { input_tokens: 10, output_tokens: 20, usd: 0.01 },
  };
  const files: Record<string, unknown> = {
    'agentxchain.json': config,
    '.agentxchain/state.json': state,
    '.agentxchain/history.jsonl': history,
    '.agentxchain/dispatch/index.json': index,
    [`.agentxchain/dispatch/turns/${TURN}/ASSIGNMENT.json`]: assignment,
    [`.agentxchain/dispatch/turns/${TURN}/PROMPT.md`]: '# Turn for dev\n\nImplement the staging layout.\n',
    [`.agentxchain/staging/${TURN}/turn-result.json`]: staged,
  };
  return { config, state, files };
}

function formatOf(path: string, data: unknown): 'json' | 'jsonl' | 'text' {
  return typeof data === 'string' ? 'text' : path.endsWith('.jsonl') ? 'jsonl' : 'json';
}

/** A file entry as `agentxchain export` writes it: all four claims agree. */
function seal(path: string, data: unknown): Json {
  const format = formatOf(path, data);
  const text = format === 'text' ? (data as string) : format === 'jsonl' ? (data as unknown[]).map((d) => JSON.stringify(d)).join('\n') + '\n' : JSON.stringify(data, null, 2) + '\n';
  const bytes = Buffer.from(text, 'utf8');
  return { format, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), content_base64: bytes.toString('base64'), data };
}

/** summary.delegation_summary as the reference rebuilds it from history.jsonl (docs/agentxchain.md §6.1), or null. */
function delegationSummary(history: Json[]): Json | null {
  const parents = new Map<string, Json>();
  const children = new Map<string, Json>();
  const reviews = new Map<string, Json>();
  for (const e of history) {
    if (Array.isArray(e.delegations_issued)) parents.set(e.turn_id, { role: e.role, issued: e.delegations_issued });
    if (e.delegation_context) children.set(e.delegation_context.delegation_id, { turn_id: e.turn_id, status: e.status || 'completed' });
    const review = e.delegation_review;
    if (review) reviews.set(review.parent_turn_id, { turn_id: e.turn_id, results: review.results || [] });
  }
  let total = 0;
  const chains: Json[] = [];
  for (const [parent, { role, issued }] of parents) {
    total += issued.length;
    const review = reviews.get(parent);
    const reviewed: Json[] = (review?.results ?? []).filter((r: Json) => r.delegation_id);
    const results = new Map<string, Json>(reviewed.map((r) => [r.delegation_id, r]));
    const delegations = issued.map((del: Json) => {
      const result = results.get(del.id);
      const child = children.get(del.id);
      return {
        delegation_id: del.id,
        to_role: del.to_role,
        charter: del.charter,
        required_decision_ids: Array.isArray(del.required_decision_ids) ? del.required_decision_ids : [],
        satisfied_decision_ids: Array.isArray(result?.satisfied_decision_ids) ? result.satisfied_decision_ids : [],
        missing_decision_ids: Array.isArray(result?.missing_decision_ids) ? result.missing_decision_ids : [],
        status: result?.status || child?.status || 'pending',
        child_turn_id: child?.turn_id || null,
      };
    });
    const statuses = delegations.map((d: Json) => d.status);
    const outcome = !review ? 'pending' : statuses.every((x: string) => x === 'completed') ? 'completed' : statuses.every((x: string) => x === 'failed') ? 'failed' : 'mixed';
    const reviewTurn = review?.turn_id || null;
    chains.push({ parent_turn_id: parent, parent_role: role, delegations, review_turn_id: reviewTurn, outcome });
  }
  return total === 0 ? null : { total_delegations_issued: total, delegation_chains: chains };
}

/** The export around `files`, with the summary the reference recomputes (so it passes). */
function exportOf(config: Json, state: Json, files: Record<string, unknown>, filesTruncated = false): Json {
  const keys = Object.keys(files).sort((a, b) => a.localeCompare(b, 'en'));
  const sealed: Json = {};
  for (const key of keys) sealed[key] = seal(key, files[key]);
  const jsonlCount = (key: string): number => (Array.isArray(files[key]) ? (files[key] as unknown[]).length : 0);
  return {
    schema_version: '0.3',
    export_kind: 'agentxchain_run_export',
    exported_at: '2026-11-22T00:00:00.000Z',
    project_root: '/work/vector-demo',
    project: { id: 'vector-demo', name: 'Vector demo', template: 'generic', protocol_mode: 'governed' },
    summary: {
      run_id: state['run_id'] ?? null,
      status: state['status'] ?? null,
      phase: state['phase'] ?? null,
      active_turn_ids: Object.keys(state['active_turns'] ?? {}).sort((a, b) => a.localeCompare(b, 'en')),
      retained_turn_ids: Object.keys(state['retained_turns'] ?? {}).sort((a, b) => a.localeCompare(b, 'en')),
      history_entries: jsonlCount('.agentxchain/history.jsonl'),
      decision_entries: 0,
      hook_audit_entries: 0,
      notification_audit_entries: 0,
      dispatch_artifact_files: keys.filter((k) => k.startsWith('.agentxchain/dispatch/')).length,
      staging_artifact_files: keys.filter((k) => k.startsWith('.agentxchain/staging/')).length,
      intake_present: false,
      coordinator_present: false,
      delegation_summary: delegationSummary(Array.isArray(files['.agentxchain/history.jsonl']) ? (files['.agentxchain/history.jsonl'] as Json[]) : []),
      ...(filesTruncated ? { export_files_truncated: true } : {}),
    },
    files: sealed,
    config,
    state,
  };
}

interface Vector {
  readonly name: string;
  readonly desc: string;
  readonly codes: string[];
  readonly mutate?: (parts: ReturnType<typeof base>) => void;
  /** The export says files were left out (summary.export_files_truncated, which the reference does not check). */
  readonly filesTruncated?: boolean;
}

const STAGED = `.agentxchain/staging/${TURN}/turn-result.json`;
const ASSIGNMENT = `.agentxchain/dispatch/turns/${TURN}/ASSIGNMENT.json`;
const INDEX = '.agentxchain/dispatch/index.json';
const staged = (p: ReturnType<typeof base>): Json => p.files[STAGED] as Json;
const assignment = (p: ReturnType<typeof base>): Json => p.files[ASSIGNMENT] as Json;
const index = (p: ReturnType<typeof base>): Json => p.files[INDEX] as Json;
const activeTurn = (p: ReturnType<typeof base>): Json => p.state.active_turns[TURN];
const history = (p: ReturnType<typeof base>): Json[] => p.files['.agentxchain/history.jsonl'] as Json[];
/** Every file that names the dev turn's role or runtime, changed together. */
const everywhere = (p: ReturnType<typeof base>, key: 'role' | 'runtime_id', value: string): void => {
  activeTurn(p)[key === 'role' ? 'assigned_role' : key] = value;
  staged(p)[key] = value;
  assignment(p)[key] = value;
  index(p).active_turns[TURN][key] = value;
};
const MANIFEST = `.agentxchain/dispatch/turns/${TURN}/MANIFEST.json`;
/** Finalised bundle: MANIFEST.json lists the bundle's files (dispatch-manifest.js). */
const withManifest = (p: ReturnType<typeof base>): Json => {
  const manifest = {
    manifest_version: '1.0',
    run_id: RUN,
    turn_id: TURN,
    role: 'dev',
    finalized_at: '2026-11-22T00:00:00.000Z',
    files: [{ path: 'ASSIGNMENT.json', size: 1, sha256: '0'.repeat(64) }, { path: 'PROMPT.md', size: 1, sha256: '0'.repeat(64) }],
  };
  p.files[MANIFEST] = manifest;
  return manifest;
};
const dlg = (id: string, charter: string): Json => ({ id, to_role: 'dev', charter, acceptance_contract: ['Decision recorded'], required_decision_ids: ['DEC-7'] });
/** The accepted pm turn issued del-001 and del-002; the dev turn in flight does del-001 (inflight-delegated-child). */
const delegatedChild = (p: ReturnType<typeof base>): Json => {
  history(p)[0]!.delegations_issued = [dlg('del-001', 'Layout'), dlg('del-002', 'Retry policy')];
  const queued = (id: string, charter: string, status: string, child: string | null): Json => ({
    delegation_id: id, parent_turn_id: PARENT, parent_role: 'pm', to_role: 'dev', charter, acceptance_contract: ['Decision recorded'],
    required_decision_ids: ['DEC-7'], status, child_turn_id: child, created_at: '2026-11-22T00:00:00.000Z',
  });
  p.state.delegation_queue = [queued('del-001', 'Layout', 'active', TURN), queued('del-002', 'Retry policy', 'pending', null)];
  const context = { delegation_id: 'del-001', parent_turn_id: PARENT, parent_role: 'pm', charter: 'Layout', acceptance_contract: ['Decision recorded'], required_decision_ids: ['DEC-7'] };
  activeTurn(p).delegation_context = context;
  assignment(p).delegation_context = { ...context };
  return context;
};
const CHILD = 'turn_c41d000000000001';
/** del-001 was done by an accepted dev turn; the turn in flight is the pm's review of it (as assignTurn builds it). */
const reviewing = (p: ReturnType<typeof base>): Json => {
  history(p)[0]!.delegations_issued = [dlg('del-001', 'Layout')];
  history(p).push({ turn_id: CHILD, run_id: RUN, role: 'dev', status: 'completed', summary: 'Did the layout.', decisions: [{ id: 'DEC-7' }], delegation_context: { delegation_id: 'del-001', parent_turn_id: PARENT, parent_role: 'pm' } });
  everywhere(p, 'role', 'pm');
  everywhere(p, 'runtime_id', 'manual-pm');
  const review = {
    parent_turn_id: PARENT,
    results: [{ delegation_id: 'del-001', child_turn_id: CHILD, to_role: 'dev', charter: 'Layout', required_decision_ids: ['DEC-7'], satisfied_decision_ids: ['DEC-7'], missing_decision_ids: [], status: 'completed' }],
  };
  activeTurn(p).delegation_review = review;
  assignment(p).delegation_review = review;
  return review;
};
const delegation = (id: string, charter: string): Json => ({ id, to_role: 'dev', charter, acceptance_contract: ['Decision recorded'], required_decision_ids: ['DEC-7'] });

const VECTORS: Vector[] = [
  { name: 'inflight-happy-path', desc: 'unmodified in-flight base: dev turn dispatched and staged, everything consistent', codes: [] },

  // runner.turn_result_invalid
  {
    name: 'staged-prenormalization-values',
    desc: 'staged result uses values the runner normalises on acceptance (decision id "DEC-DEV-x", status "done", files_changed as objects): valid',
    codes: [],
    mutate: (p) => Object.assign(staged(p), { status: 'done', decisions: [{ id: 'DEC-DEV-x', statement: 'Kept.' }], files_changed: [{ path: 'src/staging.js' }] }),
  },
  { name: 'staged-schema-version-2', desc: 'staged result schema_version "2.0"', codes: ['runner.turn_result_invalid'], mutate: (p) => (staged(p).schema_version = '2.0') },
  {
    name: 'staged-delegation-bad-contract',
    desc: 'staged delegation id "del-1" (not del-NNN) and an empty acceptance_contract',
    codes: ['runner.turn_result_invalid', 'runner.turn_result_invalid'],
    mutate: (p) => (staged(p).delegations = [{ ...delegation('del-1', 'Review'), acceptance_contract: [] }]),
  },
  {
    name: 'staged-objection-severity-unknown',
    desc: 'staged objection severity "critical" (not low/medium/high/blocking)',
    codes: ['runner.turn_result_invalid'],
    mutate: (p) => (staged(p).objections[0].severity = 'critical'),
  },

  // runner.dispatch_invalid
  { name: 'assignment-extra-keys', desc: 'ASSIGNMENT.json carries extra keys the runner adds (advisory_warnings, reserved_paths): valid', codes: [], mutate: (p) => Object.assign(assignment(p), { reserved_paths: ['.agentxchain/state.json'], advisory_warnings: [] }) },
  { name: 'assignment-run-id-missing', desc: 'ASSIGNMENT.json without run_id', codes: ['runner.dispatch_invalid'], mutate: (p) => delete assignment(p).run_id },
  { name: 'index-active-turns-array', desc: 'dispatch index active_turns is an array instead of an object keyed by turn id', codes: ['runner.dispatch_invalid'], mutate: (p) => (index(p).active_turns = Object.values(index(p).active_turns)) },

  // runner.turn_not_active
  {
    name: 'index-lists-finished-turn',
    desc: 'the dispatch index still lists the previous (accepted, in history.jsonl) turn, as the runner leaves it: not a finding',
    codes: [],
    mutate: (p) => (index(p).active_turns[PARENT] = { turn_id: PARENT, role: 'pm', status: 'assigned' }),
  },
  {
    name: 'staged-orphan-no-active-turn',
    desc: 'the dev turn is removed from state.active_turns (state, its file and the summary together) while its bundle and staged result remain',
    codes: ['runner.turn_not_active', 'runner.turn_not_active', 'runner.turn_not_active'],
    mutate: (p) => (p.state.active_turns = {}),
  },
  {
    name: 'bundle-for-unknown-turn',
    desc: 'a second dispatch bundle for a turn that is neither active nor listed anywhere',
    codes: ['runner.turn_not_active'],
    mutate: (p) => (p.files['.agentxchain/dispatch/turns/turn_0000000000000bad/PROMPT.md'] = '# stray bundle\n'),
  },
  {
    name: 'index-lists-unknown-turn',
    desc: 'the dispatch index lists a turn that is neither active nor in history.jsonl',
    codes: ['runner.turn_not_active'],
    mutate: (p) => (index(p).active_turns['turn_0000000000000bad'] = { turn_id: 'turn_0000000000000bad', role: 'dev' }),
  },

  // runner.turn_id_mismatch
  {
    name: 'staged-turn-id-mismatch',
    desc: 'the turn result staged under staging/<dev turn>/ claims another turn_id',
    codes: ['runner.turn_id_mismatch'],
    mutate: (p) => (staged(p).turn_id = 'turn_0123456789abcdef'),
  },
  {
    name: 'assignment-turn-id-mismatch',
    desc: 'ASSIGNMENT.json in the bundle of the dev turn claims another turn_id',
    codes: ['runner.turn_id_mismatch'],
    mutate: (p) => (assignment(p).turn_id = 'turn_0123456789abcdef'),
  },

  // runner.run_id_mismatch
  {
    name: 'index-of-previous-run-without-active-turns',
    desc: 'a dispatch index left by a previous run that lists only a finished turn: its run_id is not compared',
    codes: [],
    mutate: (p) => (p.files[INDEX] = { run_id: 'run_0000000000000old', phase: 'qa', active_turns: { [PARENT]: { turn_id: PARENT, role: 'pm' } } }),
  },
  { name: 'staged-run-id-foreign', desc: 'the staged result belongs to another run', codes: ['runner.run_id_mismatch'], mutate: (p) => (staged(p).run_id = 'run_0000000000000000') },
  { name: 'assignment-run-id-foreign', desc: 'ASSIGNMENT.json belongs to another run', codes: ['runner.run_id_mismatch'], mutate: (p) => (assignment(p).run_id = 'run_0000000000000000') },

  // runner.role_mismatch
  {
    name: 'state-role-field-legacy',
    desc: 'the active turn names its role with "role" instead of "assigned_role" (older state files): matched all the same',
    codes: [],
    mutate: (p) => {
      const turn = p.state.active_turns[TURN];
      turn.role = turn.assigned_role;
      delete turn.assigned_role;
    },
  },
  { name: 'staged-role-mismatch', desc: 'the staged result is written as role "pm" for a turn assigned to dev', codes: ['runner.role_mismatch'], mutate: (p) => (staged(p).role = 'pm') },
  { name: 'index-role-mismatch', desc: 'the dispatch index entry of the dev turn says role "qa"', codes: ['runner.role_mismatch'], mutate: (p) => (index(p).active_turns[TURN].role = 'qa') },

  // runner.delegation_id_duplicate
  {
    name: 'staged-distinct-delegation-ids',
    desc: 'the staged result issues del-001 and del-002',
    codes: [],
    mutate: (p) => (staged(p).delegations = [delegation('del-001', 'Layout'), delegation('del-002', 'Retry policy')]),
  },
  {
    name: 'staged-duplicate-delegation-ids',
    desc: 'the staged result issues del-001 twice (second delegation renamed)',
    codes: ['runner.delegation_id_duplicate'],
    mutate: (p) => (staged(p).delegations = [delegation('del-001', 'Layout'), delegation('del-001', 'Retry policy')]),
  },

  // References (docs/agentxchain.md §12): each id or path that names another thing resolves.
  // state.active_turns: the turn's own ids, role, runtime and the turns it names
  { name: 'active-turn-id-mismatch', desc: 'state.active_turns[<dev turn>].turn_id names another turn than its key', codes: ['runner.turn_id_mismatch'], mutate: (p) => (activeTurn(p).turn_id = 'turn_0123456789abcdef') },
  { name: 'active-run-id-foreign', desc: 'the active dev turn records another run_id than state.run_id', codes: ['runner.run_id_mismatch'], mutate: (p) => (activeTurn(p).run_id = 'run_0000000000000000') },
  {
    name: 'active-role-undefined',
    desc: 'the dev turn\'s role is "architect" everywhere (state, index, assignment, staged result), a role config.roles does not define',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => everywhere(p, 'role', 'architect'),
  },
  {
    name: 'active-runtime-undefined',
    desc: 'the dev turn\'s runtime is "manual-ghost" everywhere, a runtime config.runtimes does not define',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => everywhere(p, 'runtime_id', 'manual-ghost'),
  },
  { name: 'active-concurrent-with-accepted', desc: 'concurrent_with names the pm turn, accepted since (in history.jsonl): resolves', codes: [], mutate: (p) => (activeTurn(p).concurrent_with = [PARENT]) },
  { name: 'active-concurrent-with-unknown', desc: 'concurrent_with names a turn that is not active, retained or in history.jsonl', codes: ['runner.reference_unresolved'], mutate: (p) => (activeTurn(p).concurrent_with = [UNKNOWN]) },
  {
    name: 'active-concurrent-with-unknown-export-truncated',
    desc: 'concurrent_with names an unknown turn, but summary.export_files_truncated says files were left out: cannot be told, no finding',
    codes: [],
    filesTruncated: true,
    mutate: (p) => (activeTurn(p).concurrent_with = [UNKNOWN]),
  },
  {
    name: 'active-reissued-from-history',
    desc: 'the dev turn was reissued from a turn history.jsonl records as "reissued": resolves',
    codes: [],
    mutate: (p) => {
      history(p).push({ turn_id: 'turn_01d0000000000001', run_id: RUN, role: 'dev', status: 'reissued', summary: 'Turn reissued: config rebinding' });
      activeTurn(p).reissued_from = 'turn_01d0000000000001';
    },
  },
  { name: 'active-reissued-from-unknown', desc: 'reissued_from names a turn history.jsonl does not hold', codes: ['runner.reference_unresolved'], mutate: (p) => (activeTurn(p).reissued_from = UNKNOWN) },
  {
    name: 'active-retry-last-rejection',
    desc: 'attempt 2 of the dev turn, whose last_rejection is attempt 1 of the same turn (as inflight-retry)',
    codes: [],
    mutate: (p) => {
      activeTurn(p).attempt = 2;
      activeTurn(p).last_rejection = { turn_id: TURN, attempt: 1, rejected_at: '2026-11-22T00:00:00.000Z', reason: 'files_changed mismatch', failed_stage: 'artifact' };
    },
  },
  {
    name: 'active-last-rejection-other-turn',
    desc: 'last_rejection of the dev turn is for another turn',
    codes: ['runner.turn_id_mismatch'],
    mutate: (p) => (activeTurn(p).last_rejection = { turn_id: 'turn_0123456789abcdef', attempt: 1, reason: 'x', failed_stage: 'artifact' }),
  },
  // state.active_turns: delegation context (a delegated child) and delegation review
  { name: 'active-delegated-child', desc: 'the dev turn fulfils del-001 of the accepted pm turn: queued for it, parent in history.jsonl, assignment agrees', codes: [], mutate: (p) => delegatedChild(p) },
  {
    name: 'active-delegation-not-queued',
    desc: 'delegated child whose state.delegation_queue entry for del-001 is not assigned to it (child_turn_id null)',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => {
      delegatedChild(p);
      p.state.delegation_queue[0].child_turn_id = null;
    },
  },
  {
    name: 'active-delegation-parent-unknown',
    desc: 'delegated child whose delegation_context.parent_turn_id (state and assignment) names a turn history.jsonl does not hold',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => {
      delegatedChild(p).parent_turn_id = UNKNOWN;
      assignment(p).delegation_context.parent_turn_id = UNKNOWN;
    },
  },
  {
    name: 'active-delegation-parent-role-mismatch',
    desc: 'delegated child whose delegation_context.parent_role is "qa", but history.jsonl records the parent turn as pm',
    codes: ['runner.role_mismatch'],
    mutate: (p) => (delegatedChild(p).parent_role = 'qa'),
  },
  { name: 'active-delegation-review', desc: 'the pm turn in flight reviews del-001, done by an accepted dev turn: parent, delegation and child resolve', codes: [], mutate: (p) => reviewing(p) },
  {
    name: 'active-review-parent-unknown',
    desc: 'delegation_review.parent_turn_id names a turn history.jsonl does not hold',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (reviewing(p).parent_turn_id = UNKNOWN),
  },
  {
    name: 'active-review-delegation-not-issued',
    desc: 'delegation_review.results[0].delegation_id is del-009, which the parent turn did not issue',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (reviewing(p).results[0].delegation_id = 'del-009'),
  },
  {
    name: 'active-review-child-unknown',
    desc: 'delegation_review.results[0].child_turn_id names a turn of no kind',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (reviewing(p).results[0].child_turn_id = UNKNOWN),
  },

  // staged results
  { name: 'staged-runtime-mismatch', desc: 'the staged result names runtime manual-pm, the active dev turn runs on manual-dev', codes: ['runner.reference_unresolved'], mutate: (p) => (staged(p).runtime_id = 'manual-pm') },
  {
    name: 'staged-delegation-to-undefined-role',
    desc: 'the staged result delegates to role "architect", which config.roles does not define',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (staged(p).delegations = [{ ...delegation('del-001', 'Layout'), to_role: 'architect' }]),
  },
  {
    name: 'staged-objection-against-unknown-turn',
    desc: 'a staged objection is against_turn_id of a turn that is not active, retained or in history.jsonl',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (staged(p).objections[0].against_turn_id = UNKNOWN),
  },

  // dispatch index
  { name: 'index-runtime-mismatch', desc: 'the index entry of the dev turn names runtime manual-pm', codes: ['runner.reference_unresolved'], mutate: (p) => (index(p).active_turns[TURN].runtime_id = 'manual-pm') },
  {
    name: 'index-bundle-path-other-turn',
    desc: 'the index entry of the dev turn has bundle_path of another turn\'s bundle',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (index(p).active_turns[TURN].bundle_path = `.agentxchain/dispatch/turns/${UNKNOWN}`),
  },
  {
    name: 'index-staging-path-other-turn',
    desc: 'the index entry of the dev turn has staging_result_path of another turn',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (index(p).active_turns[TURN].staging_result_path = `.agentxchain/staging/${UNKNOWN}/turn-result.json`),
  },
  {
    name: 'bundle-not-in-index',
    desc: 'the dispatch index of this run lists no turn, yet the active dev turn has a bundle (the runner rewrites the index with every bundle)',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (index(p).active_turns = {}),
  },

  // ASSIGNMENT.json
  { name: 'assignment-runtime-mismatch', desc: 'ASSIGNMENT.json names runtime manual-pm, the active dev turn runs on manual-dev', codes: ['runner.reference_unresolved'], mutate: (p) => (assignment(p).runtime_id = 'manual-pm') },
  {
    name: 'assignment-staging-path-other-turn',
    desc: 'ASSIGNMENT.json tells the agent to stage its result under another turn',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (assignment(p).staging_result_path = `.agentxchain/staging/${UNKNOWN}/turn-result.json`),
  },
  {
    name: 'assignment-delegation-other',
    desc: 'delegated child whose ASSIGNMENT.json delegation_context names del-002, while state.active_turns gives it del-001',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => {
      delegatedChild(p);
      assignment(p).delegation_context.delegation_id = 'del-002';
    },
  },
  {
    name: 'assignment-sibling-accepted',
    desc: 'ASSIGNMENT.json active_siblings names the pm turn, accepted since: resolves',
    codes: [],
    mutate: (p) => (assignment(p).active_siblings = [{ turn_id: PARENT, role: 'pm', status: 'running', assigned_sequence: 1 }]),
  },
  {
    name: 'assignment-sibling-unknown',
    desc: 'ASSIGNMENT.json active_siblings names a turn that is not active, retained or in history.jsonl',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (assignment(p).active_siblings = [{ turn_id: UNKNOWN, role: 'pm', status: 'running', assigned_sequence: 1 }]),
  },
  {
    name: 'assignment-next-role-undefined',
    desc: 'ASSIGNMENT.json allowed_next_roles names "architect" (next to "human", which is allowed)',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => (assignment(p).allowed_next_roles = ['pm', 'architect', 'human']),
  },

  // MANIFEST.json of a finalised bundle
  { name: 'bundle-with-manifest', desc: 'the bundle is finalised: MANIFEST.json names the turn, run and role and lists ASSIGNMENT.json and PROMPT.md', codes: [], mutate: (p) => withManifest(p) },
  {
    name: 'manifest-lists-missing-file',
    desc: 'MANIFEST.json lists CONTEXT.md, which the exported bundle does not hold',
    codes: ['runner.reference_unresolved'],
    mutate: (p) => withManifest(p).files.push({ path: 'CONTEXT.md', size: 1, sha256: '0'.repeat(64) }),
  },
  {
    name: 'manifest-lists-missing-file-export-truncated',
    desc: 'MANIFEST.json lists CONTEXT.md, absent, but summary.export_files_truncated says files were left out: no finding',
    codes: [],
    filesTruncated: true,
    mutate: (p) => withManifest(p).files.push({ path: 'CONTEXT.md', size: 1, sha256: '0'.repeat(64) }),
  },
  { name: 'manifest-turn-id-mismatch', desc: 'MANIFEST.json in the dev turn\'s bundle claims another turn_id', codes: ['runner.turn_id_mismatch'], mutate: (p) => (withManifest(p).turn_id = 'turn_0123456789abcdef') },
  { name: 'manifest-run-id-foreign', desc: 'MANIFEST.json belongs to another run', codes: ['runner.run_id_mismatch'], mutate: (p) => (withManifest(p).run_id = 'run_0000000000000000') },
  { name: 'manifest-role-mismatch', desc: 'MANIFEST.json says role "qa" for the dev turn', codes: ['runner.role_mismatch'], mutate: (p) => (withManifest(p).role = 'qa') },
];

for (const name of readdirSync(HERE)) if (name.endsWith('.json')) rmSync(join(HERE, name));
for (const vector of VECTORS) {
  const parts = base();
  vector.mutate?.(parts);
  parts.files['.agentxchain/state.json'] = parts.state;
  parts.files['agentxchain.json'] = parts.config;
  const artifact = exportOf(parts.config, parts.state, parts.files, vector.filesTruncated);
  const body = { desc: vector.desc, codes: [...vector.codes].sort(), compat_overall: 'pass', artifact };
  writeFileSync(join(HERE, `${vector.name}.json`), `${JSON.stringify(body, null, 1)}\n`);
}
console.log(`wrote ${VECTORS.length} vectors to ${HERE}`);
