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
  return detectNdjson(text) ?? detectJsonDocument(text);
}

/** Lines of the head looked at for an NDJSON record (a damaged first line should not hide the format). */
const NDJSON_PROBE_LINES = 8;

/**
 * NDJSON: the first of the head's first non-blank lines that is a JSON object with a known record
 * shape decides. A line cut by the end of the head (design-1.0 session lines run to megabytes)
 * counts when it opens with a top-level `"type"` naming a known record.
 */
function detectNdjson(text: string): FormatId | null {
  let start = 0;
  for (let probed = 0; probed < NDJSON_PROBE_LINES && start < text.length;) {
    const end = text.indexOf('\n', start);
    const line = end === -1 ? text.slice(start) : text.slice(start, end);
    start = end === -1 ? text.length : end + 1;
    if (line.trim() === '') continue;
    probed++;
    const record = parseObject(line);
    const fromRecord =
      record === undefined ? (end === -1 ? detectRecordPrefix(line) : null) : detectNdjsonRecord(record);
    if (fromRecord !== null) return fromRecord;
  }
  return null;
}

/** `{"type": "<known record type>"` at the start of an incomplete line. */
function detectRecordPrefix(line: string): FormatId | null {
  const match = /^\s*\{\s*"type"\s*:\s*"([a-z:]{1,20})"/.exec(line);
  return match ? detectNdjsonRecord({ type: match[1] }) : null;
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
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
