// Differential conformance with `agentxchain diff --export <left> <right> [--json]` (CLI 2.159.0):
// every pair of test/fixtures/agentxchain/diff/manifest.json through the core API and through the
// real CLI (`verify-export diff --compat agentxchain`), json and text. The fixtures replaced the
// inputs' absolute paths by their basenames; so do we. Then the corrected mode, and hostile input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  agentxchainDiffText,
  diffAgentxchain,
  diffAgentxchainArtifacts,
  type AgentxchainDiffResult,
  type AgentxchainExportDiff,
} from '../../src/formats/agentxchain/diff/index.ts';
import { runCli } from '../helpers/cli.ts';
import { fixturePath, loadCases } from '../helpers/fixtures.ts';

interface DiffCase {
  readonly id: string;
  readonly left: string;
  readonly right: string;
  readonly description: string;
  readonly exit_code: number;
  readonly json: Record<string, unknown> | null;
  readonly stderr?: string;
  readonly text_file: string;
  readonly text_exit_code: number;
  readonly text_stream: 'stdout' | 'stderr';
}

const DIFF_DIR = fixturePath('agentxchain', 'diff');
const cases = loadCases<DiffCase>('agentxchain/diff', (manifest) => (manifest as { cases: DiffCase[] }).cases);
/** The one case whose right input is deliberately missing (the CLI's "not found"; the core takes bytes). */
const MISSING = 'no-such-export.json';

function inputOf(relative: string): Uint8Array | null {
  const path = resolve(DIFF_DIR, relative);
  return existsSync(path) ? new Uint8Array(readFileSync(path)) : null;
}

function textOf(c: DiffCase): string {
  return readFileSync(join(DIFF_DIR, c.text_file), 'utf8');
}

/** The diff or the refusal message; fails the test on the other. */
function diffOf(result: AgentxchainDiffResult, label: string): AgentxchainExportDiff {
  if (!result.ok) assert.fail(`${label}: refused: ${result.refusal.message}`);
  return result.diff;
}

async function referenceDiff(
  c: DiffCase,
  mode: 'reference' | 'corrected' = 'reference',
): Promise<AgentxchainDiffResult> {
  const left = inputOf(c.left);
  const right = inputOf(c.right);
  assert.ok(left && right, `${c.id}: inputs present`);
  return diffAgentxchain(left, right, { leftName: basename(c.left), rightName: basename(c.right), mode });
}

test('the manifest has the 34 recorded pairs, one of them with a missing right file', () => {
  assert.equal(cases.length, 34);
  assert.deepEqual(
    cases.filter((c) => inputOf(c.left) === null || inputOf(c.right) === null).map((c) => c.right),
    [MISSING],
  );
});

for (const c of cases) {
  if (c.right === MISSING) continue;
  test(`core: ${c.id} (${c.description})`, async () => {
    const result = await referenceDiff(c);
    if (c.json === null) {
      assert.equal(result.ok, false, 'refused');
      if (result.ok) return;
      assert.equal(`${result.refusal.message}\n`, c.stderr);
      assert.equal(textOf(c), c.stderr, 'the text mode refuses with the same line');
      return;
    }
    const diff = diffOf(result, c.id);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(diff)), c.json);
    assert.equal(JSON.stringify(diff, null, 2), JSON.stringify(c.json, null, 2), 'bytes and key order');
    assert.equal(c.text_stream, 'stdout');
    assert.equal(agentxchainDiffText(diff), textOf(c));
  });
}

/** Runs the CLI in the diff fixture folder and replaces the inputs' absolute paths by their basenames. */
function cliRun(c: DiffCase, flags: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = runCli(['diff', ...flags, c.left, c.right], { cwd: DIFF_DIR });
  const toBasenames = (text: string): string =>
    [c.left, c.right].reduce((out, ref) => out.split(resolve(DIFF_DIR, ref)).join(basename(ref)), text);
  return { status: result.status, stdout: toBasenames(result.stdout), stderr: toBasenames(result.stderr) };
}

for (const c of cases) {
  test(`CLI --compat agentxchain: ${c.id}`, () => {
    const json = cliRun(c, ['--compat', 'agentxchain', '--format', 'json']);
    assert.equal(json.status, c.exit_code, `json exit code (stderr: ${json.stderr})`);
    if (c.json === null) {
      assert.equal(json.stdout, '');
      assert.equal(json.stderr, c.stderr);
    } else {
      assert.equal(json.stderr, '');
      assert.deepStrictEqual(JSON.parse(json.stdout), c.json);
      assert.equal(json.stdout, `${JSON.stringify(c.json, null, 2)}\n`);
    }
    const text = cliRun(c, ['--compat', 'agentxchain']);
    assert.equal(text.status, c.text_exit_code, 'text exit code');
    const [expectedStream, otherStream] = c.text_stream === 'stdout' ? ['stdout', 'stderr'] : ['stderr', 'stdout'];
    assert.equal(text[expectedStream as 'stdout'], textOf(c));
    assert.equal(text[otherStream as 'stdout'], '');
  });
}

test('corrected mode: the same diff, and regressions are never summarised away', async () => {
  let hidden = 0;
  for (const c of cases) {
    if (c.right === MISSING) continue;
    const reference = await referenceDiff(c);
    const corrected = await referenceDiff(c, 'corrected');
    assert.equal(corrected.ok, reference.ok, c.id);
    if (!reference.ok || !corrected.ok) continue;
    const { summary: referenceSummary, ...referenceRest } = reference.diff;
    const { summary, ...rest } = corrected.diff;
    // Coordinators word the status regression as theirs; nothing else differs outside the summary.
    const reworded = JSON.parse(
      JSON.stringify(rest).replaceAll('"Coordinator status regressed from', '"Run status regressed from'),
    ) as unknown;
    assert.deepStrictEqual(reworded, JSON.parse(JSON.stringify(referenceRest)), c.id);
    assert.equal(summary.outcome === 'regressed', corrected.diff.has_regressions, `${c.id}: outcome`);
    if (referenceSummary.outcome === 'unchanged' && corrected.diff.has_regressions) {
      hidden++;
      assert.deepEqual(
        summary.highlights,
        corrected.diff.regressions.slice(0, 3).map((r) => `${r.id}: ${r.message}`),
      );
      const text = agentxchainDiffText(corrected.diff);
      assert.match(text, /\nNo differences in the compared fields\.\n\nGovernance Regressions:\n\[/);
      assert.doesNotMatch(agentxchainDiffText(reference.diff), /Governance Regressions/);
    } else if (reference.diff.subject_kind === 'run') {
      assert.deepStrictEqual(summary, referenceSummary, c.id);
    }
  }
  assert.equal(hidden, 2, 'gate-regressed-only and phase-order-drift hide their regressions in the reference');
});

test('CLI without --compat: corrected output, exit 1 on regressions, 2 on refusals', () => {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const gateOnly = cliRun(byId.get('gate-regressed-only')!, []);
  assert.equal(gateOnly.status, 1);
  assert.match(gateOnly.stdout, /- Outcome: regressed\n/);
  assert.match(
    gateOnly.stdout,
    /\[error\] REG-GATE-001: Gate "implementation_complete" regressed from passed to failed/,
  );
  const same = cliRun(byId.get('same-run-twice')!, ['--json']);
  assert.equal(same.status, 0);
  assert.equal((JSON.parse(same.stdout) as { summary: { outcome: string } }).summary.outcome, 'unchanged');
  const coordinator = cliRun(byId.get('coord-child-blocked')!, ['--format', 'json']);
  assert.equal(coordinator.status, 1);
  assert.equal((JSON.parse(coordinator.stdout) as { has_regressions: boolean }).has_regressions, true);
  for (const id of ['run-vs-coordinator', 'right-missing-file', 'left-not-json']) {
    const c = byId.get(id)!;
    const refused = cliRun(c, []);
    assert.equal(refused.status, 2, id);
    assert.equal(refused.stdout, '');
    assert.equal(refused.stderr, `verify-export diff: ${c.stderr!}`);
  }
  const usage = runCli(['diff', '--format', 'xml', 'a.json', 'b.json']);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /--format must be text or json/);
});

test('CLI reads gzip exports', () => {
  const c = cases.find((entry) => entry.id === 'prog-completed-to-implementation')!;
  const tmp = mkdtempSync(join(tmpdir(), 'verify-export-diff-'));
  const gz = join(tmp, 'left.json.gz');
  writeFileSync(gz, gzipSync(readFileSync(resolve(DIFF_DIR, c.left))));
  try {
    const result = runCli(['diff', '--compat', 'agentxchain', '--json', gz, resolve(DIFF_DIR, c.right)]);
    assert.equal(result.status, 0, result.stderr);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepStrictEqual({ ...parsed, left_ref: basename(c.left), right_ref: basename(c.right) }, c.json);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

// Hostile and edge input: built in code from a recorded export, each mutation named by the test.
const RUN = JSON.parse(readFileSync(fixturePath('agentxchain', 'extra/ra-prog-7-completed.json'), 'utf8')) as Record<
  string,
  Record<string, unknown>
>;
const COORDINATOR = JSON.parse(
  readFileSync(fixturePath('agentxchain', 'extra/ra-coord-2-both-turns.json'), 'utf8'),
) as Record<string, Record<string, unknown>>;

/**
 * A copy of `artifact` with members of `summary`, `state` or the top level replaced (values parsed
 * from JSON text, so `__proto__` is a key).
 */
function edited(
  artifact: Record<string, Record<string, unknown>>,
  edits: { summary?: string; state?: string; top?: string },
): unknown {
  const copy = JSON.parse(JSON.stringify(artifact)) as Record<string, Record<string, unknown>>;
  if (edits.summary) Object.assign(copy['summary']!, JSON.parse(edits.summary));
  if (edits.state) Object.assign(copy['state']!, JSON.parse(edits.state));
  if (edits.top) Object.assign(copy, JSON.parse(edits.top));
  return copy;
}

test('refusals carry the loader messages, in the reference order', () => {
  const cases: [unknown, unknown, string, string][] = [
    [[], RUN, 'not_an_object', 'Export file l.json must contain a JSON object.'],
    [
      edited(RUN, { top: '{"export_kind":"  "}' }),
      RUN,
      'missing_export_kind',
      'Export file l.json is missing export_kind.',
    ],
    [RUN, null, 'not_an_object', 'Export file r.json must contain a JSON object.'],
    [
      RUN,
      COORDINATOR,
      'kind_mismatch',
      'Export kinds do not match: agentxchain_run_export vs agentxchain_coordinator_export',
    ],
    [
      edited(RUN, { top: '{"export_kind":"x"}' }),
      edited(RUN, { top: '{"export_kind":"x"}' }),
      'unsupported_kind',
      'Unsupported export kind for diff: x',
    ],
  ];
  for (const [left, right, code, message] of cases) {
    const result = diffAgentxchainArtifacts(left, right, { leftName: 'l.json', rightName: 'r.json' });
    assert.equal(result.ok, false, message);
    if (!result.ok) assert.deepEqual([result.refusal.code, result.refusal.message], [code, message]);
  }
});

test('repo_decisions.active that is not an array: the reference crashes, corrected mode reads no ids', () => {
  const left = edited(RUN, { summary: '{"repo_decisions":{"active":"DEC-1","active_count":1}}' });
  const reference = diffAgentxchainArtifacts(left, RUN);
  assert.equal(reference.ok, false);
  if (!reference.ok) {
    assert.equal(reference.refusal.code, 'reference_crash');
    assert.equal(reference.refusal.side, 'left');
    assert.match(reference.refusal.message, /summary\.repo_decisions\.active/);
  }
  const corrected = diffOf(diffAgentxchainArtifacts(left, RUN, { mode: 'corrected' }), 'corrected');
  assert.equal(corrected.subject_kind, 'run');
  if (corrected.subject_kind === 'run') assert.deepEqual(corrected.left.active_repo_decision_ids, []);
});

test('a status JavaScript cannot print: the reference crashes, corrected mode describes it', () => {
  const left = edited(RUN, { summary: '{"status":{"toString":1}}' });
  const reference = diffAgentxchainArtifacts(left, RUN);
  assert.equal(reference.ok ? 'ok' : reference.refusal.code, 'reference_crash');
  const corrected = diffOf(diffAgentxchainArtifacts(left, RUN, { mode: 'corrected', leftName: 'l' }), 'corrected');
  assert.deepEqual(corrected.left.status, { toString: 1 });
  const text = agentxchainDiffText(corrected);
  assert.match(text, /^Left: {2}l \(run export, an object with its own "toString" key, run_bc42422b47463683\)$/m);
  assert.match(text, /^- Status: \{"toString":1\} -> completed$/m);
});

test('keys are plain data: __proto__ and integer-like keys print as JavaScript orders them, no prototype is touched', () => {
  const right = edited(RUN, {
    state: '{"phase_gate_status":{"b":"failed","__proto__":"failed","10":"x","2":"passed"}}',
  });
  const diff = diffOf(diffAgentxchainArtifacts(RUN, right), 'diff');
  const gates = (diff.right as { phase_gate_status: Record<string, string> }).phase_gate_status;
  assert.deepEqual(Object.keys(gates), ['2', '10', 'b', '__proto__']);
  assert.equal(Object.getPrototypeOf(gates), Object.prototype);
  assert.equal(({} as Record<string, unknown>)['b'], undefined, 'Object.prototype unchanged');
  assert.match(JSON.stringify(diff), /"__proto__":"failed"/);
});

test('a child repo named like an Object.prototype member: inherited in reference mode, absent in corrected mode', () => {
  const right = JSON.parse(JSON.stringify(COORDINATOR)) as Record<string, Record<string, unknown>>;
  right['repos'] = { ...right['repos'], toString: { ok: false } };
  const reference = diffOf(diffAgentxchainArtifacts(COORDINATOR, right), 'reference');
  const corrected = diffOf(diffAgentxchainArtifacts(COORDINATOR, right, { mode: 'corrected' }), 'corrected');
  assert.equal(reference.subject_kind, 'coordinator');
  assert.equal(corrected.subject_kind, 'coordinator');
  if (reference.subject_kind !== 'coordinator' || corrected.subject_kind !== 'coordinator') return;
  const inherited = reference.repo_export_changes.find((entry) => entry.key === 'toString')!;
  assert.equal('left' in JSON.parse(JSON.stringify(inherited)), false, 'a function is dropped from the JSON');
  assert.match(agentxchainDiffText(reference), /^- toString: function toString\(\) \{ \[native code\] \} -> no$/m);
  const own = corrected.repo_export_changes.find((entry) => entry.key === 'toString')!;
  assert.equal(own.left, null);
  assert.match(agentxchainDiffText(corrected), /^- toString: — -> no$/m);
});

test('values nested deeper than limits.maxJsonDepth are refused, not stringified', () => {
  const deep = `${'['.repeat(50)}${']'.repeat(50)}`;
  const left = edited(RUN, { summary: `{"workflow_phase_order":${deep}}` });
  for (const mode of ['reference', 'corrected'] as const) {
    const result = diffAgentxchainArtifacts(left, RUN, { mode, limits: { maxJsonDepth: 20 } });
    assert.equal(result.ok ? 'ok' : result.refusal.code, 'too_deep', mode);
  }
  assert.equal(diffAgentxchainArtifacts(left, RUN).ok, true, 'within the default depth');
});

test('limits, aborts and API misuse', async () => {
  const bytes = new TextEncoder().encode(JSON.stringify(RUN));
  const small = await diffAgentxchain(bytes, bytes, { leftName: 'l.json', limits: { maxBufferedBytes: 1000 } });
  assert.equal(small.ok, false);
  if (!small.ok) {
    assert.equal(small.refusal.code, 'read_failed');
    assert.match(small.refusal.message, /^Failed to parse export file l\.json: .*maxBufferedBytes/);
  }
  const aborted = await diffAgentxchain(bytes, bytes, { signal: AbortSignal.abort() });
  assert.equal(aborted.ok ? 'ok' : aborted.refusal.code, 'read_failed');
  await assert.rejects(diffAgentxchain(42 as unknown as Uint8Array, bytes), TypeError);
  assert.throws(() => diffAgentxchainArtifacts(RUN, RUN, { mode: 'strict' as 'corrected' }), TypeError);
  const notJson = await diffAgentxchain('{"a":', bytes, { leftName: 'l.json' });
  assert.equal(
    notJson.ok ? '' : notJson.refusal.message,
    `Failed to parse export file l.json: ${jsonParseMessage('{"a":')}`,
  );
});

test('inputs of every kind give the same diff: bytes, text, gzip, Blob, stream; parsed artifacts too', async () => {
  const text = JSON.stringify(RUN);
  const other = JSON.stringify(edited(RUN, { summary: '{"status":"blocked"}' }));
  const expected = JSON.stringify(diffOf(await diffAgentxchain(text, other), 'text'));
  const inputs = [
    [new TextEncoder().encode(text), new TextEncoder().encode(other)],
    [gzipSync(text), gzipSync(other)],
    [new Blob([text]), new Blob([other])],
    [new Response(text).body!, new Response(other).body!],
  ] as const;
  for (const [left, right] of inputs) {
    assert.equal(JSON.stringify(diffOf(await diffAgentxchain(left, right), 'input')), expected);
  }
  assert.equal(
    JSON.stringify(diffOf(diffAgentxchainArtifacts(JSON.parse(text), JSON.parse(other)), 'parsed')),
    expected,
  );
});

function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
