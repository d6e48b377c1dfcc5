// Many inputs at once (issue 18): a folder searched for artifacts, several paths, one line per
// input and a summary, NDJSON with --format json, JUnit, annotations, --quiet, the worst exit
// code; and one input printed exactly as before.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fixturePath } from '../helpers/fixtures.ts';
import { runCliWith, temporaryFolder } from './run.ts';

const PASS = fixturePath('agentxchain', 'real-fresh.json');
const folder = temporaryFolder();
const mixed = join(folder, 'mixed');

/** The mixed folder: what each file is, by its path relative to the folder, in walk order. */
const EXPECTED: [string, 'pass' | 'fail' | 'error'][] = [
  ['gone.json', 'error'], // a link that leads nowhere: cannot be read
  ['not-an-artifact.json', 'error'],
  ['sub/history.ndjson.gz', 'pass'],
  ['sub/tampered.JSON', 'fail'],
  ['valid.json', 'pass'],
];

before(() => {
  mkdirSync(join(mixed, 'sub'), { recursive: true });
  mkdirSync(join(mixed, 'empty-sub'));
  copyFileSync(fixturePath('agent-history', 'design-small.ndjson.gz'), join(mixed, 'sub/history.ndjson.gz'));
  copyFileSync(fixturePath('agentxchain', 'ws-null.json'), join(mixed, 'sub/tampered.JSON'));
  writeFileSync(join(mixed, 'not-an-artifact.json'), '{"hello": "world"}');
  writeFileSync(join(mixed, 'notes.txt'), 'skipped: not an artifact name');
  writeFileSync(join(mixed, 'data.json.bak'), 'skipped too');
  symlinkSync(join(folder, 'nowhere.json'), join(mixed, 'gone.json'));
  symlinkSync(mixed, join(mixed, 'sub/loop')); // a link to a folder is not followed
  copyFileSync(PASS, join(mixed, 'valid.json'));
});

const lines = (text: string): string[] => text.split('\n').filter(Boolean);

describe('a mixed folder', () => {
  it('prints one line per artifact in walk order, then the summary; exit 2 (the worst)', () => {
    const result = runCliWith([mixed]);
    assert.equal(result.status, 2, result.stderr);
    const verdictLines = lines(result.stdout).filter((line) => /^(PASS|FAIL|ERROR)/.test(line));
    assert.deepEqual(
      verdictLines.map((line) => [line.split(/\s+/)[0], line.split(/\s+/)[1]]),
      EXPECTED.map(([name, overall]) => [overall.toUpperCase(), join(mixed, name)]),
    );
    assert.match(result.stdout, /ENOENT/);
    assert.match(result.stdout, /✗ \$\.workspace: must be an object \[agentxchain\.field_invalid\]/);
    assert.match(lines(result.stdout).at(-1)!, /^5 inputs: 2 passed, 1 failed, 2 error\(s\) in \d+\.\d s$/);
    assert.doesNotMatch(result.stdout, /notes\.txt|\.bak|loop/);
  });

  it('--format json prints one report per line, in the same order, whatever the number of jobs', () => {
    const outputs = ['1', '2', '3'].map((jobs) => runCliWith(['--format', 'json', '--jobs', jobs, mixed]));
    const parsed = outputs.map((result) => {
      assert.equal(result.status, 2);
      return lines(result.stdout).map((line) => JSON.parse(line) as { overall: string; input: string });
    });
    assert.deepEqual(
      parsed[0]!.map((report) => [report.input, report.overall]),
      EXPECTED.map(([name, overall]) => [join(mixed, name), overall]),
    );
    const withoutTimes = (reports: unknown[]): string =>
      JSON.stringify(reports).replace(/"duration_ms":[\d.e+-]+/g, '');
    assert.equal(withoutTimes(parsed[1]!), withoutTimes(parsed[0]!));
    assert.equal(withoutTimes(parsed[2]!), withoutTimes(parsed[0]!));
  });

  it('--format junit: one testcase per input, failures and errors counted', () => {
    const result = runCliWith(['--format', 'junit', mixed]);
    assert.equal(result.status, 2);
    assert.match(
      result.stdout,
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="verify-export" tests="5" failures="1" errors="2" /,
    );
    assert.equal((result.stdout.match(/<testcase /g) ?? []).length, 5);
    assert.match(
      result.stdout,
      /<failure type="agentxchain.field_invalid" message="\$.workspace: must be an object|<failure type="agentxchain.field_invalid" message="must be an object/,
    );
  });

  it('GITHUB_ACTIONS=true adds one ::error per error finding on stderr; stdout stays the report', () => {
    const result = runCliWith(['--format', 'json', mixed], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: mixed },
    });
    const commands = lines(result.stderr).filter((line) => line.startsWith('::'));
    assert.deepEqual(
      commands.map((line) => /^::error file=([^,]*),title=([^:]*)::/.exec(line)?.slice(1)),
      [
        ['gone.json', 'input.unreadable'],
        ['not-an-artifact.json', 'input.unknown_format'],
        ['sub/tampered.JSON', 'agentxchain.field_invalid'],
      ],
    );
    for (const line of lines(result.stdout)) JSON.parse(line);
    assert.equal(runCliWith([mixed], { env: { GITHUB_ACTIONS: 'true' } }).stderr.includes('::error'), true);
    assert.equal(
      runCliWith(['--annotations', 'none', mixed], { env: { GITHUB_ACTIONS: 'true' } }).stderr.includes('::'),
      false,
    );
    assert.equal(runCliWith([mixed]).stderr.includes('::'), false);
  });

  it('--quiet prints nothing on stdout, the unreadable input on stderr, and exits with the worst code', () => {
    const result = runCliWith(['--quiet', mixed]);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.deepEqual(lines(result.stderr), [
      `verify-export: cannot read ${join(mixed, 'gone.json')}: ENOENT: no such file or directory, open '${join(mixed, 'gone.json')}'`,
    ]);
  });
});

describe('the exit code is the worst outcome', () => {
  it('0 when all pass, 1 when one fails, 2 when one cannot be read', () => {
    assert.equal(runCliWith([join(mixed, 'valid.json'), join(mixed, 'sub/history.ndjson.gz')]).status, 0);
    assert.equal(runCliWith([join(mixed, 'valid.json'), join(mixed, 'sub')]).status, 1);
    assert.equal(runCliWith([join(mixed, 'sub'), join(folder, 'missing.json')]).status, 2);
  });

  it('a folder with no artifact is an error, never a pass', () => {
    const result = runCliWith([join(mixed, 'empty-sub')]);
    assert.equal(result.status, 2);
    assert.match(result.stdout, /^ERROR {2}.*empty-sub {2}cannot read: no \*\.json, \*\.ndjson or \*\.jsonl file/);
  });

  it('the same file named twice is verified once; - twice is refused', () => {
    const result = runCliWith([join(mixed, 'valid.json'), mixed, join(mixed, 'valid.json')]);
    assert.equal(lines(result.stdout).filter((line) => line.includes('valid.json')).length, 1);
    const twice = runCliWith(['-', '-'], { input: '' });
    assert.equal(twice.status, 2);
    assert.match(twice.stderr, /- \(standard input\) can be given only once/);
  });
});

describe('one input', () => {
  it('prints the report exactly as before: pretty JSON, no summary', () => {
    const result = runCliWith(['--format', 'json', PASS]);
    assert.equal(result.status, 0);
    const report = JSON.parse(result.stdout) as { overall: string; input: string };
    assert.equal(result.stdout, `${JSON.stringify(report, null, 2)}\n`);
    assert.equal(report.input, PASS);
    const text = runCliWith([PASS]);
    assert.match(text.stdout, /^PASS: the artifact verified\n {2}input: /);
    assert.doesNotMatch(text.stdout, /inputs:/);
  });

  it('stdin too, and --compat needs exactly one input', () => {
    const result = runCliWith(['--format', 'json', '-'], { input: readFileSync(PASS) });
    assert.equal((JSON.parse(result.stdout) as { input: string }).input, 'stdin');
    const compat = runCliWith(['--compat', 'agentxchain', PASS, PASS]);
    assert.equal(compat.status, 2);
    assert.match(compat.stderr, /--compat takes exactly one input/);
  });

  it('--quiet: nothing printed, the exit code tells', () => {
    const result = runCliWith(['--quiet', join(mixed, 'sub/tampered.JSON')]);
    assert.deepEqual([result.status, result.stdout, result.stderr], [1, '', '']);
  });

  it('--version prints the package version', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    assert.equal(runCliWith(['--version']).stdout, `${manifest.version}\n`);
  });
});
