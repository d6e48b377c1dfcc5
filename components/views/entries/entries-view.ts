/**
 * The Entries view of a Zaxy bundle, subset or unsigned envelope (docs/zaxy.md): the entries the
 * document carries, grouped by `seq`, each as a card typed by grain (the inspector's view models,
 * `src/inspect/zaxy.ts`, paged from the worker through `fetchPage`). Filters (grain, kind with
 * counts, actor, time) narrow the list and can tick the same entries for disclosure; search is the
 * kit's own, with exact counts; findings jump to their entry. Everything from the artifact is drawn
 * as text (`visible-text.ts`): no markup, URLs stay text, controls and bidi characters are marks.
 * @module
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { ZaxyEntryItem, ZaxyField, ZaxyItem, ZaxyOverview } from '../../../src/inspect/zaxy.ts';
import { visibleText } from '../../visible-text.ts';
import {
  downloadBlob,
  FULL_LIST_MAX,
  listWindow,
  PagedItems,
  type FetchPage,
  type ListWindow,
} from '../shared/paged-items.ts';
import { viewStyles } from '../shared/view-styles.ts';
import { styleProps } from '../shared/style-props.ts';
import { css } from 'lit';

/** Longest text drawn for one value (the inspector clips at the same length). */
const MAX_DRAWN = 200_000;
const DEFAULT_NOTE = 'Content signed, anchor not covered.';

/** A finding as the view lists it (the report's `Finding`, or any object with these fields). */
export interface ViewFinding {
  readonly path: string;
  readonly message: string;
  readonly severity?: string;
  readonly code?: string;
}

/** The filter fields (blank: no filter). */
interface EntriesFilter {
  readonly grain: string;
  readonly kind: string;
  readonly actor: string;
  readonly since: string;
  readonly until: string;
}

const NO_FILTER: EntriesFilter = { grain: '', kind: '', actor: '', since: '', until: '' };

/** The document position a finding's path points into (`$.entries[3].id`, `$.disclosed[0]`), or -1. */
export function entryPositionOf(path: string): number {
  const match = /^\$\.(?:entries|disclosed)\[(\d{1,9})\]/.exec(path);
  return match === null ? -1 : Number(match[1]);
}

/**
 * The Entries view. Set `fetchPage` (the worker's `inspect` for this document) and
 * `verifiedNote`; `failed` draws the red bar; `findings` are listed and jump to their entry.
 *
 * @fires verify-export:entries-selection - `detail: { positions }`: the document positions the filters keep,
 * for the disclosure ticks (a signed bundle that passed: only that one can be disclosed from).
 */
export class VerifyExportEntries extends LitElement {
  static override styles = [
    viewStyles,
    css`
      .header-facts {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0 0.8em;
        margin: 0.3em 0;
        font-size: 0.9em;
      }
      .header-facts dt {
        color: var(--v-muted);
      }
      .header-facts dd {
        margin: 0;
        min-width: 0;
        overflow-wrap: anywhere;
      }
    `,
  ];

  static override properties = {
    fetchPage: { attribute: false },
    verifiedNote: { type: String, attribute: 'verified-note' },
    failed: { type: Boolean, reflect: true },
    findings: { attribute: false },
    _overview: { state: true },
    _filter: { state: true },
    _searchText: { state: true },
    _window: { state: true },
    _focus: { state: true },
    _markAt: { state: true },
    _marks: { state: true },
    _status: { state: true },
    _version: { state: true },
  };

  declare fetchPage: FetchPage | undefined;
  declare verifiedNote: string;
  declare failed: boolean;
  declare findings: readonly ViewFinding[];

  declare private _overview: ZaxyOverview | undefined;
  declare private _filter: EntriesFilter;
  declare private _searchText: string;
  declare private _window: ListWindow;
  declare private _focus: number;
  declare private _markAt: number;
  declare private _marks: readonly number[];
  declare private _status: string;
  declare private _version: number;

  private _items: PagedItems<ZaxyEntryItem> | undefined;
  private _search = '';
  private _rowHeight = 180;
  private _searchTimer: ReturnType<typeof setTimeout> | undefined;
  private _scrollFrame = 0;

  constructor() {
    super();
    this.fetchPage = undefined;
    this.verifiedNote = '';
    this.failed = false;
    this.findings = [];
    this._overview = undefined;
    this._filter = NO_FILTER;
    this._searchText = '';
    this._window = { start: 0, end: 0, before: 0, after: 0 };
    this._focus = 0;
    this._markAt = -1;
    this._marks = [];
    this._status = '';
    this._version = 0;
  }

  /** Resolves once the list shows the current filter and search. */
  ready: Promise<void> = Promise.resolve();

  /** A page the worker could not give (the element was removed, the worker stopped) becomes the status line. */
  private _settle(work: Promise<void>): Promise<void> {
    return work.catch((error: unknown) => {
      this._status = `Could not read the entries: ${error instanceof Error ? error.message : String(error)}`;
    });
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('fetchPage') && this.fetchPage !== undefined) {
      this._overview = undefined;
      this.ready = this._settle(this._loadOverview().then(() => this._reload()));
    }
  }

  protected override updated(): void {
    if (this._items !== undefined && this._items.total > FULL_LIST_MAX) this._measureRows();
  }

  /** Shows the entry a finding's path points into (`$.entries[3].id`); false when there is none. */
  async revealPath(path: string): Promise<boolean> {
    const position = entryPositionOf(path);
    if (position < 0) return false;
    await this.ready;
    let located = await this._locate(position);
    if (located < 0 && this._filter !== NO_FILTER) {
      this._filter = NO_FILTER;
      await this._reload();
      located = await this._locate(position);
    }
    if (located < 0) return false;
    await this.jumpTo(located);
    return true;
  }

  /** Scrolls to the entry at `index` of the filtered list and focuses it. */
  async jumpTo(index: number): Promise<void> {
    const items = this._items;
    if (items === undefined || index < 0 || index >= items.total) return;
    await items.ensure(index, index + 1);
    const scroller = this._scroller();
    if (items.total > FULL_LIST_MAX && scroller !== null) {
      const top = index * this._rowHeight;
      scroller.scrollTop = top;
      await this._updateWindow(top);
    }
    this._focus = index;
    await this.updateComplete;
    const card = this.renderRoot.querySelector<HTMLElement>(`[data-index="${index}"]`);
    card?.scrollIntoView({ block: 'nearest' });
    card?.focus({ preventScroll: true });
  }

  private async _loadOverview(): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const page = await fetchPage({ from: 0, count: 1, filter: { view: 'overview' } });
    this._overview = page.items[0] as ZaxyOverview | undefined;
  }

  private _request(): { filter: Record<string, string>; search?: string } {
    const filter: Record<string, string> = {};
    for (const [key, value] of Object.entries(this._filter)) if (value !== '') filter[key] = value;
    return this._search === '' ? { filter } : { filter, search: this._search };
  }

  private async _reload(): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const items = new PagedItems<ZaxyEntryItem>(fetchPage, this._request());
    this._items = items;
    await items.ensure(0, 1);
    if (items.total <= FULL_LIST_MAX) await items.ensure(0, items.total);
    if (this._items !== items) return;
    this._marks = [];
    this._markAt = -1;
    if (this._search !== '') {
      const marks = await fetchPage({
        from: 0,
        count: 1,
        ...this._request(),
        filter: { ...this._request().filter, view: 'marks' },
      });
      this._marks = (marks.items[0] as { matches: number[] } | undefined)?.matches ?? [];
    }
    this._focus = 0;
    const scroller = this._scroller();
    if (scroller !== null) scroller.scrollTop = 0;
    await this._updateWindow();
    this._status =
      this._search === ''
        ? `${items.total} entr${items.total === 1 ? 'y' : 'ies'}`
        : `${items.matches} of ${items.total} entries match “${this._search}”`;
    this._version++;
  }

  private async _locate(position: number): Promise<number> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return -1;
    const request = this._request();
    const page = await fetchPage({
      from: 0,
      count: 1,
      filter: { ...request.filter, view: 'locate', position: String(position) },
    });
    return (page.items[0] as { position: number } | undefined)?.position ?? -1;
  }

  private _scroller(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.scroller');
  }

  /** Recomputes the drawn rows for the scroll position (or for `top`, where a jump is going). */
  private async _updateWindow(top?: number): Promise<void> {
    const items = this._items;
    if (items === undefined) return;
    const scroller = this._scroller();
    const next = listWindow(
      items.total,
      top ?? scroller?.scrollTop ?? 0,
      scroller?.clientHeight ?? 800,
      this._rowHeight,
    );
    await items.ensure(next.start, next.end);
    if (this._items === items) this._window = next;
  }

  private _measureRows(): void {
    const cards = this.renderRoot.querySelectorAll<HTMLElement>('[role="listitem"]');
    if (cards.length < 5) return;
    let sum = 0;
    for (const card of cards) sum += card.offsetHeight;
    const average = Math.min(2000, Math.max(40, sum / cards.length));
    if (Math.abs(average - this._rowHeight) > 8) this._rowHeight = average;
  }

  private _onScroll(): void {
    if (this._items === undefined || this._items.total <= FULL_LIST_MAX || this._scrollFrame !== 0) return;
    this._scrollFrame = requestAnimationFrame(() => {
      this._scrollFrame = 0;
      void this._settle(this._updateWindow());
    });
  }

  private _setFilter(patch: Partial<EntriesFilter>): void {
    this._filter = { ...this._filter, ...patch };
    this.ready = this._settle(this._reload());
  }

  private _onSearchInput(event: Event): void {
    this._searchText = (event.target as HTMLInputElement).value;
    clearTimeout(this._searchTimer);
    this._searchTimer = setTimeout(() => this._applySearch(), 250);
  }

  private _applySearch(): Promise<void> {
    clearTimeout(this._searchTimer);
    if (this._searchText.trim() === this._search) return this.ready;
    this._search = this._searchText.trim();
    this.ready = this._settle(this._reload());
    return this.ready;
  }

  private async _onSearchKey(event: KeyboardEvent): Promise<void> {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    await this._applySearch();
    await this._step(event.shiftKey ? -1 : 1);
  }

  /** Moves to the next (or previous) search match. */
  private async _step(direction: 1 | -1): Promise<void> {
    const marks = this._marks;
    if (marks.length === 0) return;
    this._markAt = (this._markAt + direction + marks.length) % marks.length;
    this._status = `Match ${this._markAt + 1} of ${marks.length}`;
    await this.jumpTo(marks[this._markAt]!);
  }

  private _onListKey(event: KeyboardEvent): void {
    const total = this._items?.total ?? 0;
    if (total === 0) return;
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: 10, PageUp: -10 };
    let target: number | undefined;
    if (event.key in moves) target = this._focus + moves[event.key]!;
    else if (event.key === 'Home') target = 0;
    else if (event.key === 'End') target = total - 1;
    if (target === undefined) return;
    event.preventDefault();
    void this.jumpTo(Math.max(0, Math.min(total - 1, target)));
  }

  private async _tickForDisclosure(): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const page = await fetchPage({ from: 0, count: 1, filter: { ...this._request().filter, view: 'positions' } });
    const positions = (page.items[0] as { positions: number[] } | undefined)?.positions ?? [];
    this._status = `${positions.length} entr${positions.length === 1 ? 'y' : 'ies'} ticked for disclosure`;
    this.dispatchEvent(
      new CustomEvent('verify-export:entries-selection', { detail: { positions }, bubbles: true, composed: true }),
    );
  }

  private async _downloadEntry(position: number): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const page = await fetchPage({ from: 0, count: 1, filter: { view: 'entry-json', position: String(position) } });
    const text = (page.items[0] as { text: string } | undefined)?.text ?? '';
    downloadBlob(new Blob([text], { type: 'application/json' }), `entry-${position}.json`);
  }

  protected override render(): TemplateResult {
    const overview = this._overview;
    return html`
      ${
        this.failed
          ? html`<div class="failed-bar" role="alert">
              Verification failed: these entries are shown as read, not as verified.
            </div>`
          : nothing
      }
      <p class="note"><strong>${this.verifiedNote || DEFAULT_NOTE}</strong>${this._anchorNote(overview)}</p>
      ${overview === undefined ? html`<p class="status">Loading entries…</p>` : this._renderHeader(overview)}
      ${this._renderFindings()} ${overview === undefined ? nothing : this._renderToolbar(overview)}
      ${this._renderList()}
    `;
  }

  private _anchorNote(overview: ZaxyOverview | undefined): TemplateResult | typeof nothing {
    if (overview === undefined || overview.shape !== 'bundle') return nothing;
    return overview.anchor === ''
      ? html` The bundle has no anchor.`
      : html` Its <code>anchor</code> is not covered by the signature: ${visibleText(overview.anchor, { max: 500 })}`;
  }

  private _renderHeader(overview: ZaxyOverview): TemplateResult {
    const shape = {
      bundle: 'Signed bundle',
      subset: 'Disclosed subset',
      unsigned: 'Unsigned envelope',
      unknown: 'Zaxy document',
    }[overview.shape];
    const shown = overview.header.filter(([key]) => key !== 'public_key' && key !== 'signature');
    return html`<details>
        <summary>${shape}: ${overview.count} entr${overview.count === 1 ? 'y' : 'ies'}</summary>
        <dl class="header-facts">
          ${shown.map(
            ([key, value]) =>
              html`<dt>${key}</dt>
                <dd class="mono">${visibleText(value, { max: 200 })}</dd>`,
          )}
        </dl>
      </details>
      ${
        overview.unreadable === ''
          ? nothing
          : html`<p class="status" role="note">
              Not all of the document could be read: ${visibleText(overview.unreadable)}
            </p>`
      }`;
  }

  private _renderFindings(): TemplateResult | typeof nothing {
    const findings = this.findings.filter((finding) => entryPositionOf(finding.path) >= 0);
    if (findings.length === 0) return nothing;
    return html`<details open>
      <summary>Findings about entries (${findings.length})</summary>
      <ul class="findings">
        ${findings.slice(0, 200).map(
          (finding) =>
            html`<li class=${finding.severity === 'error' ? 'error' : ''}>
              <button class="link" @click=${() => void this.revealPath(finding.path)}>
                <code>${visibleText(finding.path, { max: 200 })}</code></button
              >: ${visibleText(finding.message, { max: 500 })}
            </li>`,
        )}
      </ul>
    </details>`;
  }

  private _renderToolbar(overview: ZaxyOverview): TemplateResult {
    const items = this._items;
    const option = ([value, count]: readonly [string, number], selected: string) =>
      html`<option .value=${value} ?selected=${value === selected}>
        ${value === '' ? '(none)' : value} (${count})
      </option>`;
    const choose = (event: Event) => (event.target as HTMLSelectElement).value;
    return html`<div class="toolbar" role="search">
        <label
          >Grain
          <select @change=${(event: Event) => this._setFilter({ grain: choose(event) })}>
            <option value="">all</option>
            ${overview.grains.map((grain) => option(grain, this._filter.grain))}
          </select></label
        >
        <label
          >Kind
          <select @change=${(event: Event) => this._setFilter({ kind: choose(event) })}>
            <option value="">all</option>
            ${overview.kinds.map((kind) => option(kind, this._filter.kind))}
          </select></label
        >
        ${
          overview.actors.length > 0
            ? html`<label
                >Actor
                <select @change=${(event: Event) => this._setFilter({ actor: choose(event) })}>
                  <option value="">all</option>
                  ${overview.actors.map((actor) => option(actor, this._filter.actor))}
                </select></label
              >`
            : nothing
        }
        <label
          >From
          <input
            type="text"
            size="14"
            placeholder=${overview.firstTime || 'valid_from'}
            .value=${this._filter.since}
            @change=${(event: Event) => this._setFilter({ since: (event.target as HTMLInputElement).value })}
        /></label>
        <label
          >to
          <input
            type="text"
            size="14"
            placeholder=${overview.lastTime || 'valid_from'}
            .value=${this._filter.until}
            @change=${(event: Event) => this._setFilter({ until: (event.target as HTMLInputElement).value })}
        /></label>
        ${
          overview.shape === 'bundle' && !this.failed
            ? html`<button type="button" @click=${() => void this._tickForDisclosure()}>
                Tick ${items?.total ?? 0} for disclosure
              </button>`
            : nothing
        }
      </div>
      <div class="toolbar">
        <label
          >Search
          <input
            type="search"
            aria-describedby="entries-count"
            .value=${this._searchText}
            @input=${this._onSearchInput}
            @keydown=${this._onSearchKey}
        /></label>
        <button
          type="button"
          aria-label="Previous match"
          ?disabled=${this._marks.length === 0}
          @click=${() => void this._step(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          aria-label="Next match"
          ?disabled=${this._marks.length === 0}
          @click=${() => void this._step(1)}
        >
          ↓
        </button>
        <span id="entries-count" class="count" role="status" aria-live="polite">${this._status}</span>
      </div>`;
  }

  private _renderList(): TemplateResult | typeof nothing {
    const items = this._items;
    if (items === undefined) return nothing;
    const { start, end, before, after } = this._window;
    const rows: TemplateResult[] = [];
    for (let index = start; index < end; index++) {
      const item = items.get(index);
      if (item === undefined) continue;
      const previous = index > 0 ? items.get(index - 1) : undefined;
      rows.push(this._renderRow(item, index, previous === undefined || previous.seq !== item.seq));
    }
    return html`${
        items.notViewable === undefined
          ? nothing
          : html`<p class="status" role="note">${visibleText(items.notViewable)}</p>`
      }
      <div
        class="scroller"
        role="list"
        aria-label="Entries"
        tabindex=${rows.length === 0 ? '-1' : '0'}
        @scroll=${this._onScroll}
        @keydown=${this._onListKey}
      >
        ${before > 0 ? html`<div class="spacer" ${styleProps({ height: `${before}px` })} aria-hidden="true"></div>` : nothing}
        ${rows.length === 0 ? html`<p class="status">No entries match.</p>` : rows}
        ${after > 0 ? html`<div class="spacer" ${styleProps({ height: `${after}px` })} aria-hidden="true"></div>` : nothing}
      </div>`;
  }

  private _entryLabel(item: ZaxyEntryItem): string {
    const shape = this._overview?.shape;
    return shape === 'bundle' || shape === 'subset'
      ? `entry #${item.bundleIndex} of the signed bundle`
      : `entry #${item.bundleIndex}`;
  }

  private _renderRow(item: ZaxyEntryItem, index: number, firstOfSeq: boolean): TemplateResult {
    const label = this._entryLabel(item);
    return html`<div role="listitem" data-position=${item.position}>
      ${firstOfSeq ? html`<h3 class="group">seq ${visibleText(item.seq, { max: 100 })}</h3>` : nothing}
      <article
        class="card ${item.hit ? 'hit' : ''} ${this._hasFinding(item) ? 'bad' : ''}"
        data-index=${index}
        tabindex=${index === this._focus ? '0' : '-1'}
        aria-label=${label}
        @focus=${() => (this._focus = index)}
      >
        <header>
          <span>${label}</span>
          <span class="mono">${visibleText(item.entryKind, { max: 200 })}</span>
          ${item.actor === '' ? nothing : html`<span>by ${visibleText(item.actor, { max: 200 })}</span>`}
          ${item.validFrom === '' ? nothing : html`<span>${visibleText(item.validFrom, { max: 100 })}</span>`}
          ${item.validTo === '' ? nothing : html`<span>until ${visibleText(item.validTo, { max: 100 })}</span>`}
          ${item.hit ? html`<span class="badge">match</span>` : nothing}
        </header>
        ${this._renderBody(item)}
        ${item.fields.length > 0 ? html`<dl class="fields">${item.fields.map((field) => this._renderField(field))}</dl>` : nothing}
        <footer class="status">
          <span class="mono">${visibleText(item.citation, { max: 300 })}</span>
          ${
            item.clipped
              ? html` <button type="button" @click=${() => void this._downloadEntry(item.position)}>
                  Download full entry
                </button>`
              : nothing
          }
        </footer>
      </article>
    </div>`;
  }

  private _hasFinding(item: ZaxyEntryItem): boolean {
    return this.findings.some((finding) => entryPositionOf(finding.path) === item.position);
  }

  private _renderBody(item: ZaxyEntryItem): TemplateResult | typeof nothing {
    if (item.shape === 'edge' && item.edge !== undefined) {
      const edge = item.edge;
      return html`<p class="sentence">
        ${visibleText(edge.source, { max: 1000 })}
        <span class="rel">—${visibleText(edge.relation, { max: 300 })}→</span>
        ${visibleText(edge.target, { max: 1000 })}
        <span class="status"
          >(confidence
          ${visibleText(edge.confidence, { max: 50 })}${
            edge.inferred === 'true'
              ? html`,
                inferred${
                  edge.inferenceMethod === '' || edge.inferenceMethod === 'null'
                    ? nothing
                    : html` by ${visibleText(edge.inferenceMethod, { max: 200 })}`
                }`
              : nothing
          })</span
        >
      </p>`;
    }
    if (item.shape === 'entity')
      return html`<h4>
        ${visibleText(item.headline, { max: 2000 })}
        <span class="status">(${visibleText(item.entityType, { max: 200 })})</span>
      </h4>`;
    if (item.headline !== '') return html`<h4>${visibleText(item.headline, { max: 2000 })}</h4>`;
    return nothing;
  }

  private _renderField(field: ZaxyField): TemplateResult {
    let value: TemplateResult;
    if (field.shape === 'list')
      value = html`<ul>
        ${field.items.map((item) => html`<li>${visibleText(item, { max: MAX_DRAWN, multiline: true })}</li>`)}
      </ul>`;
    else if (field.shape === 'scalar') value = html`<code>${visibleText(field.text, { max: MAX_DRAWN })}</code>`;
    else
      value = html`<pre class=${field.shape === 'text' ? 'prose' : ''}>
${visibleText(field.text, { max: MAX_DRAWN, multiline: true })}</pre>`;
    const shownLength = field.shape === 'list' ? field.items.join('').length : field.text.length;
    return html`<dt>${visibleText(field.label, { max: 200 })}</dt>
      <dd>
        ${value}${
          field.fullLength > shownLength
            ? html`<span class="status"
                >… ${field.fullLength - shownLength} more characters (download the full entry)</span
              >`
            : nothing
        }
      </dd>`;
  }
}

/** The item types the Entries view reads (re-exported for hosts and tests). */
export type { ZaxyEntryItem, ZaxyItem, ZaxyOverview };
