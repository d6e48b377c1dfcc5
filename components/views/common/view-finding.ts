/**
 * The findings a content view lists, and the two shapes of that list: findings on NDJSON lines
 * (Transcript, Replay: `line 17`) and findings on document paths (Entries, Files:
 * `$.entries[3].id`). Each finding's path is a button that reveals what it points at.
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { visibleText } from '../../visible-text.ts';

/** A finding as a view lists it (the report's `Finding`, or any object with these fields). */
export interface ViewFinding {
  readonly path: string;
  readonly message: string;
  readonly severity?: string;
  readonly code?: string;
}

/** The NDJSON line a finding's path names (`line 17`, or `line 17 $.payload.data` inside it), or -1. */
export function findingLine(path: string): number {
  const match = /^line (\d{1,9})(?:$| )/u.exec(path);
  return match === null ? -1 : Number(match[1]);
}

/** Lists at most this many findings. */
const MAX_LISTED = 200;

/**
 * The findings on lines, collapsed, each path a button calling `reveal`.
 * @example
 * html`${lineFindings(this.findings, (path) => void this.revealPath(path))}`;
 */
export function lineFindings(
  all: readonly ViewFinding[],
  reveal: (path: string) => void,
): TemplateResult | typeof nothing {
  const findings = all.filter((finding) => findingLine(finding.path) >= 0);
  if (findings.length === 0) return nothing;
  return html`<details>
    <summary>Findings on lines (${findings.length})</summary>
    <ul class="findings">
      ${findings
        .slice(0, MAX_LISTED)
        .map(
          (finding) =>
            html`<li class=${finding.severity === 'error' ? 'error' : ''}>
              <button class="link" type="button" @click=${() => reveal(finding.path)}>
                ${visibleText(finding.path, { max: 40 })}</button
              >: ${visibleText(finding.message, { max: 500 })}
            </li>`,
        )}
    </ul>
  </details>`;
}

/** How a view lists the findings on document paths. */
export interface PathFindingsOptions {
  /** The summary's words before the count (`Findings about entries`). */
  readonly title: string;
  /** Characters of a path drawn. */
  readonly pathMax: number;
  readonly reveal: (path: string) => void;
}

/**
 * The findings on document paths (already filtered by the view), open, each path a button.
 * @example
 * pathFindings(findings, { title: 'Findings about files', pathMax: 300, reveal });
 */
export function pathFindings(
  findings: readonly ViewFinding[],
  { title, pathMax, reveal }: PathFindingsOptions,
): TemplateResult | typeof nothing {
  if (findings.length === 0) return nothing;
  return html`<details open>
    <summary>${title} (${findings.length})</summary>
    <ul class="findings">
      ${findings.slice(0, MAX_LISTED).map(
        (finding) =>
          html`<li class=${finding.severity === 'error' ? 'error' : ''}>
            <button class="link" @click=${() => reveal(finding.path)}>
              <code>${visibleText(finding.path, { max: pathMax })}</code></button
            >: ${visibleText(finding.message, { max: 500 })}
          </li>`,
      )}
    </ul>
  </details>`;
}
