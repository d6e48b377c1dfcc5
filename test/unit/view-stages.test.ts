// How the content views draw a list window in stages (components/views/common/list-scroll.ts): the
// rows on screen first, then a few rows a frame, below and above; and the counts they print
// (components/numbers.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { firstStage, nextStage, screenRows, type RowRange } from '../../components/views/common/list-scroll.ts';
import { FULL_LIST_MAX, windowOf } from '../../components/views/common/paged-items.ts';
import { grouped } from '../../components/numbers.ts';

const NONE: RowRange = { start: 0, end: 0 };

/** Every stage from `drawn` to `target`, the step fixed. */
function stages(drawn: RowRange, target: RowRange, screen: RowRange, step: number): RowRange[] {
  const all = [firstStage(drawn, target, screen, step)];
  for (let next = nextStage(all[0]!, target, step); next !== undefined; next = nextStage(next, target, step))
    all.push(next);
  return all;
}

describe('a list window drawn in stages', () => {
  it('opening: the rows on screen, then the rest below, a step at a time', () => {
    assert.deepEqual(stages(NONE, { start: 0, end: 25 }, { start: 0, end: 6 }, 8), [
      { start: 0, end: 6 },
      { start: 0, end: 14 },
      { start: 0, end: 22 },
      { start: 0, end: 25 },
    ]);
  });

  it('a jump to the end: the rows on screen there, then those above, the screen never redrawn', () => {
    const all = stages({ start: 0, end: 40 }, { start: 970, end: 1000 }, { start: 995, end: 1000 }, 10);
    assert.deepEqual(all, [
      { start: 995, end: 1000 },
      { start: 985, end: 1000 },
      { start: 975, end: 1000 },
      { start: 970, end: 1000 },
    ]);
  });

  it('a jump into the middle draws below and above alike', () => {
    const all = stages(NONE, { start: 470, end: 540 }, { start: 498, end: 510 }, 20);
    assert.deepEqual(all, [
      { start: 498, end: 510 },
      { start: 488, end: 520 },
      { start: 478, end: 530 },
      { start: 470, end: 540 },
    ]);
    for (let index = 1; index < all.length; index++) {
      const [before, after] = [all[index - 1]!, all[index]!];
      assert.ok(after.start <= before.start && after.end >= before.end, 'each stage keeps the rows drawn before');
      assert.ok(after.end - after.start - (before.end - before.start) <= 20, 'and adds at most a step');
    }
  });

  it('scrolling a little: one stage, the window as it should be', () => {
    assert.deepEqual(firstStage({ start: 100, end: 165 }, { start: 104, end: 169 }, { start: 130, end: 140 }, 8), {
      start: 104,
      end: 169,
    });
  });

  it('rows already drawn that touch the screen stay, with the screen, in the first stage', () => {
    assert.deepEqual(firstStage({ start: 100, end: 130 }, { start: 80, end: 200 }, { start: 125, end: 140 }, 8), {
      start: 100,
      end: 140,
    });
    // Drawn rows that do not reach the screen are dropped: only the screen is drawn first.
    assert.deepEqual(firstStage({ start: 100, end: 110 }, { start: 80, end: 200 }, { start: 150, end: 160 }, 8), {
      start: 150,
      end: 160,
    });
  });

  it('a screen outside the target starts at the target', () => {
    assert.deepEqual(firstStage(NONE, { start: 10, end: 100 }, { start: 500, end: 510 }, 8), { start: 10, end: 18 });
  });

  it('nothing more once the target is drawn; a step below 1 is 1', () => {
    assert.equal(nextStage({ start: 5, end: 9 }, { start: 5, end: 9 }, 4), undefined);
    assert.deepEqual(nextStage({ start: 5, end: 9 }, { start: 5, end: 12 }, 0.2), { start: 5, end: 10 });
  });

  it('the rows on screen, from the scroll position and the estimated row height', () => {
    assert.deepEqual(screenRows(null, 10_000, 160, 0, 630, 1), { start: 0, end: 5 });
    assert.deepEqual(screenRows(null, 10_000, 160, 1_600, 630, 2), { start: 8, end: 16 });
    // Past the end (a jump to the last row): the last screenful.
    assert.deepEqual(screenRows(null, 100, 19, 99 * 19, 600, 2), { start: 66, end: 100 });
    assert.deepEqual(screenRows(null, 0, 19, 0, 600, 2), { start: 0, end: 0 });
  });
});

describe('the window of a range of rows', () => {
  it('a windowed list has spacers for the rows around; a list drawn whole has none', () => {
    assert.deepEqual(windowOf(10_000, 100, 130, 20), { start: 100, end: 130, before: 2000, after: 197_400 });
    assert.deepEqual(windowOf(FULL_LIST_MAX, 0, 50, 20), { start: 0, end: 50, before: 0, after: 0 });
  });
});

describe('counts as the views print them', () => {
  it('groups thousands as toLocaleString("en") does', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 1_083_382, -4321, Number.MAX_SAFE_INTEGER])
      assert.equal(grouped(n), n.toLocaleString('en'), String(n));
    assert.equal(grouped(1083382), '1,083,382');
  });

  it('writes other numbers as String does', () => {
    assert.equal(grouped(1.5), '1.5');
    assert.equal(grouped(Number.NaN), 'NaN');
  });
});
