/**
 * JSON-path and line-path builders. Paths are always built here, never concatenated by hand,
 * so artifact keys (attacker-controlled: quotes, dots, brackets, newlines) cannot forge a path.
 * @module
 */

/** A step into a JSON value: an object key or an array index. */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Formats segments as a JSON path rooted at `$`.
 * Identifier keys use dot notation, other keys bracket notation with a JSON-quoted string,
 * indices `[n]`.
 * @example
 * jsonPath(['files', '.agentxchain/state.json', 'sha256']); // '$.files[".agentxchain/state.json"].sha256'
 * jsonPath(['entries', 3, 'id']); // '$.entries[3].id'
 */
export function jsonPath(segments: readonly PathSegment[]): string {
  let out = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * Path of a finding on an NDJSON line (1-based, counting decompressed lines), optionally with a
 * JSON path inside that line's value.
 * @example
 * linePath(17); // 'line 17'
 * linePath(17, ['payload', 'bytes']); // 'line 17 $.payload.bytes'
 */
export function linePath(line: number, segments?: readonly PathSegment[]): string {
  return segments && segments.length > 0 ? `line ${line} ${jsonPath(segments)}` : `line ${line}`;
}
