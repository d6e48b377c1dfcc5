/**
 * The JavaScript behaviours the reference verifier relies on, named so each use says what it
 * reproduces (docs/agentxchain.md §2, §11). The reference is plain Node code; where its result
 * depends on a JS-ism (optional chaining on any value, `String()` of a JSON value, `Date.parse`,
 * ICU collation) we perform the very same native operation rather than imitate it.
 * @module
 */

/**
 * A value as `JSON.parse` gives it, the way the reference reads artifacts (or `undefined` for a missing key); not the
 * lossless `JsonValue` of `src/json/`.
 */
export type ParsedValue = unknown;

/** An object among those values: non-null, `typeof` object, not an array (the reference's "must be an object"). */
export type ParsedObject = Record<string, ParsedValue>;

/**
 * `!v || typeof v !== 'object' || Array.isArray(v)` negated: the reference's object test.
 * @example
 * isJsonObject({}); // true
 * isJsonObject([]); // false
 */
export function isJsonObject(value: ParsedValue): value is ParsedObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JS optional chaining `value?.[key]` (§2, null-safe reads): `undefined` through `null`/`undefined`, a plain
 * property read otherwise (so primitives and arrays read their own and inherited properties,
 * exactly as the reference does). `key` goes through ToPropertyKey, which throws for an object
 * whose own `toString` is not a function: callers that pass artifact values as keys must expect it.
 * @example
 * prop({ a: 1 }, 'a'); // 1
 * prop(null, 'a');     // undefined
 * prop('abc', 'length'); // 3
 */
export function prop(value: ParsedValue, key: unknown): ParsedValue {
  return (value as Record<PropertyKey, ParsedValue> | null | undefined)?.[key as PropertyKey];
}

/** Reads a path of keys with optional chaining at every step (`v?.a?.b`). */
export function path(value: ParsedValue, ...keys: readonly string[]): ParsedValue {
  let current = value;
  for (const key of keys) current = prop(current, key);
  return current;
}

/**
 * `String(value)` (template-literal interpolation gives the same text for JSON values), or
 * `undefined` where the reference would throw: an object with its own `toString` key (never a
 * function in JSON, so ToPrimitive fails, crash site 10 of §9), an array holding one, or nesting
 * deep enough to exhaust the stack.
 * @example
 * jsString(2 ** 64);               // '18446744073709552000'
 * jsString({ toString: 'x' });     // undefined
 */
export function jsString(value: ParsedValue): string | undefined {
  try {
    return String(value);
  } catch {
    return undefined;
  }
}

/**
 * `typeof v === 'string' && !Number.isNaN(Date.parse(v))`. Uses the engine's own `Date.parse`:
 * V8 (Node, Chromium) equals the reference; other engines agree on ISO-8601 strings.
 * @example
 * isParsableDate('2026-01-01'); // true
 * isParsableDate('yesterday');  // false
 */
export function isParsableDate(value: ParsedValue): boolean {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

/** `typeof v === 'string' && v.length > 0`, no trimming (§2). */
export function isNonEmptyString(value: ParsedValue): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** `Number.isInteger(v) && v >= 0` (`-0` passes, as in the reference). */
export function isNonNegativeInteger(value: ParsedValue): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

let collatorEn: Intl.Collator | undefined;
let collatorDefault: Intl.Collator | undefined;

/**
 * `a.localeCompare(b, 'en')`: ICU collation, not code-point order (§5.8).
 * @example
 * ['b', 'A', 'a'].sort(compareEn); // ['a', 'A', 'b']
 */
export function compareEn(a: string, b: string): number {
  collatorEn ??= new Intl.Collator('en');
  return collatorEn.compare(a, b);
}

/**
 * `a.localeCompare(b)` with the reference host's default locale, en-US (§8.7).
 * @example
 * compareDefaultLocale('evt_z', 'evt0a'); // -1 (ICU orders '_' before digits)
 */
export function compareDefaultLocale(a: string, b: string): number {
  collatorDefault ??= new Intl.Collator('en-US');
  return collatorDefault.compare(a, b);
}

/** A short, safe rendering of a value for a message where the reference would print `String(v)`. */
export function describeValue(value: ParsedValue): string {
  const text = jsString(value);
  if (text === undefined) return 'an object with its own "toString" key';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
