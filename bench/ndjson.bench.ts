// Streaming NDJSON verification speed and memory, on the bench data (BENCH_DATA, see
// bench/data.ts):
//   agent-history--design-large.ndjson.gz   108 MB decompressed, lines of ~20 MB, valid
//   agent-history--real-impl-large-*.gz      19 MB decompressed, valid
//   codex-exec--perf-60mb-chunks.jsonl.gz   60 MB decompressed, invalid (exec:end stdout not the tail)
//   agent-history--bomb-4gb.ndjson.gz        7.4 MB that expands to ~4 GiB: must stop at the limit
// Targets: >= 150 MB/s of decompressed input in Node (CLI), >= 100 MB/s in Chromium; peak RSS
// growth <= 64 MB whatever the size; the bomb rejected within 2 s with peak RSS growth <= 64 MB.
// Prints: the core in this process (default fflate decompressor and node:zlib), the CLI as a
// separate process (GNU time: wall clock and peak RSS, minus the CLI's RSS on a tiny file), and
// the core in headless Chromium (Playwright + an esbuild bundle), warm runs. On a busy machine
// wall clock says little: "cpu" rates divide by the process's CPU time (user + system, all
// threads) instead, i.e. what an otherwise idle core would do.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { nodeGunzip } from '../bin/node-gunzip.ts';
import { verifyAgentHistory } from '../src/formats/agent-history/index.ts';
import { verifyCodexExec } from '../src/formats/codex-exec/index.ts';
import type { VerifyOptions } from '../src/options.ts';
import { fixturePath, PROJECT_ROOT } from '../test/helpers/fixtures.ts';
import { BENCH_DATA as DATA, requireBenchFiles } from './data.ts';
import type { Report, ReportOf } from '../src/report.ts';

const RUNS = 3;
const files = [
  'agent-history--design-large.ndjson.gz',
  'agent-history--real-impl-large-claude-20251120140203_e6bc06c4-20df-d128-be96-9316999fb887.ndjson.gz',
  'codex-exec--perf-60mb-chunks.jsonl.gz',
  'agent-history--bomb-4gb.ndjson.gz',
];
requireBenchFiles(...files);

const expectations: Record<string, Report['overall']> = {
  'design-large': 'pass',
  'real-impl-large': 'pass',
  'perf-60mb': 'fail',
  bomb: 'error',
};
const expected = (file: string): Report['overall'] =>
  expectations[Object.keys(expectations).find((k) => file.includes(k))!]!;
const verifierFor = (
  file: string,
): ((input: Uint8Array, options: VerifyOptions) => Promise<ReportOf<'agent-history' | 'codex-exec'>>) =>
  file.startsWith('codex-exec') ? verifyCodexExec : verifyAgentHistory;

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1]!;
}
const mbps = (bytes: number, ms: number): string => `${(bytes / 1e6 / (ms / 1000)).toFixed(0).padStart(5)} MB/s`;

console.log(
  `NDJSON bench: ${DATA}; medians of ${RUNS} runs; MB/s = decompressed MB per second (the bomb: MB decompressed before it was stopped)`,
);

// 1. The core in this process.
console.log('\ncore (this process)');
for (const file of files) {
  const gz = new Uint8Array(readFileSync(join(DATA, file)));
  for (const [label, options] of [
    ['default (fflate)', {}],
    ['node:zlib (as the CLI)', { gunzip: nodeGunzip }],
  ] as const) {
    const times: number[] = [];
    const cpu: number[] = [];
    let report: ReportOf<'agent-history' | 'codex-exec'> | undefined;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      report = await verifierFor(file)(gz, { ...options, name: file });
      times.push(performance.now() - start);
      const used = process.cpuUsage(cpuStart);
      cpu.push((used.user + used.system) / 1000);
    }
    if (report!.overall !== expected(file))
      throw new Error(`${file}: expected ${expected(file)}, got ${report!.overall}`);
    const out = report!.details.bytes_out;
    console.log(
      `  ${file.slice(0, 44).padEnd(44)} ${label.padEnd(24)} ${median(times).toFixed(0).padStart(6)} ms ${mbps(out, median(times))}  cpu ${mbps(out, median(cpu))}  ${report!.overall}`,
    );
  }
}

// 2. The CLI, as a user runs it.
const cli = join(PROJECT_ROOT, 'bin/verify-export.js');
if (existsSync('/usr/bin/time')) {
  const measure = (path: string): { wall: number; cpu: number; rssMb: number; status: number | null } => {
    const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, cli, '--format', 'json', path], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const [wall, user, system, kb] = result.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
    return { wall: wall!, cpu: user! + system!, rssMb: kb! / 1024, status: result.status };
  };
  const tiny = Array.from({ length: RUNS }, () => measure(fixturePath('codex-exec', 'real-success.jsonl')));
  const baseline = median(tiny.map((r) => r.rssMb));
  const startCpu = median(tiny.map((r) => r.cpu));
  console.log(
    `\nCLI (bin/verify-export.js, node:zlib), on a tiny file: peak RSS ${baseline.toFixed(0)} MB, CPU ${(startCpu * 1000).toFixed(0)} ms (start-up)`,
  );
  for (const file of files) {
    const runs = Array.from({ length: RUNS }, () => measure(join(DATA, file)));
    const wall = median(runs.map((r) => r.wall));
    const growth = median(runs.map((r) => r.rssMb)) - baseline;
    const out = file.includes('bomb') ? 16 << 20 : gunzipSync(readFileSync(join(DATA, file))).byteLength;
    const cpu = median(runs.map((r) => r.cpu));
    const targetOk = file.includes('bomb') ? wall <= 2 && growth <= 64 : out / 1e6 / wall >= 150 && growth <= 64;
    console.log(
      `  ${file.slice(0, 44).padEnd(44)} exit ${runs[0]!.status}  ${(wall * 1000).toFixed(0).padStart(6)} ms ${mbps(out, wall * 1000)}  cpu ${(cpu * 1000).toFixed(0).padStart(5)} ms, less start-up ${mbps(out, Math.max(1, (cpu - startCpu) * 1000))}  peak RSS +${growth.toFixed(0)} MB  ${targetOk ? 'meets target (wall)' : 'misses target (wall)'}${file.includes('bomb') ? '' : ' (stretch: ≥ 350 MB/s)'}`,
    );
  }
}

// 3. The core in headless Chromium (default decompressor: DecompressionStream where usable).
const chromium = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
if (existsSync(chromium)) {
  const bundle = await build({
    stdin: {
      contents: `
        import { verifyAgentHistory } from './src/formats/agent-history/index.ts';
        import { verifyCodexExec } from './src/formats/codex-exec/index.ts';
        import { nativeGunzipUsable } from './src/stream/gunzip/index.ts';
        globalThis.benchNdjson = async (name, runs) => {
          const bytes = new Uint8Array(await (await fetch('/data/' + name)).arrayBuffer());
          const verify = name.startsWith('codex-exec') ? verifyCodexExec : verifyAgentHistory;
          const times = [];
          let report;
          for (let i = 0; i < runs + 1; i++) {
            const start = performance.now();
            report = await verify(new Blob([bytes]), { name });
            if (i > 0) times.push(performance.now() - start); // the first run warms the JIT up
          }
          return { times, overall: report.overall, out: report.details.bytes_out, native: await nativeGunzipUsable() };
        };`,
      resolveDir: PROJECT_ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'warning',
  });
  const { chromium: launcher } = await import('playwright-core');
  const browser = await launcher.launch({
    executablePath: chromium,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage();
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith('/data/'))
      return route.fulfill({ body: readFileSync(join(DATA, decodeURIComponent(url.pathname.slice(6)))) });
    return route.fulfill({ body: '<!doctype html><title>bench</title>', contentType: 'text/html' });
  });
  await page.goto('http://bench.invalid/');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  console.log(`\nChromium ${browser.version()} (core, Blob input, warm runs)`);
  for (const file of files) {
    const result = await page.evaluate(
      ([name, runs]) =>
        (
          globalThis as unknown as {
            benchNdjson(
              n: string,
              r: number,
            ): Promise<{ times: number[]; overall: string; out: number; native: boolean }>;
          }
        ).benchNdjson(name as string, runs as number),
      [file, RUNS] as const,
    );
    if (result.overall !== expected(file))
      throw new Error(`Chromium ${file}: expected ${expected(file)}, got ${result.overall}`);
    const ms = median(result.times);
    console.log(
      `  ${file.slice(0, 44).padEnd(44)} ${result.native ? 'DecompressionStream' : 'fflate'.padEnd(19)} ${ms.toFixed(0).padStart(6)} ms ${mbps(result.out, ms)}  ${result.overall}`,
    );
  }
  await browser.close();
}
