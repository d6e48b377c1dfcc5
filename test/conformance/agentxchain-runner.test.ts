// Runner-interface artifacts inside run exports (docs/agentxchain.md §12: staged turn results,
// dispatch bundles).
// The mutated vectors in test/vectors/agentxchain/ (made by generate.ts there) and the shared
// fixtures with a `runner` field: the kit reports exactly the expected runner.* warnings, and the
// --compat agentxchain output (the reference's verdict) never changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENTXCHAIN_CODES } from '../../src/formats/agentxchain/codes.ts';
import { toAgentxchainJson, verifyAgentxchain } from '../../src/formats/agentxchain/index.ts';
import { fixturePath, loadCases, PROJECT_ROOT } from '../helpers/fixtures.ts';
import type { Report } from '../../src/report.ts';

interface Vector {
  readonly name: string;
  readonly desc: string;
  readonly codes: string[];
  readonly compat_overall: string;
  readonly artifact: unknown;
}

const VECTOR_DIR = join(PROJECT_ROOT, 'test/vectors/agentxchain');
const vectors: Vector[] = readdirSync(VECTOR_DIR)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => ({
    name: name.replace(/\.json$/, ''),
    ...(JSON.parse(readFileSync(join(VECTOR_DIR, name), 'utf8')) as Omit<Vector, 'name'>),
  }));

const RUNNER_CODES = Object.keys(AGENTXCHAIN_CODES).filter((code) => code.startsWith('runner.'));

/** For each check, a vector that exercises it without tripping it (a near miss, not just the base). */
const PASSING_FOR: Record<string, string> = {
  'runner.turn_result_invalid': 'staged-prenormalization-values',
  'runner.dispatch_invalid': 'assignment-extra-keys',
  'runner.turn_not_active': 'index-lists-finished-turn',
  'runner.turn_id_mismatch': 'inflight-happy-path',
  'runner.run_id_mismatch': 'index-of-previous-run-without-active-turns',
  'runner.role_mismatch': 'state-role-field-legacy',
  'runner.delegation_id_duplicate': 'staged-distinct-delegation-ids',
  'runner.reference_unresolved': 'active-delegated-child',
};

function runnerCodes(report: Report): string[] {
  return report.findings
    .filter((f) => f.code.startsWith('runner.'))
    .map((f) => f.code)
    .sort();
}

async function verifyValue(value: unknown, strict = false): Promise<Report> {
  return verifyAgentxchain(new TextEncoder().encode(JSON.stringify(value)), { name: 'vector.json', strict });
}

test('the vector folder holds vectors, and every runner check has a failing and a passing vector', () => {
  assert.ok(vectors.length > 0, 'no vectors found');
  assert.ok(RUNNER_CODES.length >= 7);
  for (const code of RUNNER_CODES) {
    assert.ok(
      vectors.some((v) => v.codes.includes(code)),
      `no failing vector for ${code}`,
    );
    const passing = vectors.find((v) => v.name === PASSING_FOR[code]);
    assert.ok(passing, `no passing vector for ${code}`);
    assert.deepEqual(passing.codes, [], `${passing.name} must pass`);
  }
});

test('each vector: exactly its runner codes (warnings, no compat text), the reference verdict unchanged', async () => {
  for (const vector of vectors) {
    const report = await verifyValue(vector.artifact);
    const compat = toAgentxchainJson(report);
    assert.equal(compat.overall, vector.compat_overall, `${vector.name}: compat overall (${JSON.stringify(compat)})`);
    assert.deepEqual(
      runnerCodes(report),
      vector.codes,
      `${vector.name}: ${vector.desc}\n${JSON.stringify(report.findings, null, 1)}`,
    );
    for (const finding of report.findings.filter((f) => f.code.startsWith('runner.'))) {
      assert.equal(finding.severity, 'warning', vector.name);
      assert.equal(finding.compat, undefined, vector.name);
      assert.match(
        finding.path,
        /^\$\.(files\[".agentxchain\/(staging|dispatch)\/|state\.active_turns\.)/,
        vector.name,
      );
    }
    assert.equal(report.overall, 'pass', `${vector.name}: warnings never fail without strict`);
    // With strict the same findings are errors (the verdict fails); the compat output stays.
    const strict = await verifyValue(vector.artifact, true);
    const strictRunner = strict.findings.filter((f) => f.code.startsWith('runner.'));
    assert.deepEqual(strictRunner.map((f) => f.code).sort(), vector.codes, `${vector.name}: strict`);
    assert.ok(
      strictRunner.every((f) => f.severity === 'error'),
      `${vector.name}: strict severity`,
    );
    if (vector.codes.length > 0) assert.equal(strict.overall, 'fail', `${vector.name}: strict fails`);
    assert.deepEqual(toAgentxchainJson(strict), compat, `${vector.name}: strict never changes the compat output`);
  }
});

test("the README's table of checked references: each row's vector exists and fails on exactly its code", () => {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('| Where | Reference | Must resolve to | Vector |');
  assert.ok(start >= 0, 'the README has no table of checked references');
  const table = readme.slice(start, readme.indexOf('\n\n', start));
  const rows = [...table.matchAll(/^ *\| [^|\n]+ \| [^|\n]+ \| ([^|\n]+) \| `([a-z0-9-]+)` \|$/gm)];
  assert.ok(rows.length >= 29, `found ${rows.length} rows`);
  for (const [, mustResolve, name] of rows) {
    const vector = vectors.find((v) => v.name === name);
    assert.ok(vector, `README names vector ${name}, which does not exist`);
    const code = /\(`(runner\.[a-z_]+)`\)/.exec(mustResolve!)?.[1] ?? 'runner.reference_unresolved';
    assert.deepEqual(vector.codes, [code], `${name}: ${vector.desc}`);
  }
  assert.equal(new Set(rows.map((row) => row[2])).size, rows.length, 'one vector per reference');
});

interface RunnerCase {
  readonly file: string;
  readonly description: string;
  readonly expected: { overall: string } | null;
  readonly runner?: {
    active_turns: { turn_id: string; role: string }[];
    staged: string[];
    dispatched: string[];
    rejected?: string[];
  };
}

/** What each runner mutation of the shared fixtures must be caught as (named in its description). */
const FIXTURE_CODES: Record<string, string> = {
  'rn-staged-turn-id-mismatch.json': 'runner.turn_id_mismatch',
  'rn-staged-run-id-foreign.json': 'runner.run_id_mismatch',
  'rn-staged-orphan-no-active-turn.json': 'runner.turn_not_active',
  'rn-staged-duplicate-delegation-ids.json': 'runner.delegation_id_duplicate',
};

test('shared fixtures: real in-flight exports give no runner finding, each rn-* mutation is caught', async () => {
  const cases = loadCases<RunnerCase>('agentxchain', (m) => (m as { cases: RunnerCase[] }).cases).filter(
    (c) => c.runner !== undefined,
  );
  assert.ok(cases.length >= 8);
  assert.deepEqual(
    cases
      .filter((c) => c.file.startsWith('rn-'))
      .map((c) => c.file)
      .sort(),
    Object.keys(FIXTURE_CODES).sort(),
  );
  for (const c of cases) {
    const report = await verifyAgentxchain(readFileSync(fixturePath('agentxchain', c.file)), { name: c.file });
    assert.equal(toAgentxchainJson(report).overall, c.expected!.overall, `${c.file}: the reference verdict`);
    const codes = runnerCodes(report);
    if (c.file.startsWith('real-inflight-'))
      assert.deepEqual(codes, [], `${c.file}: ${JSON.stringify(report.findings)}`);
    else
      assert.ok(
        codes.includes(FIXTURE_CODES[c.file]!),
        `${c.file} (${c.description}): got ${codes.join(', ') || 'nothing'}`,
      );
    // details.runner mirrors what is in flight.
    const section = report.details.runner;
    assert.ok(section, `${c.file}: a runner section`);
    assert.deepEqual(
      section.active_turns.map((t) => [t.turn_id, t.role]),
      c.runner!.active_turns.map((t) => [t.turn_id, t.role]),
      c.file,
    );
    assert.deepEqual(section.staged.map((s) => s.turn_id).sort(), [...c.runner!.staged].sort(), c.file);
    assert.deepEqual([...section.dispatched].sort(), [...c.runner!.dispatched].sort(), c.file);
    assert.deepEqual(section.rejected, c.runner!.rejected ?? [], c.file);
  }
});

test('exports with nothing in flight have no runner section and no runner finding', async () => {
  for (const file of ['real-full.json', 'real-fresh.json', 'real-coord-broken.json', 'real-bounded.json']) {
    const report = await verifyAgentxchain(readFileSync(fixturePath('agentxchain', file)), { name: file });
    assert.equal(report.details.runner, undefined, file);
    assert.deepEqual(runnerCodes(report), [], file);
  }
});
