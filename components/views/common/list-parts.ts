/**
 * Pieces every content view draws the same way: the red bar of a failed verification, the note
 * when the worker cannot show a list, a windowed list's spacers, the status line of a page the
 * worker could not give, and the keys that move through a list.
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { visibleText } from '../../visible-text.ts';
import { styleProps } from './style-props.ts';

/**
 * The red bar of a failed verification, naming what is shown (`these entries are`).
 * @example
 * failedBar(this.failed, 'this run is');
 */
export function failedBar(failed: boolean, shown: string): TemplateResult | typeof nothing {
  return failed
    ? html`<div class="failed-bar" role="alert">Verification failed: ${shown} shown as read, not as verified.</div>`
    : nothing;
}

/** The worker's reason a list cannot be shown, when it gave one. */
export function notViewableNote(reason: string | undefined): TemplateResult | typeof nothing {
  return reason === undefined ? nothing : html`<p class="status" role="note">${visibleText(reason)}</p>`;
}

/**
 * A spacer standing for `height` pixels of rows a windowed list does not draw (styled through the
 * CSSOM, `style-props.ts`), or nothing.
 */
export function spacer(height: number): TemplateResult | typeof nothing {
  return height > 0
    ? html`<div class="spacer" ${styleProps({ height: `${height}px` })} aria-hidden="true"></div>`
    : nothing;
}

/**
 * The status line for a page the worker could not give (the element was removed, the worker
 * stopped, a newer verification replaced the bytes).
 * @example
 * readFailure('the replay', new Error('stopped')); // 'Could not read the replay: stopped'
 */
export function readFailure(what: string, error: unknown): string {
  return `Could not read ${what}: ${error instanceof Error ? error.message : String(error)}`;
}

/** How the arrow and paging keys move through a list. */
export interface ListKeys {
  /** Rows PageUp and PageDown move. */
  readonly page: number;
  /** Whether `j` and `k` move too. */
  readonly letters: boolean;
}

/**
 * The row a key moves the focus to in a list of `total` rows (clamped), or undefined when the key
 * does not move it.
 * @example
 * listKeyTarget('End', 3, 40, { page: 10, letters: true }); // 39
 */
export function listKeyTarget(key: string, focus: number, total: number, keys: ListKeys): number | undefined {
  if (total === 0) return undefined;
  let target: number | undefined;
  if (key === 'ArrowDown' || (keys.letters && key === 'j')) target = focus + 1;
  else if (key === 'ArrowUp' || (keys.letters && key === 'k')) target = focus - 1;
  else if (key === 'PageDown') target = focus + keys.page;
  else if (key === 'PageUp') target = focus - keys.page;
  else if (key === 'Home') target = 0;
  else if (key === 'End') target = total - 1;
  return target === undefined ? undefined : Math.max(0, Math.min(total - 1, target));
}
