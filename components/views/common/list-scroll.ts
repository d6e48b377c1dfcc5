/**
 * How the content views follow a windowed list's scroller: the window for where it is (or where a
 * jump is going), scroll work at most once a frame, the latest of overlapping jumps, the rows'
 * measured height, and moving the focus to a drawn row.
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
