/**
 * Format detection from the first decompressed bytes of an input (gzip was already recognised by
 * its magic bytes in `stream/open.ts`). Cheap and conservative: when unsure, answer `null` and
 * let the caller say which format it expects.
 * @module
 */
import type { FormatId } from './report/types.ts';

const textDecoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * Guesses the format of an artifact from its head (the first up to 64 KiB, decompressed).
 * @example
 * detectFormat(new TextEncoder().encode('{"type":"exec:begin","timestamp":"…","payload":{}}\n')); // 'codex-exec'
 */
export function detectFormat(head: Uint8Array): FormatId | null {
  const text = textDecoder.decode(head);
  const firstLine = firstNonBlankLine(text);
  const record = parseObject(firstLine);
  if (record !== undefined) {
    const fromRecord = detectNdjsonRecord(record);
    if (fromRecord !== null) return fromRecord;
  }
  return detectJsonDocument(text);
}

function firstNonBlankLine(text: string): string {
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    const line = end === -1 ? text.slice(start) : text.slice(start, end);
    if (line.trim() !== '' || end === -1) return line;
    start = end + 1;
  }
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** One complete first line that is a JSON object: an NDJSON record, or a one-line document. */
function detectNdjsonRecord(record: Record<string, unknown>): FormatId | null {
  const type = record['type'];
  if (typeof type === 'string') {
    if (type.startsWith('exec:') || type === 'run:summary') return 'codex-exec';
    if (type === 'header' || type === 'message' || type === 'session') return 'agent-history';
  }
  if ('session' in record && 'messages' in record) return 'agent-history';
  return null;
}

/** A JSON document (possibly pretty-printed and longer than the head): look at its keys. */
function detectJsonDocument(text: string): FormatId | null {
  if (!/^\s*\{/.test(text.replace(/^\uFEFF/, ''))) return null;
  if (/"export_kind"\s*:\s*"agentxchain_/.test(text)) return 'agentxchain';
  if (/"version"\s*:\s*"zaxy\./.test(text)) return 'zaxy';
  if (/"(merkle_root|disclosed)"\s*:/.test(text)) return 'zaxy';
  if (/"schema_version"\s*:\s*"zaxy\.export\./.test(text)) return 'zaxy';
  if (/"export_kind"\s*:/.test(text) || /"schema_version"\s*:\s*"0\.[23]"/.test(text)) return 'agentxchain';
  return null;
}
