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

/** The in-flight base: pm accepted (history), dev dispatched and staged. */
function base(): { config: Json; state: Json; files: Record<string, unknown> } {
  const config = {
    schema_version: '1.0',
    project: { id: 'vector-demo', name: 'Vector demo' },
    roles: {
      pm: { title: 'PM', write_authority: 'review_only', runtime: 'manual-pm', decision_authority: 60 },
      dev: { title: 'Dev', write_authority: 'authoritative', runtime: 'manual-dev', decision_authority: 70 },
    },
  };
  const state = {
    schema_version: '1.1',
    run_id: RUN,
    status: 'active',
    phase: 'implementation',
    active_turns: {
      [TURN]: { turn_id: TURN, run_id: RUN, assigned_role: 'dev', status: 'dispatched', attempt: 1, runtime_id: 'manual-dev' },
    },
    retained_turns: {},
  };
  const history = [{ turn_id: PARENT, run_id: RUN, role: 'pm', status: 'completed', summary: 'Planned the work.' }];
  const assignment = {
    run_id: RUN,
    turn_id: TURN,
    phase: 'implementation',
    role: 'dev',
    runtime_id: 'manual-dev',
    staging_result_path: `.agentxchain/staging/${TURN}/turn-result.json`,
    attempt: 1,
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
    objections: [{ id: 'OBJ-001', severity: 'low', statement: 'Naming could be clearer.', status: 'raised' }],
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

/** The export around `files`, with the summary the reference recomputes (so it passes). */
function exportOf(config: Json, state: Json, files: Record<string, unknown>): Json {
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
      delegation_summary: null,
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
}

const STAGED = `.agentxchain/staging/${TURN}/turn-result.json`;
const ASSIGNMENT = `.agentxchain/dispatch/turns/${TURN}/ASSIGNMENT.json`;
const INDEX = '.agentxchain/dispatch/index.json';
const staged = (p: ReturnType<typeof base>): Json => p.files[STAGED] as Json;
const assignment = (p: ReturnType<typeof base>): Json => p.files[ASSIGNMENT] as Json;
const index = (p: ReturnType<typeof base>): Json => p.files[INDEX] as Json;
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
];

for (const name of readdirSync(HERE)) if (name.endsWith('.json')) rmSync(join(HERE, name));
for (const vector of VECTORS) {
  const parts = base();
  vector.mutate?.(parts);
  parts.files['.agentxchain/state.json'] = parts.state;
  parts.files['agentxchain.json'] = parts.config;
  const artifact = exportOf(parts.config, parts.state, parts.files);
  const body = { desc: vector.desc, codes: [...vector.codes].sort(), compat_overall: 'pass', artifact };
  writeFileSync(join(HERE, `${vector.name}.json`), `${JSON.stringify(body, null, 1)}\n`);
}
console.log(`wrote ${VECTORS.length} vectors to ${HERE}`);
