/**
 * How a `Report` is shown: the verdict sentence, the four dimensions, findings grouped by path,
 * then the format's own facts. Pure template functions over the report, loaded by the element
 * only once a verification starts (the shell stays small). Every artifact-derived string goes
 * through a Lit text binding, never `unsafeHTML`, so a file path like `<img onerror=…>` stays text, and
 * through `visibleText`, so bidi controls in it are shown, not obeyed (`x\u202Eexe.txt` is not "txt.exe").
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { DimensionVerdict, Verdicts } from '../src/report/types.ts';
import { formatBytes } from './format.ts';
import { moreRows, renderFormatDetails, visibleRows, type ViewState, type ViewUi } from './format-views.ts';
export { loadFormatView } from './format-views.ts';
import { visibleString, visibleText } from './visible-text.ts';
import type { Finding, Report } from '../src/report.ts';

/** What the report view needs from its element: its view state (tables, disclosure) and three actions. */
export interface ReportHost {
  readonly view: ViewState;
  updateView(patch: Partial<ViewState>): void;
  /** Builds and offers the subset of the given entry positions. */
  disclose(indices: readonly number[]): void;
  /** Verifies the subset just made, in the same element. */
  verifySubset(): void;
}

/**
 * The whole report below the verdict line.
 * @example
 * html`${renderReport(report, host)}`
 */
export function renderReport(report: Report, host: ReportHost): TemplateResult {
  const state = host.view;
  const ui: ViewUi = {
    ...state,
    available: report.format === 'zaxy' && report.overall === 'pass' && report.kind !== 'zaxy.subset',
    toggle(position: number, on: boolean) {
      const selected = new Set(host.view.selected);
      if (on) selected.add(position);
      else selected.delete(position);
      host.updateView({ selected });
    },
    setFilter: (filter: ViewState['filter']) => host.updateView({ filter }),
    tick: (positions) => host.updateView({ selected: new Set([...host.view.selected, ...positions]) }),
    clearSelection: () => host.updateView({ selected: new Set() }),
    disclose: () => host.disclose([...host.view.selected].sort((a, b) => a - b)),
    verifySubset: () => host.verifySubset(),
    showProof: (row: number) => host.updateView({ proofRow: row }),
    expand: (table: string) => host.updateView({ expanded: new Set([...host.view.expanded, table]) }),
    rows: (table, rows) => visibleRows(ui, table, rows),
    more: (table, total, what) => moreRows(ui, table, total, what),
  };
  return html`<p part="meta" class="meta">
      <code>${visibleText(report.input)}</code> ·
      ${report.format ?? 'unknown format'}${report.kind ? ` (${visibleString(report.kind, 100)})` : ''} ·
      ${formatBytes(report.stats.bytes_read)} · ${Math.round(report.stats.duration_ms)} ms
    </p>
    ${renderDimensions(report)} ${renderNotChecked(report)} ${renderFindings(report, ui)}
    ${renderFormatDetails(report, ui)}`;
}

/**
 * What the artifact is, in words, for the verdict sentence.
 * @example
 * artifactLabel({ format: 'zaxy', kind: 'zaxy.subset' } as Report); // 'Zaxy disclosed subset'
 */
export function artifactLabel(report: Pick<Report, 'format' | 'kind'>): string {
  switch (report.format) {
    case 'agentxchain':
      return report.kind === 'agentxchain_coordinator_export' ? 'AgentXchain coordinator export' : 'AgentXchain export';
    case 'zaxy':
      return report.kind === 'zaxy.subset'
        ? 'Zaxy disclosed subset'
        : report.kind === 'zaxy.portable.v1'
          ? 'signed Zaxy bundle'
          : 'Zaxy bundle';
    case 'agent-history':
      return 'agent-history NDJSON export';
    case 'codex-exec':
      return 'codex-exec JSONL stream';
    default:
      return 'file';
  }
}

function errorCount(report: Report): number {
  return report.findings.filter((finding) => finding.severity === 'error').length;
}

/**
 * The one-sentence verdict, in words (the colour only repeats it). Announced through `aria-live`.
 * @example
 * verdictSentence(report); // 'Fail: 2 problems found in this AgentXchain export.'
 */
export function verdictSentence(report: Report): string {
  const label = artifactLabel(report);
  switch (report.overall) {
    case 'pass': {
      const unsigned = report.verdicts.authenticity !== 'pass' ? ' (no signature checked: integrity only)' : '';
      return `Pass: this ${label} is intact${unsigned}.`;
    }
    case 'fail': {
      const n = errorCount(report);
      return `Fail: ${n} problem${n === 1 ? '' : 's'} found in this ${label}.`;
    }
    case 'error': {
      const first = report.findings.find((finding) => finding.severity === 'error');
      return `Error: could not verify this ${label}${first ? `: ${visibleString(first.message, 300) ?? ''}` : '.'}`;
    }
  }
}

const DIMENSION_WORDS: Record<keyof Verdicts, Record<DimensionVerdict, string>> = {
  structure: { pass: 'well-formed', fail: 'malformed', 'not-checked': 'not checked' },
  integrity: {
    pass: 'hashes and counts match',
    fail: 'content does not match its hashes or counts',
    'not-checked': 'not checked',
  },
  authenticity: { pass: 'signature valid', fail: 'signature invalid', 'not-checked': 'no signature checked' },
  trust: {
    pass: 'signer matches the pinned key',
    fail: 'signer is not the pinned key',
    'not-checked': 'no key pinned',
  },
};

const VERDICT_MARK: Record<DimensionVerdict, string> = { pass: '✓', fail: '✗', 'not-checked': '–' };
const VERDICT_WORD: Record<DimensionVerdict, string> = { pass: 'pass', fail: 'fail', 'not-checked': 'not checked' };

/** The four dimensions as a description list, each verdict in words plus a mark. */
export function renderDimensions(report: Report): TemplateResult {
  const names = ['structure', 'integrity', 'authenticity', 'trust'] as const;
  return html`<dl part="dimensions" class="dimensions">
    ${names.map((name) => {
      const verdict = report.verdicts[name];
      return html`<div class="dimension" data-verdict=${verdict}>
        <dt>${name}</dt>
        <dd>
          <span class="mark" aria-hidden="true">${VERDICT_MARK[verdict]}</span>
          <strong>${VERDICT_WORD[verdict]}</strong>: ${DIMENSION_WORDS[name][verdict]}
        </dd>
      </div>`;
    })}
  </dl>`;
}

/**
 * Groups findings by path, keeping the order in which each path was first reported.
 * @example
 * groupByPath([{ path: '$.a', … }, { path: '$.b', … }, { path: '$.a', … }]); // [['$.a', [2]], ['$.b', [1]]]
 */
export function groupByPath(findings: readonly Finding[]): [string, Finding[]][] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const group = groups.get(finding.path);
    if (group === undefined) groups.set(finding.path, [finding]);
    else group.push(finding);
  }
  return [...groups];
}

/** Findings grouped by path, each with severity (in words), code and message. */
export function renderFindings(report: Report, ui: ViewUi): TemplateResult | typeof nothing {
  if (report.findings.length === 0) return nothing;
  const groups = groupByPath(report.findings);
  return html`<section part="findings" class="findings" aria-label="Findings">
    <h3>Findings (${report.findings.length})</h3>
    <ul class="groups">
      ${visibleRows(ui, 'findings', groups).map(
        ([path, findings]) =>
          html`<li class="group">
            <code class="path">${visibleText(path)}</code>
            <ul>
              ${findings.map(
                (finding) =>
                  html`<li class="finding" data-severity=${finding.severity}>
                    <span class="severity">${finding.severity}</span>
                    <code class="code">${finding.code}</code>
                    <span class="message">${visibleText(finding.message)}</span>
                    ${
                      finding.expected !== undefined || finding.actual !== undefined
                        ? html`<div class="evidence">
                            ${finding.expected !== undefined ? html`<span>expected <code>${visibleText(finding.expected, { max: 200 })}</code></span>` : nothing}
                            ${finding.actual !== undefined ? html`<span>found <code>${visibleText(finding.actual, { max: 200 })}</code></span>` : nothing}
                          </div>`
                        : nothing
                    }
                  </li>`,
              )}
            </ul>
          </li>`,
      )}
    </ul>
    ${moreRows(ui, 'findings', groups.length, 'paths')}
  </section>`;
}

/** A short note of what this report did not check, so nothing unchecked reads as passed. */
export function renderNotChecked(report: Report): TemplateResult | typeof nothing {
  const notes: string[] = [];
  if (report.verdicts.authenticity === 'not-checked') {
    notes.push(
      report.format === 'zaxy' || report.format === null
        ? 'No signature was verified.'
        : 'This format carries no signature: someone who edits the file and recomputes its hashes and counts would not be detected.',
    );
  }
  if (report.verdicts.trust === 'not-checked' && report.verdicts.authenticity === 'pass') {
    notes.push(
      'No public key was pinned: the signature is valid, but it proves only that whoever holds this key signed it.',
    );
  }
  if (notes.length === 0) return nothing;
  return html`<ul part="not-checked" class="not-checked">
    ${notes.map((note) => html`<li>${note}</li>`)}
  </ul>`;
}
