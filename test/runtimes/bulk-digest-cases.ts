// AgentXchain exports whose file contents are large enough for the WebCrypto bulk path
// (src/crypto/bulk-digest.ts), built alike in every runtime (no node:* imports): the Node,
// Chromium, workerd and Deno tests verify each one with WebCrypto and with the WASM `Sha256`
// only, and require the same report. Contents straddle BULK_DIGEST_MIN_BYTES; some entries are
// tampered (sha256, bytes, data), some need the general base64 decoder, one has JSON escapes,
// and a coordinator export nests them in child exports.
import { BULK_DIGEST_MIN_BYTES } from '../../src/crypto/bulk-digest.ts';
import type { Sha256 } from '../../src/crypto/sha256.ts';
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

type Tamper = 'none' | 'sha256' | 'bytes' | 'data' | 'junk' | 'nonstring' | 'sha256-number';

function entry(sha256: Sha256, length: number, seed: number, tamper: Tamper = 'none'): Record<string, unknown> {
  const content = text(length, seed);
  const bytes = encoder.encode(content);
  const digest = toHex(sha256.digest(bytes));
  let encoded = base64(bytes);
  if (tamper === 'junk') encoded = `${encoded.slice(0, 1000)} \n${encoded.slice(1000)}`; // whitespace: general decoder
  return {
    format: 'text',
    bytes: tamper === 'bytes' ? bytes.length + 1 : bytes.length,
    sha256:
      tamper === 'sha256'
        ? digest.replace(/^./, digest[0] === 'a' ? 'b' : 'a')
        : tamper === 'sha256-number'
          ? 7
          : digest,
    content_base64: tamper === 'nonstring' ? 12 : encoded,
    data: tamper === 'data' ? `${content}!` : content,
  };
}

function runExport(sha256: Sha256, seed: number): Record<string, unknown> {
  const min = BULK_DIGEST_MIN_BYTES;
  const sizes: [number, Tamper][] = [
    [min - 1, 'none'],
    [min, 'none'],
    [min + 1, 'sha256'],
    [3 * min + 5, 'none'],
    [2 * min, 'bytes'],
    [5 * min, 'data'],
    [2 * min + 3, 'junk'],
    [2 * min, 'nonstring'],
    [2 * min, 'sha256-number'],
    [100, 'sha256'],
    [9 * min, 'none'],
  ];
  const files: Record<string, unknown> = {};
  sizes.forEach(
    ([size, tamper], index) =>
      (files[`src/file-${seed}-${index}.txt`] = entry(sha256, size, seed * 31 + index, tamper)),
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
  return [
    ['run-export.json', encoder.encode(JSON.stringify(run))],
    ['coordinator-export.json', encoder.encode(JSON.stringify(coordinator))],
    ['escaped-export.json', encoder.encode(escaped)],
  ];
}
