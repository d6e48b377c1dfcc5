// The Transcript and Replay views of <verify-export> in Chromium, on the built demo (strict CSP), with
// the bench data (BENCH_DATA, see bench/data.ts), as issue 'Read what you verified' asks:
// - agent-history, the 108 MB design-1.0 file (18 MB gzip): after verifying, the Transcript tab
//   opened until the first message is drawn, then a jump to the last message until it is focused;
// - codex-exec, the 60 MB stream of 24,000 chunks: the Replay tab opened until the first terminal
//   line is drawn, then a jump to the last line;
// - throughout each view, the longest gap of a 10 ms main-thread heartbeat (target ≤ 50 ms): the
//   pages are built in the worker (the `inspect` job), the page only draws a window of them, in
//   stages a frame apart (components/views/common/list-scroll.ts). Opening and jumping run under a
//   Chromium trace (main-thread.ts), which gives the longest main-thread task and, between two
//   heartbeats, the most CPU time the page's own tasks took: on a machine shared with other work a
//   gap is also the time the thread waited for a core, so the CPU time is the page's part of it.
// Memory is the renderer process's peak RSS (Linux VmHWM, reset before each file; the page's
// dedicated worker lives in the same process) against the peak of the verification alone, so the
// difference is what the views keep (the kept decompressed bytes and the indexes).
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, PROJECT_ROOT, serveStatic } from '../test/e2e/serve.ts';
import { benchFile } from './data.ts';
import { BEAT, taskWords, traceMainThread, type MainThread } from './main-thread.ts';

const GAP_TARGET_MS = 50;
const CASES = [
  {
    file: benchFile('agent-history--design-large.ndjson.gz'),
    tab: 'Transcript',
    tag: 'verify-export-transcript',
    row: 'article.card',
  },
  { file: benchFile('codex-exec--perf-60mb-chunks.jsonl.gz'), tab: 'Replay', tag: 'verify-export-replay', row: '.tl' },
] as const;

const wallStart = performance.now();
const temp = await mkdtemp(join(tmpdir(), 'verify-export-views-bench-'));
const demoDir = join(temp, 'demo');
// The demo is built into this benchmark's own folder, so demo/dist (read by others) stays as it is.
const { build: viteBuild } = await import('vite');
await viteBuild({
  configFile: join(PROJECT_ROOT, 'vite.config.ts'),
  logLevel: 'warn',
  build: { outDir: demoDir, emptyOutDir: true },
});
const server = await serveStatic(demoDir);
const browser = await chromium.launch({ ...CHROMIUM, headless: true });
try {
  for (const entry of CASES) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      await benchView(browser, await context.newPage(), entry);
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
  await rm(temp, { recursive: true, force: true });
}
console.log(`wall ${((performance.now() - wallStart) / 1000).toFixed(1)} s`);

type Phase = 'verify' | 'open' | 'jump';

interface PageState {
  phase: Phase;
  gaps: Record<Phase, number>;
  /**
   * Longest long task (≥ 50 ms of the main thread's own work, Long Tasks API) per phase: a gap
   * without one is the thread waiting for a core.
   */
  longTasks: Record<Phase, number>;
  done: number;
  verdict: string;
  stop: boolean;
}

async function benchView(browser: Browser, page: Page, entry: (typeof CASES)[number]): Promise<void> {
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => customElements.get('verify-export') !== undefined);
  const renderer = await rendererPids(browser);
  resetPeak(renderer);
  await page.evaluate((beatLabel) => {
    const element = document.querySelector('verify-export')!;
    const state: PageState = {
      phase: 'verify',
      gaps: { verify: 0, open: 0, jump: 0 },
      longTasks: { verify: 0, open: 0, jump: 0 },
      done: 0,
      verdict: '',
      stop: false,
    };
    new PerformanceObserver((list) => {
      for (const task of list.getEntries())
        state.longTasks[state.phase] = Math.max(state.longTasks[state.phase], task.duration);
    }).observe({ type: 'longtask' });
    (globalThis as unknown as { viewsBench: PageState }).viewsBench = state;
    let last = performance.now();
    const beat = setInterval(() => {
      const now = performance.now();
      state.gaps[state.phase] = Math.max(state.gaps[state.phase], now - last);
      last = now;
      // A mark in the trace of the open and jump phases (main-thread.ts).
      console.timeStamp(beatLabel);
      if (state.stop) clearInterval(beat);
    }, 10);
    element.addEventListener('verify-export:result', (event) => {
      state.done = performance.now();
      state.verdict = (event as CustomEvent<{ overall: string }>).detail.overall;
    });
  }, BEAT);
  const started = await page.evaluate(() => performance.now());
  await page.locator('verify-export input[type="file"]').first().setInputFiles(entry.file);
  await page.waitForFunction(
    () => (globalThis as unknown as { viewsBench: PageState }).viewsBench.done > 0,
    undefined,
    {
      timeout: 300_000,
    },
  );
  const verdict = await page.evaluate(() => (globalThis as unknown as { viewsBench: PageState }).viewsBench.verdict);
  const verifyMs =
    (await page.evaluate(() => (globalThis as unknown as { viewsBench: PageState }).viewsBench.done)) - started;
  await page.waitForTimeout(500);
  const verifyPeak = peakMb(renderer);

  // Open the view: the click, until its first row is drawn (and the rest of its window after it).
  const opened = await traceMainThread(browser, page, async () => {
    const result = await page.evaluate(
      async ({ tab, tag, row }) => {
        const state = (globalThis as unknown as { viewsBench: PageState }).viewsBench;
        state.phase = 'open';
        const root = document.querySelector('verify-export')!.shadowRoot!;
        const at = performance.now();
        root.querySelector<HTMLButtonElement>('#content-tab-content')!.click();
        for (;;) {
          const view = root.querySelector(tag);
          if (view?.shadowRoot?.querySelector(row)) break;
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
        await new Promise((resolve) => requestAnimationFrame(resolve));
        return {
          ms: performance.now() - at,
          label: root.querySelector('#content-tab-content')!.textContent!.trim() === tab,
        };
      },
      { tab: entry.tab, tag: entry.tag, row: entry.row },
    );
    await page.waitForTimeout(300);
    return result;
  });
  const open = opened.value;
  // Jump to the last item (as End does), until it is focused (and the window around it after).
  const jumped = await traceMainThread(browser, page, async () => {
    const result = await page.evaluate(
      async ({ tag }) => {
        const state = (globalThis as unknown as { viewsBench: PageState }).viewsBench;
        state.phase = 'jump';
        const view = document.querySelector('verify-export')!.shadowRoot!.querySelector(tag) as HTMLElement & {
          jumpTo(index: number): Promise<void>;
          shadowRoot: ShadowRoot;
        };
        const count = view.shadowRoot.querySelector('[role="status"][aria-live]')?.textContent ?? '';
        const total = Number(/([\d,]+) (?:message|line)s?$/.exec(count.trim())?.[1]?.replace(/,/g, '') ?? '0');
        const at = performance.now();
        await view.jumpTo(total - 1);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const focused = (view.shadowRoot.activeElement as HTMLElement | null)?.dataset['index'];
        return { ms: performance.now() - at, total, ok: focused === String(total - 1) };
      },
      { tag: entry.tag },
    );
    await page.waitForTimeout(300);
    return result;
  });
  const jump = jumped.value;
  const gaps = await page.evaluate(() => {
    const state = (globalThis as unknown as { viewsBench: PageState }).viewsBench;
    state.stop = true;
    return { ...state.gaps, long: state.longTasks };
  });
  const peak = peakMb(renderer);
  const met = (ms: number) => `${ms.toFixed(0)} ms ${ms <= GAP_TARGET_MS ? '(met)' : '(NOT met)'}`;
  console.log(
    `${entry.file.split('/').pop()}: verdict ${verdict} in ${verifyMs.toFixed(0)} ms; ${entry.tab} open → first row ${open.ms.toFixed(0)} ms` +
      `${open.label ? '' : ' (tab label differs)'}; jump to the last of ${jump.total} ${jump.ms.toFixed(0)} ms${jump.ok ? '' : ' (NOT focused)'}\n` +
      `  longest main-thread gap: verify ${gaps.verify.toFixed(0)} ms, open ${met(gaps.open)}, jump ${met(gaps.jump)}; ` +
      `longest long task: verify ${gaps.long.verify.toFixed(0)}, open ${gaps.long.open.toFixed(0)}, jump ${gaps.long.jump.toFixed(0)} ms; load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}\n` +
      `  main thread (trace, wall/CPU): open ${threadWords(opened.thread)}; jump ${threadWords(jumped.thread)}\n` +
      `  renderer peak RSS: verification ${verifyPeak.toFixed(0)} MB, with the view ${peak.toFixed(0)} MB (+${(peak - verifyPeak).toFixed(0)} MB kept for the view)`,
  );
}

function threadWords(thread: MainThread): string {
  return `longest task ${taskWords(thread.longest)}, most CPU between two heartbeats ${taskWords(thread.busiest)}`;
}

// ——— Renderer memory (Linux) ———

async function rendererPids(browser: Browser): Promise<number[]> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
    processInfo: { type: string; id: number }[];
  };
  await cdp.detach();
  return processInfo.filter((info) => info.type === 'renderer').map((info) => info.id);
}

function resetPeak(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // Not permitted here: the peak then covers the process's whole life.
    }
  }
}

function peakMb(pids: readonly number[]): number {
  let peak = 0;
  for (const pid of pids) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      peak = Math.max(peak, Number(match?.[1] ?? 0) / 1024);
    } catch {
      // The process is gone.
    }
  }
  return peak;
}
