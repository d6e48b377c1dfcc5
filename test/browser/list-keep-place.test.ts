/// <reference types="mocha" />
// Rows drawn above those on screen (a windowed list scrolled or jumped upwards) do not move what a
// person is reading: drawKeepingPlace (components/views/common/list-scroll.ts) scrolls by as much
// as the first row drawn before moved.
import { drawKeepingPlace } from '../../components/views/common/list-scroll.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const ROW = 20;

/** A 100 px scroller holding rows `start` to `end` (20 px each), scrolled `scrollTop` px. */
function scrollerWith(start: number, end: number, scrollTop: number): HTMLElement {
  const scroller = document.createElement('div');
  scroller.style.height = '100px';
  scroller.style.overflowY = 'auto';
  document.body.append(scroller);
  draw(scroller, start, end);
  scroller.scrollTop = scrollTop;
  return scroller;
}

/** Rows `start` to `end`, keyed by index as the views' `repeat` keeps them: a row drawn before stays put. */
function draw(scroller: HTMLElement, start: number, end: number): void {
  const kept = new Map(
    [...scroller.querySelectorAll<HTMLElement>('[data-index]')].map((row) => [Number(row.dataset['index']), row]),
  );
  scroller.replaceChildren(
    ...Array.from({ length: end - start }, (_, k) => {
      const index = start + k;
      const row = kept.get(index) ?? document.createElement('div');
      row.dataset['index'] = String(index);
      row.style.height = `${ROW}px`;
      row.textContent = `row ${index}`;
      return row;
    }),
  );
}

const topOf = (scroller: HTMLElement, index: number): number =>
  scroller.querySelector(`[data-index="${index}"]`)!.getBoundingClientRect().top;

describe('drawKeepingPlace', () => {
  afterEach(() => document.body.replaceChildren());

  it('rows drawn above keep the first row drawn before where it was on screen', async () => {
    const scroller = scrollerWith(10, 40, 60);
    const before = topOf(scroller, 10);
    await drawKeepingPlace(scroller, scroller, { start: 10, end: 40 }, { start: 4, end: 40 }, async () =>
      draw(scroller, 4, 40),
    );
    assert(Math.abs(topOf(scroller, 10) - before) < 1, `row 10 moved from ${before} to ${topOf(scroller, 10)}`);
    assert(scroller.scrollTop === 60 + 6 * ROW, `scrolled to ${scroller.scrollTop}`);
  });

  it('rows drawn below, or a first drawing, leave the scroll position alone', async () => {
    const scroller = scrollerWith(10, 40, 60);
    let drawn = 0;
    await drawKeepingPlace(scroller, scroller, { start: 10, end: 40 }, { start: 10, end: 60 }, async () => {
      drawn++;
      draw(scroller, 10, 60);
    });
    await drawKeepingPlace(scroller, scroller, { start: 0, end: 0 }, { start: 0, end: 30 }, async () => {
      drawn++;
      draw(scroller, 0, 30);
    });
    assert(drawn === 2, `drawn ${drawn} times`);
    assert(scroller.scrollTop === 60, `scrolled to ${scroller.scrollTop}`);
  });
});
