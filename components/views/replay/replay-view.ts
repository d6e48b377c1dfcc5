/**
 * The Replay view of a codex-orchestrator `exec --jsonl` stream (docs/codex-exec.md): the outcome
 * (status, exit code with 128+n read as a signal, duration, attempts, command, working directory),
 * the attempts on a timeline with their retry gaps, and the terminal replay as the tool prints it,
 * stderr tinted, `\r` overwriting, ANSI colours from the inspector's structured parse
 * (`src/inspect/ansi-sgr.ts`, data only). The stdout and stderr tabs say where and why each
 * stream differs from the 64 KiB buffer `exec:end` kept. Pages come from the worker through
 * `fetchPage` (`src/inspect/codex-exec.ts`).
 *
 * Everything from the artifact is drawn as text (`visible-text.ts`); colours are the view's own
 * CSS, chosen from numbers the parser validated (a palette index or `#rrggbb`), never text from
 * the artifact.
 *
 * No task of the main thread draws much (a task past 50 ms is a stall, Long Tasks API): the
 * outcome first, the tabs, search and downloads a frame later, then the lines on screen, the rest
 * of the window a stage a frame (`list-scroll.ts`).
 * @module
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { paletteRgb, type SgrColor } from '../../../src/inspect/ansi-sgr.ts';
import type { ExecMarks, ExecSummary, ExecTerminalLine, ExecText } from '../../../src/inspect/codex-exec.ts';
import type { TerminalSpan } from '../../../src/inspect/terminal.ts';
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
  drawKeepingPlace,
  focusRow,
  LatestJump,
  OncePerFrame,
  screenRows,
  scrollerWindow,
  StagedDraw,
  type RowRange,
} from '../common/list-scroll.ts';
import { grouped } from '../../numbers.ts';
import { failedBar, listKeyTarget, notViewableNote, spacer } from '../common/list-parts.ts';
import { SearchQuery, searchBar, stepMark } from '../common/search-bar.ts';
import { findingLine, lineFindings } from '../common/view-finding.ts';

const DEFAULT_NOTE = 'Structure checked, nothing signed.';
const LINE_HEIGHT = 19;
/** Lines a stage of drawing adds (after those on screen). */
const STAGE_LINES = 24;
/** Scroller height assumed before it is drawn. */
const VIEWPORT = 600;
/** Nothing drawn yet. */
const NO_WINDOW: ListWindow = { start: 0, end: 0, before: 0, after: 0 };

type ReplayTab = 'terminal' | 'stdout' | 'stderr';
const TABS: readonly (readonly [ReplayTab, string])[] = [
  ['terminal', 'Terminal'],
  ['stdout', 'stdout'],
  ['stderr', 'stderr'],
];

/**
 * The Replay view. Set `fetchPage` (the worker's `inspect` for this stream) and `verifiedNote`;
 * `failed` draws the red bar; `findings` are listed and jump to their line.
 */
export class VerifyExportReplay extends ContentView {
  static override styles = [
    viewStyles,
    css`
      :host {
        --ansi-0: #24292f;
        --ansi-1: #cf222e;
        --ansi-2: #116329;
        --ansi-3: #7d4e00;
        --ansi-4: #0550ae;
        --ansi-5: #8250df;
        --ansi-6: #1b7c83;
        --ansi-7: #6e7781;
        --ansi-8: #57606a;
        --ansi-9: #a40e26;
        --ansi-10: #1a7f37;
        --ansi-11: #633c01;
        --ansi-12: #218bff;
        --ansi-13: #a475f9;
        --ansi-14: #3192aa;
        --ansi-15: #8c959f;
        --term-bg: var(--v-surface);
        --stderr-bg: color-mix(in srgb, var(--v-fail) 10%, transparent);
      }
      @media (prefers-color-scheme: dark) {
        :host {
          --ansi-0: #484f58;
          --ansi-1: #ff7b72;
          --ansi-2: #3fb950;
          --ansi-3: #d29922;
          --ansi-4: #58a6ff;
          --ansi-5: #bc8cff;
          --ansi-6: #39c5cf;
          --ansi-7: #b1bac4;
          --ansi-8: #6e7681;
          --ansi-9: #ffa198;
          --ansi-10: #56d364;
          --ansi-11: #e3b341;
          --ansi-12: #79c0ff;
          --ansi-13: #d2a8ff;
          --ansi-14: #56d4dd;
          --ansi-15: #ffffff;
        }
      }
      .outcome {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(12em, 1fr));
        gap: 0.3em 1em;
        margin: 0.5em 0;
      }
      .outcome div {
        min-width: 0;
      }
      .outcome dt {
        color: var(--v-muted);
        font-size: 0.85em;
      }
      .outcome dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .status-badge.succeeded {
        color: var(--v-pass);
      }
      .status-badge.failed {
        color: var(--v-fail);
      }
      .timeline {
        display: flex;
        align-items: stretch;
        height: 1.6em;
        margin: 0.4em 0;
        border: 1px solid var(--v-border);
        border-radius: 6px;
        overflow: hidden;
      }
      .timeline .attempt {
        background: color-mix(in srgb, var(--v-accent) 35%, transparent);
        border-inline-end: 1px solid var(--v-border);
        min-width: 2px;
        font-size: 0.75em;
        overflow: hidden;
        white-space: nowrap;
        padding-inline-start: 0.3em;
      }
      .timeline .attempt.failed {
        background: color-mix(in srgb, var(--v-fail) 35%, transparent);
      }
      .timeline .gap {
        background: repeating-linear-gradient(45deg, transparent 0 4px, var(--v-border) 4px 6px);
        min-width: 2px;
      }
      [role='tablist'] {
        display: flex;
        gap: 0.25em;
        border-bottom: 1px solid var(--v-border);
        margin: 0.8em 0 0.4em;
      }
      [role='tab'] {
        border: 1px solid transparent;
        border-bottom: none;
        border-radius: 6px 6px 0 0;
        background: none;
        color: var(--v-muted);
      }
      [role='tab'][aria-selected='true'] {
        border-color: var(--v-border);
        color: var(--v-fg);
        font-weight: 600;
      }
      .term {
        overflow-anchor: none;
        background: var(--term-bg);
        font-family: var(--v-mono);
        font-size: 0.85em;
        line-height: ${LINE_HEIGHT}px;
      }
      .tl {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        min-height: ${LINE_HEIGHT}px;
        content-visibility: auto;
        contain-intrinsic-size: auto ${LINE_HEIGHT}px;
        padding-inline-start: 0.3em;
      }
      .tl:focus {
        outline: 2px solid var(--v-accent);
      }
      .tl.hit {
        background: var(--v-mark);
      }
      .tl.kind-command,
      .tl.kind-status {
        font-weight: 600;
      }
      .tl.kind-retry {
        color: var(--v-warn);
      }
      .stderr {
        background: var(--stderr-bg);
        color: var(--v-fail);
      }
      .b {
        font-weight: 700;
      }
      .d {
        opacity: 0.7;
      }
      .i {
        font-style: italic;
      }
      .u {
        text-decoration: underline;
      }
      .s {
        text-decoration: line-through;
      }
      .h {
        visibility: hidden;
      }
    `,
  ];

  static override properties = {
    _summary: { state: true },
    _tab: { state: true },
    _window: { state: true },
    _focus: { state: true },
    _marks: { state: true },
  };

  declare private _summary: ExecSummary | undefined;
  declare private _tab: ReplayTab;
  declare private _window: ListWindow;
  declare private _focus: number;
  declare private _marks: readonly number[];

  /** The lines the tab and the search ask for. */
  private _lines: PagedItems<ExecTerminalLine> | undefined;
  /** The lines `_window` draws (the last ones until the rows of new ones are drawn). */
  private _drawn: PagedItems<ExecTerminalLine> | undefined;
  /** The search field and the search the list shows. */
  private readonly _query = new SearchQuery(this, {
    delay: 300,
    show: () => {
      if (this._query.applied !== '') this._status = 'Searching…';
      return this._settle(this._reload());
    },
    step: (direction) => this._step(direction),
  });
  private _matchSet = new Set<number>();
  private _matchAt = -1;
  private readonly _scrollWork = new OncePerFrame();
  private readonly _jumps = new LatestJump();
  private readonly _stages = new StagedDraw(STAGE_LINES);

  constructor() {
    super('the replay');
    this._summary = undefined;
    this._tab = 'terminal';
    this._window = { start: 0, end: 0, before: 0, after: 0 };
    this._focus = 0;
    this._marks = [];
  }

  protected override async _load(): Promise<void> {
    this._summary = undefined;
    this._tools = false;
    await this._loadSummary();
    // The outcome is drawn now; the tabs and the search after it has been painted, then the lines.
    await this._reload(this._toolsAfterPaint());
  }

  /** Shows the first terminal line written by the record at or after the line a finding names. */
  async revealPath(path: string): Promise<boolean> {
    const line = findingLine(path);
    if (line < 0) return false;
    await this.ready;
    if (this._tab !== 'terminal') await this._select('terminal');
    const position = await locate(this.fetchPage, { ...this._filter(), view: 'locate', line: String(line) });
    if (position < 0) return false;
    await this.jumpTo(position);
    return true;
  }

  /** Scrolls to terminal line `index` and focuses it. */
  async jumpTo(index: number): Promise<void> {
    const lines = this._lines;
    if (lines === undefined || index < 0 || index >= lines.total) return;
    const latest = this._jumps.start();
    await lines.ensure(index, index + 1);
    if (!latest()) return;
    const scroller = this._scroller();
    const top = Math.max(0, index - 3) * LINE_HEIGHT;
    if (scroller !== null) scroller.scrollTop = top;
    // The first stage draws the lines on screen there; those around follow.
    await this._updateWindow(top);
    if (lines.total <= FULL_LIST_MAX) await this._stages.done;
    if (!latest()) return;
    this._focus = index;
    await this.updateComplete;
    focusRow(this.renderRoot, `[data-index="${index}"]`);
  }

  private _filter(): Record<string, string> {
    return this._tab === 'terminal' ? { view: 'terminal' } : { view: 'terminal', stream: this._tab };
  }

  private async _loadSummary(): Promise<void> {
    this._summary = await fetchOne<ExecSummary>(this.fetchPage, { filter: { view: 'summary' } });
  }

  /** Shows the lines of the tab and the search (once `before`, when given, has settled). */
  private async _reload(before?: Promise<unknown>): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const base = { filter: this._filter(), ...(this._query.applied === '' ? {} : { search: this._query.applied }) };
    const lines = new PagedItems<ExecTerminalLine>(fetchPage, base);
    this._lines = lines;
    this._stages.stop();
    await lines.ensure(0, 1);
    let marks: readonly number[] = [];
    if (this._query.applied !== '') {
      marks =
        (await fetchOne<ExecMarks>(fetchPage, { ...base, filter: { ...base.filter, view: 'marks' } }))?.matches ?? [];
    }
    await before;
    if (this._lines !== lines) return;
    this._marks = marks;
    this._matchSet = new Set(marks);
    this._matchAt = -1;
    this._focus = 0;
    const scroller = this._scroller();
    if (scroller !== null) scroller.scrollTop = 0;
    const noun = (n: number) => `${grouped(n)} line${n === 1 ? '' : 's'}`;
    this._status =
      this._query.applied === ''
        ? noun(lines.total)
        : `${grouped(lines.matches)} of ${noun(lines.total)} match “${visibleString(this._query.applied, 100) ?? ''}”`;
    this._version++;
    await this._updateWindow(0);
    await this._stages.done;
  }

  private _scroller(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.scroller');
  }

  /**
   * The drawn lines: those near the scroll position (or `top`), or all of a short list. Resolves
   * once the lines on screen are drawn; the rest of the window follows a stage a frame
   * (`_stages.done`).
   */
  private async _updateWindow(top?: number): Promise<void> {
    const lines = this._lines;
    if (lines === undefined) return;
    const scroller = this._scroller();
    const next = scrollerWindow(scroller, lines.total, LINE_HEIGHT, top, VIEWPORT);
    await lines.ensure(next.start, next.end);
    if (this._lines !== lines) return;
    const screen = screenRows(scroller, lines.total, LINE_HEIGHT, top, VIEWPORT);
    const whole = lines.total <= FULL_LIST_MAX;
    await this._stages.start(
      this._drawn === lines ? this._window : NO_WINDOW,
      next,
      whole ? { start: 0, end: screen.end } : screen,
      (range) => this._drawRows(lines, range),
    );
  }

  /** Draws lines `range` of `lines`; lines drawn above those shown keep what is on screen in place. */
  private async _drawRows(lines: PagedItems<ExecTerminalLine>, range: RowRange): Promise<boolean> {
    if (this._lines !== lines) return false;
    const drawn = this._drawn === lines ? this._window : NO_WINDOW;
    await drawKeepingPlace(this.renderRoot, this._scroller(), drawn, range, async () => {
      this._drawn = lines;
      this._window = windowOf(lines.total, range.start, range.end, LINE_HEIGHT);
      await this.updateComplete;
    });
    return this._lines === lines;
  }

  private _onScroll(): void {
    if (this._lines === undefined || this._lines.total <= FULL_LIST_MAX) return;
    this._scrollWork.run(() => void this._settle(this._updateWindow().then(() => this._stages.done)));
  }

  private async _select(tab: ReplayTab): Promise<void> {
    this._tab = tab;
    this.ready = this._settle(this._reload());
    await this.ready;
  }

  private _onTabKey(event: KeyboardEvent): void {
    const at = TABS.findIndex(([tab]) => tab === this._tab);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (at + TABS.length - 1) % TABS.length
          : -1;
    if (to < 0) return;
    event.preventDefault();
    void this._select(TABS[to]![0]).then(() =>
      this.renderRoot.querySelector<HTMLElement>(`#replay-tab-${TABS[to]![0]}`)?.focus(),
    );
  }

  private async _step(direction: 1 | -1): Promise<void> {
    const marks = this._marks;
    if (marks.length === 0) return;
    this._matchAt = stepMark(this._matchAt, direction, marks.length);
    this._status = `Match ${this._matchAt + 1} of ${marks.length}`;
    await this.jumpTo(marks[this._matchAt]!);
  }

  private _onListKey(event: KeyboardEvent): void {
    const target = listKeyTarget(event.key, this._focus, this._lines?.total ?? 0, { page: 25, letters: true });
    if (target === undefined) return;
    event.preventDefault();
    void this.jumpTo(target);
  }

  private async _download(stream: 'all' | 'stdout' | 'stderr', of: 'chunks' | 'end' | 'replay'): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    let text: string;
    if (of === 'replay') {
      // The replay as plain text, page by page (the worker builds each page from its checkpoints).
      const total = this._lines?.total ?? 0;
      const parts: string[] = [];
      for (let from = 0; from < total; from += 5000) {
        const page = await fetchPage({ from, count: 5000, filter: { view: 'terminal' } });
        for (const line of page.items as ExecTerminalLine[])
          parts.push(`${line.spans.map((span) => span.text).join('')}\n`);
      }
      text = parts.join('');
    } else {
      const page = await fetchPage({
        from: 0,
        count: 1,
        filter: { view: 'text', ...(stream === 'all' ? {} : { stream }), of },
      });
      text = (page.items[0] as ExecText | undefined)?.text ?? '';
    }
    const name = of === 'replay' ? 'replay.txt' : of === 'end' ? `exec-end.${stream}.txt` : `${stream}.txt`;
    downloadBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), name);
  }

  protected override render(): TemplateResult {
    const summary = this._summary;
    return html`
      ${failedBar(this.failed, 'this run is')}
      <p class="note">
        <strong>${this.verifiedNote || DEFAULT_NOTE}</strong> The output below is what the stream says.
      </p>
      ${summary === undefined ? html`<p class="status" role="status">Loading the run…</p>` : this._renderOutcome(summary)}
      ${lineFindings(this.findings, (path) => void this.revealPath(path))}
      ${summary === undefined || !this._tools ? nothing : this._renderTabs(summary)}
    `;
  }

  private _renderOutcome(summary: ExecSummary): TemplateResult {
    const fact = (label: string, value: TemplateResult | string) =>
      html`<div>
        <dt>${label}</dt>
        <dd>${value}</dd>
      </div>`;
    const exit =
      summary.exitCode === ''
        ? 'none'
        : summary.signalFromExit === ''
          ? summary.exitCode
          : `${summary.exitCode} (128 + ${Number(summary.exitCode) - 128}: killed by ${summary.signalFromExit})`;
    return html`<section aria-label="Outcome">
      <dl class="outcome">
        ${fact(
          'Status',
          html`<strong class="status-badge ${summary.status === 'succeeded' ? 'succeeded' : 'failed'}"
            >${visibleText(summary.status === '' ? 'unknown' : summary.status.toUpperCase(), { max: 40 })}</strong
          >`,
        )}
        ${fact('Exit code', html`${visibleText(exit, { max: 100 })}`)}
        ${summary.signal === '' ? nothing : fact('Signal', html`${visibleText(summary.signal, { max: 60 })}`)}
        ${fact('Duration', html`${visibleText(summary.durationMs === '' ? '–' : `${summary.durationMs} ms`, { max: 60 })}`)}
        ${fact('Attempts', String(summary.attempts.length))}
        ${fact('Command', html`<code>${visibleText(summary.command, { max: 2000 })}</code>`)}
        ${fact('Working directory', html`<code>${visibleText(summary.cwd, { max: 1000 })}</code>`)}
        ${summary.runId === '' ? nothing : fact('Run', html`<code>${visibleText(summary.runId, { max: 200 })}</code>`)}
      </dl>
      ${this._renderTimeline(summary)}
      ${
        summary.unreadableLines.length > 0
          ? html`<p class="status" role="note">
              Lines that could not be read: ${summary.unreadableLines.slice(0, 20).join(', ')}
            </p>`
          : nothing
      }
    </section>`;
  }

  private _renderTimeline(summary: ExecSummary): TemplateResult | typeof nothing {
    if (summary.attempts.length === 0) return nothing;
    const length = (text: string) => (/^\d{1,12}(\.\d+)?$/u.test(text) ? Number(text) : 0);
    const parts = summary.attempts.flatMap((attempt) => [
      { kind: 'attempt' as const, attempt, ms: length(attempt.durationMs) },
      ...(attempt.retry === undefined ? [] : [{ kind: 'gap' as const, attempt, ms: length(attempt.retry.delayMs) }]),
    ]);
    const total = parts.reduce((sum, part) => sum + part.ms, 0) || 1;
    return html`<div class="timeline" role="img" aria-label="Attempts and retry gaps on a timeline">
        ${parts.map((part) =>
          part.kind === 'attempt'
            ? html`<div
                class="attempt ${part.attempt.status === 'succeeded' ? '' : 'failed'}"
                ${styleProps({ 'flex-grow': Math.max(part.ms / total, 0.01) })}
                title=${`attempt ${visibleString(part.attempt.attempt, 20) ?? ''}: ${part.ms} ms`}
              >
                #${visibleText(part.attempt.attempt, { max: 20 })}
              </div>`
            : html`<div
                class="gap"
                ${styleProps({ 'flex-grow': Math.max(part.ms / total, 0.01) })}
                title=${`retry after ${part.ms} ms`}
              ></div>`,
        )}
      </div>
      <ol class="attempts">
        ${summary.attempts.map(
          (attempt) =>
            html`<li>
              attempt ${visibleText(attempt.attempt, { max: 20 })}:
              ${visibleText(attempt.status || 'no exec:end', { max: 40 })}${
                attempt.exitCode === '' ? nothing : html`, exit ${visibleText(attempt.exitCode, { max: 20 })}`
              }${attempt.durationMs === '' ? nothing : html`, ${visibleText(attempt.durationMs, { max: 20 })} ms`}${
                attempt.sandboxState === '' ? nothing : html`, ${visibleText(attempt.sandboxState, { max: 40 })}`
              }
              ${
                attempt.retry === undefined
                  ? nothing
                  : html`<br /><span class="status"
                        >[retry] attempt ${visibleText(attempt.attempt, { max: 20 })} in
                        ${visibleText(attempt.retry.delayMs, { max: 20 })}ms —
                        ${visibleText(attempt.retry.errorMessage, { max: 1000 })}</span
                      >`
              }
            </li>`,
        )}
      </ol>`;
  }

  private _renderTabs(summary: ExecSummary): TemplateResult {
    return html`<div role="tablist" aria-label="Output" @keydown=${this._onTabKey}>
        ${TABS.map(
          ([tab, label]) =>
            html`<button
              type="button"
              role="tab"
              id="replay-tab-${tab}"
              aria-selected=${this._tab === tab ? 'true' : 'false'}
              aria-controls="replay-panel"
              tabindex=${this._tab === tab ? '0' : '-1'}
              @click=${() => void this._select(tab)}
            >
              ${label}
            </button>`,
        )}
      </div>
      <div role="tabpanel" id="replay-panel" aria-labelledby="replay-tab-${this._tab}">
        ${this._tab === 'terminal' ? nothing : this._renderStreamNotes(summary, this._tab)}
        ${searchBar({
          countId: 'replay-count',
          role: 'search',
          query: this._query,
          status: this._status,
          canStep: this._marks.length > 0,
          onStep: (direction) => void this._step(direction),
        })}
        <div class="toolbar" role="group" aria-label="Downloads">
          ${
            this._tab === 'terminal'
              ? html`<button type="button" @click=${() => void this._download('all', 'replay')}>Download replay</button>
                  <button type="button" @click=${() => void this._download('stdout', 'chunks')}>Download stdout</button>
                  <button type="button" @click=${() => void this._download('stderr', 'chunks')}>
                    Download stderr
                  </button>`
              : html`<button type="button" @click=${() => void this._download(this._tab as 'stdout', 'chunks')}>
                    Download ${this._tab} (all chunks)
                  </button>
                  <button type="button" @click=${() => void this._download(this._tab as 'stdout', 'end')}>
                    Download exec:end ${this._tab} (last 64 KiB)
                  </button>`
          }
        </div>
        ${this._renderLines()}
      </div>`;
  }

  private _renderStreamNotes(summary: ExecSummary, stream: 'stdout' | 'stderr'): TemplateResult {
    return html`<ul class="status" aria-label="How this stream compares with exec:end">
      ${summary.attempts.map((attempt) => {
        const comparison = attempt.streams.find((entry) => entry.stream === stream);
        if (comparison === undefined) return nothing;
        return html`<li>
          attempt ${visibleText(attempt.attempt, { max: 20 })}: ${comparison.chunks}
          chunk${comparison.chunks === 1 ? '' : 's'}, ${grouped(comparison.chunkBytes)} bytes;
          ${
            comparison.same
              ? `exec:end.${stream} holds the same text`
              : html`exec:end.${stream} differs: ${comparison.why.join('; ')}`
          }
        </li>`;
      })}
    </ul>`;
  }

  private _renderLines(): TemplateResult | typeof nothing {
    const lines = this._drawn;
    if (lines === undefined) return nothing;
    const { start, end, before, after } = this._window;
    const shown: number[] = [];
    for (let index = start; index < end; index++) if (lines.get(index) !== undefined) shown.push(index);
    // Keyed by line, so a focused line keeps its node when the window moves.
    const rows = repeat(
      shown,
      (index) => index,
      (index) => this._renderLine(lines.get(index)!, index),
    );
    return html`${notViewableNote(lines.notViewable)}
      <div
        class="scroller term"
        role="log"
        aria-label=${this._tab === 'terminal' ? 'Terminal replay' : `${this._tab} as the chunks carried it`}
        tabindex=${shown.length === 0 ? '-1' : '0'}
        @scroll=${this._onScroll}
        @keydown=${this._onListKey}
      >
        ${spacer(before)} ${shown.length === 0 ? html`<p class="status">No output.</p>` : rows} ${spacer(after)}
      </div>`;
  }

  private _renderLine(line: ExecTerminalLine, index: number): TemplateResult {
    return html`<div
      class="tl kind-${line.kind} ${this._matchSet.has(index) ? 'hit' : ''}"
      data-index=${index}
      data-line=${line.source}
      tabindex=${index === this._focus ? '0' : '-1'}
      @focus=${() => (this._focus = index)}
    >
      ${line.spans.map((span) => this._renderSpan(span))}${
        line.fullLength === undefined
          ? nothing
          : html`<span class="status">
              … ${grouped(line.fullLength - line.spans.reduce((n, s) => n + s.text.length, 0))} more characters
              (download the stream)</span
            >`
      }
    </div>`;
  }

  private _renderSpan(span: TerminalSpan): TemplateResult {
    const style = span.style;
    const classes = [
      span.stream === 'stderr' ? 'stderr' : '',
      style.bold ? 'b' : '',
      style.dim ? 'd' : '',
      style.italic ? 'i' : '',
      style.underline ? 'u' : '',
      style.strike ? 's' : '',
      style.hidden ? 'h' : '',
    ].join(' ');
    const inverse = style.inverse === true;
    const fg = colorOf(inverse ? style.bg : style.fg, inverse ? 'var(--term-bg)' : undefined);
    const bg = colorOf(inverse ? style.fg : style.bg, inverse ? 'var(--v-fg)' : undefined);
    return html`<span class=${classes} ${styleProps({ color: fg, 'background-color': bg })}
      >${visibleText(span.text, { max: 200_000, multiline: true })}</span
    >`;
  }
}

/** The CSS colour of an SGR colour: the theme's palette for 0–15, computed for 16–255, or a checked `#rrggbb`. */
function colorOf(color: SgrColor | undefined, fallback: string | undefined): string | undefined {
  if (color === undefined) return fallback;
  if (typeof color === 'number') {
    if (color >= 0 && color < 16) return `var(--ansi-${color})`;
    const rgb = paletteRgb(color);
    return rgb === undefined ? fallback : `rgb(${rgb.join(' ')})`;
  }
  return /^#[0-9a-f]{6}$/u.test(color) ? color : fallback;
}
