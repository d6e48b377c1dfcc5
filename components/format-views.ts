/**
 * Per-format detail views: the AgentXchain file table and nested repos, the Zaxy signer, entries,
 * disclosed entries with their proof drawing and the disclosure panel, and NDJSON counts. They
 * read each format's typed `report.details`; artifact strings go through `text` (clipped), and a
 * field that is missing or `null` shows as "–".
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { FileRow } from '../src/formats/agentxchain/details.ts';
import type { ZaxySignerDetails, ZaxySubsetDetails } from '../src/formats/zaxy/details.ts';
import { text, zaxyEntries, type ZaxyEntry } from './details.ts';
import type { EntryFilter } from './disclosure.ts';
import { proofPath } from './proof-path.ts';
import { formatBytes } from './format.ts';
import type { Report, ReportOf } from '../src/report.ts';

/** Rows drawn per table at first: a 500-row table costs ~100 ms of layout on a slow machine. */
export const INITIAL_ROWS = 100;
/** Rows drawn once a person asks for all; the rest are counted, not drawn (bundles may hold 100,000 entries). */
export const MAX_ROWS = 2000;

const DASH = '–';

function show(value: string | number | null | undefined): string {
  return value === undefined || value === null || value === '' ? DASH : String(value);
}

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
  tickMatching(): void;
  clearSelection(): void;
  disclose(): void;
  verifySubset(): void;
  showProof(row: number): void;
  expand(table: string): void;
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
      return renderZaxy(report, ui);
    case 'agent-history':
    case 'codex-exec':
      return renderStream(report, ui);
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
                        <td><code>${text(file.path)}</code></td>
                        <td>${show(text(file.format))}</td>
                        <td class="num">${file.bytes === null ? DASH : file.bytes.toLocaleString('en')}</td>
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
                        <td><code>${text(repo.id)}</code></td>
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

function pinnedWords(report: Report): string {
  switch (report.verdicts.trust) {
    case 'pass':
      return 'yes: matches the pinned key';
    case 'fail':
      return 'no: does not match the pinned key';
    default:
      return 'not pinned: anyone holding a key could have signed this';
  }
}

/** The signer facts, for the shapes that have a signer. */
function signerOf(report: ReportOf<'zaxy'>): ZaxySignerDetails | undefined {
  return report.kind === 'zaxy.portable.v1' || report.kind === 'zaxy.subset' ? report.details : undefined;
}

function renderZaxy(report: ReportOf<'zaxy'>, ui: ViewUi): TemplateResult {
  const details = report.details;
  const signer = signerOf(report);
  const subset = report.kind === 'zaxy.subset' ? report.details : undefined;
  const entries = zaxyEntries(details);
  const entryCount = 'entry_count' in details ? details.entry_count : undefined;
  const publicKey = text(signer?.public_key);
  const fingerprint = text(signer?.fingerprint) ?? (publicKey === undefined ? undefined : `${publicKey.slice(0, 16)}…`);
  const merkleRoot = text(signer?.merkle_root);
  return html`<section part="details" class="details" aria-label="Bundle contents">
    <dl part="signer" class="facts signer">
      <div>
        <dt>Algorithm</dt>
        <dd>${show(text(signer?.algorithm))}</dd>
      </div>
      <div>
        <dt>Key fingerprint</dt>
        <dd><code title=${publicKey ?? ''}>${show(fingerprint)}</code></dd>
      </div>
      <div>
        <dt>Pinned</dt>
        <dd>${pinnedWords(report)}</dd>
      </div>
      <div>
        <dt>Session</dt>
        <dd>${show(text('session_id' in details ? details.session_id : undefined))}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>${show(text(signer?.created_at))}</dd>
      </div>
      <div>
        <dt>Merkle root</dt>
        <dd>
          <code title=${merkleRoot ?? ''}>${merkleRoot === undefined ? DASH : `${merkleRoot.slice(0, 16)}…`}</code>
        </dd>
      </div>
      <div>
        <dt>${subset === undefined ? 'Entries' : 'Disclosed'}</dt>
        <dd>${show(subset === undefined ? entryCount : subset.disclosed_count)}</dd>
      </div>
    </dl>
    ${
      subset === undefined
        ? renderEntries(entries, entryCount, 'entries_truncated' in details && details.entries_truncated, ui)
        : renderDisclosed(subset, ui)
    }
  </section>`;
}

function renderEntries(
  entries: readonly ZaxyEntry[],
  entryCount: number | undefined,
  truncated: boolean,
  ui: ViewUi,
): TemplateResult | typeof nothing {
  if (entries.length === 0) return nothing;
  const tickable = ui.available;
  return html`${tickable ? renderDisclosurePanel(entries.length, ui) : nothing}
    <div class="scroll">
      <table part="entry-table" class="entries">
        <caption>
          Entries
        </caption>
        <thead>
          <tr>
            ${tickable ? html`<th scope="col"><span class="visually-hidden">Disclose</span></th>` : nothing}
            <th scope="col" class="num">#</th>
            <th scope="col">Kind</th>
            <th scope="col">Grain</th>
            <th scope="col" class="num">Seq</th>
            <th scope="col">Valid from</th>
          </tr>
        </thead>
        <tbody>
          ${visibleRows(ui, 'entries', entries).map(
            (entry) =>
              html`<tr>
                ${
                  tickable
                    ? html`<td>
                        <input
                          type="checkbox"
                          aria-label="Disclose entry ${entry.position}"
                          .checked=${ui.selected.has(entry.position)}
                          @change=${(event: Event) => ui.toggle(entry.position, (event.target as HTMLInputElement).checked)}
                        />
                      </td>`
                    : nothing
                }
                <td class="num">${entry.position}</td>
                <td><code>${show(entry.kind)}</code></td>
                <td>${show(entry.grain)}</td>
                <td class="num">${show(entry.seqText)}</td>
                <td>${show(entry.validFrom)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${moreRows(ui, 'entries', entries.length)}
    ${truncated ? html`<p class="more">The report lists the first ${entries.length} of ${show(entryCount)} entries; only those can be ticked.</p>` : nothing}`;
}

function renderDisclosurePanel(entryCount: number, ui: ViewUi): TemplateResult {
  const set = (patch: Partial<EntryFilter>) => ui.setFilter({ ...ui.filter, ...patch });
  const value = (event: Event) => (event.target as HTMLInputElement | HTMLSelectElement).value;
  return html`<fieldset part="disclosure" class="disclosure">
    <legend>Disclose a subset</legend>
    <p class="hint">
      Tick entries (or tick all that match a filter), then download a subset that proves just those entries against this
      bundle's signed root.
    </p>
    <div class="filters">
      <label
        >Kinds
        <input
          type="text"
          placeholder="goal.created, entity:goal"
          .value=${ui.filter.kinds}
          @input=${(e: Event) => set({ kinds: value(e) })}
      /></label>
      <label
        >Grain
        <select .value=${ui.filter.grain} @change=${(e: Event) => set({ grain: value(e) as EntryFilter['grain'] })}>
          <option value="">any</option>
          <option value="event">event</option>
          <option value="semantic">semantic</option>
        </select>
      </label>
      <label
        >Seq from
        <input
          type="number"
          inputmode="numeric"
          .value=${ui.filter.seqMin}
          @input=${(e: Event) => set({ seqMin: value(e) })}
      /></label>
      <label
        >Seq to
        <input
          type="number"
          inputmode="numeric"
          .value=${ui.filter.seqMax}
          @input=${(e: Event) => set({ seqMax: value(e) })}
      /></label>
      <button type="button" @click=${ui.tickMatching}>Tick matching</button>
      <button type="button" @click=${ui.clearSelection}>Clear</button>
    </div>
    <div class="actions">
      <button part="disclose-button" type="button" class="primary" ?disabled=${ui.busy} @click=${ui.disclose}>
        Download subset (${ui.selected.size} of ${entryCount} entr${entryCount === 1 ? 'y' : 'ies'})
      </button>
      ${
        ui.download
          ? html`<a part="download-link" href=${ui.download.url} download=${ui.download.name}>${ui.download.name}</a>
              <button type="button" @click=${ui.verifySubset}>Verify this subset</button>`
          : nothing
      }
      <span class="disclosure-status" role="status">${ui.busy ? 'Building subset…' : (ui.message ?? '')}</span>
    </div>
  </fieldset>`;
}

function renderDisclosed(subset: ZaxySubsetDetails, ui: ViewUi): TemplateResult {
  const disclosed = subset.disclosed;
  if (disclosed.length === 0)
    return html`<p class="more">This subset discloses no entries: only its signature was checked.</p>`;
  const row = Math.min(ui.proofRow, disclosed.length - 1);
  const chosen = disclosed[row]!;
  const reaches = (included: boolean | null): string => (included === null ? DASH : included ? '✓ yes' : '✗ no');
  return html`<div class="disclosed-layout">
    <div class="scroll">
      <table part="entry-table" class="entries">
        <caption>
          Disclosed entries
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num">Index</th>
            <th scope="col">Kind</th>
            <th scope="col">Grain</th>
            <th scope="col" class="num">Seq</th>
            <th scope="col" class="num">Proof depth</th>
            <th scope="col">Reaches root</th>
            <th scope="col"><span class="visually-hidden">Proof</span></th>
          </tr>
        </thead>
        <tbody>
          ${visibleRows(ui, 'disclosed', disclosed).map(
            (entry, k) =>
              html`<tr aria-current=${k === row ? 'true' : 'false'}>
                <td class="num">${show(text(entry.index, 40))}</td>
                <td><code>${show(text(entry.kind))}</code></td>
                <td>${show(text(entry.grain))}</td>
                <td class="num">${show(text(entry.seq, 40))}</td>
                <td class="num">${show(entry.proof_depth)}</td>
                <td data-included=${entry.included === null ? '' : String(entry.included)}>
                  ${reaches(entry.included)}
                </td>
                <td>
                  <button
                    type="button"
                    class="link"
                    aria-pressed=${k === row ? 'true' : 'false'}
                    @click=${() => ui.showProof(k)}
                  >
                    Show proof
                  </button>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${moreRows(ui, 'disclosed', disclosed.length)}
    ${subset.disclosed_truncated ? html`<p class="more">The report describes the first ${disclosed.length} of ${show(subset.disclosed_count)} disclosed entries.</p>` : nothing}
    <figure class="proof-figure">
      ${proofPath({ index: text(chosen.index, 40), proof: chosen.proof, root: text(subset.merkle_root), included: chosen.included ?? undefined })}
      <figcaption>
        Proof path of disclosed entry ${show(text(chosen.index, 40))}: each step hashes the running node with the
        sibling on the side shown, up to the signed root.
      </figcaption>
    </figure>
  </div>`;
}

function renderStream(report: ReportOf<'agent-history' | 'codex-exec'>, ui: ViewUi): TemplateResult {
  const details = report.details;
  const history = report.format === 'agent-history' ? report.details : undefined;
  const exec = report.format === 'codex-exec' ? report.details : undefined;
  const recordsByType = Object.entries(details.records_by_type);
  return html`<section part="details" class="details" aria-label="Stream contents">
    <dl class="facts">
      <div>
        <dt>Schema</dt>
        <dd>${show(details.schema ?? report.kind)}</dd>
      </div>
      <div>
        <dt>Lines</dt>
        <dd>${show(details.line_count)}</dd>
      </div>
      ${
        history
          ? html`<div>
              <dt>Sessions</dt>
              <dd>${history.session_count}</dd>
            </div>`
          : nothing
      }
      ${
        history
          ? html`<div>
              <dt>Messages</dt>
              <dd>${history.message_count}</dd>
            </div>`
          : nothing
      }
      ${
        exec
          ? html`<div>
              <dt>Attempts</dt>
              <dd>${exec.attempts}</dd>
            </div>`
          : nothing
      }
      ${
        exec
          ? html`<div>
              <dt>Output chunks</dt>
              <dd>${exec.chunk_count}</dd>
            </div>`
          : nothing
      }
      <div>
        <dt>Compressed</dt>
        <dd>${details.compressed ? 'yes (gzip)' : 'no'}</dd>
      </div>
      <div>
        <dt>Bytes read</dt>
        <dd>${formatBytes(details.bytes_in)}</dd>
      </div>
      ${
        details.compressed
          ? html`<div>
              <dt>Decompressed</dt>
              <dd>${formatBytes(details.bytes_out)}</dd>
            </div>`
          : nothing
      }
    </dl>
    ${
      recordsByType.length > 0
        ? html`<table part="record-table" class="records">
              <caption>
                Records by type
              </caption>
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  <th scope="col" class="num">Count</th>
                </tr>
              </thead>
              <tbody>
                ${visibleRows(ui, 'records', recordsByType).map(
                  ([type, count]) =>
                    html`<tr>
                      <td><code>${type}</code></td>
                      <td class="num">${count}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${moreRows(ui, 'records', recordsByType.length)}`
        : nothing
    }
  </section>`;
}
