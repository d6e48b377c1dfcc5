// Streaming behaviour of the NDJSON verifiers in Node: progress callbacks with the source bytes,
// an AbortSignal that stops an endless stream promptly, the `.gz` name rule, report details.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { verifyAgentHistory } from '../../src/formats/agent-history/index.ts';
import { verifyCodexExec } from '../../src/formats/codex-exec/index.ts';
import { verify } from '../../src/verify.ts';
import { fixturePath } from '../helpers/fixtures.ts';

describe('NDJSON streaming (Node)', () => {
  it('reports progress in source bytes, ending at the total', async () => {
    const bytes = new Uint8Array(readFileSync(fixturePath('agent-history', 'design-small.ndjson.gz')));
    const seen: [number, number | undefined][] = [];
    const report = await verifyAgentHistory(bytes, {
      name: 'design-small.ndjson.gz',
      onProgress: (read, total) => seen.push([read, total]),
    });
    assert.equal(report.overall, 'pass');
    assert.deepEqual(seen.at(-1), [bytes.byteLength, bytes.byteLength]);
    assert.deepEqual(report.details, {
      schema: 'design-1.0',
      line_count: 6,
      session_count: 5,
      message_count: 43,
      records_by_type: { header: 1, session: 5, other: 0 },
      bytes_in: bytes.byteLength,
      bytes_out: 31628,
      compressed: true,
    });
    assert.deepEqual(report.verdicts, {
      structure: 'pass',
      integrity: 'pass',
      authenticity: 'not-checked',
      trust: 'not-checked',
    });
  });

  it('stops an endless stream promptly when aborted', async () => {
    const line = new TextEncoder().encode(
      `${readFileSync(fixturePath('codex-exec', 'real-interleaved.jsonl'), 'utf8').split('\n')[1]}\n`,
    );
    const controller = new AbortController();
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(stream) {
        if (++pulled === 50) controller.abort();
        stream.enqueue(line);
      },
    });
    const report = await verifyCodexExec(endless, { signal: controller.signal });
    assert.equal(report.overall, 'error');
    assert.ok(report.findings.some((f) => f.code === 'input.aborted'));
    assert.ok(pulled < 60, `read ${pulled} chunks`);
  });

  it('auto-detects both formats through verify(), plain and gzip, and applies the .gz name rule', async () => {
    const gz = new Uint8Array(readFileSync(fixturePath('agent-history', 'design-small.ndjson.gz')));
    assert.equal((await verify(gz)).kind, 'design-1.0');
    const jsonl = new Uint8Array(readFileSync(fixturePath('codex-exec', 'real-success.jsonl')));
    const report = await verify(jsonl, { name: 'run.jsonl.gz' });
    assert.equal(report.format, 'codex-exec');
    assert.ok(report.findings.some((f) => f.code === 'gzip.not_gzip' && f.severity === 'error'));
    assert.equal((await verify(jsonl, { name: 'run.jsonl' })).overall, 'pass');
  });

  it('reports limit.line_bytes on the line and keeps verifying the rest', async () => {
    const bytes = new Uint8Array(readFileSync(fixturePath('codex-exec', 'real-interleaved.jsonl')));
    const report = await verifyCodexExec(bytes, { limits: { maxLineBytes: 2000 } });
    const long = report.findings.filter((f) => f.code === 'limit.line_bytes');
    assert.ok(long.length > 0 && long.every((f) => /^line \d+$/.test(f.path)));
    assert.equal(report.details.line_count, 13);
  });
});
