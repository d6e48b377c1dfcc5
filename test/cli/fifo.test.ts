// Inputs that are not regular files (issue 15, item 1): a device or FIFO reports size 0 and was
// read whole, without bound; it is streamed with every limit, and --timeout bounds a FIFO that
// never closes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliAsync, runCliWith, temporaryFolder } from './run.ts';

const folder = temporaryFolder();

function fifo(name: string): string {
  const path = join(folder, name);
  execFileSync('mkfifo', [path]);
  return path;
}

describe('devices and FIFOs', () => {
  it('--max-bytes 1000 /dev/zero stops at the limit', () => {
    const result = runCliWith(['--format', 'json', '--max-bytes', '1000', '/dev/zero'], { timeoutMs: 30_000 });
    assert.equal(result.status, 2, `status ${result.status}: ${result.stderr}`);
    const report = JSON.parse(result.stdout) as { findings: { code: string }[]; stats: { bytes_read: number } };
    assert.deepEqual(
      report.findings.map((finding) => finding.code),
      ['limit.input_bytes'],
    );
  });

  it('a FIFO with no writer ends at --timeout with a clear error and exit 2', () => {
    const path = fifo('never-opened.json');
    const started = Date.now();
    const result = runCliWith(['--timeout', '1', path], { timeoutMs: 30_000 });
    assert.equal(result.status, 2, `status ${result.status}: ${result.stderr}`);
    assert.equal(result.stderr, `verify-export: cannot read ${path}: gave up after --timeout 1 s\n`);
    assert.ok(Date.now() - started < 20_000);
  });

  it('a FIFO whose writer never closes ends at --timeout with input.aborted', async () => {
    const path = fifo('never-closed.json');
    const running = runCliAsync(['--format', 'json', '--timeout', '1', path], { timeoutMs: 30_000 });
    // Open the writing end (this waits for the CLI to open the reading end), send a start, never close.
    const writer = await new Promise<number>((resolve) => setImmediate(() => resolve(openSync(path, 'w'))));
    writeSync(writer, '{"export_kind": ');
    const result = await running;
    closeSync(writer);
    assert.equal(result.status, 2, `status ${result.status}: ${result.stderr}`);
    const report = JSON.parse(result.stdout) as { overall: string; findings: { code: string }[] };
    assert.equal(report.overall, 'error');
    assert.ok(
      report.findings.some((finding) => finding.code === 'input.aborted'),
      result.stdout,
    );
    assert.equal(result.stderr, `verify-export: ${path}: gave up after --timeout 1 s\n`);
  });

  it('a FIFO among several inputs is bounded the same way', () => {
    const path = fifo('among-many.json');
    const result = runCliWith(['--timeout', '1', '--jobs', '2', path, '/dev/null'], { timeoutMs: 30_000 });
    assert.equal(result.status, 2);
    assert.match(result.stdout, /^ERROR {2}.*among-many\.json {2}cannot read: gave up after --timeout 1 s$/m);
  });
});
