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
 * @module
 */
import { LitElement, css, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
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
  FULL_LIST_MAX,
  listWindow,
  PagedItems,
  type FetchPage,
  type ListWindow,
} from '../shared/paged-items.ts';
import { viewStyles } from '../shared/view-styles.ts';
import { styleProps } from '../shared/style-props.ts';

/** What agent-history and codex-exec verification covers (issue 17; docs/agent-history.md). */
const DEFAULT_NOTE = 'Structure checked, nothing signed.';
/** Tool panels longer than this start collapsed (unless they hold an error). */
const COLLAPSE_CHARS = 3000;
/** Characters drawn of one body; the inspector clips at about the same. */
const MAX_DRAWN = 200_000;

const LEVELS: readonly (readonly [string, string])[] = [
  ['1', 'Level 1: conversation, bodies cut at 500'],
  ['2', 'Level 2: with tool messages, cut at 500'],
  ['3', 'Level 3: full text'],
  ['4', 'Level 4: full text and metadata'],
];

/** A finding as the view lists it. */
export interface ViewFinding {
  readonly path: string;
  readonly message: string;
  readonly severity?: string;
  readonly code?: string;
}

/** The NDJSON line a finding's path names (`line 17`), or -1. */
export function findingLine(path: string): number {
  const match = /^line (\d{1,9})$/u.exec(path);
  return match === null ? -1 : Number(match[1]);
}

/**
 * The Transcript view. Set `fetchPage` (the worker's `inspect` for this file) and `verifiedNote`;
 * `failed` draws the red bar; `findings` are listed and jump to their line.
 */
export class VerifyExportTranscript extends LitElement {
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
    fetchPage: { attribute: false },
    verifiedNote: { type: String, attribute: 'verified-note' },
    failed: { type: Boolean, reflect: true },
    findings: { attribute: false },
    _overview: { state: true },
    _level: { state: true },
    _errorsOnly: { state: true },
    _session: { state: true },
    _searchText: { state: true },
    _window: { state: true },
    _focus: { state: true },
    _marks: { state: true },
    _status: { state: true },
    _markdownStatus: { state: true },
    _version: { state: true },
  };

  declare fetchPage: FetchPage | undefined;
  declare verifiedNote: string;
  declare failed: boolean;
  declare findings: readonly ViewFinding[];

  declare private _overview: TranscriptOverview | undefined;
  declare private _level: string;
  declare private _errorsOnly: boolean;
  declare private _session: string;
  declare private _searchText: string;
  declare private _window: ListWindow;
  declare private _focus: number;
  declare private _marks: TranscriptMarks;
  declare private _status: string;
  declare private _markdownStatus: string;
  declare private _version: number;

  private _items: PagedItems<TranscriptMessage> | undefined;
  private _search = '';
  private _matchSet = new Set<number>();
  private _matchAt = -1;
  private _errorAt = -1;
  private _rowHeight = 160;
  private _searchTimer: ReturnType<typeof setTimeout> | undefined;
  private _scrollFrame = 0;
  /** Counts jumps, so only the latest one moves the focus. */
  private _jumps = 0;

  /** Resolves once the list shows the current filter and search. */
  ready: Promise<void> = Promise.resolve();

  /**
   * A page the worker could not give (the element was removed, the worker stopped, a newer
   * verification replaced the bytes) becomes the status line.
   */
  private _settle(work: Promise<void>): Promise<void> {
    return work.catch((error: unknown) => {
      this._status = `Could not read the transcript: ${error instanceof Error ? error.message : String(error)}`;
    });
  }

  constructor() {
    super();
    this.fetchPage = undefined;
    this.verifiedNote = '';
    this.failed = false;
    this.findings = [];
    this._overview = undefined;
    this._level = '4';
    this._errorsOnly = false;
    this._session = '';
    this._searchText = '';
    this._window = { start: 0, end: 0, before: 0, after: 0 };
    this._focus = 0;
    this._marks = { kind: 'marks', errors: [], matches: [] };
    this._status = '';
    this._markdownStatus = '';
    this._version = 0;
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
    const page = await this.fetchPage?.({
      from: 0,
      count: 1,
      filter: { ...this._filter(), view: 'locate', line: String(line) },
    });
    const position = (page?.items[0] as { position: number } | undefined)?.position ?? -1;
    if (position < 0) return false;
    await this.jumpTo(position);
    return true;
  }

  /** Scrolls to the message at `index` of the filtered list and focuses its card. */
  async jumpTo(index: number): Promise<void> {
    const items = this._items;
    if (items === undefined || index < 0 || index >= items.total) return;
    const jump = ++this._jumps;
    await items.ensure(Math.max(0, index - 1), index + 1);
    if (jump !== this._jumps) return;
    const scroller = this._scroller();
    if (items.total > FULL_LIST_MAX && scroller !== null) {
      const top = index * this._rowHeight;
      scroller.scrollTop = top;
      await this._updateWindow(top);
    } else if (items.total <= FULL_LIST_MAX) {
      await this._updateWindow();
    }
    if (jump !== this._jumps) return;
    this._focus = index;
    await this.updateComplete;
    const card = this.renderRoot.querySelector<HTMLElement>(`[data-index="${index}"]`);
    card?.scrollIntoView({ block: 'nearest' });
    card?.focus({ preventScroll: true });
  }

  private _filter(): Record<string, string> {
    const filter: Record<string, string> = { level: this._level };
    if (this._errorsOnly) filter['errors'] = 'only';
    if (this._session !== '') filter['session'] = this._session;
    return filter;
  }

  private async _loadOverview(): Promise<void> {
    const page = await this.fetchPage?.({ from: 0, count: 1, filter: { view: 'overview' } });
    this._overview = page?.items[0] as TranscriptOverview | undefined;
  }

  private async _reload(): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const base = { filter: this._filter(), ...(this._search === '' ? {} : { search: this._search }) };
    const items = new PagedItems<TranscriptMessage>(fetchPage, base);
    this._items = items;
    await items.ensure(0, 1);
    const marksPage = await fetchPage({ from: 0, count: 1, ...base, filter: { ...base.filter, view: 'marks' } });
    if (this._items !== items) return;
    this._marks = (marksPage.items[0] as TranscriptMarks | undefined) ?? { kind: 'marks', errors: [], matches: [] };
    this._matchSet = new Set(this._marks.matches);
    this._matchAt = -1;
    this._errorAt = -1;
    this._focus = 0;
    const scroller = this._scroller();
    if (scroller !== null) scroller.scrollTop = 0;
    await this._updateWindow(0);
    const noun = (n: number) => `${n} message${n === 1 ? '' : 's'}`;
    this._status =
      this._search === ''
        ? noun(items.total)
        : `${items.matches} of ${noun(items.total)} match “${visibleString(this._search, 100) ?? ''}”`;
    this._version++;
  }

  private _scroller(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.scroller');
  }

  /** The drawn messages: all of a short list (fetched page by page), or those near the scroll position. */
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
    // A short list is drawn whole, but fetched only as far as the reader has come (plus a page).
    const reach =
      items.total <= FULL_LIST_MAX ? Math.min(next.end, Math.max(this._window.end, 200, this._focus + 100)) : next.end;
    await items.ensure(next.start, reach);
    if (this._items === items) this._window = { ...next, end: reach };
  }

  private _measureRows(): void {
    const cards = this.renderRoot.querySelectorAll<HTMLElement>('[role="article"]');
    if (cards.length < 5) return;
    let sum = 0;
    for (const card of cards) sum += card.offsetHeight;
    const average = Math.min(4000, Math.max(60, sum / cards.length));
    if (Math.abs(average - this._rowHeight) > 8) this._rowHeight = average;
  }

  private _onScroll(): void {
    if (this._items === undefined || this._scrollFrame !== 0) return;
    const scroller = this._scroller();
    const nearEnd =
      scroller !== null && scroller.scrollTop + scroller.clientHeight > scroller.scrollHeight - 2 * this._rowHeight;
    if (this._items.total <= FULL_LIST_MAX && (!nearEnd || this._window.end >= this._items.total)) return;
    this._scrollFrame = requestAnimationFrame(() => {
      this._scrollFrame = 0;
      if (this._items !== undefined && this._items.total <= FULL_LIST_MAX) this._focus = this._window.end;
      void this._settle(this._updateWindow());
    });
  }

  private _set(patch: { level?: string; errorsOnly?: boolean; session?: string }): void {
    if (patch.level !== undefined) this._level = patch.level;
    if (patch.errorsOnly !== undefined) this._errorsOnly = patch.errorsOnly;
    if (patch.session !== undefined) this._session = patch.session;
    this.ready = this._settle(this._reload());
  }

  private _onSearchInput(event: Event): void {
    this._searchText = (event.target as HTMLInputElement).value;
    clearTimeout(this._searchTimer);
    this._searchTimer = setTimeout(() => void this._applySearch(), 300);
  }

  private _applySearch(): Promise<void> {
    clearTimeout(this._searchTimer);
    if (this._searchText.trim() === this._search) return this.ready;
    this._search = this._searchText.trim();
    this._status = this._search === '' ? this._status : 'Searching…';
    this.ready = this._settle(this._reload());
    return this.ready;
  }

  private async _onSearchKey(event: KeyboardEvent): Promise<void> {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    await this._applySearch();
    await this._stepMatch(event.shiftKey ? -1 : 1);
  }

  private async _stepMatch(direction: 1 | -1): Promise<void> {
    const list = this._marks.matches;
    if (list.length === 0) return;
    this._matchAt = (this._matchAt + direction + list.length) % list.length;
    this._status = `Match ${this._matchAt + 1} of ${list.length}`;
    await this.jumpTo(list[this._matchAt]!);
  }

  private async _stepError(direction: 1 | -1): Promise<void> {
    const list = this._marks.errors;
    if (list.length === 0) return;
    this._errorAt = (this._errorAt + direction + list.length) % list.length;
    this._status = `Error ${this._errorAt + 1} of ${list.length}`;
    await this.jumpTo(list[this._errorAt]!);
  }

  private _onListKey(event: KeyboardEvent): void {
    const total = this._items?.total ?? 0;
    if (total === 0 || (event.target as HTMLElement).closest('details, button, input') !== null) return;
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: 10, PageUp: -10 };
    let target: number | undefined;
    if (event.key in moves) target = this._focus + moves[event.key]!;
    else if (event.key === 'Home') target = 0;
    else if (event.key === 'End') target = total - 1;
    else if (event.key === 'e') void this._stepError(event.shiftKey ? -1 : 1);
    else if (event.key === 'n') void this._stepMatch(event.shiftKey ? -1 : 1);
    if (target === undefined) return;
    event.preventDefault();
    void this.jumpTo(Math.max(0, Math.min(total - 1, target)));
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
      ${
        this.failed
          ? html`<div class="failed-bar" role="alert">
              Verification failed: this transcript is shown as read, not as verified.
            </div>`
          : nothing
      }
      <p class="note">
        <strong>${this.verifiedNote || DEFAULT_NOTE}</strong> The messages below are what the file says.
      </p>
      ${overview === undefined ? html`<p class="status" role="status">Loading the transcript…</p>` : this._renderHeader(overview)}
      ${this._renderFindings()} ${overview === undefined ? nothing : this._renderToolbar(overview)}
      ${this._renderList()}
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

  private _renderFindings(): TemplateResult | typeof nothing {
    const findings = this.findings.filter((finding) => findingLine(finding.path) >= 0);
    if (findings.length === 0) return nothing;
    return html`<details>
      <summary>Findings on lines (${findings.length})</summary>
      <ul class="findings">
        ${findings
          .slice(0, 200)
          .map(
            (finding) =>
              html`<li class=${finding.severity === 'error' ? 'error' : ''}>
                <button class="link" type="button" @click=${() => void this.revealPath(finding.path)}>
                  ${visibleText(finding.path, { max: 40 })}</button
                >: ${visibleText(finding.message, { max: 500 })}
              </li>`,
          )}
      </ul>
    </details>`;
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
      <div class="toolbar" role="search">
        <label
          >Search
          <input
            type="search"
            aria-describedby="transcript-count"
            .value=${this._searchText}
            @input=${this._onSearchInput}
            @keydown=${this._onSearchKey}
        /></label>
        <button
          type="button"
          aria-label="Previous match"
          ?disabled=${this._marks.matches.length === 0}
          @click=${() => void this._stepMatch(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          aria-label="Next match"
          ?disabled=${this._marks.matches.length === 0}
          @click=${() => void this._stepMatch(1)}
        >
          ↓
        </button>
        <span id="transcript-count" class="count" role="status" aria-live="polite">${this._status}</span>
      </div>
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
    const items = this._items;
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
    const end_ = items.total <= FULL_LIST_MAX && end < items.total;
    return html`${
        items.notViewable === undefined
          ? nothing
          : html`<p class="status" role="note">${visibleText(items.notViewable)}</p>`
      }
      <div
        class="scroller"
        role="feed"
        aria-label="Messages"
        aria-busy=${end_ ? 'true' : 'false'}
        tabindex=${shown.length === 0 ? '-1' : '0'}
        @scroll=${this._onScroll}
        @keydown=${this._onListKey}
      >
        ${before > 0 ? html`<div class="spacer" ${styleProps({ height: `${before}px` })} aria-hidden="true"></div>` : nothing}
        ${shown.length === 0 ? html`<p class="status">No messages match.</p>` : rows}
        ${
          end_
            ? html`<p class="more"><button type="button" @click=${() => this._more()}>Show more messages</button></p>`
            : nothing
        }
        ${after > 0 ? html`<div class="spacer" ${styleProps({ height: `${after}px` })} aria-hidden="true"></div>` : nothing}
      </div>`;
  }

  private _more(): void {
    this._focus = this._window.end;
    void this._settle(this._updateWindow());
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
      aria-setsize=${this._items?.total ?? -1}
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
      ${item.blocks.map((block) => this._renderBlock(block))}
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

  private _renderBlock(block: TranscriptBlock): TemplateResult {
    const body = html`<pre class=${block.kind === 'text' || block.kind === 'thinking' ? 'prose' : ''}>
${visibleText(block.text, { max: MAX_DRAWN, multiline: true })}</pre>
      ${block.levelCut ? html`<p class="status">… [truncated at 500 characters, as this level does]</p>` : nothing}${
        block.text.length < block.fullLength
          ? html`<p class="status">
              … ${block.fullLength - block.text.length} more characters (download the full message)
            </p>`
          : nothing
      }`;
    switch (block.kind) {
      case 'text':
        return body;
      case 'thinking':
        return html`<details class="tool thinking">
          <summary>Thinking</summary>
          ${body}
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
        return html`<details class="tool ${block.isError ? 'error' : ''}" ?open=${open}>
          <summary>
            ${title}${block.name === '' ? nothing : html` <code>${visibleText(block.name, { max: 200 })}</code>`}${
              block.ref === '' ? nothing : html` <span class="mono">${visibleText(block.ref, { max: 200 })}</span>`
            }${block.isError ? ' (error)' : ''}
            <span class="status">${block.fullLength.toLocaleString('en')} characters</span>
          </summary>
          ${body}
        </details>`;
      }
    }
  }
}
