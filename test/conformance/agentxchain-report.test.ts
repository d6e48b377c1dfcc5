// Differential conformance with `agentxchain report --format json|markdown|text` (CLI 2.159.0): every
// case of test/fixtures/agentxchain/report/manifest.json through the core API (json deep-equal and
// byte-equal as printed, markdown and text byte-equal, exit code), a sample through the real CLI
// with `--compat agentxchain`, and the JavaScript semantics the report relies on
// (docs/agentxchain-report.md). `json: null` means the reference crashed: we print the fail report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  agentxchainReportExitCode,
  agentxchainReportMarkdown,
  agentxchainReportText,
  reportAgentxchain,
  type AgentxchainReport,
} from '../../src/formats/agentxchain/index.ts';
import {
  compareCodeUnits,
  compareEn,
  sortDefaultLocale,
  sortEn,
} from '../../src/formats/agentxchain/report/collation.ts';
import { dateTime, isValidTimestamp, parseDate } from '../../src/formats/agentxchain/report/date-parse.ts';
import { compactDuration, formatTokens, formatUsd } from '../../src/formats/agentxchain/report/number-format.ts';
import { parseNow } from '../../bin/commands/report.ts';
import { nodeSha256 } from '../../bin/node-sha256.ts';
import { runCli } from '../helpers/cli.ts';
import { fixturePath, loadCases } from '../helpers/fixtures.ts';

interface Case {
  readonly id: string;
  readonly file: string;
  readonly kind: string;
  readonly now: string;
  readonly exit_code: number;
  readonly json: Record<string, unknown> | null;
  readonly markdown_file: string;
  readonly text_file: string;
}

const FORMAT = 'agentxchain/report';
const cases = loadCases<Case>(FORMAT, (manifest) => (manifest as { cases: Case[] }).cases);
const inputPath = (c: Case): string => fixturePath(FORMAT, c.file);
const recorded = (c: Case, file: string): string => readFileSync(fixturePath(FORMAT, file), 'utf8');

/** Every reference crash (`json: null`): the kit prints the fail report instead. Listed so none passes unexamined. */
const CRASH_CASES = [
  'au-crash-del-results-null-2',
  'au-crash-history-null',
  'au-crash-rd-null-element',
  'au-crash-tostring-kind',
  'au-files-string',
  'rd-missing',
  'top-files-missing',
];

async function reportOf(c: Case, mode: 'reference' | 'corrected' = 'reference'): Promise<AgentxchainReport> {
  const bytes = new Uint8Array(readFileSync(inputPath(c)));
  return reportAgentxchain(bytes, { name: basename(c.file), now: c.now, sha256: nodeSha256, mode });
}

test('the manifest holds the 179 report cases, and every reference crash is listed here', () => {
  assert.equal(cases.length, 179);
  const crashes = cases.filter((c) => c.json === null).map((c) => c.id);
  assert.deepEqual(crashes.sort(), [...CRASH_CASES].sort());
  assert.ok(
    cases.some((c) => c.kind === 'coordinator' && c.exit_code === 0),
    'passing coordinator cases',
  );
});

test('core API: every case gives the reference report, markdown, text and exit code', async () => {
  for (const c of cases) {
    const report = await reportOf(c);
    if (c.json === null) {
      assert.equal(report.overall, 'fail', `${c.id}: the fail report, not a crash`);
      assert.equal(agentxchainReportExitCode(report), 1, `${c.id}: exit code`);
      assert.ok(report.overall === 'fail' && report.verification.errors.length > 0, `${c.id}: the errors are listed`);
      assert.match(agentxchainReportText(report), /^AgentXchain Governance Report\nInput: .*\nVerification: FAIL\n/);
      continue;
    }
    const printed = JSON.stringify(report, null, 2);
    assert.deepStrictEqual(JSON.parse(printed), c.json, `${c.id}: json`);
    assert.equal(printed, JSON.stringify(c.json, null, 2), `${c.id}: json as printed (key order)`);
    assert.equal(`${agentxchainReportMarkdown(report)}\n`, recorded(c, c.markdown_file), `${c.id}: markdown`);
    assert.equal(`${agentxchainReportText(report)}\n`, recorded(c, c.text_file), `${c.id}: text`);
    assert.equal(agentxchainReportExitCode(report), c.exit_code, `${c.id}: exit code`);
  }
});

test('core API: the report reads the clock only through `now`', async () => {
  const c = cases.find((x) => x.id === 'real-full--now-boundary')!;
  const bytes = new Uint8Array(readFileSync(inputPath(c)));
  const at = (now: Date | number | string) => reportAgentxchain(bytes, { name: 'x.json', now, sha256: nodeSha256 });
  const ms = Date.parse(c.now);
  for (const now of [new Date(ms), ms, c.now]) {
    const report = await at(now);
    assert.ok(report.overall === 'pass');
    assert.equal(report.generated_at, c.now);
  }
  await assert.rejects(at('not a date'), TypeError);
  await assert.rejects(at(Number.NaN), TypeError);
});

test('corrected mode reads a turn cost from cost.usd (the reference reads only cost.total_usd)', async () => {
  const c = cases.find((x) => x.id === 'real-full')!;
  const reference = await reportOf(c, 'reference');
  const corrected = await reportOf(c, 'corrected');
  assert.ok(reference.overall === 'pass' && reference.subject.kind === 'governed_run');
  assert.ok(corrected.overall === 'pass' && corrected.subject.kind === 'governed_run');
  assert.equal(reference.subject.run.cost_summary?.costed_turn_count, 0);
  assert.equal(corrected.subject.run.cost_summary?.costed_turn_count, corrected.subject.run.turns.length);
  assert.ok(corrected.subject.run.turns.every((turn) => typeof turn.cost_usd === 'number'));
});

/** Runs the CLI in the fixture's folder on its basename, so `input` is `<folder>/<basename>`. */
function cli(c: Case, args: readonly string[]) {
  const path = inputPath(c);
  const result = runCli(['report', ...args, basename(path)], { cwd: dirname(path) });
  return { ...result, stdout: result.stdout.split(`${dirname(path)}/`).join('') };
}

const CLI_SAMPLE = [
  'real-full',
  'real-full--now-recent',
  'real-coord-broken',
  'rp-run-many-a',
  'file-sha-flip',
  'raw-not-json',
  'raw-bom',
];

test('CLI --compat agentxchain: json, markdown and text output and exit codes on a sample', () => {
  for (const id of CLI_SAMPLE) {
    const c = cases.find((x) => x.id === id);
    assert.ok(c, `${id}: in the manifest`);
    for (const [format, file] of [
      ['markdown', c.markdown_file],
      ['text', c.text_file],
    ] as const) {
      const result = cli(c, ['--compat', 'agentxchain', '--format', format, '--now', c.now]);
      assert.equal(result.stdout, recorded(c, file), `${id}: ${format}`);
      assert.equal(result.status, c.exit_code, `${id}: ${format} exit code`);
    }
    const json = cli(c, ['--compat', 'agentxchain', '--format', 'json', '--now', c.now]);
    assert.equal(json.stdout, `${JSON.stringify(c.json, null, 2)}\n`, `${id}: json`);
    assert.equal(json.status, c.exit_code, `${id}: json exit code`);
  }
});

test('CLI: text is the default format, and a reference crash prints the fail report with exit 1', () => {
  const c = cases.find((x) => x.id === 'real-full')!;
  const result = cli(c, ['--compat', 'agentxchain', '--now', c.now]);
  assert.equal(result.stdout, recorded(c, c.text_file));
  const crash = cases.find((x) => x.id === 'top-files-missing')!;
  const failed = cli(crash, ['--compat', 'agentxchain', '--format', 'json']);
  assert.equal(failed.status, 1);
  const output = JSON.parse(failed.stdout) as Record<string, unknown>;
  assert.equal(output['overall'], 'fail');
  assert.equal(output['message'], 'Cannot build governance report from invalid export artifact.');
});

test('CLI --compat agentxchain: an unsupported --format is refused after verification, exit 1 for any verdict', () => {
  for (const id of ['real-full', 'file-sha-flip', 'raw-not-json']) {
    const c = cases.find((x) => x.id === id)!;
    const result = cli(c, ['--compat', 'agentxchain', '--format', 'JSON']);
    assert.equal(result.stdout, '', `${id}: nothing on stdout`);
    assert.equal(result.stderr, 'Unsupported report format "JSON". Use "text", "json", "markdown", or "html".\n');
    assert.equal(result.status, 1, `${id}: exit code`);
  }
  const missing = runCli(['report', '--compat', 'agentxchain', '--format', 'yaml', 'no-such-export.json']);
  assert.equal(missing.status, 1, 'an unreadable input with a bad format exits 1, as in the reference');
});

test('CLI: an unreadable file gives the error report with Node’s message, exit 2', () => {
  const missing = join(dirname(inputPath(cases[0]!)), 'no-such-export.json');
  const result = runCli(['report', '--compat', 'agentxchain', '--format', 'json', missing]);
  assert.equal(result.status, 2);
  assert.deepEqual(JSON.parse(result.stdout), {
    overall: 'error',
    input: missing,
    message: `ENOENT: no such file or directory, open '${missing}'`,
  });
  const text = runCli(['report', '--compat', 'agentxchain', missing]);
  assert.equal(
    text.stdout,
    `AgentXchain Governance Report\nInput: ${missing}\nStatus: ERROR\nMessage: ENOENT: no such file or directory, open '${missing}'\n`,
  );
  assert.equal(text.status, 2);
});

test('CLI: stdin as -, usage errors (bad --now, bad --format without --compat) exit 2', () => {
  const c = cases.find((x) => x.id === 'real-full')!;
  const piped = runCli(['report', '--compat', 'agentxchain', '--format', 'json', '--now', c.now, '-'], {
    input: readFileSync(inputPath(c)),
  });
  assert.equal(piped.status, 0);
  assert.deepEqual(JSON.parse(piped.stdout), { ...c.json, input: 'stdin' });
  for (const args of [
    ['--now', '2026-02-30T00:00:00Z'],
    ['--now', 'yesterday'],
    ['--format', 'yaml'],
    ['--compat', 'zaxy'],
    [],
  ]) {
    const result = runCli(['report', ...args, ...(args.length > 0 ? [inputPath(c)] : [])]);
    assert.equal(result.status, 2, `${args.join(' ')}: exit code`);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^verify-export report: /);
  }
  // The default command still verifies a file.
  const verified = runCli([inputPath(c)]);
  assert.equal(verified.status, 0);
});

test('CLI without --compat: the corrected report', () => {
  const c = cases.find((x) => x.id === 'real-full')!;
  const result = cli(c, ['--format', 'json', '--now', c.now]);
  assert.equal(result.status, 0);
  const report = JSON.parse(result.stdout) as { subject: { run: { cost_summary: { costed_turn_count: number } } } };
  assert.equal(report.subject.run.cost_summary.costed_turn_count, 5);
});

// The JavaScript semantics of docs/agentxchain-report.md "JavaScript semantics".

test('collation: localeCompare(…, "en") orders as ICU, code units only where the reference uses sort()', () => {
  const names = ['Zeta', 'beta-1', 'Éclair', 'dev', 'alpha', 'eclair', 'beta_2'];
  assert.deepEqual(
    sortEn(names, (n) => n),
    ['alpha', 'beta_2', 'beta-1', 'dev', 'eclair', 'Éclair', 'Zeta'],
  );
  assert.deepEqual(
    sortEn(['QA', 'qa', 'Q-A', 'q_a', 'abd', 'ábc'], (n) => n),
    ['ábc', 'abd', 'q_a', 'Q-A', 'qa', 'QA'],
  );
  assert.deepEqual(
    sortEn(['qa_ship_verdict', 'planning_signoff', 'Implementation_complete', 'é_gate'], (n) => n),
    ['é_gate', 'Implementation_complete', 'planning_signoff', 'qa_ship_verdict'],
  );
  assert.ok(compareEn('evt_z', 'evt0a') < 0, 'punctuation before digits');
  assert.deepEqual(['b', 'B', 'a'].sort(compareCodeUnits), ['B', 'a', 'b']);
  // Stable, and a NaN comparison counts as equal.
  const items = [
    { k: 'b', i: 0 },
    { k: 'a', i: 1 },
    { k: 'b', i: 2 },
    { k: 'a', i: 3 },
  ];
  assert.deepEqual(
    sortDefaultLocale(items, (x) => x.k).map((x) => x.i),
    [1, 3, 0, 2],
  );
});

test('numbers: toFixed(2) rounds the binary value half up, toLocaleString("en-US") groups thousands', () => {
  const usd: [number, string][] = [
    [0.125, '$0.13'],
    [1.005, '$1.00'],
    [0.615, '$0.61'],
    [2.675, '$2.67'],
    [10.555, '$10.55'],
    [0.1 + 0.2, '$0.30'],
    [-0, '$0.00'],
    [1067.645007199997, '$1067.65'],
  ];
  for (const [value, expected] of usd) assert.equal(formatUsd(value), expected, String(value));
  assert.equal(formatUsd('1'), 'n/a');
  assert.equal(formatTokens(126361073), '126,361,073');
  assert.equal(formatTokens(1234.56789), '1,234.568');
  assert.equal(formatTokens(Number.POSITIVE_INFINITY), 'n/a');
  assert.equal(compactDuration(999), '999ms');
  assert.equal(compactDuration(59_999), '59s');
  assert.equal(compactDuration(3_599_000), '59m 59s');
  assert.equal(compactDuration(3_600_000), '1h 0m');
  assert.equal(compactDuration(-1), null);
});

test('dates: lenient Date.parse as V8 reads it (run under TZ=UTC for the local-time cases)', () => {
  assert.equal(parseDate('2026-11-25'), Date.UTC(2026, 10, 25), 'a date-only string is UTC');
  assert.equal(dateTime('2026-11-25T00:00:00.000Z'), Date.UTC(2026, 10, 25));
  assert.ok(Number.isNaN(parseDate('not a date')));
  assert.ok(Number.isNaN(parseDate({ toString: 'x' })), 'an unprintable value is NaN, not a throw');
  assert.equal(dateTime(0), 0, 'new Date(0) is the epoch');
  if (process.env['TZ'] === 'UTC') assert.equal(parseDate(0), 946_684_800_000, 'Date.parse("0") is 2000-01-01 local');
  assert.equal(isValidTimestamp('  '), false);
  assert.equal(isValidTimestamp('2026-11-25T00:00:00Z'), true);
});

test('--now is parsed strictly', () => {
  assert.equal(parseNow('2026-11-25T00:00:00.000Z'), Date.UTC(2026, 10, 25));
  assert.equal(parseNow('2026-11-25T01:00:00+01:00'), Date.UTC(2026, 10, 25));
  for (const bad of ['2026-11-25', '2026-02-30T00:00:00Z', '2026-11-25T24:00:00Z', '2026-11-25T00:00:00', 'now'])
    assert.throws(() => parseNow(bad), /--now must be an ISO 8601 instant/, bad);
});
