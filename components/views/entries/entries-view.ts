/**
 * The Entries view of a Zaxy bundle, subset or unsigned envelope (docs/zaxy.md): the entries the
 * document carries, grouped by `seq`, each as a card typed by grain (the inspector's view models,
 * `src/inspect/zaxy.ts`, paged from the worker through `fetchPage`). Filters (grain, kind with
 * counts, actor, time) narrow the list and can tick the same entries for disclosure; search is the
 * kit's own, with exact counts; findings jump to their entry. Everything from the artifact is drawn
 * as text (`visible-text.ts`): no markup, URLs stay text, controls and bidi characters are marks.
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ZaxyEntryItem, ZaxyField, ZaxyItem, ZaxyOverview } from '../../../src/inspect/zaxy.ts';
import { visibleText } from '../../visible-text.ts';
import { downloadBlob, fetchOne, locate, FULL_LIST_MAX, PagedItems, type ListWindow } from '../common/paged-items.ts';
import { viewStyles } from '../common/view-styles.ts';
import { ContentView } from '../common/content-view.ts';
import { focusRow, measuredRowHeight, OncePerFrame, scrollerWindow } from '../common/list-scroll.ts';
import { failedBar, listKeyTarget, notViewableNote, spacer } from '../common/list-parts.ts';
import { SearchQuery, searchBar, stepMark } from '../common/search-bar.ts';
import { pathFindings, type ViewFinding } from '../common/view-finding.ts';
import { css } from 'lit';

/** Longest text drawn for one value (the inspector clips at the same length). */
const MAX_DRAWN = 200_000;
const DEFAULT_NOTE = 'Content signed, anchor not covered.';

export type { ViewFinding };

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
export class VerifyExportEntries extends ContentView {
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
    _overview: { state: true },
    _filter: { state: true },
    _window: { state: true },
    _focus: { state: true },
    _markAt: { state: true },
    _marks: { state: true },
  };

  declare private _overview: ZaxyOverview | undefined;
  declare private _filter: EntriesFilter;
  declare private _window: ListWindow;
  declare private _focus: number;
  declare private _markAt: number;
  declare private _marks: readonly number[];

  private _items: PagedItems<ZaxyEntryItem> | undefined;
  /** The search field and the search the list shows. */
  private readonly _query = new SearchQuery(this, {
    delay: 250,
    show: () => this._settle(this._reload()),
    step: (direction) => this._step(direction),
  });
  private _rowHeight = 180;
  private readonly _scrollWork = new OncePerFrame();

  constructor() {
    super('the entries');
    this._overview = undefined;
    this._filter = NO_FILTER;
    this._window = { start: 0, end: 0, before: 0, after: 0 };
    this._focus = 0;
    this._markAt = -1;
    this._marks = [];
  }

  protected override _load(): Promise<void> {
    this._overview = undefined;
    return this._loadOverview().then(() => this._reload());
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
    focusRow(this.renderRoot, `[data-index="${index}"]`);
  }

  private async _loadOverview(): Promise<void> {
    if (this.fetchPage === undefined) return;
    this._overview = await fetchOne<ZaxyOverview>(this.fetchPage, { filter: { view: 'overview' } });
  }

  private _request(): { filter: Record<string, string>; search?: string } {
    const filter: Record<string, string> = {};
    for (const [key, value] of Object.entries(this._filter)) if (value !== '') filter[key] = value;
    return this._query.applied === '' ? { filter } : { filter, search: this._query.applied };
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
    if (this._query.applied !== '') {
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
      this._query.applied === ''
        ? `${items.total} entr${items.total === 1 ? 'y' : 'ies'}`
        : `${items.matches} of ${items.total} entries match “${this._query.applied}”`;
    this._version++;
  }

  private async _locate(position: number): Promise<number> {
    return locate(this.fetchPage, { ...this._request().filter, view: 'locate', position: String(position) });
  }

  private _scroller(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.scroller');
  }

  /** Recomputes the drawn rows for the scroll position (or for `top`, where a jump is going). */
  private async _updateWindow(top?: number): Promise<void> {
    const items = this._items;
    if (items === undefined) return;
    const scroller = this._scroller();
    const next = scrollerWindow(scroller, items.total, this._rowHeight, top);
    await items.ensure(next.start, next.end);
    if (this._items === items) this._window = next;
  }

  private _measureRows(): void {
    const cards = this.renderRoot.querySelectorAll<HTMLElement>('[role="listitem"]');
    this._rowHeight = measuredRowHeight(cards, this._rowHeight, 40, 2000);
  }

  private _onScroll(): void {
    if (this._items === undefined || this._items.total <= FULL_LIST_MAX) return;
    this._scrollWork.run(() => void this._settle(this._updateWindow()));
  }

  private _setFilter(patch: Partial<EntriesFilter>): void {
    this._filter = { ...this._filter, ...patch };
    this.ready = this._settle(this._reload());
  }

  /** Moves to the next (or previous) search match. */
  private async _step(direction: 1 | -1): Promise<void> {
    const marks = this._marks;
    if (marks.length === 0) return;
    this._markAt = stepMark(this._markAt, direction, marks.length);
    this._status = `Match ${this._markAt + 1} of ${marks.length}`;
    await this.jumpTo(marks[this._markAt]!);
  }

  private _onListKey(event: KeyboardEvent): void {
    const target = listKeyTarget(event.key, this._focus, this._items?.total ?? 0, { page: 10, letters: true });
    if (target === undefined) return;
    event.preventDefault();
    void this.jumpTo(target);
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
      ${failedBar(this.failed, 'these entries are')}
      <p class="note"><strong>${this.verifiedNote || DEFAULT_NOTE}</strong>${this._anchorNote(overview)}</p>
      ${overview === undefined ? html`<p class="status">Loading entries…</p>` : this._renderHeader(overview)}
      ${pathFindings(
        this.findings.filter((finding) => entryPositionOf(finding.path) >= 0),
        { title: 'Findings about entries', pathMax: 200, reveal: (path) => void this.revealPath(path) },
      )}
      ${overview === undefined ? nothing : this._renderToolbar(overview)} ${this._renderList()}
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
      ${searchBar({
        countId: 'entries-count',
        query: this._query,
        status: this._status,
        canStep: this._marks.length > 0,
        onStep: (direction) => void this._step(direction),
      })}`;
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
    return html`${notViewableNote(items.notViewable)}
      <div
        class="scroller"
        role="list"
        aria-label="Entries"
        tabindex=${rows.length === 0 ? '-1' : '0'}
        @scroll=${this._onScroll}
        @keydown=${this._onListKey}
      >
        ${spacer(before)} ${rows.length === 0 ? html`<p class="status">No entries match.</p>` : rows} ${spacer(after)}
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
