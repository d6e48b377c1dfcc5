/**
 * The length of Python's `json.dumps(value, indent=2, ensure_ascii=False)` (what
 * `pythonJsonDumps(value, { indent: 2 })` returns), computed without making the text. Indentation
 * grows with depth, so a small deeply nested value prints as a large text (1,000 levels of `[`
 * print about a million spaces): measuring first keeps the markdown within its budget.
 * Iterative, so deep values cannot overflow the call stack.
 * @module
 */
import { pythonJsonFloat } from '../../../json/python-float.ts';
import type { JsonValue } from '../../../json/value.ts';

/** Spaces per nesting level (`indent=2`). */
const INDENT = 2;

/**
 * UTF-16 length of `pythonJsonDumps(value, { indent: 2 })`.
 * @example
 * prettyJsonLength(new Map([['a', [1n]]])); // 20, the length of '{\n  "a": [\n    1\n  ]\n}'
 */
export function prettyJsonLength(value: JsonValue): number {
  let total = 0;
  const work: { value: JsonValue; level: number }[] = [{ value, level: 0 }];
  while (work.length > 0) {
    const { value: item, level } = work.pop()!;
    if (item instanceof Map || Array.isArray(item)) {
      const size = item instanceof Map ? item.size : item.length;
      total += 2; // the brackets
      if (size === 0) continue;
      // Per member: a line feed and its indentation; between members a comma; then the closing
      // bracket's own line feed and indentation.
      total += size * (1 + INDENT * (level + 1)) + (size - 1) + 1 + INDENT * level;
      if (item instanceof Map) {
        for (const [key, inner] of item) {
          total += quotedLength(key) + 2; // `": "`
          work.push({ value: inner, level: level + 1 });
        }
      } else {
        for (const inner of item) work.push({ value: inner, level: level + 1 });
      }
      continue;
    }
    total += scalarLength(item);
  }
  return total;
}

function scalarLength(value: null | boolean | number | bigint | string): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'boolean':
      return value ? 4 : 5;
    case 'bigint':
      return value.toString().length;
    case 'number':
      return pythonJsonFloat(value).length;
    default:
      return quotedLength(value);
  }
}

/** Length of a JSON string as Python quotes it: `"` and `\` and C0 controls escaped, nothing else. */
function quotedLength(text: string): number {
  let length = text.length + 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code !== 0x22 && code !== 0x5c) continue;
    // `\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r` take two units; other controls `\u00XX` six.
    length += code === 0x22 || code === 0x5c || (code >= 0x08 && code <= 0x0d && code !== 0x0b) ? 1 : 5;
  }
  return length;
}
