// The element's verification worker with and without its helper worker (components/helper-threads.ts),
// in Chromium, in two parts (HELPER_BENCH_PARTS=worker,demo):
// 1. worker: the same file verified through the real worker protocol (components/worker-protocol.ts)
//    in each thread layout, one after the other, alternating, so that both see the same load on this
//    shared 2-core machine (paired; medians and the load average printed). Reports must be identical
//    whatever the layout. Wall times depend on whether the second core is free, so the CPU time of
//    the verification worker's thread (the critical path while helpers keep pace) and of the whole
//    renderer are printed too, read from /proc (Linux; 10 ms ticks).
// 2. demo: the built demo, a fresh page per run, file picked → verdict, built as it is and with the
//    helper off, alternating.
// Targets (issue "Use both cores in the browser"): Zaxy 100k .gz ≤ 500 ms, Zaxy 1k subset .gz
// ≤ 25 ms, AgentXchain 54 MB .gz ≤ 200 ms (from 865, 49 and 311 ms in one thread).
// HELPER_BENCH_RUNS runs per layout (default 7); HELPER_BENCH_FILES: bench data names for part 1;
// HELPER_BENCH_CUTS=4000,8000,16000 adds bundles of the 100k-entry one's first entries (plain and .gz),
// to find the size from which the helper pays off.
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { build, type Plugin as EsbuildPlugin } from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, PROJECT_ROOT, serveStatic } from '../test/e2e/serve.ts';
import { benchFile } from './data.ts';
import type { HelperChoice } from '../components/worker-protocol.ts';

const RUNS = Number(process.env['HELPER_BENCH_RUNS'] ?? 7);
const FILES = (
  process.env['HELPER_BENCH_FILES'] ??
  'zaxy--bundle-100k-ml-dsa-65.json.gz,zaxy--subset-1k-ml-dsa-65.json.gz,agentxchain--large.json.gz'
).split(',');

/**
 * The layouts compared: everything on the verification worker, and with the helper; each on a
 * verification worker kept from run to run (warm: its code compiled, the helper started) and on a
 * new one each run (fresh: as a page's first verification, but for loading the modules).
 */
const LAYOUTS: Record<string, { readonly helpers: HelperChoice; readonly fresh: boolean }> = {
  'one thread': { helpers: {}, fresh: false },
  'entry hashes on a helper': { helpers: { entryHashes: true }, fresh: false },
  'one thread, fresh': { helpers: {}, fresh: true },
  'helper, fresh': { helpers: { entryHashes: true }, fresh: true },
};
/** Bundles of the first N entries of the 100k-entry one, plain and gzipped (HELPER_BENCH_CUTS=4000,8000). */
const CUTS = (process.env['HELPER_BENCH_CUTS'] ?? '').split(',').filter(Boolean).map(Number);

/** Worker URLs name the built .js files, as build/build.mjs makes them name the compiled ones. */
const workerUrlsAsJs: EsbuildPlugin = {
  name: 'worker-urls-as-js',
  setup(build) {
    build.onLoad({ filter: /components[\\/][\w-]+\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replace(
        /new URL\('(\.\/[\w-]+-worker)\.ts', import\.meta\.url\)/g,
        "new URL('$1.js', import.meta.url)",
      ),
      loader: 'ts',
    }));
  },
};

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
/** User + system CPU time of a process or thread, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(statFile: string): number {
  try {
    const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The parent process id of `pid`. */
function parentOf(pid: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1];
  } catch {
    return undefined;
  }
}

/** Our browser's renderer process that runs the workers (the one with DedicatedWorker threads), if found. */
function rendererWithWorkers(browserPid: number | undefined): string | undefined {
  if (browserPid === undefined) return undefined;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      let ancestor = parentOf(pid);
      while (ancestor !== undefined && ancestor !== '0' && ancestor !== String(browserPid))
        ancestor = parentOf(ancestor);
      if (ancestor === String(browserPid) && workerThreads(pid).size > 0) return pid;
    } catch {
      // a process that ended meanwhile
    }
  }
  return undefined;
}

/** CPU ms of each worker thread of `pid`. */
function workerThreads(pid: string): Map<string, number> {
  const threads = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    // the process ended
  }
  for (const tid of tids) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      if (name.startsWith('DedicatedWorker')) threads.set(tid, cpuMs(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // a thread that ended meanwhile (a helper)
    }
  }
  return threads;
}

let parsed: Record<string, unknown> | undefined;
/** The 100k-entry bundle, parsed (for cutting its entries). */
function hundredK(): Record<string, unknown> {
  parsed ??= JSON.parse(
    gunzipSync(readFileSync(benchFile('zaxy--bundle-100k-ml-dsa-65.json.gz'))).toString('utf8'),
  ) as Record<string, unknown>;
  return parsed;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log(`load average at start: ${load()} (2 cores, shared); ${RUNS} runs of each layout, alternating`);
const PARTS = (process.env['HELPER_BENCH_PARTS'] ?? 'worker,demo').split(',');
if (PARTS.includes('worker')) await workerLayouts();
if (PARTS.includes('demo')) await builtDemo();
console.log(`load average at end: ${load()}`);

/** 1. The verification worker in each thread layout, driven through its protocol. */
async function workerLayouts(): Promise<void> {
  const temp = await mkdtemp(join(tmpdir(), 'verify-export-helpers-bench-'));
  const server = await serveStatic(temp);
  // Launched as a server, whose process id tells this browser's renderer from other browsers'.
  const browserServer = await chromium.launchServer({ ...CHROMIUM, headless: true });
  const browser = await chromium.connect(browserServer.wsEndpoint());
  try {
    await writeFile(
      join(temp, 'entry.ts'),
      // The worker driven through its protocol (components/worker-protocol.ts), as the element's client does.
      `const workers = new Map<string, Worker>();
       let nextId = 1;
       (globalThis as any).load = async (url: string) => {
         (globalThis as any).blob = await (await fetch(url)).blob();
       };
       (globalThis as any).run = async (name: string, layout: string, helpers: object, fresh: boolean) => {
         let worker = fresh ? undefined : workers.get(layout);
         if (worker === undefined) worker = new Worker(new URL('./verify-worker.js', import.meta.url), { type: 'module' });
         if (!fresh) workers.set(layout, worker);
         const id = nextId++;
         const start = performance.now();
         const message: any = await new Promise((resolve) => {
           const listen = (event: MessageEvent) => {
             if (event.data.id !== id || event.data.type === 'progress') return;
             worker!.removeEventListener('message', listen);
             resolve(event.data);
           };
           worker!.addEventListener('message', listen);
           worker!.postMessage({ type: 'verify', id, source: { type: 'blob', blob: (globalThis as any).blob }, options: { name, helpers } });
         });
         const ms = performance.now() - start;
         if (fresh) worker.terminate();
         if (message.type !== 'result') throw new Error(message.message);
         const report = message.report;
         const used = Object.keys(message.helpers ?? {}).filter((name) => message.helpers[name]);
         return { ms, used, report: JSON.stringify({ ...report, stats: undefined }) };
       };`,
    );
    // Bundled as the element ships (code splitting: the worker, its helpers and the formats in chunks).
    await build({
      entryPoints: {
        bench: join(temp, 'entry.ts'),
        'verify-worker': join(PROJECT_ROOT, 'components/verify-worker.ts'),
        'entry-hash-worker': join(PROJECT_ROOT, 'components/entry-hash-worker.ts'),
      },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      conditions: ['verify-export-source'],
      outdir: temp,
      plugins: [workerUrlsAsJs],
      logLevel: 'warning',
    });
    await writeFile(join(temp, 'index.html'), '<!doctype html><script type="module" src="/bench.js"></script>');
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => typeof (globalThis as { run?: unknown }).run === 'function');
    for (const cut of CUTS) {
      const plain = JSON.stringify(
        { ...hundredK(), entries: (hundredK().entries as unknown[]).slice(0, cut) },
        undefined,
        2,
      );
      await writeFile(join(temp, `zaxy-first-${cut}.json`), plain);
      await writeFile(join(temp, `zaxy-first-${cut}.json.gz`), gzipSync(plain));
    }
    const files = [...FILES, ...CUTS.flatMap((cut) => [`zaxy-first-${cut}.json`, `zaxy-first-${cut}.json.gz`])];
    for (const file of files) {
      if (!file.startsWith('zaxy-first-')) await copyFile(benchFile(file), join(temp, file));
      await page.evaluate(
        (url) => (globalThis as unknown as { load(url: string): Promise<void> }).load(url),
        `/${file}`,
      );
      const times = new Map<string, number[]>(Object.keys(LAYOUTS).map((name) => [name, []]));
      const verifyCpu = new Map<string, number[]>(Object.keys(LAYOUTS).map((name) => [name, []]));
      const totalCpu = new Map<string, number[]>(Object.keys(LAYOUTS).map((name) => [name, []]));
      const reports = new Set<string>();
      const used = new Map<string, Set<string>>(Object.keys(LAYOUTS).map((name) => [name, new Set()]));
      // One warm-up run of each layout (worker start, code compiled), then the measured pairs.
      for (let run = -1; run < RUNS; run++) {
        const order = run % 2 === 0 ? Object.entries(LAYOUTS) : Object.entries(LAYOUTS).reverse();
        for (const [layout, { helpers, fresh }] of order) {
          const renderer = rendererWithWorkers(browserServer.process().pid);
          const before =
            renderer === undefined
              ? undefined
              : { all: cpuMs(`/proc/${renderer}/stat`), threads: workerThreads(renderer) };
          const result = await page.evaluate(
            ([name, layout, helpers, fresh]) =>
              (
                globalThis as unknown as {
                  run(
                    name: string,
                    layout: string,
                    helpers: object,
                    fresh: boolean,
                  ): Promise<{ ms: number; used: string[]; report: string }>;
                }
              ).run(name, layout, helpers, fresh),
            [file, layout, helpers, fresh] as const,
          );
          reports.add(result.report);
          used.get(layout)!.add(result.used.join('+') || 'none');
          if (run >= 0) times.get(layout)!.push(result.ms);
          if (run >= 0 && renderer !== undefined && before !== undefined) {
            // The verification worker: the busiest worker thread that was there before and after
            // (none for a fresh one: its thread ended with the run).
            const after = workerThreads(renderer);
            let busiest = 0;
            for (const [tid, cpu] of before.threads) busiest = Math.max(busiest, (after.get(tid) ?? cpu) - cpu);
            verifyCpu.get(layout)!.push(busiest);
            totalCpu.get(layout)!.push(cpuMs(`/proc/${renderer}/stat`) - before.all);
          }
        }
      }
      if (reports.size !== 1) throw new Error(`${file}: the layouts gave different reports`);
      console.log(`${file} (load average ${load()}):`);
      for (const [layout, ms] of times) {
        const verifying = LAYOUTS[layout]!.fresh ? '   –' : median(verifyCpu.get(layout)!).toFixed(0).padStart(4);
        console.log(
          `  ${layout.padEnd(26)} wall ${median(ms).toFixed(0).padStart(5)} ms, CPU: verification worker ${verifying} ms, renderer ${median(totalCpu.get(layout)!).toFixed(0).padStart(4)} ms` +
            `  (walls ${ms.map((t) => t.toFixed(0)).join(' ')}; helpers used: ${[...used.get(layout)!].join(', ')})`,
        );
      }
    }
  } finally {
    await browser.close();
    await browserServer.close();
    await server.close();
    await rm(temp, { recursive: true, force: true });
  }
}

/**
 * 2. The built demo (Vite, served under its CSP), a fresh page for each run, the file picked
 * through the element's file input until its verdict, built as it is and built with the helper
 * off (verify-worker.ts's size threshold made infinite), alternating.
 */
async function builtDemo(): Promise<void> {
  const { build: viteBuild } = await import('vite');
  const builds: Record<string, string> = {};
  for (const layout of ['one thread', 'helper (as built)']) {
    const outDir = await mkdtemp(join(tmpdir(), 'verify-export-helpers-demo-'));
    // The verification worker is bundled by Vite's worker build, whose plugins are `worker.plugins`.
    let turnedOff = false;
    const helperOff = {
      name: 'helper-off',
      enforce: 'pre' as const,
      transform(code: string, id: string) {
        if (!id.endsWith('components/verify-worker.ts')) return undefined;
        const off = code.replace(/const HELPERS_FROM_BYTES = [^;]+;/, 'const HELPERS_FROM_BYTES = Infinity;');
        if (off === code) throw new Error('verify-worker.ts: HELPERS_FROM_BYTES not found');
        turnedOff = true;
        return off;
      },
    };
    await viteBuild({
      configFile: join(PROJECT_ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
      worker: { format: 'es', plugins: () => (layout === 'one thread' ? [helperOff] : []) },
    });
    if (layout === 'one thread' && !turnedOff) throw new Error('the helper was not turned off in the worker build');
    builds[layout] = outDir;
  }
  const browser = await chromium.launch({ ...CHROMIUM, headless: true });
  const servers = Object.fromEntries(
    await Promise.all(Object.entries(builds).map(async ([layout, dir]) => [layout, await serveStatic(dir)] as const)),
  );
  try {
    for (const file of ['agentxchain--large.json.gz', 'zaxy--bundle-100k-ml-dsa-65.json.gz']) {
      const path = benchFile(file);
      const times = new Map<string, number[]>(Object.keys(builds).map((layout) => [layout, []]));
      const verdicts = new Set<string>();
      for (let run = 0; run < RUNS; run++) {
        const order = run % 2 === 0 ? Object.keys(builds) : Object.keys(builds).reverse();
        for (const layout of order) {
          const context = await browser.newContext();
          const page = await context.newPage();
          await page.goto(`${servers[layout]!.origin}/`);
          const { ms, overall } = await pickFile(page, path);
          await context.close();
          verdicts.add(overall);
          times.get(layout)!.push(ms);
        }
      }
      if (verdicts.size !== 1) throw new Error(`${file}: different verdicts ${[...verdicts].join(', ')}`);
      console.log(`built demo, fresh page, ${file} picked → verdict ${[...verdicts][0]} (load average ${load()}):`);
      for (const [layout, ms] of times)
        console.log(
          `  ${layout.padEnd(26)} median ${median(ms).toFixed(0).padStart(5)} ms  (${ms.map((t) => t.toFixed(0)).join(' ')})`,
        );
    }
  } finally {
    await browser.close();
    for (const server of Object.values(servers)) await server.close();
    for (const dir of Object.values(builds)) await rm(dir, { recursive: true, force: true });
  }
}

/** Picks `path` through the element's file input; ms from the pick to the result event, and the verdict. */
async function pickFile(page: Page, path: string): Promise<{ ms: number; overall: string }> {
  await page.waitForFunction(() => customElements.get('verify-export') !== undefined);
  await page.evaluate(() => {
    const element = document.querySelector('verify-export')!;
    const state = { picked: 0, done: 0, overall: '' };
    (window as unknown as { __pick: typeof state }).__pick = state;
    element
      .shadowRoot!.querySelector('input[type="file"]')!
      .addEventListener('change', () => (state.picked = performance.now()), { capture: true, once: true });
    element.addEventListener('verify-export:result', (event) => {
      state.done = performance.now();
      state.overall = (event as CustomEvent<{ overall: string }>).detail.overall;
    });
    element.addEventListener('verify-export:error', () => {
      state.done = performance.now();
      state.overall = 'no report';
    });
  });
  await page.locator('verify-export input[type="file"]').setInputFiles(path);
  await page.waitForFunction(() => (window as unknown as { __pick: { done: number } }).__pick.done > 0, undefined, {
    timeout: 120_000,
  });
  const state = await page.evaluate(
    () => (window as unknown as { __pick: { picked: number; done: number; overall: string } }).__pick,
  );
  return { ms: state.done - state.picked, overall: state.overall };
}
