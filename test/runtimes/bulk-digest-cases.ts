// AgentXchain exports whose file contents are large enough for the WebCrypto bulk path
// (src/crypto/bulk-digest.ts, `checkLargeContents` in src/formats/agentxchain/files.ts), built
// alike in every runtime (no node:* imports): the Node, Chromium, workerd and Deno tests verify
// each one with WebCrypto and with the WASM `Sha256` only, and require the same report. Contents
// straddle every runtime's BULK_DIGEST_MIN_BYTES; text, JSON and JSONL entries, some tampered (sha256, bytes,
// data, content that does not parse), some needing the general base64 decoder; one export has
// JSON escapes, and a coordinator export nests them in child exports.
import type { Sha256 } from '../../src/crypto/sha256.ts';
import type { Report } from '../../src/report.ts';
import { toHex } from '../../src/encoding/hex.ts';

const encoder = new TextEncoder();

/** Deterministic printable text of `length` characters (lines of pseudo-random words). */
function text(length: number, seed: number): string {
  let state = seed >>> 0 || 1;
  let out = '';
  while (out.length < length) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += (state >>> 8).toString(36) + ((state & 7) === 0 ? '\n' : ' ');
  }
  return out.slice(0, length);
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

type Tamper = 'none' | 'sha256' | 'bytes' | 'data' | 'junk' | 'nonstring' | 'sha256-number' | 'unparsable';
type Format = 'text' | 'json' | 'jsonl';

/** `length` characters of content in `format`, and the `data` the reference derives from it. */
function contentOf(format: Format, length: number, seed: number, tamper: Tamper): [string, unknown] {
  if (format === 'text') return [text(length, seed), text(length, seed)];
  const lines: unknown[] = [];
  let content = '';
  for (let i = 0; content.length < length; i++) {
    const line = { i, words: text(200, seed + i) };
    lines.push(line);
    content += `${JSON.stringify(line)}\n`;
  }
  // A line that does not parse: the JSONL error names the entry's path and the line. A JSON
  // document cut before its last `]`: V8's message names a position (worded alike by every V8
  // the runtimes carry, up to the line and column newer ones add; see comparable in harness.ts).
  if (tamper === 'unparsable') content += '{"i": oops}\n';
  const json = JSON.stringify(lines);
  return format === 'json' ? [tamper === 'unparsable' ? json.slice(0, -1) : json, lines] : [content, lines];
}

function entry(
  sha256: Sha256,
  length: number,
  seed: number,
  tamper: Tamper = 'none',
  format: Format = 'text',
): Record<string, unknown> {
  const [content, data] = contentOf(format, length, seed, tamper);
  const bytes = encoder.encode(content);
  const digest = toHex(sha256.digest(bytes));
  let encoded = base64(bytes);
  if (tamper === 'junk') encoded = `${encoded.slice(0, 1000)} \n${encoded.slice(1000)}`; // whitespace: general decoder
  return {
    format,
    bytes: tamper === 'bytes' ? bytes.length + 1 : bytes.length,
    sha256:
      tamper === 'sha256'
        ? digest.replace(/^./, digest[0] === 'a' ? 'b' : 'a')
        : tamper === 'sha256-number'
          ? 7
          : digest,
    content_base64: tamper === 'nonstring' ? 12 : encoded,
    data: tamper !== 'data' ? data : format === 'text' ? `${content}!` : [data, 1],
  };
}

/** Every runtime's BULK_DIGEST_MIN_BYTES (browsers and workerd, Deno, Node): the cases straddle each. */
const THRESHOLDS = [4 << 10, 8 << 10, 16 << 10];

function runExport(sha256: Sha256, seed: number): Record<string, unknown> {
  const min = 16 << 10;
  const sizes: [number, Tamper, Format?][] = [
    ...THRESHOLDS.flatMap((threshold): [number, Tamper][] => [
      [threshold - 3, 'sha256'],
      [threshold - 1, 'none'],
      [threshold, 'none'],
      [threshold + 1, 'sha256'],
    ]),
    [min >> 3, 'none'],
    [3 * min + 5, 'none'],
    [2 * min, 'bytes'],
    [5 * min, 'data'],
    [2 * min + 3, 'junk'],
    [2 * min, 'nonstring'],
    [2 * min, 'sha256-number'],
    [100, 'sha256'],
    [9 * min, 'none'],
    [2 * min, 'none', 'json'],
    [2 * min, 'data', 'json'],
    [2 * min, 'unparsable', 'json'],
    [3 * min, 'none', 'jsonl'],
    [3 * min, 'data', 'jsonl'],
    [3 * min, 'unparsable', 'jsonl'],
  ];
  const files: Record<string, unknown> = {};
  sizes.forEach(
    ([size, tamper, format], index) =>
      (files[`src/file-${seed}-${index}.${format ?? 'txt'}`] = entry(sha256, size, seed * 31 + index, tamper, format)),
  );
  files['notes/skipped.txt'] = {
    format: 'text',
    bytes: 3,
    sha256: '0'.repeat(64),
    content_base64: null,
    truncated: true,
    data: 'abc',
  };
  return {
    schema_version: '0.3',
    export_kind: 'agentxchain_run_export',
    exported_at: '2026-01-02T03:04:05.000Z',
    config: {},
    files,
  };
}

/** The cases whose contents WebCrypto hashes (eight or more each, in every runtime). */
export const HASHED_CASES = ['run-export.json', 'coordinator-export.json', 'escaped-export.json'];

/** The cases: `[name, document bytes]`. */
export function bulkDigestCases(sha256: Sha256): [string, Uint8Array][] {
  const run = runExport(sha256, 1);
  const coordinator = {
    schema_version: '0.3',
    export_kind: 'agentxchain_coordinator_export',
    exported_at: '2026-01-02T03:04:05.000Z',
    config: {},
    files: runExport(sha256, 2)['files'],
    repos: {
      a: { ok: true, export: runExport(sha256, 3) },
      b: { ok: true, export: { ...runExport(sha256, 4), repos: { c: { ok: true, export: runExport(sha256, 5) } } } },
    },
  };
  // `\/` is a JSON escape of `/`: the content token is no longer plain base64 bytes.
  const escaped = JSON.stringify(runExport(sha256, 6)).replaceAll('/', '\\/');
  // Hostile: `files` and `repos` as long strings (walking their characters as entries would take
  // gigabytes), in a coordinator export, whose repos are walked.
  const strings = { ...coordinator, files: 'f'.repeat(6 << 20), repos: 'r'.repeat(6 << 20) };
  return [
    ['strings-export.json', encoder.encode(JSON.stringify(strings))],
    ['run-export.json', encoder.encode(JSON.stringify(run))],
    ['coordinator-export.json', encoder.encode(JSON.stringify(coordinator))],
    ['escaped-export.json', encoder.encode(escaped)],
  ];
}

/** A report as the paths must agree on it (its timings aside). */
export const comparable = ({ stats: _stats, ...rest }: Report): string => JSON.stringify(rest);

/** Runs `body` with `globalThis.crypto` replaced by `value`, restoring it afterwards. */
export async function withCrypto<T>(value: unknown, body: () => Promise<T>): Promise<T> {
  const own = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  Object.defineProperty(globalThis, 'crypto', { value, configurable: true, writable: true });
  try {
    return await body();
  } finally {
    if (own === undefined) delete (globalThis as { crypto?: unknown }).crypto;
    else Object.defineProperty(globalThis, 'crypto', own);
  }
}
