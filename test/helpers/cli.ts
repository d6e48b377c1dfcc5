// Runs the built CLI (dist/ via bin/verify-export.js) as a real process. With
// VERIFY_EXPORT_CLI_FROM_SOURCE=1 it runs bin/cli.ts through tsx instead, so the CLI can be tested
// while it is being changed without rebuilding dist/ (the full suite always runs the build).
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
  const entry = process.env['VERIFY_EXPORT_CLI_FROM_SOURCE']
    ? ['--conditions=verify-export-source', '--import', 'tsx', join(PROJECT_ROOT, 'bin/cli.ts')]
    : [join(PROJECT_ROOT, 'bin/verify-export.js')];
  const result = spawnSync(process.execPath, [...entry, ...args], {
    cwd: options.cwd ?? PROJECT_ROOT,
    input: options.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
