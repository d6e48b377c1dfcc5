/**
 * Structural no-pass oracle for the NDJSON formats (docs/agent-history.md §4 F1/F2 and §5,
 * docs/codex-exec.md, 'Lines and gzip'): a file whose report says agent-history or codex-exec
 * must not pass when it starts with a BOM, is not valid UTF-8, or has a non-blank line that is not
 * one JSON object.
 * @module
 */

const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Why the decompressed NDJSON `bytes` must not pass, or `undefined`.
 * @example
 * ndjsonMustFail(new TextEncoder().encode('{"a":1}\nnot json\n')); // 'line 2 is not a JSON object'
 */
export function ndjsonMustFail(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = STRICT.decode(bytes);
  } catch {
    return 'not valid UTF-8';
  }
  if (text.charCodeAt(0) === 0xfeff) return 'starts with a BOM';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Blank by any reasonable definition (JS trim() is the widest): never claimed.
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return `line ${i + 1} is not JSON`;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return `line ${i + 1} is not a JSON object`;
  }
  return undefined;
}
