/**
 * The diff's `summary` (docs/agentxchain-diff.md §5): outcome, risk, up to three highlights, and the
 * number of changed entries. The reference summarises only diffs whose compared fields changed,
 * so regressions alone read as `unchanged` (docs/agentxchain-diff.md §6, departure 2); corrected
 * mode reports them.
 * @module
 */
import { countChanged } from './compare.ts';
import type { CoordinatorExportDiff, DiffSummary, FieldChange, ListChange, RunExportDiff } from './types.ts';
import { interpolate, type DiffContext } from './values.ts';

/** The groups of entries of a diff (without its summary) whose changes are counted. */
type Summarised = Omit<RunExportDiff, 'summary'> | Omit<CoordinatorExportDiff, 'summary'>;

const MAX_HIGHLIGHTS = 3;

/** Builds the summary of `diff`. */
export function diffSummary(context: DiffContext, diff: Summarised): DiffSummary {
  const regressions = diff.regressions;
  const reportsRegressions = regressions.length > 0 && (diff.changed || context.mode === 'corrected');
  if (!diff.changed && !reportsRegressions) {
    return { outcome: 'unchanged', risk_level: 'none', highlights: [], changed_field_count: 0 };
  }
  const changedFieldCount = countChanged(
    diff.scalar_changes,
    diff.numeric_changes,
    diff.list_changes,
    ...(diff.subject_kind === 'coordinator'
      ? [diff.repo_status_changes, diff.repo_export_changes, diff.event_type_changes]
      : []),
  );
  if (reportsRegressions) {
    return {
      outcome: 'regressed',
      risk_level: regressions.some((regression) => regression.severity === 'error') ? 'high' : 'medium',
      highlights: regressions.slice(0, MAX_HIGHLIGHTS).map((regression) => `${regression.id}: ${regression.message}`),
      changed_field_count: changedFieldCount,
    };
  }
  return {
    outcome: 'changed',
    risk_level: 'low',
    highlights: changeHighlights(context, diff),
    changed_field_count: changedFieldCount,
  };
}

/** The first changed scalars, then counters (`<label>: <left> -> <right>`), then lists (added, else removed). */
function changeHighlights(context: DiffContext, diff: Summarised): string[] {
  const highlights: string[] = [];
  const value = (side: unknown, where: string): string => {
    if (side === null || side === undefined) return '—';
    // The reference interpolates (`[object Object]`); corrected mode shows an object as JSON, as the text does.
    if (context.mode === 'corrected' && typeof side === 'object') return JSON.stringify(side);
    return interpolate(context, side, where);
  };
  const fields: FieldChange[] = [...Object.values(diff.scalar_changes), ...Object.values(diff.numeric_changes)];
  for (const entry of fields) {
    if (!entry.changed) continue;
    if (highlights.length >= MAX_HIGHLIGHTS) return highlights;
    highlights.push(
      `${entry.label}: ${value(entry.left, `summary highlight ${entry.label}`)} -> ${value(entry.right, `summary highlight ${entry.label}`)}`,
    );
  }
  for (const entry of Object.values(diff.list_changes) as ListChange[]) {
    if (!entry.changed) continue;
    if (highlights.length >= MAX_HIGHLIGHTS) return highlights;
    if (entry.added.length > 0) highlights.push(`${entry.label} added: ${entry.added.join(', ')}`);
    else if (entry.removed.length > 0) highlights.push(`${entry.label} removed: ${entry.removed.join(', ')}`);
  }
  return highlights;
}
