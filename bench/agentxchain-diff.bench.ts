// AgentXchain export diff speed and memory: the 54 MB real run export of the bench data
// (BENCH_DATA, see bench/data.ts) diffed against itself, through the core (in this process) and as
// a whole CLI process (wall time, peak RSS; GNU time), on the decompressed file as the reference
// was measured, and on the .gz.
// Reference (`agentxchain diff --export large.json large.json --json`, this machine): 0.97 s, 493 MB.
// Targets for the CLI process: ≥ 2× faster (≤ 485 ms) with ≤ half the memory (≤ 246 MB).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { diffAgentxchain } from '../src/formats/agentxchain/diff/index.ts';
import { PROJECT_ROOT } from '../test/helpers/fixtures.ts';
import { benchFile } from './data.ts';

const FILE = benchFile('agentxchain--large.json.gz');
const RUNS = 5;
const REFERENCE = { ms: 970, mb: 493 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

const work = mkdtempSync(join(tmpdir(), 'verify-export-diff-bench-'));
try {
  const plainPath = join(work, 'large.json');
  const plain = gunzipSync(readFileSync(FILE));
  writeFileSync(plainPath, plain);
  const mb = plain.byteLength / 1e6;
  console.log(`input: ${FILE}\n  ${mb.toFixed(1)} MB decompressed, diffed against itself; medians of ${RUNS} runs`);
  console.log(
    `  machine load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (2 cores; wall times inflate under load)`,
  );

  // The core, in this process: both documents read, parsed and reduced, then compared.
  const bytes = new Uint8Array(plain);
  const coreTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const start = performance.now();
    const result = await diffAgentxchain(bytes, bytes, { leftName: 'large.json', rightName: 'large.json' });
    coreTimes.push(performance.now() - start);
    if (!result.ok || result.diff.changed || result.diff.has_regressions) {
      throw new Error(`core: expected an unchanged diff, got ${JSON.stringify(result).slice(0, 300)}`);
    }
  }
  console.log(`  core diffAgentxchain (bytes in memory)          ${median(coreTimes).toFixed(0).padStart(6)} ms`);

  const cli = await cliEntry(work);
  if (!existsSync('/usr/bin/time')) {
    console.log('  /usr/bin/time not found: CLI process not measured');
  } else {
    for (const [label, path] of [
      ['decompressed .json (as the reference)', plainPath],
      ['.json.gz', FILE],
    ] as const) {
      const walls: number[] = [];
      const rss: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const outPath = join(work, 'out.json');
        const result = spawnSync(
          '/bin/sh',
          [
            '-c',
            '"$@" > "$OUT"',
            'sh',
            '/usr/bin/time',
            '-f',
            '%e %M %U %S',
            process.execPath,
            ...cli.args,
            'diff',
            '--compat',
            'agentxchain',
            '--json',
            path,
            path,
          ],
          { encoding: 'utf8', env: { ...process.env, OUT: outPath } },
        );
        if (result.status !== 0) throw new Error(`CLI exited ${result.status}: ${result.stderr}`);
        const diff = JSON.parse(readFileSync(outPath, 'utf8')) as { changed: boolean; summary: { outcome: string } };
        if (diff.changed || diff.summary.outcome !== 'unchanged') throw new Error('CLI: expected an unchanged diff');
        const [wall, kb, user, system] = result.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
        walls.push(wall! * 1000);
        rss.push(kb! / 1024);
        cpu.push((user! + system!) * 1000);
      }
      const wall = median(walls);
      const peak = median(rss);
      console.log(
        `  CLI process (${cli.label}), ${label}: ${wall.toFixed(0)} ms wall (CPU ${median(cpu).toFixed(0)} ms),` +
          ` ${peak.toFixed(0)} MB peak RSS` +
          ` — reference ${REFERENCE.ms} ms, ${REFERENCE.mb} MB: ${(REFERENCE.ms / wall).toFixed(1)}× faster,` +
          ` ${((100 * peak) / REFERENCE.mb).toFixed(0)}% of its memory (target ≥ 2×, ≤ 50%)`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The CLI as users run it: dist/ when its build has the `diff` subcommand; else bin/cli.ts bundled
 * here as the build bundles it (build/build.mjs), so the figure is not a tsx start-up figure.
 */
async function cliEntry(dir: string): Promise<{ args: string[]; label: string }> {
  const dist = join(PROJECT_ROOT, 'bin/verify-export.js');
  const probe = spawnSync(process.execPath, [dist, 'diff', '--help'], { encoding: 'utf8' });
  if (probe.status === 0 && probe.stdout.startsWith('Usage: verify-export diff'))
    return { args: [dist], label: 'dist' };
  await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: { cli: 'bin/cli.ts' },
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['verify-export-source'],
    mainFields: ['module', 'main'],
    logLevel: 'warning',
    splitting: false,
  });
  return { args: [join(dir, 'cli.js')], label: 'bin/cli.ts bundled, dist/ has no diff yet' };
}
