// The main thread of a page under a Chromium trace (CDP tracing through playwright-core), for the
// view benchmarks (views.bench.ts, agentxchain-views.bench.ts): its longest task, and the most CPU
// time it spent between two beats of the page's heartbeat. A heartbeat gap is the page's own work
// plus the time the thread waited for a core; on a machine shared with other work the wait can be
// most of it, so the CPU time between beats says what the page itself held the thread for.
// The page marks each beat with `console.timeStamp(BEAT)` (a `TimeStamp` event of the trace).
import type { Browser, Page } from 'playwright-core';

/** The label of the page's heartbeat marks. */
export const BEAT = 'verify-export-beat';

/** A stretch of the main thread: its wall time, and the CPU time it got. */
export interface TaskTime {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** What the main thread did while a phase was traced. */
export interface MainThread {
  /** The longest task (Chromium's `RunTask`). */
  readonly longest: TaskTime;
  /** Between two heartbeats: the most CPU time the tasks in between got, with that gap's wall time. */
  readonly busiest: TaskTime;
}

interface TraceEvent {
  name: string;
  ph: string;
  tid: number;
  pid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { message?: string } };
}

/**
 * Runs `during` under a Chromium trace and reads the renderer main thread's tasks and heartbeats.
 * @example
 * const { value, thread } = await traceMainThread(browser, page, () => openTheView());
 */
export async function traceMainThread<T>(
  browser: Browser,
  page: Page,
  during: () => Promise<T>,
): Promise<{ value: T; thread: MainThread }> {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  let value: T;
  let buffer: Buffer;
  try {
    value = await during();
  } finally {
    buffer = await browser.stopTracing();
  }
  const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mainThreads = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = (event: TraceEvent) => mainThreads.has(`${event.pid}:${event.tid}`);
  const tasks = events
    .filter((event) => event.name === 'RunTask' && event.ph === 'X' && onMain(event))
    .sort((a, b) => a.ts - b.ts);
  const beats = events
    .filter((event) => event.name === 'TimeStamp' && event.args?.data?.message === BEAT && onMain(event))
    .map((event) => event.ts)
    .sort((a, b) => a - b);
  let longest: TaskTime = { wallMs: 0, cpuMs: 0 };
  for (const task of tasks) {
    const wallMs = (task.dur ?? 0) / 1000;
    if (wallMs > longest.wallMs) longest = { wallMs, cpuMs: (task.tdur ?? 0) / 1000 };
  }
  // Each beat runs in a task of its own: the tasks between two beats start after the first one's
  // task and end before the next's.
  let busiest: TaskTime = { wallMs: 0, cpuMs: 0 };
  let at = 0;
  for (let index = 1; index < beats.length; index++) {
    const from = beats[index - 1]!;
    const to = beats[index]!;
    let cpu = 0;
    while (at < tasks.length && tasks[at]!.ts < to) {
      const task = tasks[at]!;
      if (task.ts > from && task.ts + (task.dur ?? 0) < to) cpu += (task.tdur ?? 0) / 1000;
      at++;
    }
    if (cpu > busiest.cpuMs) busiest = { wallMs: (to - from) / 1000, cpuMs: cpu };
  }
  return { value, thread: { longest, busiest } };
}

/**
 * `wall/CPU ms`.
 * @example
 * taskWords({ wallMs: 30, cpuMs: 21 }); // '30/21 ms'
 */
export function taskWords(task: TaskTime): string {
  return `${task.wallMs.toFixed(0)}/${task.cpuMs.toFixed(0)} ms`;
}
