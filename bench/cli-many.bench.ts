// The CLI on many inputs (issue 18): every public fixture (test/fixtures) and every bench data
// file (BENCH_DATA, see bench/data.ts) in one command, with --jobs 1 and --jobs 2: wall time and
// peak RSS of the whole process tree (GNU time's %M is the largest resident set of the process,
// and worker threads share it). Medians of RUNS runs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, PROJECT_ROOT } from '../test/helpers/fixtures.ts';
import { BENCH_DATA, requireBenchFiles } from './data.ts';

const RUNS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

requireBenchFiles(...readdirSync(BENCH_DATA).filter((name) => /\.(json|ndjson|jsonl)(\.gz)?$/.test(name)));
if (!existsSync('/usr/bin/time')) {
  console.log('/usr/bin/time not found: nothing measured');
  process.exit(0);
}
// The built CLI when dist/ has the pool's thread, else the sources (slower start: tsx compiles).
const built = existsSync(join(PROJECT_ROOT, 'dist/pool-worker.js'));
const cli = built
  ? [join(PROJECT_ROOT, 'bin/verify-export.js')]
  : ['--conditions=verify-export-source', '--import', 'tsx', join(PROJECT_ROOT, 'bin/cli.ts')];
console.log(
  `inputs: ${FIXTURES} and ${BENCH_DATA} (${built ? 'dist/ CLI' : 'CLI from source: dist/ has no pool-worker.js'}); medians of ${RUNS} runs`,
);
console.log(
  `  machine load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (2 cores; wall times inflate under load)`,
);

for (const jobs of [1, 2]) {
  const walls: number[] = [];
  const rss: number[] = [];
  const cpu: number[] = [];
  let summary = '';
  for (let i = 0; i < RUNS; i++) {
    const result = spawnSync(
      '/usr/bin/time',
      ['-f', '%e %M %U %S', process.execPath, ...cli, '--jobs', String(jobs), FIXTURES, BENCH_DATA],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    // Exit 2: the fixtures include inputs that fail and inputs that are not artifacts.
    if (result.status !== 2) throw new Error(`CLI exited ${result.status}: ${result.stderr}`);
    summary = result.stdout.trim().split('\n').at(-1)!;
    const [wall, kb, user, system] = result.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
    walls.push(wall! * 1000);
    rss.push(kb! / 1024);
    cpu.push((user! + system!) * 1000);
  }
  console.log(
    `  --jobs ${jobs}: ${median(walls).toFixed(0).padStart(6)} ms wall (CPU ${median(cpu).toFixed(0)} ms), ${median(rss).toFixed(0)} MB peak RSS   [${summary}]`,
  );
}
