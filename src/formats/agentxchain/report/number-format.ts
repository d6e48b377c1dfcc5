/**
 * Number formatting of the report's renderers (docs/agentxchain-report.md "JavaScript semantics"):
 * the native `Number.prototype.toFixed` (exact binary value, rounded half up: 0.125 → "0.13",
 * 1.005 → "1.00") and `toLocaleString('en-US')` (thousands grouped, at most three fraction digits).
 * @module
 */
import type { ParsedValue } from './values.ts';

/** `formatUsd`: `$` + `x.toFixed(2)` when `x` is a number, else `n/a`. */
export function formatUsd(value: ParsedValue): string {
  return typeof value === 'number' ? `$${value.toFixed(2)}` : 'n/a';
}

let enUs: Intl.NumberFormat | undefined;

/** A token count: `x.toLocaleString('en-US')` when `x` is a finite number, else `n/a`. */
export function formatTokens(value: ParsedValue): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'n/a';
  enUs ??= new Intl.NumberFormat('en-US');
  return enUs.format(value);
}

/**
 * A compact duration: `<ms>ms` under a second, `<s>s` under a minute, `<m>m <s>s` under an hour,
 * else `<h>h <m>m` (each part floored); `null` unless `ms` is a finite number ≥ 0.
 */
export function compactDuration(ms: ParsedValue): string | null {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1000) return `${ms}ms`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** A ratio as a whole percentage: `(r * 100).toFixed(0)`. */
export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(0)}%`;
}
