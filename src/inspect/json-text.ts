/**
 * Artifact values as the text a view shows: numbers by their lexeme (an integer of any size stays
 * exact, `1.0` stays `1.0`, as Python's `json` module wrote it), objects pretty-printed as Python's
 * `json.dumps(indent=2, ensure_ascii=False)` prints them, in the artifact's key order.
 * @module
 */
import { pythonJsonDumps } from '../json/canonical.ts';
import { pythonJsonFloat } from '../json/python-float.ts';
import type { JsonValue } from '../json/value.ts';
import { prettyJsonLength } from '../formats/agent-history/markdown/pretty.ts';

/** Past this length a pretty layout is dropped for the compact one (deep nesting inflates indentation). */
const MAX_PRETTY_LENGTH = 4 * 1024 * 1024;

/**
 * A scalar as text (strings as they are, numbers by lexeme, `true`, `false`, `null`); undefined
 * for containers and missing values.
 * @example
 * lexeme(12345678901234567890n); // '12345678901234567890'
 * lexeme(1); // '1.0' (the reader keeps `1.0` as a float)
 */
export function lexeme(value: JsonValue | undefined): string | undefined {
  if (value === undefined || value instanceof Map || Array.isArray(value)) return undefined;
  switch (typeof value) {
    case 'string':
      return value;
    case 'bigint':
      return value.toString();
    case 'number':
      return pythonJsonFloat(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return 'null';
  }
}

/**
 * A value as JSON text: pretty (two-space indent) unless that would be huge, then compact.
 * @example
 * prettyJson(new Map([['a', 1n]])); // '{\n  "a": 1\n}'
 */
export function prettyJson(value: JsonValue): string {
  return prettyJsonLength(value) <= MAX_PRETTY_LENGTH ? pythonJsonDumps(value, { indent: 2 }) : pythonJsonDumps(value);
}

/**
 * A string value, or the JSON text of any other value (for a field that should hold text).
 * @example
 * textOf('ok'); // 'ok'
 * textOf([1n]); // '[\n  1\n]'
 */
export function textOf(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : prettyJson(value);
}
