// The edge worker in real workerd (the Cloudflare Workers runtime, npm `workerd`) on 127.0.0.1:
// every shared fixture of every format answers the report Node's core produces; the SHA-256
// from the imported .wasm module equals node:crypto; and the worker holds up under hostile
// uploads (oversize bodies, a gzip bomb, multi-member gzip, disconnects, concurrency).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { statusForReport } from '../../src/edge/response.ts';
import { verify } from '../../src/verify.ts';
import { DEFAULT_EDGE_LIMITS } from '../../src/edge/options.ts';
import {
  allFixtureCases,
  assertSameBytesRead,
  caseQuery,
  comparable,
  FORMATS,
  nodeReport,
  startWorkerd,
  startWorkerdFromWrangler,
  type FixtureCase,
  type RunningWorkerd,
} from './harness.ts';
import { execLines, execStream } from './exec-stream.ts';
import { openUpload, trickle, within } from './http.ts';
import { PROJECT_ROOT } from '../helpers/fixtures.ts';
import { ndjsonBomb } from '../helpers/bomb.ts';
import { manyBatchBundle } from '../helpers/signed-zaxy.ts';
import type { Report } from '../../src/report.ts';

const SMALL_LIMIT = 64 * 1024;
const MiB = 1024 * 1024;

describe('edge worker in workerd', { timeout: 180_000 }, () => {
  let workerd: RunningWorkerd;
  const cases = allFixtureCases();

  before(async () => {
    workerd = await startWorkerd(
      [
        { name: 'main' },
        { name: 'small', vars: { MAX_BODY_BYTES: String(SMALL_LIMIT) } },
        { name: 'probe', entry: 'probe.js' },
      ],
      { 'probe.js': 'test/runtimes/workerd-sha256-probe.ts' },
    );
  });
  after(async () => {
    await workerd?.stop();
  });

  async function post(
    fixture: FixtureCase,
    base = workerd.urls['main']!,
  ): Promise<{ status: number; report: Report; size: number }> {
    const body = readFileSync(fixture.path);
    const response = await fetch(base + caseQuery(fixture), { method: 'POST', body });
    return { status: response.status, report: (await response.json()) as Report, size: body.byteLength };
  }

  /** Posts a fixture and asserts the worker's answer equals Node's report (and its status). */
  async function assertParity(fixture: FixtureCase, answer?: Awaited<ReturnType<typeof post>>): Promise<void> {
    const expected = await nodeReport(fixture);
    const { status, report, size } = answer ?? (await post(fixture));
    assert.deepEqual(comparable(report), comparable(expected));
    assertSameBytesRead(report, expected, size);
    assert.equal(status, statusForReport(expected));
  }

  it('hashes like node:crypto with the SHA-256 module imported as a .wasm file', async () => {
    const sizes = [0, 1, 55, 56, 63, 64, 65, 16383, 16384, 16385, 100_000];
    for (let i = 0; i < 30; i++) sizes.push(Math.floor(Math.random() * 200_000));
    for (const size of sizes) {
      const data = randomBytes(size);
      const cuts = [...new Set(Array.from({ length: 3 }, () => Math.floor(Math.random() * (size + 1))))].sort(
        (a, b) => a - b,
      );
      const response = await fetch(`${workerd.urls['probe']}?cuts=${cuts.join(',')}`, { method: 'POST', body: data });
      const digests = (await response.json()) as Record<string, string>;
      const expected = createHash('sha256').update(data).digest('hex');
      assert.deepEqual(
        digests,
        { oneShot: expected, incremental: expected, webCrypto: expected },
        `${size} bytes cut at ${cuts}`,
      );
    }
  });

  it('gives the reference verdicts on every Zaxy signature vector (Ed25519, ML-DSA-65)', async () => {
    const files = cases.filter((c) => c.format === 'zaxy' && c.file.startsWith('sigver-'));
    assert.ok(files.length > 0, 'no sigver files in the zaxy manifest');
    for (const fixture of files) {
      const response = await fetch(`${workerd.urls['probe']}sigver`, {
        method: 'POST',
        body: readFileSync(fixture.path),
      });
      const result = (await response.json()) as { ran: number; wrong: number[] };
      assert.ok(result.ran > 0, fixture.file);
      assert.deepEqual(result.wrong, [], `${fixture.file}: tcIds with another verdict`);
    }
  });

  it('stops a gzip bomb early, with bounded memory', async () => {
    // Sent at full speed, as curl would: the answer must survive the upload the worker stopped
    // reading (a server that closes on unread bytes makes the client's TCP stack drop it).
    const bomb = ndjsonBomb();
    const peakBefore = workerd.peakBytes();
    const { request, response } = openUpload(`${workerd.urls['main']}?name=bomb.ndjson.gz`, {
      'content-type': 'application/gzip',
    });
    const sent = await trickle(request, bomb, 256 * 1024, 0, response);
    if (sent === bomb.byteLength) request.end();
    const answer = await within(response, 60_000, 'gzip bomb');
    request.destroy();
    const report = JSON.parse(answer.body) as Report;
    assert.equal(report.overall, 'error', answer.body.slice(0, 300));
    assert.ok(
      report.stats.bytes_read < bomb.byteLength / 10,
      `read ${report.stats.bytes_read} of ${bomb.byteLength} compressed bytes`,
    );
    const bytesOut = report.format === 'agent-history' || report.format === 'codex-exec' ? report.details.bytes_out : 0;
    assert.ok(bytesOut <= 64 * MiB, `decompressed ${bytesOut} bytes`);
    const growth = workerd.peakBytes() - peakBefore;
    assert.ok(growth < 128 * MiB, `workerd peak memory grew by ${(growth / MiB).toFixed(1)} MiB`);
  });

  it('answers the gzip bomb 413 with the limit that stopped it, even past limits.maxFindings', async () => {
    // The bomb's lines each yield findings, so limits.maxFindings is reached before the
    // decompression limit: the limit finding must still be in the report (it says why it stopped).
    const bomb = ndjsonBomb();
    const { request, response } = openUpload(`${workerd.urls['main']}?name=bomb.ndjson.gz`, {
      'content-type': 'application/gzip',
    });
    const sent = await trickle(request, bomb, 256 * 1024, 0, response);
    if (sent === bomb.byteLength) request.end();
    const answer = await within(response, 60_000, 'gzip bomb');
    request.destroy();
    const codes = (JSON.parse(answer.body) as Report).findings.map((finding) => finding.code);
    assert.ok(
      codes.includes('limit.compression_ratio') || codes.includes('limit.decompressed_bytes'),
      `limit finding missing; last codes: ${codes.slice(-3).join(', ')}`,
    );
    assert.equal(answer.status, 413);
  });

  for (const format of FORMATS) {
    it(`answers every ${format} fixture with the report Node's core produces`, async (t) => {
      const ofFormat = cases.filter((fixture) => fixture.format === format);
      assert.ok(ofFormat.length > 0);
      for (const fixture of ofFormat) {
        await t.test(fixture.file, () => assertParity(fixture));
      }
    });
  }

  it('verifies a multi-member gzip upload like the plain file', async () => {
    const fixture = cases.find((c) => c.format === 'codex-exec' && !c.file.endsWith('.gz'))!;
    const text = readFileSync(fixture.path);
    const cut = text.indexOf(0x0a, text.byteLength >> 1) + 1 || text.byteLength >> 1;
    const members = Buffer.concat([gzipSync(text.subarray(0, cut)), gzipSync(text.subarray(cut))]);
    const response = await fetch(`${workerd.urls['main']}?name=${fixture.file}.gz`, {
      method: 'POST',
      body: members,
      headers: { 'content-encoding': 'gzip' },
    });
    const report = (await response.json()) as Report;
    const expected = await verify(members, { name: `${fixture.file}.gz` });
    assert.deepEqual(comparable(report), comparable(expected));
    const plain = await nodeReport(fixture);
    assert.deepEqual(report.findings, plain.findings);
    assert.equal(report.overall, plain.overall);
    assert.equal(response.status, statusForReport(plain));
  });

  it("hashes a large Zaxy bundle's entries in place a batch at a time (no 4-lane hasher here), as Node does", async () => {
    for (const [name, change] of [
      ['many-batches.json', () => undefined],
      ['many-batches-tampered.json', (entries) => void (entries[2500]!.content['kind'] = 'changed')],
    ] as [string, Parameters<typeof manyBatchBundle>[1]][]) {
      const body = manyBatchBundle(120, change) as Uint8Array<ArrayBuffer>;
      const response = await fetch(`${workerd.urls['main']}?name=${name}`, { method: 'POST', body });
      const report = (await response.json()) as Report;
      const expected = await verify(body, { name, limits: DEFAULT_EDGE_LIMITS });
      assert.deepEqual(comparable(report), comparable(expected), name);
      // The copies leave the signed root behind (a fail either way); the tampered entry is found.
      const atTampered = report.findings.some((finding) => finding.path.startsWith('$.entries[2500]'));
      assert.equal(atTampered, name.includes('tampered'), `${name}: a finding at the tampered entry`);
    }
  });

  it('refuses a body whose Content-Length is over the limit without reading it', async () => {
    const { request, response } = openUpload(workerd.urls['small']!, {
      'content-length': 10 * MiB,
      'content-type': 'application/json',
    });
    request.write('{"export_kind":"agentxchain_run_export"');
    const answer = await within(response, 10_000, 'declared oversize body');
    request.destroy();
    const report = JSON.parse(answer.body) as Report;
    assert.equal(answer.status, 413);
    assert.equal(report.findings[0]?.code, 'limit.input_bytes');
    assert.equal(report.stats.bytes_read, 0);
  });

  it('answers 413 while an oversize streamed body is still arriving', async () => {
    const { request, answered, response } = openUpload(workerd.urls['small']!, {
      'content-type': 'application/x-ndjson',
    });
    const endless = execLines(200); // ~230 KB of well-formed lines, never finished
    const sent = await trickle(request, endless, 8 * 1024, 5, answered);
    const answer = await within(response, 10_000, 'streamed oversize body');
    request.destroy();
    const report = JSON.parse(answer.body) as Report;
    assert.equal(answer.status, 413, answer.body);
    // The line cut by the limit may be reported too (the network split it mid-line); nothing else.
    const codes = report.findings.map((finding) => finding.code);
    assert.ok(
      codes.includes('limit.input_bytes') && codes.filter((code) => code !== 'ndjson.invalid_json').length === 1,
      codes.join(),
    );
    assert.ok(sent < endless.byteLength, `answered after ${sent} of ${endless.byteLength} bytes`);
    assert.ok(report.stats.bytes_read <= SMALL_LIMIT + 64 * 1024, `read ${report.stats.bytes_read} bytes`);
  });

  it('keeps serving after a client disconnects mid-upload', async () => {
    const { request, response } = openUpload(`${workerd.urls['main']}?name=cut.jsonl`, {
      'content-type': 'application/x-ndjson',
    });
    await trickle(request, execLines(400), 16 * 1024, 2);
    request.destroy();
    await response.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(workerd.alive(), 'workerd is still running');
    assert.equal((await fetch(workerd.urls['main']!)).status, 200);
    await assertParity(cases.find((c) => c.format === 'agentxchain')!);
  });

  it('answers 20 concurrent uploads, each with its own report', async () => {
    const picked = FORMATS.flatMap((format) => {
      const ofFormat = cases.filter((c) => c.format === format);
      return Array.from({ length: 5 }, (_, index) => ofFormat[Math.floor((index * ofFormat.length) / 5)]!);
    });
    assert.equal(picked.length, 20);
    const answers = await Promise.all(picked.map((fixture) => post(fixture)));
    for (const [index, fixture] of picked.entries()) await assertParity(fixture, answers[index]);
  });

  it('answers misuse with 405 and 415, and GET with the usage text', async () => {
    const base = workerd.urls['main']!;
    const usage = await fetch(base);
    assert.equal(usage.status, 200);
    assert.match(await usage.text(), /POST \//);
    const put = await fetch(base, { method: 'PUT', body: '{}' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, HEAD, POST');
    const form = await fetch(base, {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    assert.equal(form.status, 415);
    const brotli = await fetch(base, { method: 'POST', body: 'x', headers: { 'content-encoding': 'br' } });
    assert.equal(brotli.status, 415);
    const badKind = await fetch(`${base}?kind=pdf`, { method: 'POST', body: '{}' });
    assert.equal(badKind.status, 400);
    assert.equal(((await badKind.json()) as { error: string }).error, 'bad_request');
  });
});

describe('edge worker in workerd with a tiny V8 heap', { timeout: 120_000 }, () => {
  let workerd: RunningWorkerd;

  before(async () => {
    // A 4 MB old space: anything kept per chunk or per line soon exhausts it. (workerd's own
    // pipeThrough kept ~7 MB per GB per pipe: with it, 30 MB of upload already killed this isolate.)
    workerd = await startWorkerd(
      [{ name: 'main', vars: { MAX_BODY_BYTES: String(512 * MiB) } }],
      {},
      { v8Flags: ['--max-old-space-size=4'] },
    );
  });
  after(async () => {
    await workerd?.stop();
  });

  it('verifies a 100 MB NDJSON upload in flat memory, plain and gzip', async () => {
    const size = 100 * MiB;
    const plain = await fetch(`${workerd.urls['main']}?name=long.jsonl`, {
      method: 'POST',
      body: execStream(size),
      duplex: 'half',
    } as RequestInit);
    const report = (await plain.json()) as Report;
    // The generated stream ends without exec:end: exactly the findings of its end, every line read.
    assert.deepEqual(
      report.findings.map((finding) => finding.code),
      ['codex-exec.end_missing', 'codex-exec.summary_missing'],
    );
    assert.ok(report.stats.bytes_read >= size, `${report.stats.bytes_read} bytes read`);
    assert.ok(workerd.alive());

    const gzipped = gzipSync(await new Response(execStream(size)).arrayBuffer(), { level: 1 });
    const compressed = await fetch(`${workerd.urls['main']}?name=long.jsonl.gz`, { method: 'POST', body: gzipped });
    const gzReport = (await compressed.json()) as Report;
    assert.deepEqual(
      gzReport.findings.map((finding) => finding.code),
      ['codex-exec.end_missing', 'codex-exec.summary_missing'],
    );
    assert.ok(gzReport.format === 'codex-exec' && report.format === 'codex-exec');
    assert.equal(gzReport.details.line_count, report.details.line_count);
  });
});

describe('deploy/wrangler.jsonc served by workerd', { timeout: 60_000 }, () => {
  let workerd: RunningWorkerd;
  const cases = allFixtureCases();

  before(async () => {
    workerd = await startWorkerdFromWrangler(join(PROJECT_ROOT, 'deploy/wrangler.jsonc'));
  });
  after(async () => {
    await workerd?.stop();
  });

  it('bundles the Workers module as wrangler would and answers like Node, one fixture per format', async () => {
    for (const format of FORMATS) {
      const fixture = cases.find((c) => c.format === format)!;
      const body = readFileSync(fixture.path);
      const response = await fetch(workerd.urls['main'] + caseQuery(fixture), { method: 'POST', body });
      const report = (await response.json()) as Report;
      const expected = await nodeReport(fixture);
      assert.deepEqual(comparable(report), comparable(expected), fixture.file);
      assert.equal(response.status, statusForReport(expected), fixture.file);
    }
  });
});
