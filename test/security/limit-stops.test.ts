// A limit stop reports the limit alone (docs/architecture.md, 'Limits'; docs/agent-history.md §5):
// the line the limit cut is not reported as truncated JSON, and the checks that need the rest of
// the input (counts, a closing record) are not made, say so in `details.not_checked`, and report
// no mismatch. Damage in the gzip container is the input's own problem and keeps its findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { verify, type Report } from '../../src/index.ts';

const fixture = (path: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../fixtures/${path}`, import.meta.url)));

const NDJSON = {
  'agent-history design-1.0': fixture('agent-history/design-small.ndjson.gz'),
  'agent-history impl-2.0': new Uint8Array(
    gzipSync(
      fixture('agent-history/real-impl-small-claude-20251120090536_6513270e-269e-0d37-f2a7-4de452e6b438.ndjson'),
    ),
  ),
  'codex-exec': new Uint8Array(gzipSync(fixture('codex-exec/interleaved-retry-ok.jsonl'))),
} as const;

function plain(gz: Uint8Array): Uint8Array {
  return new Uint8Array(gunzipSync(gz));
}

/** Byte offsets in the middle of the 2nd and of the second-to-last line, and right after a line's LF. */
function cutPoints(text: Uint8Array): number[] {
  const ends: number[] = [];
  for (let i = 0; i < text.length; i++) if (text[i] === 0x0a) ends.push(i);
  assert.ok(ends.length >= 4, 'the fixture has lines');
  const middle = (k: number): number => Math.floor((ends[k - 1]! + ends[k]!) / 2);
  return [middle(1), middle(ends.length - 2), ends[1]! + 1];
}

/** The bytes as a stream of `size`-byte chunks (as a network or a file read would deliver them). */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) c.close();
      else c.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

function findingsOf(report: Report): string[] {
  return report.findings.map((f) => `${f.severity} ${f.code} @ ${f.path}: ${f.message}`);
}

function assertLimitAlone(report: Report, code: string, where: string): void {
  assert.equal(report.overall, 'error', where);
  assert.deepEqual(
    report.findings.map((f) => f.code),
    [code],
    `${where}: the limit alone\n${findingsOf(report).join('\n')}`,
  );
  assert.match(report.findings[0]!.message, /checks that need the whole input were not made/, where);
  const notChecked = (report.details as { not_checked?: readonly string[] }).not_checked;
  assert.ok(Array.isArray(notChecked) && notChecked.length > 0, `${where}: details.not_checked names the checks`);
}

test('maxDecompressedBytes cutting a line or between lines: the limit alone, for every NDJSON shape', async () => {
  for (const [name, gz] of Object.entries(NDJSON)) {
    assert.equal((await verify(gz)).overall, 'pass', `${name}: the seed passes`);
    for (const cut of cutPoints(plain(gz))) {
      const report = await verify(gz, { limits: { maxDecompressedBytes: cut } });
      assertLimitAlone(report, 'limit.decompressed_bytes', `${name} cut at ${cut}`);
    }
  }
});

test('maxInputBytes on a plain NDJSON stream, and an abort mid-line: the stop alone', async () => {
  for (const [name, gz] of Object.entries(NDJSON)) {
    const text = plain(gz);
    for (const cut of cutPoints(text)) {
      const report = await verify(chunked(text, 256), { limits: { maxInputBytes: cut } });
      assertLimitAlone(report, 'limit.input_bytes', `${name} input cut at ${cut}`);
    }
    // The source sends the first half of the input, then the verifier is aborted while it waits.
    const controller = new AbortController();
    const half = text.subarray(0, cutPoints(text)[1]);
    const stalled = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(half);
        setTimeout(() => controller.abort(), 50);
      },
      pull: () => new Promise(() => undefined),
    });
    assertLimitAlone(await verify(stalled, { signal: controller.signal }), 'input.aborted', `${name} aborted`);
  }
});

test('a compression-ratio stop on a multi-session file: the limit alone', async () => {
  const gz = NDJSON['agent-history design-1.0'];
  const report = await verify(gz, { limits: { maxCompressionRatio: 2, ratioGraceBytes: 9000 } });
  assertLimitAlone(report, 'limit.compression_ratio', 'design ratio');
});

test('damage in the gzip container is the input’s own problem: the cut line and the count are still reported', async () => {
  const report = await verify(fixture('agent-history/design-small-truncated.ndjson.gz'));
  assert.equal(report.overall, 'fail');
  const codes = report.findings.map((f) => f.code);
  assert.deepEqual(codes, ['ndjson.invalid_json', 'gzip.truncated', 'agent-history.session_count'], codes.join());
  assert.deepEqual((report.details as { not_checked: readonly string[] }).not_checked, [
    'S2 parent_session_id names a session of the file',
  ]);
  assert.equal('not_checked' in (await verify(NDJSON['codex-exec'])).details, false, 'a complete read skips nothing');
});

test('the whole-document formats report a limit stop alone', async () => {
  for (const path of ['agentxchain/real-fresh.json', 'zaxy/signed-ed25519-n33.json']) {
    const gz = new Uint8Array(gzipSync(fixture(path)));
    for (const limits of [{ maxDecompressedBytes: 4000 }, { maxBufferedBytes: 4000 }]) {
      const report = await verify(gz, { limits });
      assert.equal(report.overall, 'error', path);
      assert.equal(report.findings.length, 1, `${path} ${JSON.stringify(limits)}: ${findingsOf(report).join('\n')}`);
      assert.match(report.findings[0]!.code, /^limit\./);
    }
  }
});
