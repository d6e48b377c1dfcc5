/**
 * The `<verify-export>` element class (registration lives in `verify-export.ts`). A view over
 * the core (docs/architecture.md, 'Web component'): it collects the input, runs the core's `verify` in a
 * module worker through a `@lit/task` Task, and renders the `Report`. No verification logic here.
 * @module
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { Task, TaskStatus, initialState } from '@lit/task';
import type { Limits } from '../src/limits.ts';
import type { FormatId } from '../src/report/types.ts';
import { EMPTY_FILTER, subsetFileName } from './disclosure.ts';
import { formatBytes } from './format.ts';
import type { ViewState } from './format-views.ts';
import type { ReportHost } from './report-view.ts';
import type { RunTabsHost, RunTabsState } from './run-view/index.ts';
import type { ContentTabsState } from './content-tabs.ts';
import { createVerifierClient, type VerifierClient } from './verify-client.ts';
import { styles } from './verify-export.styles.ts';
import type { WorkerSource } from './worker-protocol.ts';
import type { Report } from '../src/report.ts';

/** What the element verifies: one of its three inputs, captured when it was set. */
type Source =
  | { readonly type: 'blob'; readonly blob: Blob; readonly name: string }
  | { readonly type: 'bytes'; readonly bytes: Uint8Array; readonly name: string }
  | { readonly type: 'url'; readonly url: string; readonly name: string };

/** Detail of `verify-export:progress`. */
export interface VerifyExportProgress {
  readonly bytesRead: number;
  readonly totalBytes?: number;
  /** Source bytes per second since verification started. */
  readonly bytesPerSecond: number;
}

/** Detail of `verify-export:error`: the run produced no report. */
export interface VerifyExportFailure {
  readonly message: string;
  /** True when the person (or `cancel()`) stopped the run. */
  readonly cancelled: boolean;
}

interface Progress {
  readonly startedAt: number;
  readonly bytesRead: number;
  readonly totalBytes?: number | undefined;
}

const FRESH_VIEW_STATE: ViewState = {
  selected: new Set(),
  filter: EMPTY_FILTER,
  busy: false,
  proofRow: 0,
  expanded: new Set(),
};

/** The report view, loaded when the first verification starts (in parallel with the worker). */
type ReportView = typeof import('./report-view.ts');
let reportView: Promise<ReportView> | undefined;
function loadReportView(): Promise<ReportView> {
  reportView ??= import('./report-view.ts');
  return reportView;
}

/** The Run and Compare views, loaded once an AgentXchain export has passed. */
type RunView = typeof import('./run-view/index.ts');
let runView: Promise<RunView> | undefined;
function loadRunView(): Promise<RunView> {
  runView ??= import('./run-view/index.ts');
  return runView;
}

/** The content tab (Transcript, Replay …), loaded once a report of a format with a content view is shown. */
type ContentTabs = typeof import('./content-tabs.ts');
let contentTabs: Promise<ContentTabs> | undefined;

/** Whether the Run and Compare tabs are offered: an AgentXchain export that passed. */
function hasRun(report: Report | undefined): report is Report {
  return report?.format === 'agentxchain' && report.overall === 'pass';
}

/**
 * Verifies an AI-agent export artifact (AgentXchain, Zaxy, agent-history NDJSON, codex-exec
 * JSONL) in the page: nothing is uploaded. Verification runs in a module Web Worker.
 *
 * @example
 * ```html
 * <script type="module" src="verify-export/components/verify-export.js"></script>
 * <verify-export src="bundle.json" expect-public-key="235274…"></verify-export>
 * ```
 *
 * @fires verify-export:progress - `detail: { bytesRead, totalBytes?, bytesPerSecond }` while input is read.
 * @fires verify-export:result - `detail`: the `Report` (also for a `fail` or `error` verdict).
 * @fires verify-export:error - `detail: { message, cancelled }` when no report could be made (cancelled, fetch failed,
 * bad options).
 *
 * An AgentXchain export that passes also gets a "Run" tab (its governance report, as
 * `agentxchain report` makes it, with a Markdown download) and a "Compare" tab (its diff against a
 * second export, as `agentxchain diff --export` makes it); dropping two files compares them.
 * Beside "Verification", a tab shows what the artifact says, read from the verified bytes: "Files"
 * (AgentXchain), "Entries" (Zaxy; its filters can tick the entries to disclose), "Transcript"
 * (agent-history) or "Replay" (codex-exec). A click on a finding's path opens it there.
 *
 * @slot - Replaces the drop zone's prompt text.
 *
 * @csspart dropzone - The drop zone (a button: Enter or Space opens the file picker).
 * @csspart choose-button - The "Choose a file" button inside the drop zone.
 * @csspart verdict - The verdict sentence (an `aria-live` status region).
 * @csspart meta - The line under the verdict: input name, format, size, time.
 * @csspart progress - The progress bar row (bar, bytes, throughput, Cancel).
 * @csspart cancel-button - The Cancel button.
 * @csspart dimensions - The four verdict dimensions.
 * @csspart not-checked - Notes on what was not checked.
 * @csspart findings - The findings, grouped by path.
 * @csspart details - The format-specific facts.
 * @csspart file-table - AgentXchain files.
 * @csspart repo-table - AgentXchain nested repository exports.
 * @csspart signer - Zaxy signer facts.
 * @csspart entry-table - Zaxy entries or disclosed entries.
 * @csspart proof - The SVG drawing of a disclosed entry's proof path.
 * @csspart disclosure - The Zaxy disclosure panel.
 * @csspart disclose-button - The "Download subset" button.
 * @csspart download-link - The link to the made subset.
 * @csspart record-table - NDJSON records by type.
 * @csspart tabs - The tabs: Verification, the content tab, and Run / Compare (AgentXchain).
 * @csspart tab - One tab.
 * @csspart run-view - The Run tab's panel: the governance report.
 * @csspart report-download - The link that downloads the governance report as Markdown.
 * @csspart compare-view - The Compare tab's panel.
 * @csspart regressions - The diff's regressions, errors first.
 * @csspart diff-download - The links that download the diff (JSON, text).
 * @csspart content-view - The Files, Entries, Transcript or Replay tab's panel: what the artifact says,
 * read from the verified bytes; a failed artifact stays readable under a red bar.
 *
 * @cssprop --verify-export-fg - Text colour.
 * @cssprop --verify-export-bg - Background colour.
 * @cssprop --verify-export-surface - Background of the drop zone, buttons and table heads.
 * @cssprop --verify-export-muted - Secondary text colour.
 * @cssprop --verify-export-border - Border colour.
 * @cssprop --verify-export-accent - Focus rings, links, progress, primary button.
 * @cssprop --verify-export-pass - Colour of a pass (always paired with the word).
 * @cssprop --verify-export-fail - Colour of a fail (always paired with the word).
 * @cssprop --verify-export-error - Colour of an error or cancel (always paired with the word).
 * @cssprop --verify-export-radius - Corner radius.
 * @cssprop --verify-export-font - Font shorthand.
 * @cssprop --verify-export-mono - Monospace font family (paths, hashes, codes).
 * @cssprop --verify-export-table-height - Maximum height of a scrolling table.
 */
export class VerifyExportElement extends LitElement {
  static override styles = styles;

  static override properties = {
    src: { type: String },
    kind: { type: String },
    expectPublicKey: { type: String, attribute: 'expect-public-key' },
    file: { attribute: false },
    bytes: { attribute: false },
    limits: { attribute: false },
    now: { attribute: false },
    _source: { state: true },
    _progress: { state: true },
    _dragging: { state: true },
    _viewState: { state: true },
    _runTabs: { state: true },
    _content: { state: true },
  };

  /** URL of an artifact to fetch and verify (attribute `src`). Fetched inside the worker. */
  declare src: string | null;
  /**
   * Format to assume instead of detecting it: `auto` (default), `agentxchain`, `zaxy`, `agent-history`, `codex-exec`.
   */
  declare kind: FormatId | 'auto' | null;
  /** Hex public key the Zaxy signer must have (attribute `expect-public-key`); sets the trust verdict. */
  declare expectPublicKey: string | null;
  /** A File or Blob to verify (a dropped or picked file also lands here). */
  declare file: Blob | null;
  /** Bytes to verify; copied to the worker, the caller's buffer stays intact. */
  declare bytes: Uint8Array | ArrayBuffer | null;
  /** Overrides of the core's `DEFAULT_LIMITS`. */
  declare limits: Partial<Limits> | undefined;
  /** Pins the clock the governance report reads (ms since the epoch); unset, the current time. */
  declare now: number | undefined;

  declare private _source: Source | undefined;
  declare private _progress: Progress | undefined;
  declare private _dragging: boolean;
  declare private _viewState: ViewState;
  declare private _runTabs: RunTabsState | undefined;
  declare private _content: ContentTabsState | undefined;
  private _contentTabs: ContentTabs | undefined;

  private _client: VerifierClient | undefined;
  private _reportView: ReportView | undefined;
  private _runView: RunView | undefined;
  /** The second of two dropped files, compared with the first once that one passes. */
  private _pendingCompare: Blob | undefined;

  private readonly _task = new Task(this, {
    args: () => [this._source, this.kind, this.expectPublicKey, this.limits] as const,
    task: async ([source, kind, expectPublicKey, limits], { signal }) => {
      if (source === undefined) return initialState;
      this._resetViewState();
      this._progress = { startedAt: performance.now(), bytesRead: 0, totalBytes: sizeOf(source) };
      this._client ??= createVerifierClient();
      // The report view loads while the worker verifies; Promise.all also handles a late rejection.
      const view = loadReportView().then((loaded) => (this._reportView = loaded));
      const verifying = this._client.verify(
        toWorkerSource(source),
        {
          name: source.name,
          ...(kind ? { kind } : {}),
          ...(expectPublicKey ? { expectPublicKey: expectPublicKey.trim() } : {}),
          ...(limits ? { limits } : {}),
        },
        { signal, onProgress: (bytesRead, totalBytes) => this._onProgress(bytesRead, totalBytes) },
      );
      const [report, loaded] = await Promise.all([verifying, view]);
      this._adopt((await loaded.loadFormatView(report))?.styleSheet);
      if (hasRun(report)) await this._loadRunView();
      else await this._loadContentTabs(report);
      return report;
    },
  });

  /** The run outcome (report or error) last announced by an event; events fire after rendering. */
  private _announced: unknown;

  constructor() {
    super();
    this.src = null;
    this.kind = null;
    this.expectPublicKey = null;
    this.file = null;
    this.bytes = null;
    this.limits = undefined;
    this.now = undefined;
    this._source = undefined;
    this._progress = undefined;
    this._dragging = false;
    this._viewState = FRESH_VIEW_STATE;
  }

  /** The last report, once a verification completed. */
  get report(): Report | undefined {
    return this._task.status === TaskStatus.COMPLETE ? this._task.value : undefined;
  }

  /** Resolves with the report of the current run (rejects when it is cancelled or fails). */
  get verification(): Promise<Report> {
    return this._task.taskComplete as Promise<Report>;
  }

  /** Stops the running verification; the worker is told to abort (and is stopped if it does not). */
  cancel(): void {
    this._task.abort();
  }

  /** Re-runs the verification of the current input. */
  verifyAgain(): void {
    if (this._source !== undefined) this._source = { ...this._source };
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this._client?.dispose();
    this._client = undefined;
    this._revokeDownload();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The most recently set input wins; within one update, file > bytes > src.
    if (changed.has('file') && this.file) {
      this._source = { type: 'blob', blob: this.file, name: nameOf(this.file) };
    } else if (changed.has('bytes') && this.bytes) {
      const bytes = this.bytes instanceof Uint8Array ? this.bytes : new Uint8Array(this.bytes);
      this._source = { type: 'bytes', bytes, name: 'bytes' };
    } else if (changed.has('src') && this.src) {
      this._source = { type: 'url', url: new URL(this.src, document.baseURI).href, name: this.src };
    }
  }

  protected override updated(): void {
    const status = this._task.status;
    if (status === TaskStatus.COMPLETE && this._task.value !== this._announced) {
      this._announced = this._task.value;
      const right = this._pendingCompare;
      this._pendingCompare = undefined;
      if (right !== undefined && this._runView && hasRun(this._task.value))
        void this._runView.startCompare(this._runTabsHost(this._task.value), right);
      this._emit('verify-export:result', this._task.value);
    } else if (status === TaskStatus.ERROR && this._task.error !== this._announced) {
      this._announced = this._task.error;
      this._emit('verify-export:error', failureOf(this._task.error));
    }
  }

  protected override render(): TemplateResult {
    const status = this._task.status;
    return html`
      ${this._renderDropZone(status !== TaskStatus.INITIAL)} ${this._renderVerdict()}
      ${status === TaskStatus.PENDING ? this._renderProgress() : nothing}
      ${status === TaskStatus.COMPLETE && this._task.value && this._reportView ? this._renderReport(this._task.value, this._reportView) : nothing}
    `;
  }

  private _renderDropZone(compact: boolean): TemplateResult {
    return html`<div
        part="dropzone"
        class="drop ${compact ? 'compact' : ''} ${this._dragging ? 'dragging' : ''}"
        role="button"
        tabindex="0"
        aria-label="Choose an export file to verify, or drop one here"
        @click=${this._openPicker}
        @keydown=${this._onKeyDown}
        @dragenter=${this._onDragOver}
        @dragover=${this._onDragOver}
        @dragleave=${this._onDragLeave}
        @drop=${this._onDrop}
      >
        <span><slot>Drop an export file here</slot></span>
        <span class="or">or</span>
        <span part="choose-button" class="choose">Choose a file…</span>
      </div>
      <input class="visually-hidden" type="file" tabindex="-1" aria-hidden="true" @change=${this._onPicked} />`;
  }

  private _renderVerdict(): TemplateResult {
    const status = this._task.status;
    let overall = '';
    let sentence = '';
    if (status === TaskStatus.PENDING) {
      sentence = `Verifying ${this._source?.name ?? ''}…`;
    } else if (status === TaskStatus.COMPLETE && this._task.value && this._reportView) {
      overall = this._task.value.overall;
      sentence = this._reportView.verdictSentence(this._task.value);
    } else if (status === TaskStatus.ERROR) {
      const failure = failureOf(this._task.error);
      overall = failure.cancelled ? 'cancelled' : 'error';
      sentence = failure.cancelled
        ? 'Cancelled: verification was stopped before it finished.'
        : `Error: could not verify: ${failure.message}`;
    }
    const badge = overall === 'cancelled' ? 'STOPPED' : overall.toUpperCase();
    return html`<p part="verdict" class="verdict" data-overall=${overall} role="status" aria-live="polite">
      ${badge ? html`<span class="badge"><span>${badge}</span></span> ` : nothing}${sentence}
    </p>`;
  }

  private _renderProgress(): TemplateResult {
    const progress = this._progress;
    const read = progress?.bytesRead ?? 0;
    const total = progress?.totalBytes;
    const seconds = progress ? (performance.now() - progress.startedAt) / 1000 : 0;
    const rate = seconds > 0.05 ? read / seconds : 0;
    return html`<div part="progress" class="progress">
      <progress
        aria-label="Bytes read"
        max=${total ?? 1}
        value=${ifDefined(total ? Math.min(read, total) : undefined)}
      ></progress>
      <span class="numbers"
        >${formatBytes(read)}${total !== undefined ? ` of ${formatBytes(total)}` : ''}${rate > 0 ? ` · ${formatBytes(rate)}/s` : ''}</span
      >
      <button part="cancel-button" type="button" @click=${this._onCancel}>Cancel</button>
    </div>`;
  }

  private _renderReport(report: Report, view: ReportView): TemplateResult {
    const verification = view.renderReport(report, this._reportHost());
    if (hasRun(report) && this._runView) return this._runView.renderRunTabs(this._runTabsHost(report), verification);
    const content = this._content;
    return content?.report === report && this._contentTabs
      ? this._contentTabs.renderContentTabs(
          {
            state: content,
            current: () => this._content ?? content,
            update: (state) => {
              if (this._task.value === state.report) this._content = state;
            },
            inspect: (request) => this._client!.inspect(report, request),
            tickEntries: (positions) => this._reportHost().updateView({ selected: new Set(positions) }),
          },
          verification,
        )
      : verification;
  }

  /** Loads the content tab's module (and adopts its styles) when the report's format has a view. */
  private async _loadContentTabs(report: Report): Promise<void> {
    this._content = undefined;
    if (report.format === null) return;
    contentTabs ??= import('./content-tabs.ts');
    const loaded = (this._contentTabs = await contentTabs);
    if (!loaded.hasContentView(report)) return;
    this._content = { report, tab: 'verification' };
    this._adopt(loaded.styles.styleSheet);
  }

  private async _loadRunView(): Promise<void> {
    this._runView = await loadRunView();
    this._runTabs ??= this._runView.INITIAL_RUN_TABS;
    this._adopt(this._runView.styles.styleSheet);
  }

  /** Adds a lazily loaded view's styles to the shadow root (once). */
  private _adopt(sheet: CSSStyleSheet | undefined): void {
    const root = this.shadowRoot;
    if (sheet && root && !root.adoptedStyleSheets.includes(sheet))
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }

  private _runTabsHost(report: Report): RunTabsHost {
    const current = () => this._runTabs!;
    return {
      inputName: report.input,
      get state() {
        return current();
      },
      update: (patch) => {
        if (this._task.value === report) this._runTabs = { ...current(), ...patch };
      },
      runReport: () => this._client!.runReport(report, this.now),
      compare: (right, name) => this._client!.compare(report, { type: 'blob', blob: right }, name),
      content: { report, inspect: (request) => this._client!.inspect(report, request) },
    };
  }

  private _reportHost(): ReportHost {
    // A getter: handlers must read the live state, not the snapshot of the last render.
    const current = () => this._viewState;
    return {
      get view() {
        return current();
      },
      updateView: (patch) => {
        this._viewState = { ...this._viewState, ...patch };
      },
      disclose: (indices) => void this._disclose(indices),
      verifySubset: () => {
        const made = this._viewState.download;
        if (made !== undefined) this.file = new File([made.text], made.name, { type: 'application/json' });
      },
    };
  }

  private async _disclose(indices: readonly number[]): Promise<void> {
    const source = this._source;
    const report = this._task.value;
    if (source === undefined || this._client === undefined) return;
    this._revokeDownload();
    this._viewState = { ...this._viewState, busy: true, message: undefined, download: undefined };
    try {
      const text = await this._client.disclose(toWorkerSource(source), indices, this.limits, {}, report);
      if (this._task.value !== report) return; // a newer verification replaced this report
      const name = subsetFileName(source.name);
      const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      this._viewState = {
        ...this._viewState,
        busy: false,
        message: `Subset of ${indices.length} entr${indices.length === 1 ? 'y' : 'ies'} ready.`,
        download: { url, name, count: indices.length, text },
      };
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLAnchorElement>('a[part="download-link"]')?.click();
    } catch (error) {
      this._viewState = {
        ...this._viewState,
        busy: false,
        message: `Could not build the subset: ${failureOf(error).message}`,
      };
    }
  }

  private _resetViewState(): void {
    this._revokeDownload();
    this._viewState = FRESH_VIEW_STATE;
    if (this._runTabs && this._runView) {
      this._runView.releaseRunTabs(this._runTabs);
      this._runTabs = this._runView.INITIAL_RUN_TABS;
    }
  }

  private _revokeDownload(): void {
    const url = this._viewState?.download?.url;
    if (url !== undefined) URL.revokeObjectURL(url);
  }

  private _onProgress(bytesRead: number, totalBytes?: number): void {
    const startedAt = this._progress?.startedAt ?? performance.now();
    this._progress = { startedAt, bytesRead, totalBytes: totalBytes ?? this._progress?.totalBytes };
    const seconds = (performance.now() - startedAt) / 1000;
    const detail: VerifyExportProgress = {
      bytesRead,
      ...(totalBytes === undefined ? {} : { totalBytes }),
      bytesPerSecond: seconds > 0 ? bytesRead / seconds : 0,
    };
    this._emit('verify-export:progress', detail);
  }

  private _emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  private _openPicker(): void {
    this._warm();
    this.renderRoot.querySelector<HTMLInputElement>('input[type="file"]')?.click();
  }

  /**
   * A person is choosing or dragging a file: the worker starts and loads its WebAssembly, and the
   * report view loads, while they do (a quarter of a second of the first verdict of a large file
   * on a fresh page; docs/architecture.md, 'Benchmarks'). A page nobody uses starts nothing.
   */
  private _warm(): void {
    (this._client ??= createVerifierClient()).warm();
    void loadReportView().catch(() => undefined);
  }

  private _onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this._openPicker();
    }
  }

  private _onPicked(event: Event): void {
    const input = event.target as HTMLInputElement;
    const picked = input.files?.[0];
    this._pendingCompare = undefined;
    if (picked !== undefined) this.file = picked;
    input.value = ''; // picking the same file again re-verifies it
  }

  private _onDragOver(event: DragEvent): void {
    event.preventDefault();
    if (event.type === 'dragenter') this._warm();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    this._dragging = true;
  }

  private _onDragLeave(): void {
    this._dragging = false;
  }

  private _onDrop(event: DragEvent): void {
    event.preventDefault();
    this._dragging = false;
    const dropped = event.dataTransfer?.files;
    if (dropped?.[0] === undefined) return;
    this._pendingCompare = dropped[1];
    this.file = dropped[0];
  }

  private async _onCancel(): Promise<void> {
    this.cancel();
    // The Cancel button disappears with the progress row; keep keyboard focus in the element.
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part="dropzone"]')?.focus();
  }
}

function nameOf(blob: Blob): string {
  return typeof File !== 'undefined' && blob instanceof File && blob.name !== '' ? blob.name : 'blob';
}

function sizeOf(source: Source): number | undefined {
  return source.type === 'blob' ? source.blob.size : source.type === 'bytes' ? source.bytes.byteLength : undefined;
}

/** Bytes are copied into a fresh buffer that is transferred, so the caller's array stays usable. */
function toWorkerSource(source: Source): WorkerSource {
  switch (source.type) {
    case 'blob':
      return { type: 'blob', blob: source.blob };
    case 'bytes':
      return { type: 'bytes', buffer: source.bytes.slice().buffer };
    case 'url':
      return { type: 'url', url: source.url };
  }
}

function failureOf(error: unknown): VerifyExportFailure {
  if (error instanceof DOMException && error.name === 'AbortError')
    return { message: 'verification was cancelled', cancelled: true };
  return { message: error instanceof Error ? error.message : String(error), cancelled: false };
}
