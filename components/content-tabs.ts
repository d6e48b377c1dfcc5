/**
 * The "what it says" tab of `<verify-export>`, beside "Verification", for the formats with a view
 * of their content: agent-history's Transcript, codex-exec's Replay, Zaxy's Entries and
 * AgentXchain's Files (a passing AgentXchain export shows Files among its Run and Compare tabs,
 * `run-view/index.ts`, made by `createContentView` here). Loaded by the element only once such a
 * report is shown; the view's own module loads while the page is idle after that (or when its tab
 * first opens), and pages its items from the worker's `inspect` job (the bytes that were
 * verified). Every view is told what "verified" covers for its format, and draws a red bar when
 * the artifact failed: a failed artifact stays readable.
 *
 * A click on a finding's path in the Verification tab (`line N`, `$.entries[3].id`,
 * `$.files["a.json"].sha256`) opens the view there. The Entries view's "Tick for disclosure"
 * (`verify-export:entries-selection`) sets the ticks of the disclosure panel and goes back to it.
 * @module
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { InspectPage, InspectRequest } from '../src/inspect/types.ts';
import type { FormatId } from '../src/report/types.ts';
import type { Report } from '../src/report.ts';

/** A content view: its tab label, what verification covers, the finding paths it can show, and its module. */
interface ContentView {
  readonly label: string;
  note(report: Report): string;
  /** Finding paths the view can open (`revealPath`). */
  readonly reveals: RegExp;
  /** Loads the module (which defines the element) and resolves to the element's tag name. */
  readonly load: () => Promise<string>;
}

const UNSIGNED_NOTE = 'Structure checked, nothing signed.';
const LINE_PATH = /^line \d{1,9}$/u;

/** The content views by format. */
const CONTENT_VIEWS: Partial<Record<FormatId, ContentView>> = {
  'agent-history': {
    label: 'Transcript',
    note: () => UNSIGNED_NOTE,
    reveals: LINE_PATH,
    load: () => import('./views/transcript/index.ts').then((module) => module.TRANSCRIPT_TAG),
  },
  'codex-exec': {
    label: 'Replay',
    note: () => UNSIGNED_NOTE,
    reveals: LINE_PATH,
    load: () => import('./views/replay/index.ts').then((module) => module.REPLAY_TAG),
  },
  zaxy: {
    label: 'Entries',
    // docs/zaxy.md: the signature covers the entries and header fields, not the `anchor`.
    note: (report) =>
      report.kind === 'zaxy.portable.v1' || report.kind === 'zaxy.subset'
        ? 'Content signed, anchor not covered.'
        : 'Nothing in this document is signed.',
    reveals: /^\$\.(?:entries|disclosed)\[\d{1,9}\]/u,
    load: () => import('./views/entries/index.ts').then((module) => module.ENTRIES_TAG),
  },
  agentxchain: {
    label: 'Files',
    note: () => 'File bytes hashed.',
    reveals: /^\$\.(?:files|repos)[.[]/u,
    load: () => import('./views/file-content/index.ts').then((module) => module.FILES_TAG),
  },
};

/** The element a view module defines, as the tabs use it. */
export interface ContentElement extends HTMLElement {
  fetchPage: (request: InspectRequest) => Promise<InspectPage<unknown>>;
  verifiedNote: string;
  failed: boolean;
  findings: Report['findings'];
  /** Resolves once the element has rendered (it renders only once it is in the document). */
  readonly updateComplete: Promise<boolean>;
  revealPath?(path: string): Promise<boolean>;
}

/** The tabs' state, owned by the element (one per shown report). */
export interface ContentTabsState {
  readonly report: Report;
  readonly tab: 'verification' | 'content';
  readonly view?: ContentElement | undefined;
  readonly failure?: string | undefined;
}

/** A verified report and the worker's `inspect` over the bytes it verified. */
export interface ContentSource {
  readonly report: Report;
  inspect(request: InspectRequest): Promise<InspectPage<unknown>>;
}

/** What the tabs need from `<verify-export>`. */
export interface ContentTabsHost {
  /** The state this render shows. */
  readonly state: ContentTabsState;
  /** The live state (handlers run after later renders). */
  current(): ContentTabsState;
  update(state: ContentTabsState): void;
  /** The worker's `inspect` over the bytes of `state.report`'s verification. */
  inspect(request: InspectRequest): Promise<InspectPage<unknown>>;
  /** Sets the disclosure panel's ticks to these entry positions (Zaxy). */
  tickEntries?(positions: readonly number[]): void;
}

/**
 * Whether the report's format has a content view.
 * @example
 * hasContentView(report); // true for agent-history, codex-exec, Zaxy and AgentXchain
 */
export function hasContentView(report: Report): boolean {
  return report.format !== null && CONTENT_VIEWS[report.format] !== undefined;
}

/**
 * The label of the report's content tab ("Files" for AgentXchain), or undefined when it has none.
 * @example
 * contentLabel(report); // 'Entries'
 */
export function contentLabel(report: Report): string | undefined {
  return report.format === null ? undefined : CONTENT_VIEWS[report.format]?.label;
}

/**
 * The finding path a click in the Verification tab landed on, when the report's content view can
 * open it (a click elsewhere, or on a path the view does not show, gives undefined). Call it while
 * the click is dispatched (an event's path is empty afterwards).
 * @example
 * const path = revealablePath(report, event); // '$.files[".planning/ROADMAP.md"].sha256'
 */
export function revealablePath(report: Report, event: Event): string | undefined {
  const view = report.format === null ? undefined : CONTENT_VIEWS[report.format];
  const target = event
    .composedPath()
    .find((node): node is HTMLElement => node instanceof HTMLElement && node.matches('code.path'));
  const text = target?.textContent?.trim() ?? '';
  return view !== undefined && view.reveals.test(text) ? text : undefined;
}

/**
 * Opens `path` in a content view just made or shown: waits until the element is in the document and
 * has rendered (a view reads its pages only then).
 * @example
 * await revealIn(element, '$.entries[3].id');
 */
export async function revealIn(element: ContentElement | undefined, path: string): Promise<void> {
  if (element === undefined) return;
  await element.updateComplete;
  await element.revealPath?.(path);
}

/** Views whose module is loading or loaded ahead of their tab. */
const preloaded = new WeakSet<ContentView>();

/**
 * Loads the report's content view module while the page is idle, so the first click on its tab
 * finds the module fetched, compiled and its element defined. A failure here is left to the
 * tab's own load, which reports it.
 */
function preload(report: Report): void {
  const view = report.format === null ? undefined : CONTENT_VIEWS[report.format];
  if (view === undefined || preloaded.has(view)) return;
  preloaded.add(view);
  const load = () => void view.load().catch(() => preloaded.delete(view));
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}

/**
 * Loads the report's content view module and makes its element, fed by `source.inspect`.
 * @example
 * const files = await createContentView({ report, inspect: (request) => client.inspect(report, request) });
 */
export async function createContentView(source: ContentSource): Promise<ContentElement> {
  const { report } = source;
  const view = report.format === null ? undefined : CONTENT_VIEWS[report.format];
  if (view === undefined) throw new TypeError(`no content view for ${report.format ?? 'an unknown format'}`);
  const element = document.createElement(await view.load()) as ContentElement;
  element.verifiedNote = view.note(report);
  element.failed = report.overall !== 'pass';
  element.findings = report.findings;
  element.fetchPage = (request) => source.inspect(request);
  return element;
}

export const styles = css`
  .content-tabs {
    display: flex;
    gap: 0.25em;
    border-bottom: 1px solid var(--_border);
    margin: 1em 0 0.5em;
  }
  .content-tabs [role='tab'] {
    border: 1px solid transparent;
    border-bottom: none;
    border-radius: 6px 6px 0 0;
    background: none;
    margin-bottom: -1px;
    color: var(--_muted);
  }
  .content-tabs [role='tab'][aria-selected='true'] {
    border-color: var(--_border);
    background: var(--_bg);
    color: var(--_fg);
    font-weight: 600;
  }
  .content-tabs [role='tab']:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .content-panel [part='findings'] code.path {
    cursor: pointer;
  }
`;

/**
 * The two tabs and the selected panel; `verification` is the report view's output.
 * @example
 * html`${renderContentTabs(host, renderReport(report, reportHost))}`
 */
export function renderContentTabs(host: ContentTabsHost, verification: TemplateResult): TemplateResult {
  const { state } = host;
  const label = contentLabel(state.report);
  if (label === undefined) return verification;
  if (state.view === undefined) preload(state.report);
  const tabs: readonly ['verification' | 'content', string][] = [
    ['verification', 'Verification'],
    ['content', label],
  ];
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft' && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const next = host.current().tab === 'verification' ? 'content' : 'verification';
    void select(host, event.key === 'Home' ? 'verification' : event.key === 'End' ? 'content' : next);
    const tablist = event.currentTarget as HTMLElement;
    void Promise.resolve().then(() => tablist.querySelector<HTMLElement>('[aria-selected="true"]')?.focus());
  };
  return html`<div
      role="tablist"
      class="content-tabs"
      part="tabs"
      aria-label="Views of this artifact"
      @keydown=${onKey}
    >
      ${tabs.map(
        ([tab, text]) =>
          html`<button
            type="button"
            role="tab"
            part="tab"
            id="content-tab-${tab}"
            aria-selected=${state.tab === tab ? 'true' : 'false'}
            aria-controls="content-panel-${tab}"
            tabindex=${state.tab === tab ? '0' : '-1'}
            @click=${() => void select(host, tab)}
          >
            ${text}
          </button>`,
      )}
    </div>
    <div
      role="tabpanel"
      class="content-panel"
      id="content-panel-verification"
      aria-labelledby="content-tab-verification"
      ?hidden=${state.tab !== 'verification'}
      @click=${(event: Event) => void revealFinding(host, event)}
    >
      ${verification}
    </div>
    <div
      role="tabpanel"
      part="content-view"
      id="content-panel-content"
      aria-labelledby="content-tab-content"
      ?hidden=${state.tab !== 'content'}
      @verify-export:entries-selection=${(event: CustomEvent<{ positions: readonly number[] }>) =>
        void tickEntries(host, event)}
    >
      ${
        state.failure !== undefined
          ? html`<p role="alert">Could not open the ${label.toLowerCase()}: ${state.failure}</p>`
          : (state.view ?? (state.tab === 'content' ? html`<p role="status">Loading…</p>` : nothing))
      }
    </div>`;
}

/**
 * Shows a tab; the first time the content tab opens, its view module loads and its element is made.
 * @example
 * await select(host, 'content');
 */
export async function select(
  host: ContentTabsHost,
  tab: 'verification' | 'content',
): Promise<ContentElement | undefined> {
  const state = host.current();
  host.update({ ...state, tab });
  if (tab !== 'content' || state.view !== undefined) return state.view;
  try {
    const element = await createContentView({ report: state.report, inspect: (request) => host.inspect(request) });
    if (host.current().report === state.report) host.update({ ...host.current(), view: element });
    return element;
  } catch (error) {
    host.update({ ...host.current(), failure: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

/** A click on a finding's path in the Verification tab opens the content view there. */
async function revealFinding(host: ContentTabsHost, event: Event): Promise<void> {
  const path = revealablePath(host.current().report, event);
  if (path === undefined) return;
  await revealIn(await select(host, 'content'), path);
}

/**
 * The Entries view ticked the entries its filters keep: they become the disclosure panel's ticks,
 * and the Verification tab (where the panel is) shows with its "Download subset" button focused.
 */
async function tickEntries(host: ContentTabsHost, event: CustomEvent<{ positions: readonly number[] }>): Promise<void> {
  const positions = event.detail?.positions;
  if (host.tickEntries === undefined || !Array.isArray(positions)) return;
  host.tickEntries(positions);
  const panel = event.currentTarget as HTMLElement;
  const button = (panel.parentNode as ParentNode | null)?.querySelector<HTMLElement>('[part="disclose-button"]');
  if (button === null || button === undefined) return;
  await select(host, 'verification');
  // The panel shows once the element has rendered the new state (a microtask later).
  requestAnimationFrame(() => button.focus());
}
