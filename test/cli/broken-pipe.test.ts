// A reader that stops early (`verify-export … | head`): the CLI ends quietly, with no stack trace
// on stderr, and with the exit code it gives when every byte is read; with several inputs, a run
// cut short before every input is shown exits 2 (inputs left unverified are never a pass).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { fixturePath, PROJECT_ROOT } from '../helpers/fixtures.ts';
import { cleanEnv, cliCommand, runCliWith } from './run.ts';

/** Runs the CLI with its stdout's reading end closed before it writes; its exit code and stderr. */
async function withClosedStdout(args: readonly string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [...cliCommand(), ...args], {
    cwd: PROJECT_ROOT,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stderr };
}

const PASS = fixturePath('agentxchain', 'real-fresh.json');
const FAIL = fixturePath('agentxchain', 'ws-null.json');
const HISTORY = fixturePath('agent-history', 'design-small.ndjson.gz');

describe('stdout closed by its reader', () => {
  const cases: [string, string[]][] = [
    ['a passing export, text', [PASS]],
    ['a failing export, JSON', [FAIL, '--format', 'json']],
    ['AgentXchain compat JSON', [FAIL, '--compat', 'agentxchain', '--format', 'json']],
    ['JUnit', [FAIL, '--format', 'junit']],
    ['an unreadable input, JSON', ['no-such-file.json', '--format', 'json']],
    ['the governance report', ['report', '--input', FAIL]],
    ["agent-history's markdown", ['markdown', HISTORY]],
  ];
  for (const [name, args] of cases) {
    it(`${name}: the exit code of a full read, and nothing on stderr but what a full read prints`, async () => {
      const full = runCliWith(args);
      const closed = await withClosedStdout(args);
      assert.equal(closed.status, full.status);
      assert.doesNotMatch(closed.stderr, /EPIPE|Error|at .*\.js:\d+/);
      assert.equal(closed.stderr, full.stderr);
    });
  }

  for (const [name, format] of [
    ['several inputs, text', 'text'],
    ['several inputs, NDJSON', 'json'],
  ] as const) {
    it(`${name}: a passing first input never makes a cut-short run pass; quiet stderr`, async () => {
      const args = [PASS, FAIL, HISTORY, '--format', format];
      const full = runCliWith(args);
      assert.equal(full.status, 1);
      const closed = await withClosedStdout(args);
      // 2 when cut short before the last input was shown, else the full run's 1.
      assert.ok(closed.status === 2 || closed.status === 1, `exit ${closed.status}`);
      assert.doesNotMatch(closed.stderr, /EPIPE|Error|at .*\.js:\d+/);
    });
  }
});
