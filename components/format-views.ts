/**
 * Per-format detail views: the AgentXchain file table and nested repos here, the other formats'
 * (Zaxy, NDJSON streams) in `other-format-views.ts`, loaded for a report of theirs only, so an
 * AgentXchain page never fetches them. They read each format's typed `report.details`; artifact
 * strings go through `text` (clipped) or `visibleText`, and a field that is missing or `null`
 * shows as "–".
 * @module
 */
import { html, nothing, type CSSResult, type TemplateResult } from 'lit';
import type { FileRow } from '../src/formats/agentxchain/details.ts';
import { DASH, show, text } from './details.ts';
import { grouped } from './numbers.ts';
import type { EntryFilter } from './disclosure.ts';
import { visibleText } from './visible-text.ts';
import type { Report, ReportOf } from '../src/report.ts';

/** Rows drawn per table at first: a 500-row table costs ~100 ms of layout on a slow machine. */
export const INITIAL_ROWS = 100;
/** Rows drawn once a person asks for all; the rest are counted, not drawn (bundles may hold 100,000 entries). */
export const MAX_ROWS = 2000;

/**
 * The rows of `table` to draw now.
 * @example
 * visibleRows(ui, 'files', rows).map(renderRow)
 */
export function visibleRows<T>(ui: ViewUi, table: string, rows: readonly T[]): readonly T[] {
  return rows.slice(0, ui.expanded.has(table) ? MAX_ROWS : INITIAL_ROWS);
}

/**
 * The "showing N of M" note with its "show more" button, when rows were held back.
 * @example
 * html`${moreRows(ui, 'files', files.length)}`
 */
export function moreRows(ui: ViewUi, table: string, total: number, what = 'rows'): TemplateResult | typeof nothing {
  const shown = Math.min(total, ui.expanded.has(table) ? MAX_ROWS : INITIAL_ROWS);
  if (shown >= total) return nothing;
  return html`<p class="more">
    Showing the first ${shown} of ${total} ${what}.
    ${shown < MAX_ROWS ? html`<button type="button" class="link" @click=${() => ui.expand(table)}>Show ${Math.min(total, MAX_ROWS)}</button>` : nothing}
  </p>`;
}

/** The disclosure panel's state, owned by the element (reset for every new report). */
export interface ViewState {
  readonly selected: ReadonlySet<number>;
  readonly filter: EntryFilter;
  readonly busy: boolean;
  readonly message?: string | undefined;
  readonly download?:
    { readonly url: string; readonly name: string; readonly count: number; readonly text: string } | undefined;
  /** Row of the disclosed-entries table whose proof is drawn. */
  readonly proofRow: number;
  /** Tables a person asked to see in full (up to `MAX_ROWS`). */
  readonly expanded: ReadonlySet<string>;
}

/** State and callbacks of the disclosure panel and the disclosed-entries table. */
export interface ViewUi extends ViewState {
  /** Offered only for a signed bundle that passed. */
  readonly available: boolean;
  toggle(position: number, on: boolean): void;
  setFilter(filter: EntryFilter): void;
  /** Ticks these entry positions too (the filter's matches). */
  tick(positions: readonly number[]): void;
  clearSelection(): void;
  disclose(): void;
  verifySubset(): void;
  showProof(row: number): void;
  expand(table: string): void;
  /** `visibleRows` and `moreRows` over this state (for `other-format-views.ts`, which does not import this module). */
  rows<T>(table: string, rows: readonly T[]): readonly T[];
  more(table: string, total: number, what?: string): TemplateResult | typeof nothing;
}

/** The Zaxy and NDJSON stream views, once a report of theirs was seen (`loadFormatView`). */
let otherViews: typeof import('./other-format-views.ts') | undefined;

/**
 * Loads what `renderFormatDetails` needs to draw this report's format: call it before the report
 * is first drawn (until then a Zaxy or stream report shows no details), and adopt the styles it
 * returns, if any, into the element's shadow root.
 * @example
 * adopt(await loadFormatView(report));
 * html`${renderFormatDetails(report, ui)}`
 */
export async function loadFormatView(report: Pick<Report, 'format'>): Promise<CSSResult | undefined> {
  if (report.format === 'agentxchain' || report.format === null) return undefined;
  otherViews ??= await import('./other-format-views.ts');
  return otherViews.styles;
}

/**
 * The format-specific part of a report.
 * @example
 * html`${renderFormatDetails(report, ui)}`
 */
export function renderFormatDetails(report: Report, ui: ViewUi): TemplateResult | typeof nothing {
  switch (report.format) {
    case 'agentxchain':
      return renderAgentxchain(report, ui);
    case 'zaxy':
      return otherViews?.renderZaxy(report, ui) ?? nothing;
    case 'agent-history':
    case 'codex-exec':
      return otherViews?.renderStream(report, ui) ?? nothing;
    default:
      return nothing;
  }
}

function renderAgentxchain(report: ReportOf<'agentxchain'>, ui: ViewUi): TemplateResult {
  const details = report.details;
  const files = details.files ?? [];
  const repos = details.repos ?? [];
  return html`<section part="details" class="details" aria-label="Export contents">
    <dl class="facts">
      <div>
        <dt>Export kind</dt>
        <dd>${show(text(details.export_kind) ?? report.kind)}</dd>
      </div>
      <div>
        <dt>Schema</dt>
        <dd>${show(text(details.schema_version))}</dd>
      </div>
      <div>
        <dt>Files</dt>
        <dd>${show(details.file_count)}</dd>
      </div>
      ${
        details.repo_count || repos.length > 0
          ? html`<div>
              <dt>Repos</dt>
              <dd>${show(details.repo_count)}</dd>
            </div>`
          : nothing
      }
    </dl>
    ${
      files.length > 0
        ? html`<div class="scroll">
              <table part="file-table" class="files">
                <caption>
                  Files in the export
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Path</th>
                    <th scope="col">Format</th>
                    <th scope="col" class="num">Bytes</th>
                    <th scope="col">SHA-256</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  ${visibleRows(ui, 'files', problemsFirst(files)).map(
                    (file) =>
                      html`<tr data-status=${file.status}>
                        <td><code>${visibleText(file.path)}</code></td>
                        <td>${show(text(file.format))}</td>
                        <td class="num">${file.bytes === null ? DASH : grouped(file.bytes)}</td>
                        <td>
                          <code class="hash" title=${text(file.sha256) ?? ''}
                            >${file.sha256 === null ? DASH : file.sha256.slice(0, 12)}</code
                          >
                        </td>
                        <td>${show(file.status)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            ${moreRows(ui, 'files', files.length)}`
        : nothing
    }
    ${
      repos.length > 0
        ? html`<div class="scroll">
              <table part="repo-table" class="repos">
                <caption>
                  Nested repository exports
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Repo</th>
                    <th scope="col">Exported</th>
                    <th scope="col">Verdict</th>
                    <th scope="col" class="num">Files</th>
                  </tr>
                </thead>
                <tbody>
                  ${visibleRows(ui, 'repos', repos).map(
                    (repo) =>
                      html`<tr>
                        <td><code>${visibleText(repo.id)}</code></td>
                        <td>${repo.ok === null ? DASH : repo.ok ? 'yes' : 'no (repo failed at export time)'}</td>
                        <td>${show(repo.overall)}</td>
                        <td class="num">${show(repo.file_count)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            ${moreRows(ui, 'repos', repos.length)}`
        : nothing
    }
  </section>`;
}

/** Files that failed come first (stable otherwise), so a mismatch is never hidden below the fold. */
function problemsFirst(files: readonly FileRow[]): FileRow[] {
  const bad = (file: FileRow) => file.status === 'mismatch' || file.status === 'invalid';
  return [...files.filter(bad), ...files.filter((file) => !bad(file))];
}
