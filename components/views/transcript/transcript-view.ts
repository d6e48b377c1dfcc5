/**
 * The Transcript view of an agent-history export (docs/agent-history.md): the sessions, and their
 * messages grouped by turn as role cards (time; at level 4 model, tokens and the rest of the
 * metadata), tool inputs and outputs in panels that collapse past 3,000 characters and open on
 * errors. The items are the inspector's view models (`src/inspect/agent-history.ts`), paged from
 * the worker through `fetchPage`. Filters are agent-history's markdown levels; search is the kit's
 * own, with exact counts; next/previous error and match; findings jump to their line; a message
 * can be copied; the session's markdown downloads as agent-history writes it.
 *
 * Everything from the artifact is drawn as text (`visible-text.ts`): no markup, URLs stay text,
 * controls and bidi characters are marks. A body longer than the page carries (about 200 KB) offers
 * the full text as a download instead of drawing it.
 *
 * No task of the main thread draws much (a task past 50 ms is a stall, Long Tasks API): the header
 * first, the filters and the search a frame later, then the cards on screen, the rest of the
 * window a few cards a frame (`list-scroll.ts`); the body of a collapsed panel is drawn only once
 * it is opened, and messages come from the worker 50 at a time.
 * @module
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type {
  TranscriptBlock,
  TranscriptMarks,
  TranscriptMessage,
  TranscriptOverview,
  TranscriptSession,
} from '../../../src/inspect/agent-history.ts';
import type { MarkdownItem } from '../../inspect-job.ts';
import { visibleString, visibleText } from '../../visible-text.ts';
import {
  downloadBlob,
  fetchOne,
  locate,
  windowOf,
  FULL_LIST_MAX,
  PagedItems,
  type ListWindow,
} from '../common/paged-items.ts';
import { viewStyles } from '../common/view-styles.ts';
import { styleProps } from '../common/style-props.ts';
import { ContentView } from '../common/content-view.ts';
import {
  afterPaint,
  drawKeepingPlace,
  focusRow,
  LatestJump,
  measuredRowHeight,
  OncePerFrame,
  screenRows,
  scrollerWindow,
  StagedDraw,
  type RowRange,
} from '../common/list-scroll.ts';
import { grouped } from '../../numbers.ts';
import { failedBar, listKeyTarget, notViewableNote, spacer } from '../common/list-parts.ts';
import { SearchQuery, searchBar, stepMark } from '../common/search-bar.ts';
import { findingLine, lineFindings, type ViewFinding } from '../common/view-finding.ts';

/** What agent-history and codex-exec verification covers (issue 17; docs/agent-history.md). */
const DEFAULT_NOTE = 'Structure checked, nothing signed.';
/** Tool panels longer than this start collapsed (unless they hold an error). */
const COLLAPSE_CHARS = 3000;
/** Characters drawn of one body; the inspector clips at about the same. */
const MAX_DRAWN = 200_000;
/**
 * Messages asked of the worker at once: a page arrives as one message the main thread copies in
 * one task, and 50 messages with bodies of up to 200 KB each are already megabytes.
 */
const PAGE_MESSAGES = 50;
/** Cards a stage of drawing adds (after those on screen): a card with its layout is about 1 ms. */
const STAGE_CARDS = 8;
/** Nothing drawn yet. */
const NO_WINDOW: ListWindow = { start: 0, end: 0, before: 0, after: 0 };

const LEVELS: readonly (readonly [string, string])[] = [
  ['1', 'Level 1: conversation, bodies cut at 500'],
  ['2', 'Level 2: with tool messages, cut at 500'],
  ['3', 'Level 3: full text'],
  ['4', 'Level 4: full text and metadata'],
];

export { findingLine, type ViewFinding };

/**
 * The Transcript view. Set `fetchPage` (the worker's `inspect` for this file) and `verifiedNote`;
 * `failed` draws the red bar; `findings` are listed and jump to their line.
 */
export class VerifyExportTranscript extends ContentView {
  static override styles = [
    viewStyles,
    css`
      .sessions {
        list-style: none;
        padding: 0;
        margin: 0.3em 0;
        max-height: 14em;
        overflow: auto;
      }
      .sessions li {
        margin: 0.1em 0;
      }
      .sessions button[aria-pressed='true'] {
        border-color: var(--v-accent);
        font-weight: 600;
      }
      .card.user {
        border-left: 4px solid var(--v-accent);
      }
      .card.error {
        border-left: 4px solid var(--v-fail);
      }
      .card.branch {
        border-style: dashed;
      }
      .turn {
        margin: 0.9em 0 0.2em;
        font-size: 0.85em;
        color: var(--v-muted);
        border-bottom: 1px solid var(--v-border);
      }
      .scroller {
        overflow-anchor: none;
      }
      .session-head {
        margin: 1em 0 0.3em;
        font-size: 1em;
      }
      details.tool {
        border: 1px solid var(--v-border);
        border-radius: 6px;
        margin: 0.35em 0;
        padding: 0.2em 0.5em;
        background: var(--v-surface);
      }
      details.tool.error {
        border-color: var(--v-fail);
      }
      details.tool summary {
        cursor: pointer;
        color: var(--v-muted);
      }
      details.tool.error summary {
        color: var(--v-fail);
        font-weight: 600;
      }
      .thinking {
        color: var(--v-muted);
        font-style: italic;
      }
      .meta {
        display: flex;
        flex-wrap: wrap;
        gap: 0.1em 1em;
        font-size: 0.85em;
        color: var(--v-muted);
        margin: 0.2em 0;
      }
      .card footer {
        display: flex;
        gap: 0.6em;
        justify-content: flex-end;
        font-size: 0.85em;
      }
    `,
  ];

  static override properties = {
    _overview: { state: true },
    _level: { state: true },
    _errorsOnly: { state: true },
    _session: { state: true },
    _window: { state: true },
    _focus: { state: true },
    _marks: { state: true },
    _markdownStatus: { state: true },
  };

  declare private _overview: TranscriptOverview | undefined;
  declare private _level: string;
  declare private _errorsOnly: boolean;
  declare private _session: string;
  declare private _window: ListWindow;
  declare private _focus: number;
  declare private _marks: TranscriptMarks;
  declare private _markdownStatus: string;

  /** The list the filters and the search ask for. */
  private _items: PagedItems<TranscriptMessage> | undefined;
  /** The list `_window` draws (the last one until the rows of a new one are drawn). */
  private _drawn: PagedItems<TranscriptMessage> | undefined;
  /** Where the window being drawn ends (`_window` reaches it stage by stage). */
  private _reach = 0;
  /** Collapsed panels a person opened (`message id:block`): their bodies are drawn. */
  private readonly _opened = new Set<string>();
  /** The search field and the search the list shows. */
  private readonly _query = new SearchQuery(this, {
    delay: 300,
    show: () => {
      if (this._query.applied !== '') this._status = 'Searching…';
      return this._settle(this._reload());
    },
    step: (direction) => this._stepMatch(direction),
  });
  private _matchSet = new Set<number>();
  private _matchAt = -1;
  private _errorAt = -1;
  private _rowHeight = 160;
  private readonly _scrollWork = new OncePerFrame();
  private readonly _jumps = new LatestJump();
  private readonly _stages = new StagedDraw(STAGE_CARDS);

  constructor() {
    super('the transcript');
    this._overview = undefined;
    this._level = '4';
    this._errorsOnly = false;
    this._session = '';
    this._window = { start: 0, end: 0, before: 0, after: 0 };
    this._focus = 0;
    this._marks = { kind: 'marks', errors: [], matches: [] };
    this._markdownStatus = '';
  }

  protected override async _load(): Promise<void> {
    this._overview = undefined;
    this._tools = false;
    this._opened.clear();
    await this._loadOverview();
    // The header is drawn now; the filters and the search after it has been painted, then the list.
    await this._reload(this._toolsAfterPaint());
  }

  /** Shows the first message at or after the line a finding names (`line 17`); false when none. */
  async revealPath(path: string): Promise<boolean> {
    const line = findingLine(path);
    if (line < 0) return false;
    await this.ready;
    if (this._errorsOnly || this._level === '1' || this._session !== '') {
      this._errorsOnly = false;
      this._level = '4';
      this._session = '';
      this.ready = this._settle(this._reload());
      await this.ready;
    }
    const position = await locate(this.fetchPage, { ...this._filter(), view: 'locate', line: String(line) });
    if (position < 0) return false;
    await this.jumpTo(position);
    return true;
  }

  /** Scrolls to the message at `index` of the filtered list and focuses its card. */
  async jumpTo(index: number): Promise<void> {
    const items = this._items;
    if (items === undefined || index < 0 || index >= items.total) return;
    const latest = this._jumps.start();
    await items.ensure(Math.max(0, index - 1), index + 1);
    if (!latest()) return;
    const scroller = this._scroller();
    if (items.total > FULL_LIST_MAX && scroller !== null) {
      const top = index * this._rowHeight;
      scroller.scrollTop = top;
      // The first stage draws the cards on screen there; those around follow.
      await this._updateWindow(top);
    } else if (items.total <= FULL_LIST_MAX) {
      // A list drawn whole is drawn down to the card first.
      await this._updateWindow(undefined, index);
      await this._stages.done;
    }
    if (!latest()) return;
    this._focus = index;
    await this.updateComplete;
    focusRow(this.renderRoot, `[data-index="${index}"]`);
  }

  private _filter(): Record<string, string> {
    const filter: Record<string, string> = { level: this._level };
    if (this._errorsOnly) filter['errors'] = 'only';
    if (this._session !== '') filter['session'] = this._session;
    return filter;
  }

  private async _loadOverview(): Promise<void> {
    this._overview = await fetchOne<TranscriptOverview>(this.fetchPage, { filter: { view: 'overview' } });
  }

  /** Shows the list for the filters and the search (once `before`, when given, has settled). */
  private async _reload(before?: Promise<unknown>): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const base = { filter: this._filter(), ...(this._query.applied === '' ? {} : { search: this._query.applied }) };
    const items = new PagedItems<TranscriptMessage>(fetchPage, base, PAGE_MESSAGES);
    this._items = items;
    this._stages.stop();
    await items.ensure(0, 1);
    const marks = await fetchOne<TranscriptMarks>(fetchPage, { ...base, filter: { ...base.filter, view: 'marks' } });
    await before;
    if (this._items !== items) return;
    this._marks = marks ?? { kind: 'marks', errors: [], matches: [] };
    this._matchSet = new Set(this._marks.matches);
    this._matchAt = -1;
    this._errorAt = -1;
    this._focus = 0;
    const scroller = this._scroller();
    if (scroller !== null) scroller.scrollTop = 0;
    const noun = (n: number) => `${n} message${n === 1 ? '' : 's'}`;
    this._status =
      this._query.applied === ''
        ? noun(items.total)
        : `${items.matches} of ${noun(items.total)} match “${visibleString(this._query.applied, 100) ?? ''}”`;
    this._version++;
    await this._updateWindow(0);
    await this._stages.done;
    await this._measureRows(items);
  }

  private _scroller(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.scroller');
  }

  /**
   * The drawn messages: all of a short list (fetched page by page, down to `upTo` when given), or
   * those near the scroll position (or `top`). Resolves once the cards on screen are drawn; the
   * rest of the window follows a stage a frame (`_stages.done`).
   */
  private async _updateWindow(top?: number, upTo = 0): Promise<void> {
    const items = this._items;
    if (items === undefined) return;
    const scroller = this._scroller();
    const next = scrollerWindow(scroller, items.total, this._rowHeight, top);
    const whole = items.total <= FULL_LIST_MAX;
    const drawn = this._drawn === items ? this._window : NO_WINDOW;
    // A short list is drawn whole, but fetched only as far as the reader has come (plus a page).
    const reach = whole ? Math.min(next.end, Math.max(drawn.end, 200, this._focus + 100, upTo + 1)) : next.end;
    await items.ensure(next.start, reach);
    if (this._items !== items) return;
    const screen = screenRows(scroller, items.total, this._rowHeight, top);
    this._reach = reach;
    await this._stages.start(
      drawn,
      { start: next.start, end: reach },
      whole ? { start: 0, end: screen.end } : screen,
      (range) => this._drawRows(items, range),
    );
  }

  /** Draws rows `range` of `items`; cards drawn above those shown keep what is on screen in place. */
  private async _drawRows(items: PagedItems<TranscriptMessage>, range: RowRange): Promise<boolean> {
    if (this._items !== items) return false;
    const drawn = this._drawn === items ? this._window : NO_WINDOW;
    await drawKeepingPlace(this.renderRoot, this._scroller(), drawn, range, async () => {
      this._drawn = items;
      this._window = windowOf(items.total, range.start, range.end, this._rowHeight);
      await this.updateComplete;
    });
    return this._items === items;
  }

  /**
   * The estimated card height of a windowed list, from the cards on screen once its first window
   * is drawn and painted (their layout then costs nothing to read). It is kept while the list is
   * shown: a new estimate would move every row's place, and with it what is on screen.
   */
  private async _measureRows(items: PagedItems<TranscriptMessage>): Promise<void> {
    if (items.total <= FULL_LIST_MAX) return;
    await afterPaint();
    const scroller = this._scroller();
    if (this._drawn !== items || this._items !== items || scroller === null || scroller.scrollTop !== 0) return;
    const bottom = scroller.getBoundingClientRect().bottom;
    const shown = [...this.renderRoot.querySelectorAll<HTMLElement>('[role="article"]')].filter(
      (card) => card.getBoundingClientRect().top < bottom,
    );
    const height = measuredRowHeight(shown, this._rowHeight, 60, 4000);
    if (height === this._rowHeight) return;
    // At the top, only the spacer below the cards changes.
    this._rowHeight = height;
    this._window = windowOf(items.total, this._window.start, this._window.end, height);
    await this.updateComplete;
  }

  private _onScroll(): void {
    if (this._items === undefined) return;
    const scroller = this._scroller();
    const nearEnd =
      scroller !== null && scroller.scrollTop + scroller.clientHeight > scroller.scrollHeight - 2 * this._rowHeight;
    if (this._items.total <= FULL_LIST_MAX && (!nearEnd || this._window.end >= this._items.total)) return;
    this._scrollWork.run(() => {
      if (this._items !== undefined && this._items.total <= FULL_LIST_MAX) this._focus = this._window.end;
      void this._settle(this._updateWindow().then(() => this._stages.done));
    });
  }

  private _set(patch: { level?: string; errorsOnly?: boolean; session?: string }): void {
    if (patch.level !== undefined) this._level = patch.level;
    if (patch.errorsOnly !== undefined) this._errorsOnly = patch.errorsOnly;
    if (patch.session !== undefined) this._session = patch.session;
    this.ready = this._settle(this._reload());
  }

  private async _stepMatch(direction: 1 | -1): Promise<void> {
    const list = this._marks.matches;
    if (list.length === 0) return;
    this._matchAt = stepMark(this._matchAt, direction, list.length);
    this._status = `Match ${this._matchAt + 1} of ${list.length}`;
    await this.jumpTo(list[this._matchAt]!);
  }

  private async _stepError(direction: 1 | -1): Promise<void> {
    const list = this._marks.errors;
    if (list.length === 0) return;
    this._errorAt = stepMark(this._errorAt, direction, list.length);
    this._status = `Error ${this._errorAt + 1} of ${list.length}`;
    await this.jumpTo(list[this._errorAt]!);
  }

  private _onListKey(event: KeyboardEvent): void {
    const total = this._items?.total ?? 0;
    if (total === 0 || (event.target as HTMLElement).closest('details, button, input') !== null) return;
    const target = listKeyTarget(event.key, this._focus, total, { page: 10, letters: true });
    if (target === undefined) {
      if (event.key === 'e') void this._stepError(event.shiftKey ? -1 : 1);
      else if (event.key === 'n') void this._stepMatch(event.shiftKey ? -1 : 1);
      return;
    }
    event.preventDefault();
    void this.jumpTo(target);
  }

  private async _copy(message: TranscriptMessage): Promise<void> {
    const full = await this._fullMessage(message);
    const text = full.blocks.map((block) => block.text).join('\n\n');
    try {
      await navigator.clipboard.writeText(text);
      this._status = `Message ${message.ordinal} copied.`;
    } catch {
      this._status = 'The browser did not allow copying.';
    }
  }

  /** The message with its bodies whole (not clipped for the page). */
  private async _fullMessage(message: TranscriptMessage): Promise<TranscriptMessage> {
    if (message.blocks.every((block) => block.text.length === block.fullLength)) return message;
    const index = this._indexOf(message);
    const page = await this.fetchPage?.({ from: index, count: 1, filter: { ...this._filter(), full: '1' } });
    return (page?.items[0] as TranscriptMessage | undefined) ?? message;
  }

  private _indexOf(message: TranscriptMessage): number {
    for (let index = this._window.start; index < this._window.end; index++)
      if (this._items?.get(index)?.id === message.id) return index;
    return this._focus;
  }

  private async _downloadFull(message: TranscriptMessage): Promise<void> {
    const full = await this._fullMessage(message);
    const text = full.blocks.map((block) => block.text).join('\n\n');
    downloadBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), `message-${message.id + 1}.txt`);
  }

  private async _downloadMarkdown(): Promise<void> {
    const level = this.renderRoot.querySelector<HTMLSelectElement>('select[name="md-level"]')?.value ?? '4';
    const minimal = this.renderRoot.querySelector<HTMLInputElement>('input[name="md-minimal"]')?.checked === true;
    this._markdownStatus = 'Making the markdown…';
    try {
      const page = await this.fetchPage?.({
        from: 0,
        count: 1,
        filter: { view: 'markdown', level, minimal: minimal ? '1' : '0' },
      });
      const item = page?.items[0] as MarkdownItem | undefined;
      if (item === undefined || item.markdown === null) {
        this._markdownStatus = `No markdown: ${item?.message ?? 'the worker did not answer'}`;
        return;
      }
      downloadBlob(new Blob([item.markdown], { type: 'text/markdown;charset=utf-8' }), item.fileName);
      this._markdownStatus =
        item.status === 'exact'
          ? `${item.fileName}: byte for byte what agent-history writes in this mode.`
          : `${item.fileName}: reconstructed, not the tool's own file (the NDJSON lacks ${item.missing.join('; ')}).`;
    } catch (error) {
      this._markdownStatus = `No markdown: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  protected override render(): TemplateResult {
    const overview = this._overview;
    return html`
      ${failedBar(this.failed, 'this transcript is')}
      <p class="note">
        <strong>${this.verifiedNote || DEFAULT_NOTE}</strong> The messages below are what the file says.
      </p>
      ${overview === undefined ? html`<p class="status" role="status">Loading the transcript…</p>` : this._renderHeader(overview)}
      ${lineFindings(this.findings, (path) => void this.revealPath(path))}
      ${overview === undefined || !this._tools ? nothing : html`${this._renderToolbar(overview)} ${this._renderList()}`}
    `;
  }

  private _renderHeader(overview: TranscriptOverview): TemplateResult {
    const shape =
      overview.shape === 'design-1.0'
        ? 'design-1.0 (multi-session)'
        : overview.shape === 'impl-2.0'
          ? `impl-2.0 session${overview.agent === '' ? '' : ` (${overview.agent})`}`
          : 'unrecognised shape';
    return html`<section aria-label="Export header">
      <details>
        <summary>
          agent-history ${shape}: ${overview.sessions.length} session${overview.sessions.length === 1 ? '' : 's'},
          ${overview.messageCount}
          message${overview.messageCount === 1 ? '' : 's'}${
            overview.errorCount > 0
              ? html`, <span class="error-count">${overview.errorCount} with errors</span>`
              : nothing
          }
        </summary>
        <dl class="fields">
          ${overview.header.map(
            ([key, value]) =>
              html`<dt>${visibleText(key, { max: 100 })}</dt>
                <dd class="mono">${visibleText(value, { max: 500 })}</dd>`,
          )}
        </dl>
      </details>
      ${
        overview.unreadableLines.length > 0
          ? html`<p class="status" role="note">
              Lines that could not be read are left out:
              ${overview.unreadableLines.slice(0, 20).join(', ')}${overview.unreadableLines.length > 20 ? '…' : ''}
            </p>`
          : nothing
      }
      ${overview.sessions.length > 1 || overview.shape === 'design-1.0' ? this._renderSessions(overview.sessions) : nothing}
    </section>`;
  }

  private _renderSessions(sessions: readonly TranscriptSession[]): TemplateResult {
    return html`<ul class="sessions" aria-label="Sessions">
      <li>
        <button
          type="button"
          aria-pressed=${this._session === '' ? 'true' : 'false'}
          @click=${() => this._set({ session: '' })}
        >
          All sessions
        </button>
      </li>
      ${sessions.slice(0, 2000).map(
        (session) =>
          html`<li ${styleProps({ 'padding-inline-start': `${Math.min(session.depth, 8) * 1.2}em` })}>
            <button
              type="button"
              aria-pressed=${this._session === String(session.index) ? 'true' : 'false'}
              @click=${() => this._set({ session: String(session.index) })}
            >
              ${session.isAgentSession ? html`<span class="badge">sub-agent</span> ` : nothing}<code
                >${visibleText(session.id, { max: 80 })}</code
              >
            </button>
            <span class="status">
              ${visibleText(session.agent, { max: 60 })} · ${session.messageCount} messages
              ${session.startedAt === '' ? nothing : html`· ${visibleText(session.startedAt, { max: 40 })}`}
              ${session.errorCount > 0 ? html`· <span class="error-count">${session.errorCount} errors</span>` : nothing}
              ${
                session.parentMissing
                  ? html`· parent ${visibleText(session.parentId, { max: 80 })} is not in this file`
                  : nothing
              }
            </span>
            ${
              session.forks.length > 0
                ? html`<ul>
                    ${session.forks.slice(0, 50).map(
                      (fork) =>
                        html`<li class="status">
                          fork at
                          ${fork.index === '' ? nothing : html`message ${visibleText(fork.index, { max: 20 })} `}<code
                            >${visibleText(fork.uuid.slice(0, 8), { max: 8 })}…</code
                          >
                          into ${fork.branches.length} branches:
                          ${fork.branches
                            .slice(0, 20)
                            .map(
                              (branch) =>
                                html`<code>${visibleText(branch.uuid.slice(0, 8), { max: 8 })}…</code>${
                                    branch.index === ''
                                      ? nothing
                                      : html` (message ${visibleText(branch.index, { max: 20 })})`
                                  } `,
                            )}
                        </li>`,
                    )}
                  </ul>`
                : nothing
            }
          </li>`,
      )}
    </ul>`;
  }

  private _renderToolbar(overview: TranscriptOverview): TemplateResult {
    return html`<div class="toolbar" role="group" aria-label="Filters">
        <label
          >Show
          <select
            aria-label="Detail level (agent-history's markdown levels)"
            @change=${(event: Event) => this._set({ level: (event.target as HTMLSelectElement).value })}
          >
            ${LEVELS.map(([value, label]) => html`<option .value=${value} ?selected=${value === this._level}>${label}</option>`)}
          </select></label
        >
        <label
          ><input
            type="checkbox"
            .checked=${this._errorsOnly}
            @change=${(event: Event) => this._set({ errorsOnly: (event.target as HTMLInputElement).checked })}
          />
          Errors only</label
        >
        <button type="button" ?disabled=${this._marks.errors.length === 0} @click=${() => void this._stepError(-1)}>
          Previous error
        </button>
        <button type="button" ?disabled=${this._marks.errors.length === 0} @click=${() => void this._stepError(1)}>
          Next error
        </button>
      </div>
      ${searchBar({
        countId: 'transcript-count',
        role: 'search',
        query: this._query,
        status: this._status,
        canStep: this._marks.matches.length > 0,
        onStep: (direction) => void this._stepMatch(direction),
      })}
      ${
        overview.shape === 'impl-2.0' && !this.failed
          ? html`<div class="toolbar" role="group" aria-label="Download as markdown">
              <label
                >Markdown
                <select name="md-level">
                  ${['1', '2', '3', '4'].map((level) => html`<option .value=${level} ?selected=${level === '4'}>level ${level}</option>`)}
                </select></label
              >
              <label><input type="checkbox" name="md-minimal" /> minimal</label>
              <button type="button" part="markdown-download" @click=${() => void this._downloadMarkdown()}>
                Download as markdown
              </button>
              <span class="status" role="status">${this._markdownStatus}</span>
            </div>`
          : nothing
      }`;
  }

  private _renderList(): TemplateResult | typeof nothing {
    const items = this._drawn;
    if (items === undefined) return nothing;
    const { start, end, before, after } = this._window;
    const sessions = this._overview?.sessions ?? [];
    const shown: number[] = [];
    for (let index = start; index < end; index++) if (items.get(index) !== undefined) shown.push(index);
    // Keyed by position, so a focused card keeps its node when the window moves.
    const rows = repeat(
      shown,
      (index) => index,
      (index) => {
        const item = items.get(index)!;
        const previous = index > 0 ? items.get(index - 1) : undefined;
        const newSession = previous === undefined || previous.session !== item.session;
        const newTurn = newSession || previous.turn !== item.turn;
        const session = newSession && sessions.length > 1 ? sessions.find((s) => s.index === item.session) : undefined;
        return html`${
          session === undefined
            ? nothing
            : html`<h3 class="session-head">
                Session <code>${visibleText(session.id, { max: 80 })}</code>${
                  session.isAgentSession ? html` <span class="badge">sub-agent</span>` : nothing
                }
              </h3>`
        }${newTurn ? html`<h4 class="turn">Turn ${item.turn}</h4>` : nothing}${this._renderCard(item, index)}`;
      },
    );
    const end_ = items.total <= FULL_LIST_MAX && Math.max(end, this._reach) < items.total;
    return html`${notViewableNote(items.notViewable)}
      <div
        class="scroller"
        role="feed"
        aria-label="Messages"
        aria-busy=${end_ ? 'true' : 'false'}
        tabindex=${shown.length === 0 ? '-1' : '0'}
        @scroll=${this._onScroll}
        @keydown=${this._onListKey}
      >
        ${spacer(before)} ${shown.length === 0 ? html`<p class="status">No messages match.</p>` : rows}
        ${
          end_
            ? html`<p class="more"><button type="button" @click=${() => this._more()}>Show more messages</button></p>`
            : nothing
        }
        ${spacer(after)}
      </div>`;
  }

  private _more(): void {
    this._focus = this._window.end;
    void this._settle(this._updateWindow().then(() => this._stages.done));
  }

  private _renderCard(item: TranscriptMessage, index: number): TemplateResult {
    const hit = this._matchSet.has(index);
    const label = `${item.label} message ${item.ordinal}`;
    const clipped = item.blocks.some((block) => block.text.length < block.fullLength);
    return html`<article
      role="article"
      class="card ${item.role === 'user' && !item.tool ? 'user' : ''} ${item.isError ? 'error' : ''} ${hit ? 'hit' : ''} ${
        item.offPath ? 'branch' : ''
      }"
      data-index=${index}
      data-line=${item.line}
      tabindex=${index === this._focus ? '0' : '-1'}
      aria-label=${label}
      aria-posinset=${index + 1}
      aria-setsize=${this._drawn?.total ?? -1}
      @focus=${() => (this._focus = index)}
    >
      <header>
        <strong>${visibleText(item.label, { max: 60 })}</strong>
        ${item.timestamp === '' ? nothing : html`<time>${visibleText(item.timestamp, { max: 60 })}</time>`}
        <span>line ${item.line}</span>
        ${item.isError ? html`<span class="badge mismatch">error</span>` : nothing}
        ${item.forkPoint ? html`<span class="badge">fork point</span>` : nothing}
        ${item.offPath ? html`<span class="badge not-verified">branch, not on the active path</span>` : nothing}
        ${hit ? html`<span class="badge">match</span>` : nothing}
      </header>
      ${
        item.meta.length > 0
          ? html`<div class="meta">
              ${item.meta.map(([key, value]) => html`<span>${visibleText(key, { max: 60 })}: ${visibleText(value, { max: 300 })}</span>`)}
            </div>`
          : nothing
      }
      ${item.blocks.map((block, at) => this._renderBlock(block, `${item.id}:${at}`))}
      <footer>
        <button class="link" type="button" @click=${() => void this._copy(item)}>Copy message</button>
        ${
          clipped
            ? html`<button class="link" type="button" @click=${() => void this._downloadFull(item)}>
                Download full message
              </button>`
            : nothing
        }
      </footer>
    </article>`;
  }

  /** A body (`key`: its message and place) as text, or in a panel that draws it once opened. */
  private _renderBlock(block: TranscriptBlock, key: string): TemplateResult {
    const body = () =>
      html`<pre class=${block.kind === 'text' || block.kind === 'thinking' ? 'prose' : ''}>
${visibleText(block.text, { max: MAX_DRAWN, multiline: true })}</pre>
        ${block.levelCut ? html`<p class="status">… [truncated at 500 characters, as this level does]</p>` : nothing}${
          block.text.length < block.fullLength
            ? html`<p class="status">
                … ${block.fullLength - block.text.length} more characters (download the full message)
              </p>`
            : nothing
        }`;
    // A collapsed panel holds no body (up to 200 KB of text) until a person opens it.
    const shown = (open: boolean) => open || this._opened.has(key);
    const onToggle = (event: Event) => {
      if (!(event.currentTarget as HTMLDetailsElement).open || this._opened.has(key)) return;
      this._opened.add(key);
      this.requestUpdate();
    };
    switch (block.kind) {
      case 'text':
        return body();
      case 'thinking':
        return html`<details class="tool thinking" @toggle=${onToggle}>
          <summary>Thinking</summary>
          ${shown(false) ? body() : nothing}
        </details>`;
      default: {
        const title = {
          'tool-use': 'Tool call',
          'tool-result': 'Tool result',
          'agent-spawn': 'Sub-agent started',
          'agent-result': 'Sub-agent result',
          other: 'Block',
        }[block.kind];
        const open = block.isError || block.fullLength <= COLLAPSE_CHARS;
        return html`<details
          class="tool ${block.isError ? 'error' : ''}"
          ?open=${open}
          @toggle=${open ? nothing : onToggle}
        >
          <summary>
            ${title}${block.name === '' ? nothing : html` <code>${visibleText(block.name, { max: 200 })}</code>`}${
              block.ref === '' ? nothing : html` <span class="mono">${visibleText(block.ref, { max: 200 })}</span>`
            }${block.isError ? ' (error)' : ''}
            <span class="status">${grouped(block.fullLength)} characters</span>
          </summary>
          ${shown(open) ? body() : nothing}
        </details>`;
      }
    }
  }
}
