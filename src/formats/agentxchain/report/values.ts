/**
 * The reads the governance report makes of an export, named after the JavaScript expression each
 * stands for (docs/agentxchain-report.md; the contract's notation: `F(p)`, `x || null`, `trim(x)`).
 * Values are what `JSON.parse` produced: anything, read with optional chaining.
 * @module
 */
import { isJsonObject, prop, type ParsedObject, type ParsedValue } from '../js-semantics.ts';

export { isJsonObject, prop, type ParsedObject, type ParsedValue };

/** `x || null`. */
export function orNull(value: ParsedValue): ParsedValue {
  return value || null;
}

/** `v?.[k] || null`. */
export function field(value: ParsedValue, key: string): ParsedValue {
  return prop(value, key) || null;
}

/** `A.files?.[p]` truthy → its `data ?? null`, else `null` ("file data"). */
export function fileData(artifact: ParsedValue, relPath: string): ParsedValue {
  const entry = prop(prop(artifact, 'files'), relPath);
  return entry ? (prop(entry, 'data') ?? null) : null;
}

/** The file data when it is a non-empty array, else `[]`. */
export function fileEntries(artifact: ParsedValue, relPath: string): readonly ParsedValue[] {
  const data = fileData(artifact, relPath);
  return Array.isArray(data) && data.length > 0 ? data : [];
}

/** The trimmed string when `value` is a string that is not blank, else `null`. */
export function trimmed(value: ParsedValue): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** `typeof v === 'string' && v.length > 0` (no trimming). */
export function isNonEmptyString(value: ParsedValue): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** `typeof v === 'string' && v.trim() !== ''`. */
export function isNonBlankString(value: ParsedValue): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** `Array.isArray(v) && v.length > 0`. */
export function isNonEmptyArray(value: ParsedValue): value is ParsedValue[] {
  return Array.isArray(value) && value.length > 0;
}

/** `Array.isArray(v) ? v : []`. */
export function arrayOr(value: ParsedValue): readonly ParsedValue[] {
  return Array.isArray(value) ? value : [];
}

/** `Number.isInteger(v) ? v : null`. */
export function integerOrNull(value: ParsedValue): number | null {
  return Number.isInteger(value) ? (value as number) : null;
}

/** `typeof v === 'number' ? v : null`. */
export function numberOrNull(value: ParsedValue): number | null {
  return typeof value === 'number' ? value : null;
}

/** `Number.isFinite(v)`, as a type guard. */
export function isFiniteNumber(value: ParsedValue): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A truthy value that is `typeof "object"` (arrays included). */
export function isObjectLike(value: ParsedValue): value is ParsedObject {
  return typeof value === 'object' && value !== null;
}

/** `Object.keys(v)` for an object-like value, else `[]` (what `Object.keys` gives a primitive's wrapper). */
export function keysOf(value: ParsedValue): string[] {
  return value === null || value === undefined ? [] : Object.keys(value);
}

/**
 * `String(v)`, the text a template literal gives a JSON value. An object with its own `toString`
 * key (never callable in JSON) throws there in the reference; here it prints `[object Object]`.
 */
export function text(value: ParsedValue): string {
  try {
    return String(value);
  } catch {
    return '[object Object]';
  }
}
