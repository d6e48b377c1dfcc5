// AgentXchain governance report speed and memory: `report --format json` on the 54 MB real run
// export of the bench data (BENCH_DATA, see bench/data.ts), in process (verification and the report
// built on the same parsed document, then JSON.stringify) and as a whole CLI process (wall time,
// peak RSS).
// Reference (`agentxchain report --format json`, CLI 2.159.0, same machine class): ~0.96 s wall,
// ~300 MB peak RSS. Targets: CLI at least 2× faster (≤ 480 ms) and at most half the memory (≤ 150 MB).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportAgentxchain, verifyAgentxchain } from '../src/formats/agentxchain/index.ts';
import { PROJECT_ROOT } from '../test/helpers/fixtures.ts';
import { benchFile } from './data.ts';
import { nodeGunzip } from '../bin/node-gunzip.ts';
import { nodeSha256 } from '../bin/node-sha256.ts';

const FILE = benchFile('agentxchain--large.json.gz');
const RUNS = 5;
const REFERENCE = { wallMs: 960, rssMb: 300 };
const TARGET = { wallMs: REFERENCE.wallMs / 2, rssMb: REFERENCE.rssMb / 2 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/** Wall and CPU time of one run (after a full GC, when exposed). */
async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; cpuMs: number; value: T }> {
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, value };
}

const gz = new Uint8Array(readFileSync(FILE));
console.log(`input: ${FILE}\n  ${(gz.byteLength / 1e6).toFixed(1)} MB gzip; medians of ${RUNS} runs`);
console.log(
  `  machine load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (2 cores; wall times inflate under load)`,
);
const options = { name: 'large.json.gz', sha256: nodeSha256, gunzip: nodeGunzip, now: '2026-11-25T00:00:00Z' };
const row = (label: string, ms: number, cpuMs: number): void =>
  console.log(`  ${label.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms  (CPU ${cpuMs.toFixed(0)} ms)`);

for (const [label, run] of [
  ['verify only (.gz, node:zlib, node:crypto)', async () => (await verifyAgentxchain(gz, options)).overall],
  [
    'report, then JSON.stringify (.gz, node:zlib, node:crypto)',
    async () => {
      const report = await reportAgentxchain(gz, options);
      return JSON.stringify(report, null, 2).length > 0 ? report.overall : 'empty';
    },
  ],
] as const) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timed(run));
  if (runs.some((r) => r.value !== 'pass')) throw new Error(`${label}: expected pass`);
  row(label, median(runs.map((r) => r.ms)), median(runs.map((r) => r.cpuMs)));
}
console.log(`  peak RSS of this benchmark process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

// The whole CLI process, as a user runs it (GNU time reports wall clock and peak RSS). The built
// CLI when dist/ has the report command, else the sources through tsx (which adds its own start-up).
const built = readFileSync(join(PROJECT_ROOT, 'dist/cli.js'), 'utf8').includes('reportCommand');
const entry = built
  ? [join(PROJECT_ROOT, 'bin/verify-export.js')]
  : ['--conditions=verify-export-source', '--import', 'tsx', join(PROJECT_ROOT, 'bin/cli.ts')];
if (existsSync('/usr/bin/time')) {
  const walls: number[] = [];
  const rss: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const result = spawnSync(
      '/usr/bin/time',
      ['-f', '%e %M %U %S', process.execPath, ...entry, 'report', '--compat', 'agentxchain', '--format', 'json', FILE],
      { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
    );
    if (result.status !== 0) throw new Error(`CLI exited ${result.status}: ${result.stderr}`);
    const [wall, kb, user, system] = result.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
    walls.push(wall! * 1000);
    rss.push(kb! / 1024);
    cpu.push((user! + system!) * 1000);
  }
  console.log(
    `  CLI process (${built ? 'dist' : 'sources via tsx'}; report --compat agentxchain --format json, .gz): ${median(walls).toFixed(0)} ms wall (CPU ${median(cpu).toFixed(0)} ms), ${median(rss).toFixed(0)} MB peak RSS`,
  );
  console.log(
    `    reference: ${REFERENCE.wallMs} ms, ${REFERENCE.rssMb} MB; targets ≤ ${TARGET.wallMs} ms, ≤ ${TARGET.rssMb} MB: ${median(walls) <= TARGET.wallMs ? 'wall met' : 'wall NOT met'}, ${median(rss) <= TARGET.rssMb ? 'memory met' : 'memory NOT met'}`,
  );
} else {
  console.log('  /usr/bin/time not found: CLI process not measured');
}
