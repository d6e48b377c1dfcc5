/**
 * The Compare view: what changed between two AgentXchain exports, as `agentxchain diff --export`
 * computes it (spec `agentxchain-report.md` §8). Regressions come first, whatever the diff's own
 * summary says: the reference's summary reads "unchanged" when a gate regressed but no compared
 * field changed (spec §10), and a person must not miss that.
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { visibleText } from '../visible-text.ts';
import type { Comparison, ExportDiff, FieldChange, Regression } from './types.ts';

/** Severity order: errors before warnings before anything else; stable within one severity. */
const SEVERITY_RANK: Readonly<Record<string, number>> = { error: 0, warning: 1 };

/**
 * The regressions, errors first (the diff's own order within one severity).
 * @example
 * regressionsFirst(diff).map((regression) => regression.id);
 */
export function regressionsFirst(diff: ExportDiff): Regression[] {
  return diff.regressions
    .map((regression, index) => ({ regression, index }))
    .sort(
      (a, b) =>
        (SEVERITY_RANK[a.regression.severity] ?? 2) - (SEVERITY_RANK[b.regression.severity] ?? 2) || a.index - b.index,
    )
    .map(({ regression }) => regression);
}

/** A diff value in words (spec §8.7 `V(x)`: `—` for none, yes/no for booleans, JSON for objects). */
function valueWords(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The comparison: a refusal's message, or the diff with regressions first.
 * @example
 * html`${renderComparison(comparison)}`
 */
export function renderComparison(comparison: Comparison): TemplateResult {
  if (!comparison.ok)
    return html`<p class="refusal" part="compare-refusal" role="alert">
      Cannot compare: ${visibleText(comparison.message, { missing: 'unknown reason' })}
    </p>`;
  const diff = comparison.diff;
  const regressions = regressionsFirst(diff);
  const changes = changedFields(diff);
  return html`<div class="compare" part="compare">
    <dl class="facts">
      <div>
        <dt>Left</dt>
        <dd><code>${visibleText(diff.left_ref)}</code> ${sideWords(diff, 'left')}</dd>
      </div>
      <div>
        <dt>Right</dt>
        <dd><code>${visibleText(diff.right_ref)}</code> ${sideWords(diff, 'right')}</dd>
      </div>
      <div>
        <dt>Outcome</dt>
        <dd>
          ${visibleText(diff.summary.outcome)} (risk ${visibleText(diff.summary.risk_level)}),
          ${diff.summary.changed_field_count} changed field(s)
        </dd>
      </div>
    </dl>
    <section class="run-section" aria-labelledby="compare-regressions" data-section="regressions">
      <h3 id="compare-regressions">Regressions (${regressions.length})</h3>
      ${
        regressions.length === 0
          ? html`<p>No governance regression between these exports.</p>`
          : html`${
                !diff.changed
                  ? html`<p class="note">
                      No compared field changed, so the reference's summary says "unchanged"; these regressions were
                      found all the same.
                    </p>`
                  : nothing
              }
              <ul class="regressions" part="regressions">
                ${regressions.map(
                  (regression) =>
                    html`<li class="regression" data-severity=${regression.severity}>
                      <span class="severity">${visibleText(regression.severity)}</span>
                      <code>${visibleText(regression.id)}</code> ${visibleText(regression.message)}
                      <div class="sub">
                        <code>${visibleText(regression.field)}</code>: ${visibleText(valueWords(regression.left))} →
                        ${visibleText(valueWords(regression.right))}
                      </div>
                    </li>`,
                )}
              </ul>`
      }
    </section>
    <section class="run-section" aria-labelledby="compare-changes" data-section="changes">
      <h3 id="compare-changes">Changes (${changes.length})</h3>
      ${
        changes.length === 0
          ? html`<p>No compared field changed.</p>`
          : html`<div class="scroll">
              <table class="changes" part="change-table">
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Left</th>
                    <th scope="col">Right</th>
                    <th scope="col">Change</th>
                  </tr>
                </thead>
                <tbody>
                  ${changes.map(
                    (change) =>
                      html`<tr>
                        <th scope="row">
                          ${visibleText(change.label)}${change.key === undefined ? nothing : html` <code>${visibleText(change.key)}</code>`}
                        </th>
                        <td>${visibleText(valueWords(change.left))}</td>
                        <td>${visibleText(valueWords(change.right))}</td>
                        <td>${changeWords(change)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
    </section>
  </div>`;
}

function sideWords(diff: ExportDiff, side: 'left' | 'right'): TemplateResult {
  const facts = diff[side];
  return html`(${diff.subject_kind === 'coordinator' ? 'coordinator export' : 'run export'},
    ${visibleText(facts['status'], { missing: '—' })},
    <code>${visibleText(facts['run_id'] ?? facts['super_run_id'], { missing: 'unknown run' })}</code>)`;
}

/** Every changed entry of the diff, in the order the text output lists them (spec §8.7). */
function changedFields(diff: ExportDiff): FieldChange[] {
  return [
    ...Object.values(diff.scalar_changes),
    ...Object.values(diff.numeric_changes),
    ...Object.values(diff.list_changes),
    ...(diff.repo_status_changes ?? []),
    ...(diff.repo_export_changes ?? []),
    ...(diff.event_type_changes ?? []),
  ].filter((change) => change.changed);
}

function changeWords(change: FieldChange): TemplateResult | string {
  if (typeof change.delta === 'number' && change.delta !== 0)
    return change.delta > 0 ? `+${change.delta}` : String(change.delta);
  if (change.added !== undefined || change.removed !== undefined) {
    const added = change.added ?? [];
    const removed = change.removed ?? [];
    return html`${added.length > 0 ? html`added ${visibleText(added.join(', '))}` : nothing}${
      added.length > 0 && removed.length > 0 ? '; ' : ''
    }${removed.length > 0 ? html`removed ${visibleText(removed.join(', '))}` : nothing}${
      added.length === 0 && removed.length === 0 ? 'reordered' : ''
    }`;
  }
  return 'changed';
}
