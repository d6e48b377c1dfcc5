// Whole processes timed from outside, as a user meets them: GNU time's wall clock, CPU (user +
// system) and peak RSS of one command.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** One process's figures: wall and CPU milliseconds, peak RSS in MiB. */
export interface ProcessTime {
  readonly wall: number;
  readonly cpu: number;
  readonly rss: number;
}

/** True where GNU time is installed (the benches skip their process figures otherwise). */
export const canTimeProcesses = (): boolean => existsSync('/usr/bin/time');

/**
 * Runs `command` once under GNU time; throws when it exits non-zero.
 * @example
 * const { wall, rss } = timeProcess([process.execPath, 'bin/verify-export.js', 'export.json']);
 */
export function timeProcess(command: readonly string[]): ProcessTime {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M %U %S', ...command], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (result.status !== 0) throw new Error(`${command.join(' ')} exited ${result.status}: ${result.stderr}`);
  const [wall, kb, user, system] = result.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wall: wall! * 1000, cpu: (user! + system!) * 1000, rss: kb! / 1024 };
}

/**
 * The reference CLI's command line verifying `file` (agentxchain 2.159.0's `verify export`), when
 * AGENTXCHAIN_REFERENCE_CLI names its `bin/agentxchain.js` (installed beside the project; it is not
 * a dependency), or undefined.
 */
export function agentxchainReferenceCommand(file: string): string[] | undefined {
  const reference = process.env['AGENTXCHAIN_REFERENCE_CLI'];
  if (!reference) return undefined;
  return [process.execPath, reference, 'verify', 'export', '--input', file, '--format', 'json'];
}
