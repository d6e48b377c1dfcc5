// Differential conformance with `agentxchain verify export --format json` (CLI 2.159.0): every case of
// test/fixtures/agentxchain/manifest.json through the real CLI and through the core API.
// `expected` is what the reference printed (input normalised to the basename); `expected: null`
// means the reference crashed, where we must report a documented failure instead
// (docs/agentxchain.md §9).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { toAgentxchainJson, verifyAgentxchain } from '../../src/formats/agentxchain/index.ts';
import { runCli } from '../helpers/cli.ts';
import { fixturePath, loadCases, PROJECT_ROOT } from '../helpers/fixtures.ts';
import { nodeSha256 } from '../../bin/node-sha256.ts';
import { loadStringSkipper } from '../../wasm/string-skip.ts';
import type { Report } from '../../src/report.ts';

interface Case {
  readonly file: string;
  readonly kind: string;
  readonly description: string;
  readonly expected: Record<string, unknown> | null;
  readonly exit_code: number;
}

const cases = loadCases<Case>('agentxchain', (manifest) => (manifest as { cases: Case[] }).cases);
const EXIT = { pass: 0, fail: 1, error: 2 } as const;

/**
 * The failure each reference crash must become (docs/agentxchain.md §9): the finding that explains
 * it.
 * Every `expected: null` case must be listed here, so a new crash case cannot pass unexamined.
 */
const CRASH_FINDINGS: Record<string, { code: string; compat: RegExp }> = {
  'top-files-missing.json': {
    code: 'agentxchain.field_invalid',
    compat: /^files: must be an object keyed by relative path$/,
  },
  'au-files-string.json': {
    code: 'agentxchain.field_invalid',
    compat: /^files: must be an object keyed by relative path$/,
  },
  'rd-missing.json': {
    code: 'agentxchain.summary_mismatch',
    compat: /^summary\.repo_decisions: is missing but repo-decisions\.jsonl contains entries$/,
  },
  'au-crash-history-null.json': {
    code: 'agentxchain.unprocessable_value',
    compat:
      /^files\.\.agentxchain\/history\.jsonl\.data\[0\]: is null, so summary\.delegation_summary cannot be reconstructed$/,
  },
  'au-crash-del-results-null-2.json': {
    code: 'agentxchain.unprocessable_value',
    compat: /delegation_review\.results\[\d+\]: is null, so summary\.delegation_summary cannot be reconstructed$/,
  },
  'au-crash-rd-null-element.json': {
    code: 'agentxchain.unprocessable_value',
    compat:
      /^files\.\.agentxchain\/repo-decisions\.jsonl\.data\[\d+\]: is null, so summary\.repo_decisions cannot be reconstructed$/,
  },
  'au-crash-tostring-kind.json': {
    code: 'agentxchain.export_kind_invalid',
    compat: /^export_kind: unsupported export kind \(an object with its own "toString" key\)$/,
  },
};

/** The reference's normalisation: `input` (and the path inside `message`) replaced by the basename. */
function normalise(output: Record<string, unknown>): Record<string, unknown> {
  const input = output['input'];
  if (typeof input !== 'string') return output;
  const normalised: Record<string, unknown> = { ...output, input: basename(input) };
  if (typeof output['message'] === 'string')
    normalised['message'] = output['message'].split(input).join(basename(input));
  return normalised;
}

/** Equal values and equal key order (the reference's output compared as printed). */
function assertSameOutput(actual: Record<string, unknown>, expected: Record<string, unknown>, label: string): void {
  assert.deepStrictEqual(actual, expected, label);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), `${label}: key order`);
}

function assertDocumentedCrashFailure(c: Case, report: Report): void {
  const documented = CRASH_FINDINGS[c.file];
  assert.ok(documented, `${c.file}: a reference crash case without a documented failure in this test`);
  assert.equal(report.overall, 'fail', `${c.file}: overall`);
  const finding = report.findings.find(
    (f) => f.code === documented.code && f.compat !== undefined && documented.compat.test(f.compat),
  );
  assert.ok(
    finding,
    `${c.file}: expected a ${documented.code} finding matching ${documented.compat}, got ${JSON.stringify(report.findings.map((f) => f.compat ?? f.code))}`,
  );
  assert.equal(finding.severity, 'error');
}

test('the manifest holds the 136 agentxchain cases, and every reference crash is documented here', () => {
  assert.equal(cases.length, 136);
  const crashes = cases
    .filter((c) => c.expected === null)
    .map((c) => c.file)
    .sort();
  assert.deepEqual(crashes, Object.keys(CRASH_FINDINGS).sort());
});

test('core API: every case gives the reference report (or the documented failure), with and without the SIMD string skip', async () => {
  const stringSkipper = await loadStringSkipper();
  assert.ok(stringSkipper, 'Node compiles the WebAssembly SIMD string skip');
  for (const c of cases)
    for (const skipper of [{}, { stringSkipper }]) {
      const bytes = new Uint8Array(readFileSync(fixturePath('agentxchain', c.file)));
      const report = await verifyAgentxchain(bytes, { name: c.file, sha256: nodeSha256, ...skipper });
      const compat = toAgentxchainJson(report);
      if (c.expected === null) {
        assertDocumentedCrashFailure(c, report);
        assert.equal(compat.overall, 'fail', `${c.file}: compat overall`);
        continue;
      }
      assertSameOutput(compat as unknown as Record<string, unknown>, c.expected, c.file);
      assert.equal(EXIT[compat.overall], c.exit_code, `${c.file}: exit code`);
      // The unified report agrees with the compat view.
      assert.equal(report.overall, c.expected['overall'], `${c.file}: report.overall`);
    }
});

test('CLI: `--compat agentxchain --format json <file>` prints the reference report with its exit code', () => {
  for (const c of cases) {
    const path = fixturePath('agentxchain', c.file);
    const result = runCli(['--compat', 'agentxchain', '--format', 'json', path]);
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(output['input'], path, `${c.file}: input is the resolved path`);
    if (c.expected === null) {
      assert.equal(output['overall'], 'fail', `${c.file}: documented failure, not a crash`);
      assert.ok(Array.isArray(output['errors']) && output['errors'].length > 0, `${c.file}: the failure is listed`);
      assert.equal(result.status, 1, `${c.file}: exit code`);
      continue;
    }
    assertSameOutput(normalise(output), c.expected, c.file);
    assert.equal(result.status, c.exit_code, `${c.file}: exit code`);
  }
});

test('CLI: a relative path is resolved against the working directory', () => {
  const cwd = resolve(PROJECT_ROOT, 'src');
  const result = runCli(
    ['--compat', 'agentxchain', '--format', 'json', '../test/fixtures/agentxchain/real-fresh.json'],
    { cwd },
  );
  assert.equal(result.status, 0);
  assert.equal(JSON.parse(result.stdout).input, resolve(cwd, '../test/fixtures/agentxchain/real-fresh.json'));
});

test('CLI: stdin (-) is read whole and reported as input "stdin"', () => {
  const pass = cases.find((c) => c.file === 'real-full.json')!;
  const fail = cases.find((c) => c.file === 'nest-child-double.json')!;
  for (const c of [pass, fail]) {
    const result = runCli(['--compat', 'agentxchain', '--format', 'json', '-'], {
      input: readFileSync(fixturePath('agentxchain', c.file)),
    });
    assertSameOutput(JSON.parse(result.stdout), { ...c.expected, input: 'stdin' }, `${c.file} on stdin`);
    assert.equal(result.status, c.exit_code);
  }
  const empty = runCli(['--compat', 'agentxchain', '--format', 'json', '-'], { input: '' });
  assertSameOutput(
    JSON.parse(empty.stdout),
    { overall: 'error', input: 'stdin', message: 'Invalid JSON export artifact: Unexpected end of JSON input' },
    'empty stdin',
  );
  assert.equal(empty.status, 2);
});

test("CLI: a missing file is a command error with Node's ENOENT message, exit 2", () => {
  const missing = resolve(PROJECT_ROOT, 'no-such-export.json');
  const result = runCli(['--compat', 'agentxchain', '--format', 'json', missing]);
  assertSameOutput(
    JSON.parse(result.stdout),
    { overall: 'error', input: missing, message: `ENOENT: no such file or directory, open '${missing}'` },
    'missing file',
  );
  assert.equal(result.status, 2);
});

test('CLI: text output starts with the verdict line and lists findings by path', () => {
  const failing = runCli(['--compat', 'agentxchain', fixturePath('agentxchain', 'file-sha-flip.json')]);
  assert.equal(failing.status, 1);
  const lines = failing.stdout.split('\n');
  assert.match(lines[0]!, /^FAIL/);
  assert.ok(
    lines.some((line) => line.includes('$.files[".planning/ROADMAP.md"].sha256')),
    failing.stdout,
  );
  assert.ok(failing.stdout.includes('sha256 does not match content_base64'));
  const passing = runCli([fixturePath('agentxchain', 'real-full.json')]);
  assert.equal(passing.status, 0);
  assert.match(passing.stdout.split('\n')[0]!, /^PASS/);
  assert.ok(passing.stdout.includes('kit.unsigned_format'), 'the unsigned-format note is shown');
});
