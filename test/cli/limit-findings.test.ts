// `limit.findings` (issue 15, item 10): a warning that marks where recording stopped; the verdict
// still counts every finding. The README's Limits section says so (it said any limit.* finding
// made the result `error`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { fixturePath, PROJECT_ROOT } from '../helpers/fixtures.ts';
import { runCliWith } from './run.ts';

const FAILING = fixturePath('codex-exec', 'interleaved-attempt-regression.jsonl'); // 4 errors

it('--max-findings 1: one error recorded, a limit.findings warning, the verdict stays fail (exit 1)', () => {
  const result = runCliWith(['--format', 'json', '--max-findings', '1', FAILING]);
  assert.equal(result.status, 1);
  const report = JSON.parse(result.stdout) as { overall: string; findings: { code: string; severity: string }[] };
  assert.equal(report.overall, 'fail');
  assert.deepEqual(report.findings.at(-1), {
    code: 'limit.findings',
    path: '$',
    message: '3 more finding(s) not recorded (limits.maxFindings = 1)',
    severity: 'warning',
  });
});

it("the README's Limits section says limit.findings is a warning and the verdict counts every finding", () => {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Limits\n');
  const limits = readme.slice(start, readme.indexOf('\n| limit |', start));
  assert.match(limits, /The exception is `maxFindings` itself/);
  assert.match(limits.replace(/\s+/g, ' '), /one `limit\.findings` warning says how many were not recorded/);
});
