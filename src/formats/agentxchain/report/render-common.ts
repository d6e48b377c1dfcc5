/**
 * What the text and markdown renderers share (docs/agentxchain-report.md §6, §7): the reference's
 * small formatters (blocked state, recent-event line, timeout labels…) and a template tag that
 * prints every value as a template literal would (`String(v)`), without ever throwing.
 * @module
 */
import { compareEn } from './collation.ts';
import { compactDuration, formatPercent } from './number-format.ts';
import { text } from './values.ts';

/**
 * A node of the report as the renderers read it: built by the report, but holding values passed
 * through from the export, of any JSON shape. Reads are optional-chained and every printed value
 * goes through `text`, so no shape can make a renderer throw.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: report nodes are read as JSON values
export type Node = any;

/** A template literal whose values are printed with `text` (`String(v)`, never throwing). */
export function t(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += text(values[i]) + strings[i + 1]!;
  return out;
}

/** The reference's bound on report sections. */
export const MAX_SECTION_ITEMS = 500;

/** The first MAX_SECTION_ITEMS items and how many were left out. */
export function bounded<T>(items: readonly T[]): { items: readonly T[]; omitted: number } {
  return items.length <= MAX_SECTION_ITEMS
    ? { items, omitted: 0 }
    : { items: items.slice(0, MAX_SECTION_ITEMS), omitted: items.length - MAX_SECTION_ITEMS };
}

/** `list.join(separator)` with each item printed by `text`. */
export function joined(list: unknown, separator = ', '): string {
  return Array.isArray(list) ? list.map(text).join(separator) : text(list);
}

/** `|` escaped for a markdown table cell. */
export function escapePipes(value: unknown): string {
  return text(value).replace(/\|/g, '\\|');
}

/** A non-empty array, as the renderers test sections. */
export function hasItems(value: Node): value is Node[] {
  return Array.isArray(value) && value.length > 0;
}

/** `yes` / `no`. */
export function yesNo(value: unknown): string {
  return value ? 'yes' : 'no';
}

/** A blocked-on value in one word: the string, a typed reason or reason of an object, `present`, or `none`. */
export function summarizeBlockedOn(blockedOn: Node): string {
  if (!blockedOn) return 'none';
  if (typeof blockedOn === 'string') return blockedOn;
  if (typeof blockedOn !== 'object' || Array.isArray(blockedOn)) return 'present';
  if (typeof blockedOn.typed_reason === 'string' && blockedOn.typed_reason.length > 0) return blockedOn.typed_reason;
  if (typeof blockedOn.reason === 'string' && blockedOn.reason.length > 0) return blockedOn.reason;
  return 'present';
}

/** The run's blocked state: the recovery's typed reason, else the category, else the blocked-on summary. */
export function summarizeBlockedState(run: Node): string {
  const reason = run?.blocked_reason;
  if (reason && typeof reason === 'object' && !Array.isArray(reason)) {
    const typed = reason.recovery?.typed_reason;
    if (typeof typed === 'string' && typed.length > 0) return typed;
    if (typeof reason.category === 'string' && reason.category.length > 0) return reason.category;
  }
  return summarizeBlockedOn(run?.blocked_on);
}

/** The "Recent events" value. */
export function recentEventLine(summary: Node): string {
  if (!summary || typeof summary !== 'object') return 'unknown';
  const counted = t`${summary.recent_count || 0} in last ${summary.window_minutes || 15}m`;
  switch (summary.freshness) {
    case 'recent':
      return `recent (${counted})`;
    case 'quiet':
      return `quiet (${counted})`;
    case 'unknown':
      return 'unknown timing';
    default:
      return 'none recorded';
  }
}

/** The "Latest event" value. */
export function latestEventLine(summary: Node): string {
  const latest = summary?.latest_event;
  if (!latest) return 'No event recorded';
  return t`${latest.summary || latest.event_type || 'unknown_event'} at ${latest.timestamp || 'unknown'}`;
}

/** A turn's time cell: accepted at, plus its compact duration. */
export function turnTime(turn: Node): string {
  const accepted = text(turn.accepted_at || 'n/a');
  const duration = compactDuration(turn.duration_ms);
  return duration ? `${accepted} (${duration})` : accepted;
}

/** `name(n)` pairs in `localeCompare(…, 'en')` order, joined with `, ` (empty for none). */
export function countPairs(counts: Node): string {
  const entries = Object.entries((counts || {}) as Record<string, unknown>).sort(([a], [b]) => compareEn(a, b));
  return entries.map(([name, n]) => t`${name}(${n})`).join(', ');
}

/** The repo status counts, or `none`. */
export function statusCounts(counts: Node): string {
  return countPairs(counts) || 'none';
}

/** The request a gate failure or approval was about: `run completion` or `<from> <arrow> <to>`. */
export function requestLabel(gateType: unknown, from: unknown, to: unknown, arrow: string): string {
  return gateType === 'run_completion' ? 'run completion' : t`${from || '?'} ${arrow} ${to || '?'}`;
}

/** An approval rule as printed: objects as JSON. */
export function ruleText(rule: Node): string {
  if (typeof rule !== 'object' || rule === null) return text(rule);
  try {
    return JSON.stringify(rule);
  } catch {
    return text(rule);
  }
}

/** The label of a timeout event type. */
export function timeoutLabel(type: unknown, capitalised: boolean): string {
  const label =
    type === 'timeout_warning'
      ? 'warning'
      : type === 'timeout_skip'
        ? 'skip'
        : type === 'timeout_skip_failed'
          ? 'skip failed'
          : 'escalation';
  return capitalised ? label.replace(/\b[a-z]/g, (c) => c.toUpperCase()) : label;
}

/** Elapsed/limit minutes of a timeout event: `<n>m` or `?`. */
export function minutes(value: unknown): string {
  return value != null ? t`${value}m` : '?';
}

/** `recovered, exhausted, manual, pending` counts. */
export function outcomeCounts(counts: Node): string {
  return t`${counts.recovered} recovered, ${counts.exhausted} exhausted, ${counts.manual} manual, ${counts.pending} pending`;
}

/** A recovery domain capitalised. */
export function domainLabel(domain: string): string {
  return domain.charAt(0).toUpperCase() + domain.slice(1);
}

/** `(ratio * 100).toFixed(0)%`. */
export function overlap(ratio: unknown): string {
  return formatPercent(Number(ratio));
}

/** The repo-decision authority summary: `<level> (<role>[, …])`, or null without a numeric level. */
function repoDecisionAuthority(level: unknown, role: unknown, source: unknown): string | null {
  if (typeof level !== 'number') return null;
  const who = role || 'unknown';
  if (source === 'human_default') return t`${level} (${who}, human default)`;
  if (source === 'unknown_role') return t`${level} (${who}, role missing from config)`;
  return t`${level} (${who})`;
}

/** The three summary lines of the repo decisions. */
export function repoDecisionSummaryLines(decisions: Node): string[] {
  if (!decisions) return [];
  const summary = decisions.operator_summary || {};
  const categories = hasItems(summary.active_categories) ? joined(summary.active_categories) : 'none active';
  const authority =
    repoDecisionAuthority(
      summary.highest_active_authority_level,
      summary.highest_active_authority_role,
      summary.highest_active_authority_source,
    ) || '—';
  const superseding = summary.superseding_active_count || 0;
  const overridden = summary.overridden_with_successor_count || 0;
  return [
    `Categories: ${categories}`,
    `Highest authority: ${authority}`,
    t`Lineage: ${superseding} active superseding earlier decision${superseding === 1 ? '' : 's'} | ${overridden} overridden with recorded successor${overridden === 1 ? '' : 's'}`,
  ];
}

/** A repo decision's authority: `<level>[ (human default)]`, empty without a level. */
export function decisionAuthority(decision: Node): string | null {
  if (decision.authority_level == null) return null;
  return t`${decision.authority_level}${decision.authority_source === 'human_default' ? ' (human default)' : ''}`;
}

/** `s` unless n is 1. */
export function plural(n: unknown): string {
  return n !== 1 ? 's' : '';
}
