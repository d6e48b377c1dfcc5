/**
 * The Run and Compare views of `<verify-export>`, loaded (with their styles) only once an
 * AgentXchain export has verified: tabs over the export, "Verification" (the report view), "Files"
 * (the files' verified content, `views/file-content/`, through `content-tabs.ts`), "Run" (the
 * governance report, `agentxchain report`) and "Compare" (`agentxchain diff --export` against a
 * second export). The report and the diff are computed in the verification worker from the bytes it
 * verified; this module draws them, through text bindings only.
 *
 * The governance report is drawn in stages the first time its tab shows (`STAGE_ROWS` more rows a
 * frame, header first), so a large run never holds the main thread for one long task.
 * @module
 */
import { html, noChange, nothing, type TemplateResult } from 'lit';
import {
  createContentView,
  revealablePath,
  revealIn,
  type ContentElement,
  type ContentSource,
} from '../content-tabs.ts';
import { visibleString, visibleText } from '../visible-text.ts';
import { renderComparison } from './compare-view.ts';
import { renderCoordinatorSummary } from './coordinator-summary.ts';
import { renderRunSummary } from './run-summary.ts';
import { PAGE_ROWS, STAGE_ROWS, type Paging } from './shared.ts';
import type { Comparison, GovernanceReport, RunReport } from './types.ts';

export { runViewStyles as styles } from './styles.ts';
export type { Comparison, RunReport } from './types.ts';

export type RunTab = 'verification' | 'files' | 'run' | 'compare';

/** A result being made in the worker: not asked for yet, on its way, made (with its download links), or failed. */
export type Loadable<T, Links> =
  | { readonly status: 'idle' }
  | { readonly status: 'busy' }
  | { readonly status: 'ready'; readonly value: T; readonly links: Links }
  | { readonly status: 'failed'; readonly message: string };

/** The tabs' state, owned by the element (a new verification starts from `INITIAL_RUN_TABS`). */
export interface RunTabsState {
  readonly tab: RunTab;
  readonly run: Loadable<RunReport, { readonly markdown: string }>;
  readonly compare: Loadable<Comparison, { readonly json?: string; readonly text?: string }>;
  /** File name of the export compared with the verified one. */
  readonly rightName?: string | undefined;
  /** Rows drawn per long list. */
  readonly shown: ReadonlyMap<string, number>;
  /** While the Run view is first drawn: the stage reached (it may draw `(stage + 1) × STAGE_ROWS` rows). */
  readonly stage?: number | undefined;
  /** The Files view's element, made when its tab first opens (or why it could not be). */
  readonly files?: ContentElement | undefined;
  readonly filesFailure?: string | undefined;
}

export const INITIAL_RUN_TABS: RunTabsState = {
  tab: 'verification',
  run: { status: 'idle' },
  compare: { status: 'idle' },
  shown: new Map(),
};

/** What the tabs need from the element: its state, and the two worker jobs over the verified export. */
export interface RunTabsHost {
  /** The verified export's name (`report.input`). */
  readonly inputName: string;
  readonly state: RunTabsState;
  update(patch: Partial<RunTabsState>): void;
  /** The governance report of the verified export (made in the worker). */
  runReport(): Promise<RunReport>;
  /** The diff of the verified export (left) against `right` (made in the worker). */
  compare(right: Blob, name: string): Promise<Comparison>;
  /** The verified report and its `inspect` pages: given, the "Files" tab shows them. */
  readonly content?: ContentSource | undefined;
}

const TABS: readonly (readonly [RunTab, string])[] = [
  ['verification', 'Verification'],
  ['files', 'Files'],
  ['run', 'Run'],
  ['compare', 'Compare'],
];

/** The tabs this host offers (Files only with a content source). */
function tabsOf(host: RunTabsHost): readonly (readonly [RunTab, string])[] {
  return host.content === undefined ? TABS.filter(([tab]) => tab !== 'files') : TABS;
}

/**
 * The three tabs and the selected panel; `verification` is the report view's output.
 * @example
 * html`${renderRunTabs(host, renderReport(report, reportHost))}`
 */
export function renderRunTabs(host: RunTabsHost, verification: TemplateResult): TemplateResult {
  const state = host.state;
  const stage = state.tab === 'run' && state.run.status === 'ready' ? state.stage : undefined;
  const paging: Paging = {
    shown: state.shown,
    showMore: (list) =>
      host.update({
        shown: new Map([...host.state.shown, [list, (host.state.shown.get(list) ?? PAGE_ROWS) + PAGE_ROWS]]),
      }),
    ...(stage === undefined ? {} : { budget: { rows: (stage + 1) * STAGE_ROWS, cut: false } }),
  };
  const runPanel = state.tab === 'run' ? renderRunPanel(host, paging) : nothing;
  if (stage !== undefined && paging.budget?.cut === true) nextStage(host, stage);
  return html`<div
      role="tablist"
      class="tabs"
      part="tabs"
      aria-label="Views of this export"
      @keydown=${(event: KeyboardEvent) => onTabKey(host, event)}
    >
      ${tabsOf(host).map(
        ([tab, label]) =>
          html`<button
            type="button"
            role="tab"
            id="tab-${tab}"
            part="tab"
            aria-selected=${state.tab === tab ? 'true' : 'false'}
            aria-controls="panel-${tab}"
            tabindex=${state.tab === tab ? '0' : '-1'}
            @click=${() => selectTab(host, tab)}
          >
            ${label}
          </button>`,
      )}
    </div>
    <div
      role="tabpanel"
      id="panel-verification"
      class="verification-panel"
      aria-labelledby="tab-verification"
      ?hidden=${state.tab !== 'verification'}
      @click=${(event: Event) => void revealFinding(host, event)}
    >
      ${
        // Hidden, the report keeps what it last drew: each stage of the Run view draws the element
        // again, and the report's rows need not be compared each time.
        state.tab === 'verification' ? verification : noChange
      }
    </div>
    ${
      host.content === undefined
        ? nothing
        : html`<div
            role="tabpanel"
            id="panel-files"
            part="content-view"
            aria-labelledby="tab-files"
            ?hidden=${state.tab !== 'files'}
          >
            ${
              state.filesFailure !== undefined
                ? html`<p class="refusal" role="alert">Could not open the files: ${visibleText(state.filesFailure)}</p>`
                : (state.files ?? (state.tab === 'files' ? html`<p class="busy" role="status">Loading…</p>` : nothing))
            }
          </div>`
    }
    <div
      role="tabpanel"
      id="panel-run"
      part="run-view"
      class="run-view"
      aria-labelledby="tab-run"
      tabindex="0"
      ?hidden=${state.tab !== 'run'}
    >
      ${runPanel}
    </div>
    <div
      role="tabpanel"
      id="panel-compare"
      part="compare-view"
      class="run-view"
      aria-labelledby="tab-compare"
      tabindex="0"
      ?hidden=${state.tab !== 'compare'}
    >
      ${state.tab === 'compare' ? renderComparePanel(host) : nothing}
    </div>`;
}

/**
 * Shows a tab, asking the worker for the governance report the first time "Run" opens.
 * @example
 * selectTab(host, 'run');
 */
export function selectTab(host: RunTabsHost, tab: RunTab): void {
  // The Run view is drawn in stages each time it shows (it is not kept while hidden).
  host.update(tab === 'run' && host.state.tab !== 'run' ? { tab, stage: 0 } : { tab });
  if (tab === 'run' && host.state.run.status === 'idle') void loadRun(host);
  if (tab === 'files') void openFiles(host);
}

/**
 * Shows the Files tab, making its view the first time (its module loads then).
 * @example
 * const files = await openFiles(host);
 */
export async function openFiles(host: RunTabsHost): Promise<ContentElement | undefined> {
  const content = host.content;
  if (content === undefined) return undefined;
  if (host.state.tab !== 'files') host.update({ tab: 'files' });
  if (host.state.files !== undefined) return host.state.files;
  try {
    const files = await createContentView(content);
    // Two opens in a row (a tab click, then a finding) make one element.
    if (host.state.files !== undefined) return host.state.files;
    host.update({ files });
    return files;
  } catch (error) {
    host.update({ filesFailure: messageOf(error) });
    return undefined;
  }
}

/** A click on a finding's path in the Verification tab opens the Files view at its file. */
async function revealFinding(host: RunTabsHost, event: Event): Promise<void> {
  const content = host.content;
  const path = content === undefined ? undefined : revealablePath(content.report, event);
  if (path !== undefined) await revealIn(await openFiles(host), path);
}

/** Draws the next stage of the Run view after this frame has painted (if the view is still the one shown). */
function nextStage(host: RunTabsHost, stage: number): void {
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (host.state.tab === 'run' && host.state.stage === stage) host.update({ stage: stage + 1 });
    }),
  );
}

/** Arrow keys, Home and End move between tabs (WAI-ARIA Authoring Practices, 'Tabs' pattern, automatic activation). */
function onTabKey(host: RunTabsHost, event: KeyboardEvent): void {
  const tabs = tabsOf(host);
  const at = tabs.findIndex(([tab]) => tab === host.state.tab);
  const to =
    event.key === 'ArrowRight'
      ? (at + 1) % tabs.length
      : event.key === 'ArrowLeft'
        ? (at + tabs.length - 1) % tabs.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? tabs.length - 1
            : -1;
  if (to < 0) return;
  event.preventDefault();
  selectTab(host, tabs[to]![0]);
  const tablist = event.currentTarget as HTMLElement;
  void Promise.resolve().then(() => tablist.querySelector<HTMLElement>(`#tab-${tabs[to]![0]}`)?.focus());
}

async function loadRun(host: RunTabsHost): Promise<void> {
  host.update({ run: { status: 'busy' } });
  try {
    const value = await host.runReport();
    const links = { markdown: objectUrl(value.markdown, 'text/markdown') };
    host.update({ run: { status: 'ready', value, links }, stage: 0 });
  } catch (error) {
    host.update({ run: { status: 'failed', message: messageOf(error) } });
  }
}

/**
 * Compares the verified export with `right` and shows the Compare tab.
 * @example
 * void startCompare(host, droppedFiles[1]);
 */
export async function startCompare(host: RunTabsHost, right: Blob): Promise<void> {
  const name = typeof File !== 'undefined' && right instanceof File && right.name !== '' ? right.name : 'blob';
  releaseCompare(host.state);
  host.update({ tab: 'compare', compare: { status: 'busy' }, rightName: name });
  try {
    const value = await host.compare(right, name);
    const links = value.ok
      ? {
          json: objectUrl(`${JSON.stringify(value.diff, null, 2)}\n`, 'application/json'),
          text: objectUrl(value.text, 'text/plain'),
        }
      : {};
    host.update({ compare: { status: 'ready', value, links } });
  } catch (error) {
    host.update({ compare: { status: 'failed', message: messageOf(error) } });
  }
}

/**
 * Revokes the download links the state holds (call it before dropping the state).
 * @example
 * releaseRunTabs(state);
 */
export function releaseRunTabs(state: RunTabsState): void {
  if (state.run.status === 'ready') URL.revokeObjectURL(state.run.links.markdown);
  releaseCompare(state);
}

function releaseCompare(state: RunTabsState): void {
  if (state.compare.status !== 'ready') return;
  for (const url of Object.values(state.compare.links)) URL.revokeObjectURL(url);
}

function objectUrl(text: string, type: string): string {
  return URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `run.json` → `run`: the stem the downloads are named after. */
function stemOf(name: string): string {
  const base = visibleString(name.split(/[/\\]/).pop() ?? '', 200) ?? '';
  const stem = base.replace(/(\.json)?(\.gz)?$/i, '');
  return stem === '' ? 'agentxchain' : stem;
}

function renderRunPanel(host: RunTabsHost, paging: Paging): TemplateResult {
  const run = host.state.run;
  switch (run.status) {
    case 'idle':
    case 'busy':
      return html`<p class="busy" role="status">Building the governance report…</p>`;
    case 'failed':
      return html`<p class="refusal" role="alert">
        Could not build the governance report: ${visibleText(run.message)}
      </p>`;
    case 'ready':
      return html`<div class="toolbar">
          <a
            part="report-download"
            class="button"
            href=${run.links.markdown}
            download="${stemOf(host.inputName)}.governance-report.md"
            >Download report (Markdown)</a
          >
        </div>
        ${renderGovernance(run.value.report, paging)}`;
  }
}

function renderGovernance(report: GovernanceReport, paging: Paging): TemplateResult {
  if (report.overall !== 'pass')
    return html`<p class="refusal">${visibleText(report.message)}</p>
      ${
        report.overall === 'fail'
          ? html`<ul>
              ${report.verification.errors.map((error) => html`<li>${visibleText(error)}</li>`)}
            </ul>`
          : nothing
      }`;
  const subject = report.subject;
  return subject.kind === 'coordinator_workspace'
    ? renderCoordinatorSummary(subject, paging)
    : renderRunSummary(subject, paging);
}

function renderComparePanel(host: RunTabsHost): TemplateResult {
  const { compare, rightName } = host.state;
  const pick = (event: Event) => {
    const input = event.target as HTMLInputElement;
    const picked = input.files?.[0];
    input.value = '';
    if (picked !== undefined) void startCompare(host, picked);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    const dropped = event.dataTransfer?.files[0];
    if (dropped !== undefined) void startCompare(host, dropped);
  };
  const stem = `${stemOf(host.inputName)}-vs-${stemOf(rightName ?? '')}`;
  return html`<div class="compare-pick" @dragover=${(event: DragEvent) => event.preventDefault()} @drop=${drop}>
      <label class="button" part="compare-button">
        ${compare.status === 'idle' ? 'Choose an export to compare with…' : 'Compare with another export…'}
        <input
          class="visually-hidden"
          type="file"
          accept=".json,.gz,application/json,application/gzip"
          @change=${pick}
        />
      </label>
      <span class="hint">or drop it here. This export is the left side, the chosen one the right.</span>
    </div>
    ${
      compare.status === 'busy'
        ? html`<p class="busy" role="status">Comparing with ${visibleText(rightName)}…</p>`
        : compare.status === 'failed'
          ? html`<p class="refusal" role="alert">Could not compare: ${visibleText(compare.message)}</p>`
          : compare.status === 'ready'
            ? html`${
                compare.value.ok
                  ? html`<div class="toolbar">
                      <a
                        part="diff-download"
                        class="button"
                        href=${compare.links.json ?? ''}
                        download="${stem}.diff.json"
                        >Download diff (JSON)</a
                      >
                      <a
                        part="diff-download"
                        class="button"
                        href=${compare.links.text ?? ''}
                        download="${stem}.diff.txt"
                        >Download diff (text)</a
                      >
                    </div>`
                  : nothing
              }
              ${renderComparison(compare.value)}`
            : nothing
    }`;
}
