// The progress bar (issue 18): on a terminal's stderr only, after about 0.5 s, never on stdout,
// never without a terminal or with --quiet. The terminal is a real pseudo-terminal, made by
// util-linux's `script`; the input is standard input fed slowly, so the run lasts a few seconds.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { progressLine } from '../../bin/progress.ts';
import { fixturePath, PROJECT_ROOT } from '../helpers/fixtures.ts';
import { cleanEnv, cliCommand, temporaryFolder } from './run.ts';

const folder = temporaryFolder();
const HISTORY = fixturePath('agent-history', 'design-small.ndjson');

const quote = (word: string): string => `'${word.replace(/'/g, "'\\''")}'`;

/**
 * Runs the CLI in a shell under `script` (stderr on the pseudo-terminal, stdout to a file, or to
 * the terminal too with `stdoutToo`), its stdin fed half now and half 3 s later (the CLI from
 * source takes over a second to start). Returns what the terminal showed and what stdout received.
 */
function runOnTerminal(args: string[], options: { stdoutToo?: boolean; terminal?: boolean } = {}) {
  const bytes = readFileSync(HISTORY);
  const half = bytes.byteLength >> 1;
  writeFileSync(join(folder, 'first'), bytes.subarray(0, half));
  writeFileSync(join(folder, 'second'), bytes.subarray(half));
  const stdoutFile = join(folder, 'stdout');
  const cli = [process.execPath, ...cliCommand(), ...args].map(quote).join(' ');
  const feed = `(cat ${quote(join(folder, 'first'))}; sleep 3; cat ${quote(join(folder, 'second'))})`;
  const shell = `${feed} | ${cli}${options.stdoutToo ? '' : ` > ${quote(stdoutFile)}`}`;
  const result =
    options.terminal === false
      ? spawnSync('sh', ['-c', shell], { cwd: PROJECT_ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 60_000 })
      : spawnSync('script', ['-q', '-e', '-c', shell, '/dev/null'], {
          cwd: PROJECT_ROOT,
          env: cleanEnv({ COLUMNS: '100' }),
          encoding: 'utf8',
          timeout: 60_000,
        });
  assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
  return {
    terminal: result.stdout + result.stderr,
    stdout: options.stdoutToo ? result.stdout : readFileSync(stdoutFile, 'utf8'),
  };
}

describe('progress', () => {
  /* eslint-disable no-control-regex -- the bar's terminal controls are what is looked for */
  it('is drawn on a terminal stderr after 0.5 s, and never reaches stdout', () => {
    const { terminal, stdout } = runOnTerminal(['-']);
    assert.match(terminal, /\r\u001b\[K\d+\.\d MB {2}\d+\.\d MB\/s/);
    assert.match(terminal, /\r\u001b\[K(?!.*MB\/s)/s, 'the bar is cleared at the end');
    assert.match(stdout, /^PASS: the artifact verified\n/);
    assert.doesNotMatch(stdout, /MB\/s|\r|\u001b/);
  });
  /* eslint-enable no-control-regex */

  it('counts files with several inputs, still only on stderr', () => {
    const { terminal, stdout } = runOnTerminal(['--format', 'json', HISTORY, '-']);
    assert.match(terminal, /\d\/2 files {2}/);
    for (const line of stdout.split('\n').filter(Boolean)) JSON.parse(line);
  });

  it('is not drawn without a terminal, nor with --quiet', () => {
    const noTerminal = runOnTerminal(['-'], { terminal: false });
    assert.doesNotMatch(noTerminal.terminal, /MB\/s/);
    const quiet = runOnTerminal(['--quiet', '-'], { stdoutToo: true });
    assert.doesNotMatch(quiet.terminal, /MB\/s/);
    assert.equal(quiet.stdout, '');
  });

  it('shows bytes, total, speed and time left when the total is known', () => {
    const state = { bytesRead: 50e6, totalBytes: 100e6, filesDone: 1, filesTotal: 3 };
    assert.equal(
      progressLine(state, 2000),
      '1/3 files  [##########----------]  50%  50.0 MB / 100.0 MB  25.0 MB/s  ETA 2 s',
    );
    assert.equal(
      progressLine({ bytesRead: 1e6, totalBytes: 5e9, filesDone: 0, filesTotal: 1 }, 1000),
      '[--------------------]   0%  1.0 MB / 5000.0 MB  1.0 MB/s  ETA 1 h 23 min',
    );
    assert.equal(
      progressLine({ bytesRead: 3e6, totalBytes: undefined, filesDone: 0, filesTotal: 1 }, 1000),
      '3.0 MB  3.0 MB/s',
    );
  });
});
