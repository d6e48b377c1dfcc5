/**
 * The text `agentxchain diff --export` prints without `--json` (docs/agentxchain-diff.md §7), byte
 * for byte, with no colour (the reference's chalk prints none off a terminal). Every value may come
 * from the artifact: the result is plain text, to be shown as text.
 * @module
 */
import { describeValue } from '../js-semantics.ts';
import { inheritedMember } from './values.ts';
import type { AgentxchainExportDiff, DiffRegression, ListChange, MapChange } from './types.ts';

/**
 * The text of a diff, ending with a newline. A reference-mode diff gives the reference's text; a
 * corrected-mode diff whose only news is regressions lists them after
 * `No differences in the compared fields.` instead of hiding them behind `No differences.`.
 * @example
 * const result = await diffAgentxchain(before, after, { leftName: 'before.json', rightName: 'after.json' });
 * const text = result.ok ? agentxchainDiffText(result.diff) : result.refusal.message;
 */
export function agentxchainDiffText(diff: AgentxchainExportDiff): string {
  const lines = [
    'Export Diff',
    `Left:  ${header(diff.left_ref, diff.left)}`,
    `Right: ${header(diff.right_ref, diff.right)}`,
    '',
    'Comparison Summary',
    `- Outcome: ${diff.summary.outcome}`,
    `- Risk: ${diff.summary.risk_level}`,
  ];
  if (diff.summary.highlights.length > 0) {
    lines.push('- Highlights:', ...diff.summary.highlights.map((highlight) => `  - ${highlight}`));
  }
  lines.push('');
  if (!diff.changed) {
    if (diff.summary.outcome !== 'regressed') return `${[...lines, 'No differences.'].join('\n')}\n`;
    lines.push('No differences in the compared fields.');
    regressionSection(lines, diff.regressions);
    return `${lines.join('\n')}\n`;
  }
  const changes = <T extends { changed: boolean }>(entries: Readonly<Record<string, T>> | readonly T[]): T[] =>
    Object.values(entries).filter((entry) => entry.changed);
  section(
    lines,
    'Changed fields',
    changes(diff.scalar_changes).map((entry) => `${entry.label}: ${shown(entry.left)} -> ${shown(entry.right)}`),
  );
  section(
    lines,
    'Numeric deltas',
    changes(diff.numeric_changes).map(
      (entry) => `${entry.label}: ${shown(entry.left)} -> ${shown(entry.right)}${delta(entry.delta)}`,
    ),
  );
  section(lines, 'List changes', changes<ListChange>(diff.list_changes).flatMap(listLines));
  if (diff.subject_kind === 'coordinator') {
    section(
      lines,
      'Repo status changes',
      changes(diff.repo_status_changes).map((entry) => mapLine(entry)),
    );
    section(
      lines,
      'Repo export changes',
      changes(diff.repo_export_changes).map((entry) => mapLine(entry)),
    );
    section(
      lines,
      'Event type deltas',
      changes(diff.event_type_changes).map(
        (entry) => `${entry.key}: ${shown(entry.left)} -> ${shown(entry.right)}${delta(entry.delta)}`,
      ),
    );
  }
  regressionSection(lines, diff.regressions);
  return `${lines.join('\n')}\n`;
}

/** `<ref> (<run export|coordinator export>, <status or —>, <run id, super run id or "unknown run">)`. */
function header(ref: string | null, side: AgentxchainExportDiff['left']): string {
  const kind = side.export_kind === 'agentxchain_coordinator_export' ? 'coordinator export' : 'run export';
  const identity =
    ('run_id' in side ? side.run_id : undefined) || ('super_run_id' in side ? side.super_run_id : undefined);
  return `${interpolated(ref)} (${kind}, ${interpolated(side.status || '—')}, ${interpolated(identity || 'unknown run')})`;
}

/** A blank line, the heading and `- <item>` lines; nothing when there are no items. */
function section(lines: string[], heading: string, items: readonly string[]): void {
  if (items.length === 0) return;
  lines.push('', heading, ...items.map((item) => `- ${item}`));
}

function listLines(entry: ListChange): string[] {
  const items: string[] = [];
  if (entry.added.length > 0) items.push(`${entry.label} added: ${entry.added.join(', ')}`);
  if (entry.removed.length > 0) items.push(`${entry.label} removed: ${entry.removed.join(', ')}`);
  return items;
}

/** A blank line, `Governance Regressions:` and `[<severity>] <id>: <message>` lines; nothing without regressions. */
function regressionSection(lines: string[], regressions: readonly DiffRegression[]): void {
  if (regressions.length === 0) return;
  lines.push('', 'Governance Regressions:');
  for (const regression of regressions) lines.push(`[${regression.severity}] ${regression.id}: ${regression.message}`);
}

/**
 * `<key>: <left> -> <right>`. A side that is `undefined` read an inherited function in the reference
 * (`inheritedMember`), which the reference prints as its source text.
 */
function mapLine(entry: MapChange): string {
  const side = (value: unknown): string =>
    value === undefined ? (inheritedMember(entry.key)?.text ?? '—') : shown(value);
  return `${entry.key}: ${side(entry.left)} -> ${side(entry.right)}`;
}

/** A value as the text shows it: `—` for none, `yes`/`no`, objects as JSON, else `String(value)`. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string);
}

/** ` (+d)` or ` (d)`; nothing for no delta or 0. */
function delta(value: number | null): string {
  if (value === null || value === 0) return '';
  return ` (${value > 0 ? '+' : ''}${value})`;
}

/**
 * Template interpolation that cannot throw: a value JavaScript cannot print (an object with its own
 * `toString` key) is described instead. Reference-mode diffs never hold one here (the reference
 * crashes on them, and so the diff is refused).
 */
function interpolated(value: unknown): string {
  try {
    return `${value as string}`;
  } catch {
    return describeValue(value);
  }
}
