// Edge worker in real workerd: wall time and peak memory (VmHWM of the workerd process, from
// /proc) for the large bench artifacts, each in a fresh workerd so every peak is its own.
// Target (docs/architecture.md, 'Benchmarks'): within workerd's 128 MB per-isolate
// limit. Standalone workerd does not enforce that limit, so this measures, two ways:
// - the workerd process: its peak above the idle process (`Δ`), also under a 16 MB V8 old space.
//   An upper bound: it counts the runtime's own memory for a request (about 20 MB for a small
//   one) and garbage V8 had no reason to collect yet, which an isolate near its limit would;
// - the isolate: the same core in Node with the smallest V8 old space it completes in (and a 1 MB
//   young generation, 3 MB in all), plus the ArrayBuffers it still holds after a full GC.
//   Cloudflare counts an isolate's JS heap and WebAssembly memory; buffers are counted here too.
// Usage: npm run bench -- edge   (or: node --import tsx bench/edge.bench.ts [name-filter])
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { allFixtureCases, FORMATS, startWorkerd } from '../test/runtimes/harness.ts';
import { exportWithFile } from '../test/runtimes/edge-artifacts.ts';
import { BENCH_DATA, hasBenchFile, missingMessage } from './data.ts';
import {
  DEFAULT_EDGE_LIMITS,
  DEFAULT_EDGE_RETAINED_BYTES,
  DEFAULT_MAX_BODY_BYTES,
  EDGE_REQUEST_BUDGET_BYTES,
} from '../src/edge/options.ts';
import { verify } from '../src/verify.ts';
import { chunkedStream } from '../test/runtimes/chunked.ts';
import { execStream } from '../test/runtimes/exec-stream.ts';
import type { Report } from '../src/report.ts';

const MiB = 1024 * 1024;

// Child mode of the heap probe below: verify one file in this (heap-limited) process.
// `synthetic:N` verifies N bytes of the generated codex-exec stream instead of a file.
if (process.argv[2] === '--heap-probe') {
  const target = process.argv[3]!;
  // Decompressed here, so that the verifier asks for every 1 MiB of the document it holds.
  const source = target.startsWith('synthetic:')
    ? execStream(Number(target.slice('synthetic:'.length)))
    : new Uint8Array(target.endsWith('.gz') ? gunzipSync(readFileSync(target)) : readFileSync(target));
  // ArrayBuffers live outside the V8 heap the old-space limit bounds: sample what is still held
  // after a full GC each time another 1 MiB reaches the verifier (and at the end), above what
  // this process held before verifying (the input itself).
  const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => undefined);
  // Buffers freed by one collection are released by finalizers on a later turn: settle first.
  for (let turn = 0; turn < 3; turn++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const idleBuffers = process.memoryUsage().arrayBuffers;
  let liveBuffers = 0;
  const sample = (): void => {
    gc();
    liveBuffers = Math.max(liveBuffers, process.memoryUsage().arrayBuffers - idleBuffers);
  };
  const chunks = source instanceof Uint8Array ? chunkedStream(source, MiB) : source;
  const reader = chunks.getReader();
  let sinceSample = 0;
  const input = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      sinceSample += value.byteLength;
      if (sinceSample >= MiB) {
        sinceSample = 0;
        sample();
      }
      controller.enqueue(value);
    },
  });
  // The edge's own limits: Zaxy keeps only DEFAULT_EDGE_RETAINED_BYTES of what it has read.
  const report = await verify(input, {
    name: target.replace(/\.gz$/, ''),
    limits: { maxRetainedBytes: DEFAULT_EDGE_RETAINED_BYTES },
  });
  sample();
  // VmHWM, not resourceUsage().maxRSS: Linux keeps ru_maxrss across fork and exec, so a child of
  // this large bench process would report the parent's peak (980 MB here) instead of its own.
  const hwm = existsSync('/proc/self/status')
    ? /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    : undefined;
  const maxRssKb = hwm === undefined ? process.resourceUsage().maxRSS : Number(hwm);
  const lines =
    report.format === 'agent-history' || report.format === 'codex-exec' ? report.details.line_count : undefined;
  console.log(
    JSON.stringify({
      overall: report.overall,
      lines,
      maxRssMb: Math.round(maxRssKb / 1024),
      liveBuffersMb: Math.round(liveBuffers / 2 ** 20),
    }),
  );
  process.exit(0);
}

const ISOLATE_LIMIT = 128 * MiB;
/** A verification that takes longer than this is reported as hung (workerd's CPU limit is far lower). */
const REQUEST_TIMEOUT_MS = 120_000;

const ARTIFACTS = [
  {
    file: 'agentxchain--large.json.gz',
    what: 'AgentXchain run export, 54 MB JSON (whole document)',
    wholeDocument: true,
  },
  {
    file: 'zaxy--bundle-100k-ml-dsa-65.json.gz',
    what: 'Zaxy signed bundle, 100k entries, 56 MB JSON (entries dropped once read: the edge keeps 4 MiB)',
    wholeDocument: true,
  },
  { file: 'zaxy--subset-1k-ml-dsa-65.json.gz', what: 'Zaxy disclosed subset, 1k entries' },
  {
    file: 'agent-history--real-impl-large-claude-20251120140203_e6bc06c4-20df-d128-be96-9316999fb887.ndjson.gz',
    what: 'agent-history 2.0 NDJSON, 19 MB (streamed)',
  },
  { file: 'agent-history--design-large.ndjson.gz', what: 'agent-history 1.0 NDJSON, 108 MB (streamed)' },
  { file: 'codex-exec--perf-60mb-chunks.jsonl.gz', what: 'codex-exec JSONL, 60 MB (streamed)' },
  { file: 'agent-history--bomb-4gb.ndjson.gz', what: 'gzip bomb, ~4 GiB expanded (must stop at the limit)' },
];

const filter = process.argv.slice(2);

/**
 * The smallest V8 old space (MB, to 16 MB; young generation 1 MB) with which Node's core still
 * verifies `path`, the ArrayBuffers it held at most (after GC) and the process's peak RSS then:
 * what the formats really need once garbage is collected, which the workerd peak overstates (V8
 * collects lazily when nothing presses it).
 */
function smallestHeap(path: string): { heapMb: number; rssMb: number; liveBuffersMb: number } | undefined {
  type Probe = { maxRssMb: number; liveBuffersMb: number };
  const run = (mb: number): Probe | undefined => {
    const child = spawnSync(
      process.execPath,
      [
        `--max-old-space-size=${mb}`,
        '--max-semi-space-size=1',
        '--expose-gc',
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--heap-probe',
        path,
      ],
      { encoding: 'utf8' },
    );
    return child.status === 0 ? (JSON.parse(child.stdout.trim().split('\n').pop()!) as Probe) : undefined;
  };
  let low = 0;
  let high = 1024;
  let probe = run(high);
  if (probe === undefined) return undefined;
  while (high - low > 16) {
    const middle = Math.round((low + high) / 32) * 16;
    const result = run(middle);
    if (result === undefined) low = middle;
    else [high, probe] = [middle, result];
  }
  return { heapMb: high, rssMb: probe.maxRssMb, liveBuffersMb: probe.liveBuffersMb };
}

const mb = (bytes: number): string => (bytes / MiB).toFixed(1);

/** Peak RSS of Node with tsx doing nothing: the part of the RSS above that is not verification. */
const nodeBaselineMb = Math.round(
  Number(
    spawnSync(process.execPath, ['--import', 'tsx', '-e', 'console.log(process.resourceUsage().maxRSS / 1024)'], {
      encoding: 'utf8',
    }).stdout.trim(),
  ),
);

if (filter.length === 0 || filter.includes('defaults')) await defaultsBench();

console.log('file | overall (status) | wall | workerd peak (VmHWM) | baseline | Δ | Δ within 128 MB?');
for (const artifact of ARTIFACTS) {
  if (filter.length > 0 && !filter.some((word) => artifact.file.includes(word))) continue;
  const path = join(BENCH_DATA, artifact.file);
  if (!hasBenchFile(artifact.file)) {
    console.log(`${artifact.file}: skipped, ${missingMessage(artifact.file)}`);
    continue;
  }
  const body = readFileSync(path);
  const workerd = await startWorkerd([
    { name: 'main', vars: { MAX_BODY_BYTES: String(512 * MiB), MAX_BUFFERED_BYTES: String(512 * MiB) } },
  ]);
  try {
    const baseline = workerd.peakBytes();
    const started = performance.now();
    let response: Response;
    let report: Report;
    try {
      response = await fetch(`${workerd.urls['main']}?name=${encodeURIComponent(artifact.file)}`, {
        method: 'POST',
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      report = (await response.json()) as Report;
    } catch (error) {
      console.log(
        `${artifact.file} | no answer within ${REQUEST_TIMEOUT_MS / 1000} s (${(error as Error).name}); workerd at ${mb(workerd.peakBytes())} MB peak`,
      );
      continue;
    }
    const wall = performance.now() - started;
    const peak = workerd.peakBytes();
    const delta = peak - baseline;
    const codes = [
      ...new Set(report.findings.filter((finding) => finding.severity === 'error').map((finding) => finding.code)),
    ].slice(0, 3);
    console.log(
      `${artifact.file} | ${report.overall} (${response.status})${codes.length ? ` ${codes.join(',')}` : ''} | ${(wall / 1000).toFixed(2)} s | ${mb(peak)} MB | ${mb(baseline)} MB | ${mb(delta)} MB | ${delta <= ISOLATE_LIMIT ? 'yes' : `NO, over by ${mb(delta - ISOLATE_LIMIT)} MB`}`,
    );
    console.log(
      `    ${artifact.what}; ${mb(body.byteLength)} MB sent, ${mb(report.stats.bytes_read)} MB read; details: ${JSON.stringify(report.details).slice(0, 160)}`,
    );
    if (artifact.wholeDocument) {
      // Under GC pressure (as under the isolate limit) the peak shows live memory, not lazy garbage.
      const pressed = await startWorkerd(
        [{ name: 'main', vars: { MAX_BODY_BYTES: String(512 * MiB), MAX_BUFFERED_BYTES: String(512 * MiB) } }],
        {},
        { v8Flags: ['--max-old-space-size=16'] },
      );
      try {
        const idle = pressed.peakBytes();
        const answer = await fetch(`${pressed.urls['main']}?name=${encodeURIComponent(artifact.file)}`, {
          method: 'POST',
          body,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        })
          .then(async (reply) => `${((await reply.json()) as Report).overall} (${reply.status})`)
          .catch((error: Error) => `no answer (${error.name}: the isolate died)`);
        console.log(
          `    workerd with a 16 MB V8 old space: ${answer}, peak ${mb(pressed.peakBytes())} MB, Δ ${mb(pressed.peakBytes() - idle)} MB`,
        );
      } finally {
        await pressed.stop();
      }
    }
    if (!artifact.file.includes('bomb')) {
      const heap = smallestHeap(path);
      console.log(
        heap === undefined
          ? '    Node: does not complete even with a 1024 MB old space'
          : `    Node: smallest --max-old-space-size that completes: ${heap.heapMb} MB, plus ArrayBuffers held at most ${heap.liveBuffersMb} MB (after GC, per 1 MiB read): ` +
              `isolate memory ~${heap.heapMb + 3 + heap.liveBuffersMb} MB, ${heap.heapMb + 3 + heap.liveBuffersMb <= 128 ? 'within' : 'OVER'} 128 MB; peak RSS then ${heap.rssMb} MB (Node + tsx alone: ${nodeBaselineMb} MB)`,
      );
    }
  } finally {
    await workerd.stop();
  }
}

// Flat memory for NDJSON of any size: a well-formed synthetic codex-exec stream generated while
// it is sent, at two sizes four times apart. If memory is flat, both peaks are about the same.
if (filter.length === 0 || filter.some((word) => 'synthetic'.includes(word))) {
  console.log('\nsynthetic codex-exec JSONL, generated while sent (flat memory check)');
  // Default heap at two sizes, then the largest under a 16 MB old space: completing there shows
  // the isolate's live memory stays flat (VmHWM also counts workerd's own buffers and garbage).
  const runs: [number, string[]][] = [
    [128 * MiB, []],
    [512 * MiB, []],
    [960 * MiB, ['--max-old-space-size=16']],
  ];
  for (const [size, v8Flags] of runs) {
    const workerd = await startWorkerd(
      [{ name: 'main', vars: { MAX_BODY_BYTES: String(1024 * MiB) } }],
      {},
      { v8Flags },
    );
    try {
      const baseline = workerd.peakBytes();
      const started = performance.now();
      const response = await fetch(`${workerd.urls['main']}?name=synthetic.jsonl`, {
        method: 'POST',
        body: execStream(size),
        duplex: 'half',
      } as RequestInit);
      const report = (await response.json()) as Report;
      const wall = (performance.now() - started) / 1000;
      const peak = workerd.peakBytes();
      console.log(
        `${mb(size)} MB${v8Flags.length ? ` (${v8Flags.join(' ')})` : ''} | ${report.overall} (${response.status}) | ${wall.toFixed(2)} s (${(size / MiB / wall).toFixed(0)} MB/s) | peak ${mb(peak)} MB | Δ ${mb(peak - baseline)} MB | ${report.format === 'agent-history' || report.format === 'codex-exec' ? report.details.line_count : NaN} lines`,
      );
    } finally {
      await workerd.stop();
    }
  }
  // The same stream in Node with a 32 MB V8 old space: completing proves the memory is flat (the
  // workerd peaks above include garbage V8 had no reason to collect yet).
  for (const size of [128 * MiB, 1024 * MiB]) {
    const started = performance.now();
    const child = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=32',
        '--expose-gc',
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--heap-probe',
        `synthetic:${size}`,
      ],
      { encoding: 'utf8' },
    );
    const wall = (performance.now() - started) / 1000;
    console.log(
      `Node, --max-old-space-size=32, ${mb(size)} MB: ${child.status === 0 ? child.stdout.trim() : `failed (${child.status ?? child.signal})`} in ${wall.toFixed(1)} s`,
    );
  }
}

// ---- Under the edge's default limits (issue 15): one workerd, warmed, as a deployment runs. ----
// (a) each request's peak: how far the workerd process's peak (VmHWM) rose above the peak before
//     it, requests one at a time (an upper bound of what the request held: it also counts garbage
//     V8 had not collected yet, and workerd's own buffers);
// (b) the largest body of each format that verifies (a verdict, not a limit) with its peak within
//     EDGE_REQUEST_BUDGET_BYTES, and how many such requests at once fit a 128 MB isolate;
// (c) p99 latency with 16 and 64 concurrent clients, small fixtures mixed with few-MB artifacts.
async function defaultsBench(): Promise<void> {
  const budget = EDGE_REQUEST_BUDGET_BYTES;
  console.log(
    `\nedge defaults: maxBodyBytes ${mb(DEFAULT_MAX_BODY_BYTES)} MB, ${Object.entries(DEFAULT_EDGE_LIMITS)
      .map(([name, value]) => `${name} ${mb(value as number)} MB`)
      .join(', ')}; budget ${mb(budget)} MB per request`,
  );
  const workerd = await startWorkerd([{ name: 'main' }]);
  const url = workerd.urls['main']!;
  const send = async (body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>, name: string) => {
    const response = await fetch(`${url}?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    return { status: response.status, report: (await response.json()) as Report };
  };
  const measure = async (make: () => Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>, name: string) => {
    const before = workerd.peakBytes();
    const answer = await send(make(), name);
    return { ...answer, growth: workerd.peakBytes() - before };
  };
  const fixtures = allFixtureCases();
  try {
    // Warm every format's path once (module compilation, first allocations).
    for (const format of FORMATS) {
      const fixture = fixtures.find((c) => c.format === format)!;
      await send(new Uint8Array(readFileSync(fixture.path)), fixture.file);
    }
    await send(exportWithFile(9 * MiB), 'warm.json');

    type Candidate = {
      label: string;
      name: string;
      bytes: number;
      make: () => Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
    };
    const ladders: Record<string, Candidate[]> = {
      agentxchain: [0.25, 1, 2, 3.1, 3.3].map((text) => {
        const body = exportWithFile(text * MiB);
        return { label: 'run export, one large file', name: 'export.json', bytes: body.byteLength, make: () => body };
      }),
      zaxy: ['zaxy--subset-1k-ml-dsa-65.json.gz', 'zaxy--bundle-100k-ml-dsa-65.json.gz']
        .filter((file) => hasBenchFile(file))
        .map((file) => {
          const body = new Uint8Array(readFileSync(join(BENCH_DATA, file)));
          return { label: file, name: file, bytes: gunzipSync(body).byteLength, make: () => body };
        }),
      'agent-history': [
        'agent-history--real-impl-large-claude-20251120140203_e6bc06c4-20df-d128-be96-9316999fb887.ndjson.gz',
        'agent-history--design-large.ndjson.gz',
      ]
        .filter((file) => hasBenchFile(file))
        .map((file) => {
          const body = new Uint8Array(readFileSync(join(BENCH_DATA, file)));
          return { label: file, name: file, bytes: gunzipSync(body).byteLength, make: () => body };
        }),
      'codex-exec': [16, 64, 99].map((size) => ({
        label: 'generated exec JSONL',
        name: 'exec.jsonl',
        bytes: size * MiB,
        make: () => execStream(size * MiB),
      })),
    };
    console.log(
      '\n(a, b) one request at a time: format | body (decompressed) | status | verdict | peak rise | within budget',
    );
    const largest: Record<string, string> = {};
    for (const [format, candidates] of Object.entries(ladders)) {
      for (const candidate of candidates) {
        const { status, report, growth } = await measure(candidate.make, candidate.name);
        const verified = report.overall === 'pass' || report.overall === 'fail';
        const within = growth <= budget;
        console.log(
          `${format} | ${mb(candidate.bytes)} MB ${candidate.label} | ${status} | ${report.overall} | ${mb(growth)} MB | ${within ? 'yes' : 'NO'}`,
        );
        if (verified && within) largest[format] = `${mb(candidate.bytes)} MB (${candidate.label})`;
      }
    }
    console.log(`largest verified within ${mb(budget)} MB: ${JSON.stringify(largest)}`);

    // How many of the largest AgentXchain requests the defaults allow fit one isolate at once
    // (a fresh, warmed workerd each time: its peak only ever rises).
    const largestExport = exportWithFile(3.1 * MiB);
    for (const concurrent of [1, 2, 4, 8]) {
      const fresh = await startWorkerd([{ name: 'main' }]);
      try {
        const post = () => fetch(fresh.urls['main']!, { method: 'POST', body: largestExport }).then((r) => r.text());
        await post();
        const before = fresh.peakBytes();
        await Promise.all(Array.from({ length: concurrent }, post));
        const growth = fresh.peakBytes() - before;
        console.log(
          `${concurrent} concurrent ${mb(largestExport.byteLength)} MB exports: peak rise ${mb(growth)} MB | ${growth <= ISOLATE_LIMIT ? 'fits' : 'OVER'} 128 MB`,
        );
      } finally {
        await fresh.stop();
      }
    }

    // (c) p99 latency: each client sends one artifact after another, 9 small fixtures to 1 of a few MB.
    const small = fixtures.slice(0, 200).map((c) => ({ body: new Uint8Array(readFileSync(c.path)), name: c.file }));
    const large = [
      { body: exportWithFile(1.5 * MiB), name: 'export.json' },
      { body: gzipSync(await new Response(execStream(4 * MiB)).arrayBuffer()), name: 'exec.jsonl.gz' },
    ];
    for (const clients of [16, 64]) {
      const latencies: number[] = [];
      let next = 0;
      const total = clients * 12;
      const before = workerd.peakBytes();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < total) {
            const index = next++;
            const artifact = index % 10 === 9 ? large[index % large.length]! : small[index % small.length]!;
            const sent = performance.now();
            await send(new Uint8Array(artifact.body), artifact.name);
            latencies.push(performance.now() - sent);
          }
        }),
      );
      latencies.sort((a, b) => a - b);
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
      console.log(
        `(c) ${clients} clients, ${total} requests (1 in 10 of a few MB): p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, ` +
          `${(total / ((performance.now() - started) / 1000)).toFixed(0)} req/s; peak rise ${mb(workerd.peakBytes() - before)} MB`,
      );
    }
  } finally {
    await workerd.stop();
  }
}
