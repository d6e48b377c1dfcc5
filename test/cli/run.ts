// Runs the CLI as test/helpers/cli.ts does (dist/, or the sources with
// VERIFY_EXPORT_CLI_FROM_SOURCE=1), with a chosen environment, and a helper for temporary folders.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { PROJECT_ROOT } from '../helpers/fixtures.ts';
import type { CliResult } from '../helpers/cli.ts';

/** `node <args>` that starts the CLI. */
export function cliCommand(): string[] {
  return process.env['VERIFY_EXPORT_CLI_FROM_SOURCE']
    ? ['--conditions=verify-export-source', '--import', 'tsx', join(PROJECT_ROOT, 'bin/cli.ts')]
    : [join(PROJECT_ROOT, 'bin/verify-export.js')];
}

/** The environment of the tests, without the CI's own GITHUB_ACTIONS (it turns annotations on). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (!('GITHUB_ACTIONS' in extra)) delete env['GITHUB_ACTIONS'];
  return env;
}

/** Runs `verify-export ...args` and waits for it (killed after `timeoutMs`, status null then). */
export function runCliWith(
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string | Uint8Array; timeoutMs?: number } = {},
): CliResult {
  const result = spawnSync(process.execPath, [...cliCommand(), ...args], {
    cwd: PROJECT_ROOT,
    env: cleanEnv(options.env),
    encoding: 'utf8',
    input: options.input,
    timeout: options.timeoutMs ?? 60_000,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Like runCliWith, without blocking the test process (for a test that feeds a FIFO meanwhile). */
export function runCliAsync(
  args: readonly string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cliCommand(), ...args], {
      cwd: PROJECT_ROOT,
      env: cleanEnv(options.env),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** A fresh temporary folder, removed after the test file. */
export function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'verify-export-cli-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
