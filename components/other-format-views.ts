/**
 * The details of a Zaxy or NDJSON stream report, loaded by `format-views.ts` (`loadFormatView`)
 * for such a report only: the Zaxy signer facts, its entries with the disclosure panel that ticks
 * them, a subset's disclosed entries with their proof drawing; a stream's counts. Artifact strings
 * go through `text` (clipped) or `visibleText`. It imports nothing from `format-views.ts` (its
 * table paging comes through `ui`), so that module stays in the report view's own chunk.
 * @module
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { ZaxySignerDetails, ZaxySubsetDetails } from '../src/formats/zaxy/details.ts';
import { DASH, show, text, zaxyEntries, type ZaxyEntry } from './details.ts';
import { matchingPositions, type EntryFilter } from './disclosure.ts';
import type { ViewUi } from './format-views.ts';
import { proofPath } from './proof-path.ts';
import { visibleText } from './visible-text.ts';
import { formatBytes } from './format.ts';
import type { Report, ReportOf } from '../src/report.ts';

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

/**
 * The styles of these views (the disclosure panel, the proof drawing) on top of the element's own
 * (`verify-export.styles.ts`, whose custom properties they use): the element adopts them with
 * this module.
 */
export const styles = css`
  input[type='text'],
  input[type='number'],
  select {
    border: 1px solid var(--_border);
    background: var(--_bg);
    border-radius: 6px;
    padding: 0.2em 0.4em;
  }
  input[type='number'] {
    width: 6em;
  }
  tr[aria-current='true'] {
    background: color-mix(in srgb, var(--_accent) 10%, transparent);
  }
  .records {
    max-width: 28em;
    border: 1px solid var(--_border);
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.5em 0.8em;
  }
  .disclosure {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.6em 1em 0.8em;
    margin: 1em 0;
  }
  .disclosure legend {
    font-weight: 600;
    padding: 0 0.3em;
  }
  .disclosure .hint {
    margin: 0 0 0.6em;
    color: var(--_muted);
    font-size: 0.9em;
  }
  .filters label {
    display: flex;
    flex-direction: column;
    font-size: 0.85em;
    color: var(--_muted);
  }
  .proof-figure {
    margin: 0.8em 0;
  }
  .proof {
    width: 100%;
    max-width: 380px;
    height: auto;
    display: block;
  }
  .proof .edge {
    stroke: var(--_muted);
    stroke-width: 1.5;
  }
  .proof .sibling-edge {
    stroke-dasharray: 4 3;
  }
  .proof .node {
    fill: var(--_accent);
  }
  .proof .sibling {
    fill: var(--_surface);
    stroke: var(--_border);
  }
  .proof .leaf {
    fill: var(--_accent);
  }
  .proof .root {
    fill: var(--_muted);
  }
  .proof .root[data-included='true'] {
    fill: var(--_pass);
  }
  .proof .root[data-included='false'] {
    fill: var(--_fail);
  }
  td[data-included='false'] {
    color: var(--_fail);
    font-weight: 600;
  }
  .proof text {
    fill: var(--_fg);
    font: 11px var(--_mono);
  }
  .proof .leaf + .label,
  .proof .root + .label {
    fill: #fff;
    font-weight: 600;
  }
  .proof .side,
  .proof .note {
    fill: var(--_muted);
  }
  figcaption {
    color: var(--_muted);
    font-size: 0.85em;
    max-width: 380px;
  }
`;

/**
 * The details of a Zaxy report.
 * @example
 * html`${renderZaxy(report, ui)}`
 */
export function renderZaxy(report: ReportOf<'zaxy'>, ui: ViewUi): TemplateResult {
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
  return html`${tickable ? renderDisclosurePanel(entries, ui) : nothing}
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
          ${ui.rows('entries', entries).map(
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
                <td><code>${visibleText(entry.kind)}</code></td>
                <td>${show(entry.grain)}</td>
                <td class="num">${show(entry.seqText)}</td>
                <td>${show(entry.validFrom)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${ui.more('entries', entries.length)}
    ${truncated ? html`<p class="more">The report lists the first ${entries.length} of ${show(entryCount)} entries; only those can be ticked.</p>` : nothing}`;
}

function renderDisclosurePanel(entries: readonly ZaxyEntry[], ui: ViewUi): TemplateResult {
  const entryCount = entries.length;
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
      <button type="button" @click=${() => ui.tick(matchingPositions(entries, ui.filter))}>Tick matching</button>
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
          ${ui.rows('disclosed', disclosed).map(
            (entry, k) =>
              html`<tr aria-current=${k === row ? 'true' : 'false'}>
                <td class="num">${show(text(entry.index, 40))}</td>
                <td><code>${visibleText(entry.kind)}</code></td>
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
    ${ui.more('disclosed', disclosed.length)}
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

/**
 * The details of an agent-history or codex-exec report.
 * @example
 * html`${renderStream(report, ui)}`
 */
export function renderStream(report: ReportOf<'agent-history' | 'codex-exec'>, ui: ViewUi): TemplateResult {
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
                ${ui.rows('records', recordsByType).map(
                  ([type, count]) =>
                    html`<tr>
                      <td><code>${visibleText(type)}</code></td>
                      <td class="num">${count}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${ui.more('records', recordsByType.length)}`
        : nothing
    }
  </section>`;
}
