// AgentXchain governance report and export diff in Chromium (the targets of the issue 'Read the run
// you verified', 'Benchmark' and 'Component'), on the 54 MB real run export of the bench data
// (BENCH_DATA, see bench/data.ts):
// 1. the core in a page: `reportAgentxchain` then JSON.stringify (from the .gz and from the plain
//    bytes) and `diffAgentxchain` of the export against itself, the core bundled by esbuild as an
//    ES module and served under the strict CSP, run on the main thread from bytes in memory;
// 2. `<verify-export>` on the built demo: the .gz picked, the verdict, the Run tab opened until the
//    governance report is drawn, then Compare with the same file picked again until the diff is
//    drawn; throughout, the longest gap of a 10 ms main-thread heartbeat (target ≤ 50 ms in the Run
//    and Compare views), with the longest main-thread task of each view from a Chromium trace: its
//    wall time and the CPU time it got, which tells the page's own work from waiting for a core;
//    and the most CPU time the page's tasks took between two heartbeats (main-thread.ts).
// Memory is the renderer process's peak RSS (Linux VmHWM, reset through /proc/<pid>/clear_refs
// before each run; the page's dedicated worker lives in the same process), beside its RSS at rest.
// Reference CLI (this machine, the file decompressed): `report --format json` 0.96 s, 300 MB;
// `diff --export large.json large.json --json` 0.97 s, 493 MB. The CLI's own figures are in
// agentxchain-report.bench.ts and agentxchain-diff.bench.ts.
import { build } from 'esbuild';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, PROJECT_ROOT, serveStatic } from '../test/e2e/serve.ts';
import { benchFile } from './data.ts';
import { BEAT, taskWords, traceMainThread, type MainThread } from './main-thread.ts';

const FILE = benchFile('agentxchain--large.json.gz');
const CORE_RUNS = 5;
const COMPONENT_RUNS = 3;
const NOW = '2026-11-25T00:00:00Z';
const REFERENCE = { report: { ms: 960, mb: 300 }, diff: { ms: 970, mb: 493 } };
const GAP_TARGET_MS = 50;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const reference = (which: keyof typeof REFERENCE): string =>
  `reference CLI ${REFERENCE[which].ms} ms, ${REFERENCE[which].mb} MB`;

const wallStart = performance.now();
const temp = await mkdtemp(join(tmpdir(), 'verify-export-views-bench-'));
const coreDir = join(temp, 'core');
const demoDir = join(temp, 'demo');
const gz = await readFile(FILE);
const plain = gunzipSync(gz);
await bundleCore(coreDir);
await copyFile(FILE, join(coreDir, 'large.json.gz'));
await writeFile(join(coreDir, 'large.json'), plain);
// The demo is built into this benchmark's own folder, so demo/dist (read by others) stays as it is.
const { build: viteBuild } = await import('vite');
await viteBuild({
  configFile: join(PROJECT_ROOT, 'vite.config.ts'),
  logLevel: 'warn',
  build: { outDir: demoDir, emptyOutDir: true },
});
const coreServer = await serveStatic(coreDir);
const demoServer = await serveStatic(demoDir);
const browser = await chromium.launch({
  ...CHROMIUM,
  args: [...CHROMIUM.args, '--js-flags=--expose-gc'],
  headless: true,
});
console.log(
  `input: ${FILE}\n  ${(gz.byteLength / 1e6).toFixed(1)} MB gzip, ${(plain.byteLength / 1e6).toFixed(1)} MB decompressed; ` +
    `Chromium ${browser.version()}; medians of ${CORE_RUNS} runs (core), ${COMPONENT_RUNS} (component)`,
);
try {
  await benchCore(browser);
  await benchComponent(browser);
} finally {
  await browser.close();
  await coreServer.close();
  await demoServer.close();
  await rm(temp, { recursive: true, force: true });
}
console.log(`wall ${((performance.now() - wallStart) / 1000).toFixed(1)} s`);

/** src/index.ts as the browser loads it: an ES module (with its lazy format chunks) and a page that imports it. */
async function bundleCore(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: { index: 'src/index.ts' },
    outdir: dir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['verify-export-source'],
    logLevel: 'warning',
  });
  // No inline script: the strict CSP allows the page's own files only.
  await writeFile(
    join(dir, 'harness.js'),
    "import * as core from './index.js';\nglobalThis.verifyExportCore = core;\ndocument.title = 'ready';\n",
  );
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>loading</title><script type="module" src="./harness.js"></script>\n',
  );
}

// ——— 1. The core in a page ———

type CoreJob = 'report-gz' | 'report-plain' | 'diff-plain' | 'diff-gz';

async function benchCore(browser: Browser): Promise<void> {
  console.log(`\ncore in a page (main thread, bytes in memory); load average ${loadAverage()} (2 cores)`);
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${coreServer.origin}/`);
    await page.waitForFunction(() => document.title === 'ready');
    // (Functions run in the page declare no named inner functions: tsx would wrap them in its `__name` helper.)
    await page.evaluate(async () => {
      const [benchGz, benchPlain] = await Promise.all(
        ['./large.json.gz', './large.json'].map(async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer())),
      );
      Object.assign(globalThis, { benchGz, benchPlain });
    });
    const renderer = await rendererPids(browser);
    const jobs: readonly (readonly [CoreJob, string, keyof typeof REFERENCE])[] = [
      ['report-gz', 'reportAgentxchain + JSON.stringify, .gz', 'report'],
      ['report-plain', 'reportAgentxchain + JSON.stringify, plain', 'report'],
      ['diff-plain', 'diffAgentxchain, plain vs itself', 'diff'],
      ['diff-gz', 'diffAgentxchain, .gz vs itself', 'diff'],
    ];
    for (const [job, label, which] of jobs) {
      const times: number[] = [];
      const peaks: number[] = [];
      const rests: number[] = [];
      for (let i = 0; i < CORE_RUNS; i++) {
        await page.evaluate(() => (globalThis as { gc?: () => void }).gc?.());
        rests.push(resetPeak(renderer));
        const result = await page.evaluate(runCoreJob, { job, now: NOW });
        peaks.push(peakMb(renderer));
        if (!result.ok) throw new Error(`${label}: ${result.what}`);
        times.push(result.ms);
      }
      console.log(
        `  ${label.padEnd(46)} ${median(times).toFixed(0).padStart(5)} ms, renderer peak RSS ${median(peaks).toFixed(0)} MB ` +
          `(${median(rests).toFixed(0)} MB at rest, input bytes held) — ${reference(which)}`,
      );
    }
  } finally {
    await context.close();
  }
}

/** Runs in the page: one timed core job over the bytes the page holds; `ok` when the result is the expected one. */
async function runCoreJob({
  job,
  now,
}: {
  job: CoreJob;
  now: string;
}): Promise<{ ok: boolean; ms: number; what: string }> {
  interface Core {
    reportAgentxchain(input: Uint8Array, options: object): Promise<{ overall: string }>;
    diffAgentxchain(
      left: Uint8Array,
      right: Uint8Array,
      options: object,
    ): Promise<{ ok: boolean; diff?: { changed: boolean } }>;
  }
  const scope = globalThis as unknown as { verifyExportCore: Core; benchGz: Uint8Array; benchPlain: Uint8Array };
  const core = scope.verifyExportCore;
  const bytes = job.endsWith('-gz') ? scope.benchGz : scope.benchPlain;
  const name = job.endsWith('-gz') ? 'large.json.gz' : 'large.json';
  const start = performance.now();
  if (job.startsWith('report')) {
    const report = await core.reportAgentxchain(bytes, { name, now });
    const json = JSON.stringify(report, null, 2);
    const ms = performance.now() - start;
    return { ok: report.overall === 'pass' && json.length > 0, ms, what: `overall ${report.overall}` };
  }
  const result = await core.diffAgentxchain(bytes, bytes, { leftName: name, rightName: name });
  const ms = performance.now() - start;
  return { ok: result.ok && result.diff?.changed === false, ms, what: JSON.stringify(result).slice(0, 300) };
}

// ——— 2. The component on the built demo ———

interface ComponentRun {
  readonly verdict: string;
  readonly verifyMs: number;
  readonly runMs: number;
  readonly compareMs: number;
  readonly outcome: string;
  /** Longest heartbeat gap per phase: verification, Run view, Compare view. */
  readonly gaps: { readonly verify: number; readonly run: number; readonly compare: number };
  /** The Run and Compare phases' main thread (trace): the longest task, the busiest heartbeat gap. */
  readonly thread: { readonly run: MainThread; readonly compare: MainThread };
  /** Longest long task (main-thread work ≥ 50 ms) per phase; 0 when none. */
  readonly longTasks: { readonly verify: number; readonly run: number; readonly compare: number };
  readonly peakMb: number;
  readonly restMb: number;
}

async function benchComponent(browser: Browser): Promise<void> {
  console.log(`\n<verify-export> on the built demo (strict CSP), the .gz picked; load average ${loadAverage()}`);
  const runs: ComponentRun[] = [];
  for (let i = 0; i < COMPONENT_RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const run = await componentRun(browser, await context.newPage());
      runs.push(run);
      console.log(
        `  run ${i + 1}: verdict ${run.verdict} ${run.verifyMs.toFixed(0)} ms; Run view drawn ${run.runMs.toFixed(0)} ms after the click; ` +
          `diff (${run.outcome}) drawn ${run.compareMs.toFixed(0)} ms after the pick; longest gaps: verify ${run.gaps.verify.toFixed(0)}, ` +
          `Run ${run.gaps.run.toFixed(0)}, Compare ${run.gaps.compare.toFixed(0)} ms (longest task, wall/CPU: Run ${taskWords(run.thread.run.longest)}, Compare ${taskWords(run.thread.compare.longest)}; ` +
          `most CPU between two heartbeats: Run ${taskWords(run.thread.run.busiest)}, Compare ${taskWords(run.thread.compare.busiest)}; longest long task: ` +
          `verify ${run.longTasks.verify.toFixed(0)}, Run ${run.longTasks.run.toFixed(0)}, Compare ${run.longTasks.compare.toFixed(0)} ms); renderer peak RSS ${run.peakMb.toFixed(0)} MB ` +
          `(${run.restMb.toFixed(0)} at rest); load ${loadAverage()}`,
      );
    } finally {
      await context.close();
    }
  }
  const pick = (of: (run: ComponentRun) => number) => median(runs.map(of));
  const gap = (of: (run: ComponentRun) => number) => {
    const value = pick(of);
    return `${value.toFixed(0)} ms ${value <= GAP_TARGET_MS ? '(met)' : '(NOT met)'}`;
  };
  console.log(
    `  medians: verify ${pick((r) => r.verifyMs).toFixed(0)} ms; Run tab → report drawn ${pick((r) => r.runMs).toFixed(0)} ms ` +
      `— ${reference('report')}; pick → diff drawn ${pick((r) => r.compareMs).toFixed(0)} ms — ${reference('diff')}; ` +
      `renderer peak RSS over the whole session ${pick((r) => r.peakMb).toFixed(0)} MB`,
  );
  console.log(
    `  longest main-thread gap (target ≤ ${GAP_TARGET_MS} ms): Run view ${gap((r) => r.gaps.run)}, ` +
      `Compare view ${gap((r) => r.gaps.compare)}; while verifying ${pick((r) => r.gaps.verify).toFixed(0)} ms; ` +
      `longest main-thread task, wall/CPU: Run ${pick((r) => r.thread.run.longest.wallMs).toFixed(0)}/` +
      `${pick((r) => r.thread.run.longest.cpuMs).toFixed(0)} ms, Compare ${pick((r) => r.thread.compare.longest.wallMs).toFixed(0)}/` +
      `${pick((r) => r.thread.compare.longest.cpuMs).toFixed(0)} ms (CPU is the page's own work; the rest is waiting for a core); ` +
      `most main-thread CPU between two heartbeats: Run ${pick((r) => r.thread.run.busiest.cpuMs).toFixed(0)} ms, ` +
      `Compare ${pick((r) => r.thread.compare.busiest.cpuMs).toFixed(0)} ms`,
  );
}

type Phase = 'verify' | 'run' | 'compare';

/** What the page records (`globalThis.viewsBench`); times are the page's `performance.now()`. */
interface PageState {
  phase: Phase;
  gaps: Record<Phase, number>;
  pickedAt: number;
  done: number;
  verdict: string;
  runClickedAt: number;
  comparePickedAt: number;
  stop: boolean;
  longTasks: { start: number; duration: number }[];
}

async function componentRun(browser: Browser, page: Page): Promise<ComponentRun> {
  await page.goto(`${demoServer.origin}/`);
  await page.waitForFunction(() => customElements.get('verify-export') !== undefined);
  await page.evaluate(() => (globalThis as { gc?: () => void }).gc?.());
  const renderer = await rendererPids(browser);
  const restMb = resetPeak(renderer);
  await page.evaluate((beatLabel) => {
    const element = document.querySelector('verify-export')!;
    const state: PageState = {
      phase: 'verify',
      gaps: { verify: 0, run: 0, compare: 0 },
      pickedAt: 0,
      done: 0,
      verdict: '',
      runClickedAt: 0,
      comparePickedAt: 0,
      stop: false,
      // Long tasks (≥ 50 ms of the main thread's own work; Long Tasks API): a heartbeat gap with no long
      // task under it is the thread waiting for a core on a loaded machine, not the page's code.
      longTasks: [],
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) state.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask' });
    (globalThis as unknown as { viewsBench: PageState }).viewsBench = state;
    // A 10 ms heartbeat: a gap much longer than that is the main thread being blocked. A gap is
    // counted in the phase it ends in.
    let last = performance.now();
    const beat = setInterval(() => {
      const now = performance.now();
      state.gaps[state.phase] = Math.max(state.gaps[state.phase], now - last);
      last = now;
      // A mark in the trace of the Run and Compare phases (main-thread.ts).
      console.timeStamp(beatLabel);
      if (state.stop) clearInterval(beat);
    }, 10);
    const root = element.shadowRoot!;
    root.querySelector('input[type="file"]')!.addEventListener('change', () => (state.pickedAt = performance.now()), {
      capture: true,
      once: true,
    });
    element.addEventListener(
      'verify-export:result',
      (event) => {
        state.done = performance.now();
        state.verdict = (event as CustomEvent<{ overall: string }>).detail.overall;
      },
      { once: true },
    );
    element.addEventListener(
      'verify-export:error',
      (event) => {
        state.done = performance.now();
        state.verdict = `error: ${(event as CustomEvent<{ message: string }>).detail.message}`;
      },
      { once: true },
    );
    // When the Run tab is clicked and when the second export is picked (the Compare tab's input).
    root.addEventListener(
      'click',
      (event) => {
        if ((event.target as Element).closest?.('#tab-run') && state.runClickedAt === 0) {
          state.phase = 'run';
          state.runClickedAt = performance.now();
        }
      },
      { capture: true },
    );
    root.addEventListener(
      'change',
      (event) => {
        if ((event.target as Element).closest?.('[part="compare-view"]')) {
          state.phase = 'compare';
          state.comparePickedAt = performance.now();
        }
      },
      { capture: true },
    );
  }, BEAT);
  const element = page.locator('verify-export');
  await element.locator('input[type="file"]').first().setInputFiles(FILE);
  await page.waitForFunction(
    () => (globalThis as unknown as { viewsBench: { done: number } }).viewsBench.done > 0,
    undefined,
    {
      timeout: 300_000,
    },
  );
  const verified = await page.evaluate(
    () => (globalThis as unknown as { viewsBench: { verdict: string } }).viewsBench.verdict,
  );
  if (verified !== 'pass') throw new Error(`verification: ${verified}`);
  await page.waitForTimeout(500); // the verification's own tail belongs to the verify phase

  const runTraced = await traceMainThread(browser, page, async () => {
    await element.getByRole('tab', { name: 'Run' }).click();
    const at = await page.evaluate(drawn, '[part="run-view"] [part="report-download"]');
    await page.waitForTimeout(500);
    return at;
  });

  await element.getByRole('tab', { name: 'Compare' }).click();
  const compareTraced = await traceMainThread(browser, page, async () => {
    await element.locator('[part="compare-view"] input[type="file"]').setInputFiles(FILE);
    const at = await page.evaluate(drawn, '[part="compare-view"] [part="compare"]');
    await page.waitForTimeout(500);
    return at;
  });
  const runDrawnAt = runTraced.value;
  const compareDrawnAt = compareTraced.value;

  const state = await page.evaluate(() => {
    const bench = (globalThis as unknown as { viewsBench: PageState }).viewsBench;
    bench.stop = true;
    const root = document.querySelector('verify-export')!.shadowRoot!;
    const outcome = root.querySelector('[part="compare"] .facts')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    return { ...bench, outcome };
  });
  const at = (key: 'pickedAt' | 'done' | 'runClickedAt' | 'comparePickedAt') => state[key];
  const gaps = state.gaps;
  const longTasks = { verify: 0, run: 0, compare: 0 };
  for (const task of state.longTasks) {
    const phase: Phase =
      at('comparePickedAt') > 0 && task.start >= at('comparePickedAt')
        ? 'compare'
        : at('runClickedAt') > 0 && task.start >= at('runClickedAt')
          ? 'run'
          : 'verify';
    longTasks[phase] = Math.max(longTasks[phase], task.duration);
  }
  return {
    verdict: state.verdict,
    verifyMs: at('done') - at('pickedAt'),
    runMs: runDrawnAt - at('runClickedAt'),
    compareMs: compareDrawnAt - at('comparePickedAt'),
    outcome: /Outcome (\w+)/.exec(state.outcome)?.[1] ?? 'not shown',
    gaps,
    longTasks,
    thread: { run: runTraced.thread, compare: compareTraced.thread },
    peakMb: peakMb(renderer),
    restMb,
  };
}

/**
 * Runs in the page: waits (frame by frame) until `selector` is in the element's shadow root and the
 * element has rendered, then for the frame that paints it; returns that time.
 */
async function drawn(selector: string): Promise<number> {
  const element = document.querySelector('verify-export') as HTMLElement & { updateComplete: Promise<unknown> };
  const deadline = performance.now() + 300_000;
  while (element.shadowRoot!.querySelector(selector) === null) {
    if (performance.now() > deadline) throw new Error(`${selector} never drawn`);
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  await element.updateComplete;
  await new Promise((resolve) => requestAnimationFrame(resolve));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return performance.now();
}

// ——— Renderer memory (Linux) ———

/** The browser's renderer processes (the page's, and a spare Chromium may keep). */
async function rendererPids(browser: Browser): Promise<number[]> {
  const session = await browser.newBrowserCDPSession();
  try {
    const info = (await session.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    return info.processInfo.filter((process) => process.type === 'renderer').map((process) => process.id);
  } finally {
    await session.detach();
  }
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // the process ended
  }
}

/** Resets the renderers' peak RSS to their current RSS; returns the largest current RSS, in MB. */
function resetPeak(pids: readonly number[]): number {
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // not ours or ended: its peak is then the peak since it started
    }
  }
  return Math.max(0, ...pids.map((pid) => statusKb(pid, 'VmRSS'))) / 1024;
}

/** The largest renderer peak RSS since the last reset, in MB. */
function peakMb(pids: readonly number[]): number {
  return Math.max(0, ...pids.map((pid) => statusKb(pid, 'VmHWM'))) / 1024;
}
