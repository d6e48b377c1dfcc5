/**
 * How the content views follow a windowed list's scroller: the window for where it is (or where a
 * jump is going), scroll work at most once a frame, the latest of overlapping jumps, the rows'
 * measured height, and moving the focus to a drawn row.
 *
 * A window is drawn in stages (`StagedDraw`): the rows on screen at once, the rest a few rows a
 * frame, so opening a view or jumping far never draws a whole window (dozens of cards, their style
 * and layout) in one task of the main thread; a task of more than 50 ms is what the Long Tasks API
 * reports, and what a person feels as a stall.
 * @module
 */
import { listWindow, type ListWindow } from './paged-items.ts';

/**
 * The window of a list of `total` rows for the scroller's position, or for `top` where a jump is
 * going (`viewport` stands for the scroller's height before it is drawn).
 * @example
 * scrollerWindow(this._scroller(), items.total, 160); // the rows around what is on screen
 */
export function scrollerWindow(
  scroller: HTMLElement | null,
  total: number,
  rowHeight: number,
  top?: number,
  viewport = 800,
): ListWindow {
  return listWindow(total, top ?? scroller?.scrollTop ?? 0, scroller?.clientHeight ?? viewport, rowHeight);
}

/** Runs scroll work at most once an animation frame (scroll events come faster than frames). */
export class OncePerFrame {
  #frame = 0;

  /** Schedules `work` for the next frame, unless work is already waiting for it. */
  run(work: () => void): void {
    if (this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      work();
    });
  }
}

/** Counts jumps, so only the latest one moves the focus. */
export class LatestJump {
  #count = 0;

  /** Starts a jump; the function says whether it is still the latest. */
  start(): () => boolean {
    const jump = ++this.#count;
    return () => jump === this.#count;
  }
}

/**
 * The estimated row height after measuring the drawn rows (at least 5 of them), kept between
 * `min` and `max`; `current` unless it is off by more than 8 pixels.
 */
export function measuredRowHeight(rows: ArrayLike<HTMLElement>, current: number, min: number, max: number): number {
  if (rows.length < 5) return current;
  let sum = 0;
  for (let index = 0; index < rows.length; index++) sum += rows[index]!.offsetHeight;
  const average = Math.min(max, Math.max(min, sum / rows.length));
  return Math.abs(average - current) > 8 ? average : current;
}

/** Scrolls the drawn row `selector` names into view and focuses it, if it is drawn. */
export function focusRow(root: ParentNode, selector: string): void {
  const row = root.querySelector<HTMLElement>(selector);
  row?.scrollIntoView({ block: 'nearest' });
  row?.focus({ preventScroll: true });
}

/** Rows `[start, end)` of a list. */
export interface RowRange {
  readonly start: number;
  readonly end: number;
}

/**
 * The rows on screen at the scroller's position (or at `top`, where a jump is going; past the end,
 * the last screenful) by the estimated row height, with `lead` more on each side, within the list.
 * @example
 * screenRows(this._scroller(), 10_000, 160); // { start: 0, end: 6 } at the top of a 630 px scroller
 */
export function screenRows(
  scroller: HTMLElement | null,
  total: number,
  rowHeight: number,
  top?: number,
  viewport = 800,
  lead = 2,
): RowRange {
  const height = Math.max(rowHeight, 1);
  const shown = scroller === null || scroller.clientHeight === 0 ? viewport : scroller.clientHeight;
  const at = Math.max(0, Math.min(top ?? scroller?.scrollTop ?? 0, total * height - shown));
  const start = Math.max(0, Math.min(total - 1, Math.floor(at / height)) - lead);
  const end = Math.min(total, Math.max(start, Math.ceil((at + shown) / height) + lead));
  return { start, end };
}

/**
 * The first range to draw on the way from the drawn rows to `target`: the rows on `screen` with
 * the drawn rows that stay and touch them, or `target` itself when at most `step` of its rows are
 * not drawn yet.
 * @example
 * firstStage({ start: 0, end: 0 }, { start: 0, end: 40 }, { start: 0, end: 6 }, 10); // { start: 0, end: 6 }
 */
export function firstStage(drawn: RowRange, target: RowRange, screen: RowRange, step: number): RowRange {
  const keep = overlap(drawn, target);
  const newRows = target.end - target.start - (keep === undefined ? 0 : keep.end - keep.start);
  if (newRows <= step) return target;
  const view = overlap(screen, target) ?? { start: target.start, end: Math.min(target.end, target.start + step) };
  return keep !== undefined && keep.start <= view.end && view.start <= keep.end
    ? { start: Math.min(keep.start, view.start), end: Math.max(keep.end, view.end) }
    : view;
}

/**
 * The range after `drawn` on the way to `target`: `step` more rows, half below and half above (all
 * on one side once the other is drawn); undefined once `target` is drawn.
 * @example
 * nextStage({ start: 30, end: 40 }, { start: 0, end: 45 }, 10); // { start: 25, end: 45 }
 */
export function nextStage(drawn: RowRange, target: RowRange, step: number): RowRange | undefined {
  const size = Math.max(1, Math.floor(step));
  const below = Math.max(0, target.end - drawn.end);
  const above = Math.max(0, drawn.start - target.start);
  if (below === 0 && above === 0) return undefined;
  const up = Math.min(above, size - Math.min(below, Math.ceil(size / 2)));
  const down = Math.min(below, size - up);
  return { start: drawn.start - up, end: drawn.end + down };
}

function overlap(a: RowRange, b: RowRange): RowRange | undefined {
  const start = Math.max(a.start, b.start);
  const end = Math.min(a.end, b.end);
  return start < end ? { start, end } : undefined;
}

/**
 * Resolves after the next frame has been painted (in a task of its own, so timers and input due
 * meanwhile run first); at once when the page is hidden, where no frame comes.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') setTimeout(resolve, 0);
    else requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

/** Milliseconds a stage's drawing aims at; the rows of the next stage follow from the last one's time. */
const STAGE_MS = 8;

/**
 * Draws a list's window in stages, one a frame: `firstStage` at once, then `nextStage` after each
 * paint, each stage as many rows as drew in about `STAGE_MS` before (from `step`, at most twice
 * it); a newer draw stops the stages of the last.
 */
export class StagedDraw {
  #run = 0;
  /** Resolves once the latest draw has drawn all its stages (or a newer one replaced it). */
  done: Promise<void> = Promise.resolve();

  constructor(private readonly step: number) {}

  /**
   * Draws the rows on `screen` (with those of `drawn` that stay), and resolves once they are drawn;
   * the rest of `target` follows, a stage after each paint. `draw` draws a range (resolving once it
   * is rendered) and says whether to go on.
   */
  start(
    drawn: RowRange,
    target: RowRange,
    screen: RowRange,
    draw: (range: RowRange) => Promise<boolean>,
  ): Promise<void> {
    const run = ++this.#run;
    let stage = firstStage(drawn, target, screen, this.step);
    const first = draw(stage);
    // A first stage that fails rejects `start`; `done` rejects only for a later one.
    this.done = first.then(
      async (more) => {
        let step = this.step;
        for (let next = nextStage(stage, target, step); more && next !== undefined;) {
          await afterPaint();
          if (run !== this.#run) return;
          const began = performance.now();
          more = await draw((stage = next));
          const took = performance.now() - began;
          step = Math.max(1, Math.min(2 * this.step, Math.round((step * STAGE_MS) / Math.max(took, 1))));
          next = nextStage(stage, target, step);
        }
      },
      () => undefined,
    );
    return first.then(() => undefined);
  }

  /** Stops the stages still to come. */
  stop(): void {
    this.#run++;
  }
}

/**
 * Draws rows `range` in place of those drawn (`drawn`) through `draw`. When rows come in above
 * those drawn, the first row drawn before (`[data-index]` in `root`) stays where it is on screen:
 * its position is read before the change (the layout is then clean) and after it, and `scroller`
 * moves by as much as it moved, written once.
 * @example
 * await drawKeepingPlace(this.renderRoot, this._scroller(), drawn, range, async () => { ... });
 */
export async function drawKeepingPlace(
  root: ParentNode,
  scroller: HTMLElement | null,
  drawn: RowRange,
  range: RowRange,
  draw: () => Promise<void>,
): Promise<void> {
  const rowsComeAbove = range.start < drawn.start && drawn.start < drawn.end;
  const anchor = rowsComeAbove ? root.querySelector<HTMLElement>(`[data-index="${drawn.start}"]`) : null;
  if (scroller === null || anchor === null || !anchor.isConnected) return draw();
  const before = anchor.getBoundingClientRect().top;
  await draw();
  if (!anchor.isConnected) return;
  const moved = anchor.getBoundingClientRect().top - before;
  if (Math.abs(moved) >= 1) scroller.scrollTop += moved;
}
