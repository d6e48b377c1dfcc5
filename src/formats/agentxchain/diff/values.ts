/**
 * The diff's value helpers (docs/agentxchain-diff.md §2.3): string lists, the normalised maps,
 * JSON equality, and printing a value into a message. Each performs the native operation the
 * reference performs (`Object.fromEntries`, `localeCompare(…, 'en')`, `JSON.stringify`, template
 * interpolation), so JavaScript's own rules apply: integer-like keys first, the last duplicate
 * key wins at the first one's position, `__proto__` is an ordinary own key.
 * @module
 */
import { compareEn, describeValue, isJsonObject } from '../js-semantics.ts';
import type { AgentxchainDiffMode } from './types.ts';

/**
 * Thrown inside the diff where the reference throws (reference mode only); `diff.ts` turns it into
 * a `reference_crash` refusal. Never escapes the public API.
 */
export class ReferenceCrash extends Error {
  override readonly name = 'ReferenceCrash';
}

/** What the helpers need to know: which mode, hence what to do where the reference crashes. */
export interface DiffContext {
  readonly mode: AgentxchainDiffMode;
}

/**
 * `${value}`: the text a template literal gives. Where that throws (an object with its own
 * `toString` key, which JSON cannot make callable), reference mode crashes as the reference does
 * and corrected mode prints a description instead. `where` names the place for the crash message.
 */
export function interpolate(context: DiffContext, value: unknown, where: string): string {
  try {
    return `${value as string}`;
  } catch (error) {
    if (context.mode === 'reference') throw crashAt(where, error);
    return describeValue(value);
  }
}

/** The ReferenceCrash for an error the reference would throw at `where`. */
export function crashAt(where: string, error: unknown): ReferenceCrash {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new ReferenceCrash(`${where}: ${text}`);
}

/**
 * The reference's string list: `[]` unless an array; strings non-blank after trim, trimmed,
 * de-duplicated (first kept), then stably sorted with `localeCompare(…, 'en')`.
 * @example
 * stringList([' b', 'a', 'b', 3, '']); // ['a', 'b']
 */
export function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  for (const item of value as unknown[]) {
    if (typeof item === 'string' && item.trim().length > 0) seen.add(item.trim());
  }
  return [...seen].sort(compareEn);
}

/** `typeof value === 'number' ? value : null` (so `Infinity` and `-0` pass, as in the reference). */
export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

/**
 * `JSON.stringify(a) === JSON.stringify(b)`: key order matters, `undefined` equals `undefined`.
 * Callers bound the nesting of what they compare (`limits.maxJsonDepth`) before comparing.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** An object's own enumerable entries whose key is non-blank after trim, with the key trimmed. */
function trimmedEntries(value: unknown): [string, unknown][] {
  if (!isJsonObject(value)) return [];
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    if (key.trim().length > 0) entries.push([key.trim(), item]);
  }
  return entries;
}

/** String map: string values trimmed, blank or non-string → null. */
export function stringMap(value: unknown): Record<string, string | null> {
  return Object.fromEntries(
    trimmedEntries(value).map(([key, item]) => [key, typeof item === 'string' && item.trim() ? item.trim() : null]),
  ) as Record<string, string | null>;
}

/** Boolean map: `value === true`. */
export function booleanMap(value: unknown): Record<string, boolean> {
  return Object.fromEntries(trimmedEntries(value).map(([key, item]) => [key, item === true])) as Record<
    string,
    boolean
  >;
}

/** Numeric map: only entries whose value is a number. */
export function numericMap(value: unknown): Record<string, number> {
  return Object.fromEntries(trimmedEntries(value).filter(([, item]) => typeof item === 'number')) as Record<
    string,
    number
  >;
}

/** Gate status map: string values trimmed, anything else `String(value)` (so `null` → `"null"`). */
export function gateStatusMap(context: DiffContext, value: unknown): Record<string, string> {
  return Object.fromEntries(
    trimmedEntries(value).map(([key, item]) => [
      key,
      typeof item === 'string' ? item.trim() : interpolate(context, item, `state.phase_gate_status.${key}`),
    ]),
  ) as Record<string, string>;
}

/** `map[key]` for a map this module built, read as an own key only. */
export function own<T>(map: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/**
 * `map[key]` as the reference reads it (a plain property access), for a map that lacks the key:
 * a key named like an `Object.prototype` member (`toString`, `constructor`, `__proto__`) reads the
 * inherited member. `value` is what that member becomes in the diff's JSON (`undefined`, dropped
 * from the output, for a function; `{}` for `Object.prototype` itself), `text` its `String()`.
 * Undefined for any other key (docs/agentxchain-diff.md §6, departure 1).
 */
export function inheritedMember(key: string): { readonly value: unknown; readonly text: string } | undefined {
  if (!(key in EMPTY)) return undefined;
  const member = (EMPTY as Record<string, unknown>)[key];
  return { value: typeof member === 'function' ? undefined : {}, text: String(member) };
}

const EMPTY = Object.freeze({});

/**
 * The keys of two maps in `new Set([...Object.keys(a), ...Object.keys(b)])` order: a's keys, then
 * b's keys not in a.
 */
export function unionKeys(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])];
}

/**
 * Nesting depth of a JSON value, a scalar 0, given up once past `limit` (iterative, so hostile
 * nesting cannot overflow the stack while it is measured).
 */
export function nestingDepth(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Object.values(current as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}
