// <verify-export> in Chromium, on the built demo served under the strict CSP (targets, as in
// docs/architecture.md, 'Benchmarks'):
// - the demo is usable within 1 s on a warm load (element defined and rendered);
// - a 50 MB file shows progress within 200 ms of being picked;
// - the page stays responsive while it verifies (longest gap of a 10 ms main-thread heartbeat);
// - bytes of JavaScript/WASM actually fetched for an AgentXchain export;
// - on a fresh page, file picked → verdict for the AgentXchain .gz and the Zaxy 100k bundle, as a
//   multiple of the reference tools' wall time (targets ≥ 3× and ≥ 5×).
// Inputs come from the bench data (BENCH_DATA, see bench/data.ts; decompressed to a temp file where
// a plain file is needed).
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildDemo, CHROMIUM, PROJECT_ROOT, serveStatic } from '../test/e2e/serve.ts';
import { BENCH_DATA, requireBenchFiles } from './data.ts';
import { agentxchainReferenceCommand, canTimeProcesses, timeProcess } from './process-time.ts';

requireBenchFiles(
  'agentxchain--large.json.gz',
  'codex-exec--perf-60mb-chunks.jsonl.gz',
  'zaxy--bundle-100k-ml-dsa-65.json.gz',
);
const wallStart = performance.now();

/** How long a person takes to choose a file once the chooser is open (at the least). */
const HUMAN_CHOOSE_MS = 1000;

/** Runs of each picked → verdict figure (median printed). */
const PICK_RUNS = Number(process.env['PICK_RUNS'] ?? 5);
/**
 * The reference tools' wall times: as recorded with the bench data (../shared/FIXTURES.md) and as
 * the issue that set the target measured them beside the kit in one run. Where the reference can
 * run here (`sameRun`: AgentXchain's CLI, with AGENTXCHAIN_REFERENCE_CLI set), it also runs once
 * after each pick, on the decompressed file as it reads it, and the ratio is taken pair by pair.
 */
const PICK_TO_VERDICT = [
  {
    name: 'AgentXchain 54 MB .gz',
    file: 'agentxchain--large.json.gz',
    reference: [
      ['`agentxchain verify export` as recorded', 1.0],
      ['the same, as measured with issue 20', 0.68],
    ] as const,
    sameRun: agentxchainReferenceCommand,
    target: 3,
  },
  {
    name: 'Zaxy 100k .gz',
    file: 'zaxy--bundle-100k-ml-dsa-65.json.gz',
    reference: [
      ["Zaxy's Python verifier as recorded", 4.0],
      ['the same, as measured with issue 20', 2.7],
    ] as const,
    sameRun: undefined,
    target: 5,
  },
];

await buildDemo();
const server = await serveStatic();
const temp = await mkdtemp(join(tmpdir(), 'verify-export-bench-'));
const browser = await chromium.launch({ ...CHROMIUM, headless: true });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const fetched: { url: string; bytes: number }[] = [];
  page.on('response', async (response) => {
    const url = response.url();
    if (!/\.(js|wasm)$/.test(new URL(url).pathname)) return;
    const body = await response.body().catch(() => undefined);
    if (body) fetched.push({ url, bytes: gzipSync(body).byteLength });
  });

  // Load times: first (cold) and second (warm: browser caches and compiled code are populated).
  const usable: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(`${server.origin}/`);
    usable.push(
      await page.evaluate(async () => {
        await customElements.whenDefined('verify-export');
        const element = document.querySelector('verify-export') as HTMLElement & { updateComplete: Promise<unknown> };
        await element.updateComplete;
        return performance.now();
      }),
    );
  }
  console.log(
    `demo usable after load: cold ${usable[0]!.toFixed(0)} ms, warm ${usable
      .slice(1)
      .map((t) => t.toFixed(0))
      .join(' / ')} ms (target ≤ 1000 ms warm)`,
  );

  // What one AgentXchain export costs in code.
  fetched.length = 0;
  await page.goto(`${server.origin}/`);
  await verifyFile(page, join(PROJECT_ROOT, 'demo', 'samples', 'agentxchain-pass.json'));
  const shellAndDemo = fetched.reduce((sum, entry) => sum + entry.bytes, 0);
  console.log(
    `JS/WASM fetched to verify an AgentXchain export (demo page incl.): ${(shellAndDemo / 1024).toFixed(1)} KB gzip in ${fetched.length} files`,
  );
  for (const entry of fetched) console.log(`  ${new URL(entry.url).pathname}  ${(entry.bytes / 1024).toFixed(1)} KB`);

  // 50 MB: the decompressed large AgentXchain export, picked through the file input.
  const large = join(temp, 'agentxchain-large.json');
  await writeFile(large, gunzipSync(await readFile(join(BENCH_DATA, 'agentxchain--large.json.gz'))));
  for (let run = 0; run < 3; run++) {
    await page.goto(`${server.origin}/`);
    const result = await verifyFile(page, large);
    console.log(
      `54 MB AgentXchain export: first progress ${result.firstProgressMs.toFixed(0)} ms after pick (target ≤ 200), ` +
        `${result.progressEvents} progress events, verdict ${result.overall} after ${result.totalMs.toFixed(0)} ms ` +
        `(${(result.bytes / 1e6 / (result.totalMs / 1000)).toFixed(0)} MB/s), longest main-thread gap ${result.longestFrameGapMs.toFixed(0)} ms (ended ${result.gapEndedAfterResultMs.toFixed(0)} ms after the result)`,
    );
  }

  // A streamed format through gzip: the 60 MB codex-exec stream, as the .gz file.
  await page.goto(`${server.origin}/`);
  const gz = await verifyFile(page, join(BENCH_DATA, 'codex-exec--perf-60mb-chunks.jsonl.gz'));
  console.log(
    `codex-exec 3.1 MB gz (60 MB): first progress ${gz.firstProgressMs.toFixed(0)} ms, verdict ${gz.overall} after ${gz.totalMs.toFixed(0)} ms, longest main-thread gap ${gz.longestFrameGapMs.toFixed(0)} ms (ended ${gz.gapEndedAfterResultMs.toFixed(0)} ms after the result)`,
  );

  // A signed Zaxy bundle of 100,000 entries with an ML-DSA-65 signature (10 MB gz, 56 MB).
  await page.goto(`${server.origin}/`);
  const zaxy = await verifyFile(page, join(BENCH_DATA, 'zaxy--bundle-100k-ml-dsa-65.json.gz'));
  console.log(
    `Zaxy 100k-entry ML-DSA bundle (10 MB gz): first progress ${zaxy.firstProgressMs.toFixed(0)} ms, verdict ${zaxy.overall} after ${zaxy.totalMs.toFixed(0)} ms, longest main-thread gap ${zaxy.longestFrameGapMs.toFixed(0)} ms (ended ${zaxy.gapEndedAfterResultMs.toFixed(0)} ms after the result)`,
  );

  // Issue 20's figure: in a fresh context (cold cache) per run, the time from picking the file to
  // the verdict, worker start-up, module and WASM loading and reading the File included, against
  // the reference tools' own wall times (their recorded figures, and AgentXchain's CLI measured in
  // this run where it is installed).
  // Two ways to pick: the file set on the input at once (no sign of intent before it), and as a
  // person does, through the file chooser opened by a click, a second to choose (the element starts
  // its worker on the click).
  for (const { name, file, reference, sameRun, target } of PICK_TO_VERDICT) {
    const referenceCommand = canTimeProcesses() ? sameRun?.(large) : undefined;
    if (referenceCommand) timeProcess(referenceCommand); // warm-up
    for (const way of ['set at once', 'chosen 1 s after the click']) {
      const times: number[] = [];
      const referenceTimes: number[] = [];
      for (let run = 0; run < PICK_RUNS; run++) {
        const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const freshPage = await fresh.newPage();
        await freshPage.goto(`${server.origin}/`);
        const path = join(BENCH_DATA, file);
        const result = await verifyFile(freshPage, path, way === 'set at once' ? undefined : HUMAN_CHOOSE_MS);
        if (result.overall !== 'pass') throw new Error(`${name}: expected pass, got ${result.overall}`);
        times.push(result.totalMs);
        await fresh.close();
        if (referenceCommand) referenceTimes.push(timeProcess(referenceCommand).wall);
      }
      const median = medianOf(times);
      const sameRunRatio =
        referenceTimes.length === 0
          ? ''
          : `; ${medianOf(referenceTimes.map((wall, k) => wall / times[k]!)).toFixed(2)}× the reference CLI in this run, pair by pair (its median ${medianOf(referenceTimes).toFixed(0)} ms, on the decompressed file)`;
      console.log(
        `built demo, fresh page, ${name}, ${way}: picked → verdict median ${median.toFixed(0)} ms of ${times
          .map((t) => t.toFixed(0))
          .join(
            ' / ',
          )}; ${reference.map(([label, seconds]) => `${((seconds * 1000) / median).toFixed(2)}× ${label} (${seconds} s)`).join(', ')}${sameRunRatio} (target ≥ ${target}×)`,
      );
    }
  }
} finally {
  await browser.close();
  await server.close();
  await rm(temp, { recursive: true, force: true });
}
console.log(
  `wall ${((performance.now() - wallStart) / 1000).toFixed(1)} s, peak RSS (node side) ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);

function medianOf(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

interface Run {
  readonly firstProgressMs: number;
  readonly totalMs: number;
  readonly progressEvents: number;
  readonly longestFrameGapMs: number;
  /** When the longest gap ended, relative to the result event (positive: while rendering the report). */
  readonly gapEndedAfterResultMs: number;
  readonly overall: string;
  readonly bytes: number;
}

/**
 * Picks `path` in the element and waits for its verdict: set on the file input at once, or, with
 * `chooseMs`, through the file chooser a click on the drop zone opens, `chooseMs` after the click.
 */
async function verifyFile(page: import('playwright-core').Page, path: string, chooseMs?: number): Promise<Run> {
  await page.waitForFunction(() => customElements.get('verify-export') !== undefined);
  await page.evaluate(() => {
    const element = document.querySelector('verify-export')!;
    const input = element.shadowRoot!.querySelector('input[type="file"]')!;
    const state = {
      pickedAt: 0,
      firstProgress: 0,
      events: 0,
      done: 0,
      overall: '',
      bytes: 0,
      longestGap: 0,
      gapEndedAt: 0,
    };
    (window as unknown as { __bench: typeof state }).__bench = state;
    input.addEventListener(
      'change',
      () => {
        state.pickedAt = performance.now();
        // A 10 ms heartbeat: any gap much longer than that is the main thread being blocked.
        let last = performance.now();
        const beat = setInterval(() => {
          const now = performance.now();
          if (now - last > state.longestGap) {
            state.longestGap = now - last;
            state.gapEndedAt = now;
          }
          last = now;
          if (state.done !== 0 && now - state.done > 500) clearInterval(beat);
        }, 10);
      },
      { capture: true, once: true },
    );
    element.addEventListener('verify-export:progress', (event) => {
      state.events++;
      if (state.firstProgress === 0) state.firstProgress = performance.now();
      state.bytes = (event as CustomEvent<{ bytesRead: number }>).detail.bytesRead;
    });
    element.addEventListener(
      'verify-export:result',
      (event) => {
        state.done = performance.now();
        state.overall = (event as CustomEvent<{ overall: string }>).detail.overall;
      },
      { once: true },
    );
    element.addEventListener(
      'verify-export:error',
      () => {
        state.done = performance.now();
        state.overall = 'no report';
      },
      { once: true },
    );
  });
  if (chooseMs === undefined) await page.locator('verify-export input[type="file"]').setInputFiles(path);
  else {
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.locator('verify-export [part="dropzone"]').click(),
    ]);
    await page.waitForTimeout(chooseMs);
    await chooser.setFiles(path);
  }
  await page.waitForFunction(() => (window as unknown as { __bench: { done: number } }).__bench.done > 0, undefined, {
    timeout: 300_000,
  });
  await page.waitForTimeout(600);
  const state = await page.evaluate(() => (window as unknown as { __bench: Record<string, number | string> }).__bench);
  return {
    firstProgressMs: (state['firstProgress'] as number) - (state['pickedAt'] as number),
    totalMs: (state['done'] as number) - (state['pickedAt'] as number),
    progressEvents: state['events'] as number,
    longestFrameGapMs: state['longestGap'] as number,
    gapEndedAfterResultMs: (state['gapEndedAt'] as number) - (state['done'] as number),
    overall: state['overall'] as string,
    bytes: state['bytes'] as number,
  };
}
