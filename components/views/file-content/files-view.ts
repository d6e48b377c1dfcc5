/**
 * The Files view of an AgentXchain export (docs/agentxchain.md §4): the file table, and a file's
 * verified content when a row is opened: text, a JSON tree, or JSONL rows (the inspector's view
 * models, `src/inspect/agentxchain-files.ts`, paged from the worker through `fetchPage`, decoded
 * from the bytes that were verified). Each file is badged "bytes match SHA-256", or "not verified"
 * for `content_base64: null`. Search is the kit's own, with exact counts; findings open their file.
 * Everything from the artifact is drawn as text (`visible-text.ts`).
 * @module
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type {
  AgentxchainFileContent,
  AgentxchainFileItem,
  AgentxchainRow,
  JsonTreeNode,
} from '../../../src/inspect/agentxchain-files.ts';
import { visibleText } from '../../visible-text.ts';
import { downloadBlob, locate, FULL_LIST_MAX, listWindow, PagedItems, type ListWindow } from '../common/paged-items.ts';
import { viewStyles } from '../common/view-styles.ts';
import { styleProps } from '../common/style-props.ts';
import { ContentView } from '../common/content-view.ts';
import { focusRow } from '../common/list-scroll.ts';
import { failedBar, listKeyTarget, notViewableNote, spacer } from '../common/list-parts.ts';
import { stepMark } from '../common/search-bar.ts';
import { pathFindings } from '../common/view-finding.ts';

const DEFAULT_NOTE = 'File bytes hashed.';
const MAX_DRAWN = 200_000;
/** JSON tree levels drawn open at first. */
const OPEN_LEVELS = 2;
/** Deepest tree level drawn (deeper levels are in the download). */
const MAX_TREE_DEPTH = 64;
const EMPTY_WINDOW: ListWindow = { start: 0, end: 0, before: 0, after: 0 };

/**
 * The Files view. Set `fetchPage` (the worker's `inspect` for this export) and `verifiedNote`;
 * `failed` draws the red bar; `findings` are listed and open their file.
 */
export class VerifyExportFiles extends ContentView {
  static override styles = [
    viewStyles,
    css`
      table {
        border-collapse: collapse;
        width: 100%;
        font-size: 0.92em;
      }
      th,
      td {
        text-align: start;
        padding: 0.2em 0.5em;
        border-bottom: 1px solid var(--v-border);
        vertical-align: top;
      }
      th {
        background: var(--v-surface);
        position: sticky;
        top: 0;
      }
      tr.open td {
        background: var(--v-surface);
      }
      tr.hit td:first-child {
        box-shadow: inset 3px 0 0 var(--v-accent);
      }
      td.num {
        text-align: end;
        font-variant-numeric: tabular-nums;
      }
      .content {
        margin-top: 0.8em;
      }
      .content h3 {
        margin: 0.2em 0;
        font-size: 1em;
        overflow-wrap: anywhere;
      }
      ul.tree,
      ul.tree ul {
        list-style: none;
        margin: 0;
        padding-left: 1.1em;
      }
      ul.tree {
        padding-left: 0;
        font-family: var(--v-mono);
        font-size: 0.88em;
      }
      .key {
        color: var(--v-accent);
      }
      .t-string {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .t-number,
      .t-boolean,
      .t-null {
        color: var(--v-warn);
      }
      .row-card {
        content-visibility: auto;
        contain-intrinsic-size: auto 3em;
        border-bottom: 1px solid var(--v-border);
        padding: 0.3em 0;
      }
      .row-card.hit {
        box-shadow: inset 3px 0 0 var(--v-accent);
        padding-left: 0.4em;
      }
      .row-card:focus {
        outline: 2px solid var(--v-accent);
      }
    `,
  ];

  static override properties = {
    _open: { state: true },
    _fileSearch: { state: true },
    _contentSearch: { state: true },
    _rowWindow: { state: true },
    _fileWindow: { state: true },
    _rowFocus: { state: true },
  };

  declare private _open: AgentxchainFileContent | undefined;
  declare private _fileSearch: string;
  declare private _contentSearch: string;
  declare private _rowWindow: ListWindow;
  declare private _fileWindow: ListWindow;
  declare private _rowFocus: number;

  private _files: PagedItems<AgentxchainFileItem> | undefined;
  private _rows: PagedItems<AgentxchainRow> | undefined;
  private _rowMarks: readonly number[] = [];
  private _markAt = -1;
  private _timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super('the files');
    this._open = undefined;
    this._fileSearch = '';
    this._contentSearch = '';
    this._rowWindow = EMPTY_WINDOW;
    this._fileWindow = EMPTY_WINDOW;
    this._rowFocus = 0;
  }

  protected override _load(): Promise<void> {
    this._open = undefined;
    return this._loadFiles();
  }

  /** Opens the file a finding's path points into (`$.files["a.json"].sha256`); false when none. */
  async revealPath(path: string): Promise<boolean> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return false;
    await this.ready;
    const position = await locate(fetchPage, { view: 'locate', path });
    if (position < 0) return false;
    await this.openFile(position);
    return true;
  }

  /** Opens the file at `position` of the table. */
  async openFile(position: number): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const search = this._contentSearch.trim();
    const page = await fetchPage({
      from: 0,
      count: 1,
      filter: { view: 'content', file: String(position) },
      ...(search === '' ? {} : { search }),
    });
    const content = page.items[0] as AgentxchainFileContent | undefined;
    this._open = content;
    this._rows = undefined;
    this._rowMarks = [];
    this._markAt = -1;
    this._rowFocus = 0;
    if (content?.display === 'jsonl') await this._loadRows(position, search);
    this._status = this._contentStatus(content, search);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('.content h3')?.focus();
  }

  private async _loadFiles(): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const search = this._fileSearch.trim();
    const files = new PagedItems<AgentxchainFileItem>(fetchPage, search === '' ? {} : { search });
    this._files = files;
    await files.ensure(0, 1);
    const window = listWindow(files.total, 0, 800, 32);
    await files.ensure(window.start, window.end);
    if (this._files !== files) return;
    this._fileWindow = window;
    this._status =
      search === ''
        ? `${files.total} file${files.total === 1 ? '' : 's'}`
        : `${files.matches} of ${files.total} files match “${search}”`;
    this._version++;
  }

  private async _loadRows(position: number, search: string): Promise<void> {
    const fetchPage = this.fetchPage;
    if (fetchPage === undefined) return;
    const filter = { view: 'rows', file: String(position) };
    const rows = new PagedItems<AgentxchainRow>(fetchPage, search === '' ? { filter } : { filter, search });
    this._rows = rows;
    await rows.ensure(0, 1);
    const window = listWindow(rows.total, 0, 800, 60);
    await rows.ensure(window.start, window.end);
    if (search !== '') {
      const marks = await fetchPage({ from: 0, count: 1, filter: { ...filter, view: 'row-marks' }, search });
      this._rowMarks = (marks.items[0] as { matches: number[] } | undefined)?.matches ?? [];
    }
    this._rowWindow = window;
  }

  private _contentStatus(content: AgentxchainFileContent | undefined, search: string): string {
    if (content === undefined || search === '') return '';
    if (content.display === 'jsonl')
      return `${this._rows?.matches ?? 0} of ${this._rows?.total ?? 0} rows match “${search}”`;
    return `${content.occurrences} occurrence${content.occurrences === 1 ? '' : 's'} of “${search}”`;
  }

  private _onFileSearch(event: Event): void {
    this._fileSearch = (event.target as HTMLInputElement).value;
    clearTimeout(this._timer);
    this._timer = setTimeout(() => (this.ready = this._settle(this._loadFiles())), 250);
  }

  private async _onContentSearch(event: KeyboardEvent | Event): Promise<void> {
    if (event instanceof KeyboardEvent && event.key !== 'Enter') return;
    this._contentSearch = (event.target as HTMLInputElement).value;
    const open = this._open;
    if (open === undefined) return;
    const same = this._rows !== undefined && this._rowMarks.length > 0 && event instanceof KeyboardEvent;
    if (!same) {
      this.ready = this._settle(this.openFile(open.file.position));
      await this.ready;
    }
    if (event instanceof KeyboardEvent) await this._stepRow(event.shiftKey ? -1 : 1);
  }

  private async _stepRow(direction: 1 | -1): Promise<void> {
    const marks = this._rowMarks;
    if (marks.length === 0) return;
    this._markAt = stepMark(this._markAt, direction, marks.length);
    this._status = `Row match ${this._markAt + 1} of ${marks.length}`;
    await this._jumpToRow(marks[this._markAt]!);
  }

  private async _jumpToRow(index: number): Promise<void> {
    const rows = this._rows;
    if (rows === undefined || index < 0 || index >= rows.total) return;
    const scroller = this.renderRoot.querySelector<HTMLElement>('.rows');
    const top = index * 60;
    if (rows.total > FULL_LIST_MAX && scroller !== null) scroller.scrollTop = top;
    const window = listWindow(rows.total, top, scroller?.clientHeight ?? 800, 60);
    await rows.ensure(window.start, window.end);
    this._rowWindow = window;
    this._rowFocus = index;
    await this.updateComplete;
    focusRow(this.renderRoot, `.row-card[data-index="${index}"]`);
  }

  private _onRowsScroll(event: Event): void {
    const rows = this._rows;
    if (rows === undefined || rows.total <= FULL_LIST_MAX) return;
    const scroller = event.currentTarget as HTMLElement;
    const window = listWindow(rows.total, scroller.scrollTop, scroller.clientHeight, 60);
    void rows.ensure(window.start, window.end).then(() => {
      if (this._rows === rows) this._rowWindow = window;
    });
  }

  private _onFilesScroll(event: Event): void {
    const files = this._files;
    if (files === undefined || files.total <= FULL_LIST_MAX) return;
    const scroller = event.currentTarget as HTMLElement;
    const window = listWindow(files.total, scroller.scrollTop, scroller.clientHeight, 32);
    void files.ensure(window.start, window.end).then(() => {
      if (this._files === files) this._fileWindow = window;
    });
  }

  private _onRowsKey(event: KeyboardEvent): void {
    const target = listKeyTarget(event.key, this._rowFocus, this._rows?.total ?? 0, { page: 10, letters: false });
    if (target === undefined) return;
    event.preventDefault();
    void this._jumpToRow(target);
  }

  private _onTableKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...this.renderRoot.querySelectorAll<HTMLButtonElement>('tbody button.link')];
    const at = buttons.indexOf(this.renderRoot.querySelector<HTMLButtonElement>('tbody button.link:focus')!);
    const next = buttons[at + (event.key === 'ArrowDown' ? 1 : -1)];
    if (next === undefined) return;
    event.preventDefault();
    next.focus();
  }

  private async _download(): Promise<void> {
    const fetchPage = this.fetchPage;
    const open = this._open;
    if (fetchPage === undefined || open === undefined) return;
    const page = await fetchPage({ from: 0, count: 1, filter: { view: 'download', file: String(open.file.position) } });
    const item = page.items[0] as { name: string; bytes: Uint8Array } | undefined;
    if (item !== undefined) downloadBlob(new Blob([item.bytes as BlobPart]), item.name);
  }

  protected override render(): TemplateResult {
    return html`
      ${failedBar(this.failed, 'these files are')}
      <p class="note"><strong>${this.verifiedNote || DEFAULT_NOTE}</strong> The format carries no signature.</p>
      ${pathFindings(
        this.findings.filter((finding) => /^\$\.(?:repos\.|repos\[|files)/.test(finding.path)),
        { title: 'Findings about files', pathMax: 300, reveal: (path) => void this.revealPath(path) },
      )}
      <div class="toolbar" role="search">
        <label
          >Find a file
          <input type="search" aria-describedby="files-status" .value=${this._fileSearch} @input=${this._onFileSearch}
        /></label>
        <span id="files-status" class="count" role="status" aria-live="polite">${this._status}</span>
      </div>
      ${this._renderTable()} ${this._open === undefined ? nothing : this._renderContent(this._open)}
    `;
  }

  private _renderTable(): TemplateResult | typeof nothing {
    const files = this._files;
    if (files === undefined) return html`<p class="status">Loading files…</p>`;
    const { start, end, before, after } = this._fileWindow;
    const rows: TemplateResult[] = [];
    for (let index = start; index < end; index++) {
      const file = files.get(index);
      if (file !== undefined) rows.push(this._renderFileRow(file));
    }
    return html`${notViewableNote(files.notViewable)}
      <div class="scroller" @scroll=${this._onFilesScroll}>
        <table aria-label="Files of the export" @keydown=${this._onTableKey}>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Format</th>
              <th scope="col">Bytes</th>
              <th scope="col">Content</th>
            </tr>
          </thead>
          <tbody>
            ${
              before > 0
                ? html`<tr aria-hidden="true">
                    <td colspan="4" ${styleProps({ height: `${before}px` })}></td>
                  </tr>`
                : nothing
            }
            ${rows}
            ${
              after > 0
                ? html`<tr aria-hidden="true">
                    <td colspan="4" ${styleProps({ height: `${after}px` })}></td>
                  </tr>`
                : nothing
            }
          </tbody>
        </table>
      </div>`;
  }

  private _renderFileRow(file: AgentxchainFileItem): TemplateResult {
    const open = this._open?.file.position === file.position;
    const bad = this.findings.some((finding) => finding.path.startsWith(file.path));
    return html`<tr class="${open ? 'open' : ''} ${file.hit ? 'hit' : ''}" data-position=${file.position}>
      <td>
        ${
          file.repos.length > 0
            ? html`<span class="status">${file.repos.map((repo) => html`${visibleText(repo, { max: 200 })} / `)}</span>`
            : nothing
        }
        <button class="link" aria-pressed=${open ? 'true' : 'false'} @click=${() => void this.openFile(file.position)}>
          ${visibleText(file.name, { max: 500 })}
        </button>
        ${bad ? html` <span class="badge mismatch">finding</span>` : nothing}
      </td>
      <td>${visibleText(file.format, { max: 50 })}</td>
      <td class="num">${visibleText(file.bytes, { max: 50 })}</td>
      <td><span class="badge ${file.status}">${file.statusText}</span></td>
    </tr>`;
  }

  private _renderContent(content: AgentxchainFileContent): TemplateResult {
    const file = content.file;
    const clipped = content.fullLength > content.text.length && content.display === 'text';
    return html`<section class="content" aria-label="Content of the file">
      <h3 tabindex="-1">
        ${visibleText(file.name, { max: 500 })} <span class="badge ${file.status}">${file.statusText}</span>
      </h3>
      <p class="status">
        ${
          file.status === 'not-verified'
            ? html`No <code>content_base64</code>: the entry's <code>data</code> is shown, and nothing checks it against
                a hash${file.truncated ? ' (the exporter truncated this file)' : ''}.`
            : html`Decoded from the verified <code>content_base64</code>: ${visibleText(file.bytes, { max: 50 })} bytes,
                SHA-256 <code>${visibleText(file.sha256, { max: 80 })}</code>.`
        }
      </p>
      <div class="toolbar">
        <label
          >Search in the file
          <input
            type="search"
            .value=${this._contentSearch}
            @change=${this._onContentSearch}
            @keydown=${this._onContentSearch}
        /></label>
        ${
          content.display === 'jsonl'
            ? html`<button type="button" aria-label="Previous matching row" @click=${() => void this._stepRow(-1)}>
                  ↑
                </button>
                <button type="button" aria-label="Next matching row" @click=${() => void this._stepRow(1)}>↓</button>`
            : nothing
        }
        <button type="button" @click=${() => void this._download()}>Download full file</button>
      </div>
      ${
        content.error === ''
          ? nothing
          : html`<p class="status" role="note">Not valid JSON: ${visibleText(content.error, { max: 500 })}</p>`
      }
      ${
        content.display === 'text'
          ? html`<div class="scroller">
              <pre>${visibleText(content.text, { max: MAX_DRAWN, multiline: true })}</pre>
            </div>`
          : nothing
      }
      ${
        clipped
          ? html`<p class="more">
              Showing the first ${content.text.length} of ${content.fullLength} characters: download the full file.
            </p>`
          : nothing
      }
      ${
        content.display === 'json' && content.tree !== undefined
          ? html`<div class="scroller">
                <ul class="tree" role="tree" aria-label="JSON content">
                  ${this._renderNode(content.tree, 0)}
                </ul>
              </div>
              ${content.partial ? html`<p class="more">Part of the tree is left out: download the full file.</p>` : nothing}`
          : nothing
      }
      ${content.display === 'jsonl' ? this._renderRows() : nothing}
      ${content.display === 'none' ? html`<p class="status">This entry has no content to show.</p>` : nothing}
    </section>`;
  }

  private _renderNode(node: JsonTreeNode, depth: number): TemplateResult {
    const key = node.key === '' ? nothing : html`<span class="key">${visibleText(node.key, { max: 500 })}</span>: `;
    if (node.type !== 'object' && node.type !== 'array') {
      const shown = node.type === 'string' ? JSON.stringify(node.value) : node.value;
      return html`<li role="treeitem">
        ${key}<span class="t-${node.type}">${visibleText(shown, { max: MAX_DRAWN, multiline: true })}</span
        >${node.clipped ? html`<span class="status"> (clipped)</span>` : nothing}
      </li>`;
    }
    const brackets = node.type === 'object' ? ['{', '}'] : ['[', ']'];
    if (node.size === 0) return html`<li role="treeitem">${key}${brackets[0]}${brackets[1]}</li>`;
    if (depth >= MAX_TREE_DEPTH) return html`<li role="treeitem">${key}${brackets[0]}…${brackets[1]}</li>`;
    return html`<li role="treeitem" aria-expanded="true">
      <details ?open=${depth < OPEN_LEVELS}>
        <summary>
          ${key}${brackets[0]} <span class="status">${node.size} ${node.type === 'object' ? 'keys' : 'items'}</span>
        </summary>
        <ul role="group">
          ${node.children.map((child) => this._renderNode(child, depth + 1))}
          ${node.more > 0 ? html`<li class="status">… ${node.more} more (download the full file)</li>` : nothing}
        </ul>
        ${brackets[1]}
      </details>
    </li>`;
  }

  private _renderRows(): TemplateResult {
    const rows = this._rows;
    if (rows === undefined) return html`<p class="status">Loading rows…</p>`;
    const { start, end, before, after } = this._rowWindow;
    const drawn: TemplateResult[] = [];
    for (let index = start; index < end; index++) {
      const row = rows.get(index);
      if (row !== undefined) drawn.push(this._renderRow(row, index));
    }
    return html`<p class="status">${rows.total} row${rows.total === 1 ? '' : 's'}</p>
      <div
        class="scroller rows"
        role="list"
        aria-label="JSONL rows"
        tabindex="0"
        @scroll=${this._onRowsScroll}
        @keydown=${this._onRowsKey}
      >
        ${spacer(before)} ${drawn} ${spacer(after)}
      </div>`;
  }

  private _renderRow(row: AgentxchainRow, index: number): TemplateResult {
    return html`<div
      class="row-card ${row.hit ? 'hit' : ''}"
      role="listitem"
      data-index=${index}
      tabindex=${index === this._rowFocus ? '0' : '-1'}
      aria-label=${`row ${row.row}`}
    >
      <span class="status">row ${row.row}</span>
      ${
        row.tree !== undefined
          ? html`<ul class="tree" role="tree">
              ${this._renderNode(row.tree, 1)}
            </ul>`
          : html`<p class="status">Not valid JSON: ${visibleText(row.error, { max: 300 })}</p>
              <pre>${visibleText(row.text, { max: MAX_DRAWN, multiline: true })}</pre>`
      }
    </div>`;
  }
}
