/**
 * Pieces the Run and Compare views share: a fact list, a section, a windowed list (long lists
 * are drawn a page at a time so a 500-turn run never blocks the main thread) and number words in
 * the reference's formats (spec `agentxchain-report.md` §6: `U(x)`, `K(x)`, `D(ms)`).
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { visibleText } from '../visible-text.ts';

/** Rows drawn at first, and added by each "Show more". */
export const PAGE_ROWS = 100;

/**
 * Rows a staged render adds per stage (a frame each). The ~1,400 elements of a 54 MB run's report
 * drawn at once took 63–84 ms (bench/agentxchain-views.bench.ts); stages of 20 rows (~500
 * elements) still made frames of 30 ms of style and layout on a loaded machine (each stage also
 * lays the turn table out again, and the first loads the fonts of its text), so a stage is 10.
 */
export const STAGE_ROWS = 10;

/** Rows a section's heading counts for in a staged render. */
const SECTION_ROWS = 2;

/**
 * What one staged render may still draw, counted in rows as the sections and lists are drawn in
 * document order; `cut` records that something was held back for the next stage.
 */
export interface DrawBudget {
  rows: number;
  cut: boolean;
}

/** State of the long lists, owned by the element (a new report starts with none expanded). */
export interface Paging {
  /** Rows drawn per list, by list name (absent: `PAGE_ROWS`). */
  readonly shown: ReadonlyMap<string, number>;
  showMore(list: string): void;
  /** Set while the view is drawn in stages: sections and rows past it wait for a later stage. */
  readonly budget?: DrawBudget | undefined;
}

/** A `label: value` pair of a fact list; `undefined` values are left out. */
export type Fact = readonly [label: string, value: unknown] | undefined;

/**
 * A description list of facts; each value is drawn through `visibleText` unless it is already a template.
 * @example
 * facts([['Status', run.status], ['Phase', run.phase]])
 */
export function facts(rows: readonly Fact[], part?: string): TemplateResult {
  return html`<dl class="facts" part=${part ?? 'run-facts'}>
    ${rows.map((row) =>
      row === undefined
        ? nothing
        : html`<div>
            <dt>${row[0]}</dt>
            <dd>${isTemplate(row[1]) ? row[1] : visibleText(row[1])}</dd>
          </div>`,
    )}
  </dl>`;
}

function isTemplate(value: unknown): value is TemplateResult {
  return typeof value === 'object' && value !== null && '_$litType$' in value;
}

/**
 * A titled section, drawn only when `show` holds (and, in a staged render, once the stage reaches
 * it). `content-visibility: auto` (in the styles) lets the browser skip the layout of sections
 * below the fold.
 * @example
 * section('Gates', 'gates', gates.length > 0, () => html`…`, paging)
 */
export function section(
  title: string,
  name: string,
  show: boolean,
  body: () => TemplateResult,
  paging?: Paging,
): TemplateResult | typeof nothing {
  if (!show) return nothing;
  const budget = paging?.budget;
  if (budget !== undefined) {
    if (budget.rows <= 0) {
      budget.cut = true;
      return nothing;
    }
    budget.rows -= SECTION_ROWS;
  }
  const id = `run-${name}`;
  return html`<section class="run-section" part="run-section" data-section=${name} aria-labelledby=${id}>
    <h3 id=${id}>${title}</h3>
    ${body()}
  </section>`;
}

/**
 * The first rows of a long list (a page more per "Show more"), with the note of what is held back.
 * @example
 * const [rows, more] = windowed(paging, 'turns', turns);
 */
export function windowed<T>(
  paging: Paging,
  list: string,
  rows: readonly T[],
): [readonly T[], TemplateResult | typeof nothing] {
  const shown = Math.min(rows.length, paging.shown.get(list) ?? PAGE_ROWS);
  const budget = paging.budget;
  if (budget !== undefined) {
    const now = Math.min(shown, Math.max(0, budget.rows));
    budget.rows -= now;
    if (now < shown) {
      budget.cut = true;
      return [rows.slice(0, now), nothing];
    }
  }
  if (shown >= rows.length) return [rows, nothing];
  const next = Math.min(rows.length - shown, PAGE_ROWS);
  return [
    rows.slice(0, shown),
    html`<p class="more">
      Showing ${shown} of ${rows.length}.
      <button type="button" class="link" @click=${() => paging.showMore(list)}>Show ${next} more</button>
    </p>`,
  ];
}

/**
 * Dollars as the reference prints them: `$` + two decimals, `n/a` for a missing amount.
 * @example
 * usd(0.125); // '$0.13'
 */
export function usd(value: unknown): string {
  return typeof value === 'number' ? `$${value.toFixed(2)}` : 'n/a';
}

/**
 * A token count with thousands grouped, `n/a` when missing.
 * @example
 * tokens(1234567); // '1,234,567'
 */
export function tokens(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toLocaleString('en-US') : 'n/a';
}

/**
 * A compact duration (`850ms`, `12s`, `3m 5s`, `2h 7m`), or `undefined`.
 * @example
 * duration(185000); // '3m 5s'
 */
export function duration(ms: unknown): string | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined;
  if (ms < 1000) return `${ms}ms`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/**
 * A list of artifact values as comma-separated code, or "–" for none.
 * @example
 * html`${codeList(turn.decisions)}`
 */
export function codeList(values: unknown): TemplateResult {
  const items = Array.isArray(values) ? values : [];
  if (items.length === 0) return html`–`;
  return html`${items.map((item, i) => html`${i > 0 ? ', ' : ''}<code>${visibleText(item)}</code>`)}`;
}

/**
 * A status word with its tone (pass/fail/warn/neutral) for the colour; the word carries the meaning.
 * @example
 * html`${status('blocked')}`
 */
export function status(value: unknown): TemplateResult {
  const word = typeof value === 'string' ? value : '';
  const tone = /^(completed|passed|approved|satisfied|pass|active|clear|healthy|recent)$/.test(word)
    ? 'good'
    : /^(blocked|failed|fail|rejected|error|crashed|exhausted|critical)$/.test(word)
      ? 'bad'
      : /^(pending|paused|warn|warning|quiet|degraded|mixed)$/.test(word)
        ? 'warn'
        : 'neutral';
  return html`<span class="status" data-tone=${tone}>${visibleText(value)}</span>`;
}
