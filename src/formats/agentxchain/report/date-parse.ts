/**
 * Time values read from the artifact the way the reference reads them: `new Date(v).getTime()` and
 * `Date.parse(v)`, with the engine's own (V8-lenient) parser. V8 reads a date-only string as UTC, a
 * string without a zone as local time, and `"0"` as 2000-01-01 local time; other engines agree on
 * ISO-8601 strings (docs/agentxchain-report.md "JavaScript semantics").
 * @module
 */
import type { ParsedValue } from './values.ts';

/** `new Date(v).getTime()`; NaN where the reference would throw (an object whose `toString` is not callable). */
export function dateTime(value: ParsedValue): number {
  try {
    return new Date(value as string | number).getTime();
  } catch {
    return Number.NaN;
  }
}

/** `Date.parse(v)` (the argument converted with `String(v)`); NaN where that conversion would throw. */
export function parseDate(value: ParsedValue): number {
  try {
    return Date.parse(value as string);
  } catch {
    return Number.NaN;
  }
}

/** A timestamp counted by the recent-event window: a non-blank string whose `new Date(t).getTime()` is not NaN. */
export function isValidTimestamp(value: ParsedValue): value is string {
  return typeof value === 'string' && value.trim() !== '' && !Number.isNaN(new Date(value).getTime());
}

/** A timestamp of the coordinator timing: a non-empty string whose `Date.parse` is finite (no trimming). */
export function isParsableTimestamp(value: ParsedValue): value is string {
  return typeof value === 'string' && value.length > 0 && Number.isFinite(Date.parse(value));
}

/** `Math.round((end - start) / 1000)` when both are finite and `end >= start`, else `null`. */
export function durationSeconds(start: number, end: number): number | null {
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return null;
  return Math.round((end - start) / 1000);
}
