// Runs the built CLI (dist/ via bin/verify-export.js) as a real process.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from './fixtures.ts';

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `verify-export ...args`, optionally feeding stdin. */
export function runCli(
  args: readonly string[],
  options: { input?: Uint8Array | string; cwd?: string } = {},
): CliResult {
  const result = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin/verify-export.js'), ...args], {
    cwd: options.cwd ?? PROJECT_ROOT,
    input: options.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
