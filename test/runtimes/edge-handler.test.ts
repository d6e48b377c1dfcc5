// handleVerifyRequest in Node (web-standard Request/Response): the HTTP contract of
// docs/architecture.md, 'Edge worker', fast and without a server. The same handler runs in workerd
// and Deno (their own tests).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { handleVerifyRequest, optionsFromEnv, statusForReport, type EdgeOptions } from '../../src/edge/index.ts';
import { execStream } from './exec-stream.ts';
import { chunkedStream } from './chunked.ts';
import { allFixtureCases, caseQuery, comparable, nodeReport } from './harness.ts';
import type { Report } from '../../src/report.ts';

const URL_BASE = 'http://edge.test/';

function post(body: BodyInit | null, init: { query?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(URL_BASE + (init.query ?? ''), {
    method: 'POST',
    body,
    headers: init.headers ?? {},
    duplex: 'half',
  } as RequestInit);
}

async function answer(
  request: Request,
  options?: EdgeOptions,
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const response = await handleVerifyRequest(request, options);
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as Record<string, unknown>,
  };
}

/** A well-formed endless codex-exec body that counts how much of it was pulled. */
function endlessBody(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const reader = execStream().getReader();
  return {
    stream: new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value } = await reader.read();
        pulled += value!.byteLength;
        controller.enqueue(value!);
      },
    }),
    pulled: () => pulled,
  };
}

function hasCode(report: Report, code: string): boolean {
  return report.findings.some((finding) => finding.code === code);
}

describe('edge handler: the HTTP contract', () => {
  const fixture = allFixtureCases().find((c) => c.format === 'agentxchain')!;

  it('answers POST with the report Node verify produces, and the status it maps to', async () => {
    const { status, json } = await answer(post(readFileSync(fixture.path), { query: `?name=${fixture.file}` }));
    const expected = await nodeReport(fixture);
    assert.deepEqual(comparable(json as unknown as Report), comparable(expected));
    assert.equal(status, statusForReport(expected));
  });

  it('labels the report `request` unless ?name= is given', async () => {
    const { json } = await answer(post('{}'));
    assert.equal(json['input'], 'request');
  });

  it('maps reports to 200, 422, 413, 500 and 400', () => {
    const report = (overall: Report['overall'], code?: string): Report =>
      ({ overall, findings: code ? [{ code, path: '$', message: '', severity: 'error' }] : [] }) as unknown as Report;
    assert.equal(statusForReport(report('pass')), 200);
    assert.equal(statusForReport(report('fail', 'gzip.crc_mismatch')), 422);
    for (const code of [
      'limit.input_bytes',
      'limit.buffered_bytes',
      'limit.decompressed_bytes',
      'limit.compression_ratio',
    ]) {
      assert.equal(statusForReport(report('error', code)), 413, code);
    }
    assert.equal(statusForReport(report('error', 'kit.internal_error')), 500);
    assert.equal(statusForReport(report('error', 'input.not_json')), 400);
    assert.equal(statusForReport(report('error', 'input.unknown_format')), 400);
  });

  it('answers GET with usage text and HEAD with headers only', async () => {
    const get = await handleVerifyRequest(new Request(URL_BASE));
    assert.equal(get.status, 200);
    assert.match(get.headers.get('content-type')!, /^text\/plain/);
    assert.match(await get.text(), /expect_public_key/);
    const head = await handleVerifyRequest(new Request(URL_BASE, { method: 'HEAD' }));
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  it('refuses other methods with 405 and an Allow header', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const { status, headers, json } = await answer(new Request(URL_BASE, { method }));
      assert.equal(status, 405, method);
      assert.equal(headers.get('allow'), 'GET, HEAD, POST');
      assert.equal(json['error'], 'method_not_allowed');
    }
  });

  it('refuses form uploads and unknown encodings with 415', async () => {
    for (const headers of [
      { 'content-type': 'multipart/form-data; boundary=x' },
      { 'content-type': 'image/png' },
      { 'content-encoding': 'br' },
      { 'content-encoding': 'gzip, gzip' },
    ]) {
      const { status, json } = await answer(post('{}', { headers }));
      assert.equal(status, 415, JSON.stringify(headers));
      assert.equal(json['error'], 'unsupported_media_type');
    }
    for (const type of [
      'application/json',
      'application/x-ndjson; charset=utf-8',
      'application/gzip',
      'application/octet-stream',
      'text/plain',
      'application/vnd.x+json',
      'application/x-www-form-urlencoded',
    ]) {
      const { status } = await answer(post('{}', { headers: { 'content-type': type } }));
      assert.equal(status, 400, type); // read and verified: `{}` is no known format
    }
  });

  it('refuses bad parameters with 400', async () => {
    for (const query of ['?kind=pdf', '?strict=maybe', `?name=${'n'.repeat(1025)}`, '?name=']) {
      const { status, json } = await answer(post('{}', { query }));
      assert.equal(status, 400, query);
      assert.equal(json['error'], 'bad_request', query);
    }
    const both = await answer(post('{}', { query: '?expect_public_key=aa', headers: { 'x-expect-public-key': 'bb' } }));
    assert.equal(both.status, 400);
  });

  it('refuses a declared oversize body with 413 without verifying any of it, then drains what was declared', async () => {
    const body = endlessBody();
    const declared = 10 * 1024 * 1024;
    const { status, json } = await answer(post(body.stream, { headers: { 'content-length': String(declared) } }), {
      maxBodyBytes: 1024 * 1024,
    });
    assert.equal(status, 413);
    const report = json as unknown as Report;
    assert.equal(report.overall, 'error');
    assert.equal(report.findings[0]?.code, 'limit.input_bytes');
    assert.equal(report.stats.bytes_read, 0);
    // The answer ends once the declared body has been read and discarded (a client still sending
    // is not reset), and not much beyond it (a few chunks the streams pre-fill).
    assert.ok(body.pulled() >= declared, `pulled ${body.pulled()} bytes`);
    assert.ok(body.pulled() <= declared + 4 * 64 * 1024, `pulled ${body.pulled()} bytes`);
  });

  it('drains the body of every refusal before its answer ends (405, 415, 400)', async () => {
    for (const [request, status] of [
      [
        (stream: ReadableStream<Uint8Array>) =>
          new Request(URL_BASE, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit),
        405,
      ],
      [(stream: ReadableStream<Uint8Array>) => post(stream, { headers: { 'content-type': 'image/png' } }), 415],
      [(stream: ReadableStream<Uint8Array>) => post(stream, { query: '?kind=pdf' }), 400],
    ] as const) {
      const total = 3 * 1024 * 1024;
      let pulled = 0;
      const chunk = new Uint8Array(64 * 1024);
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= total) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const response = await handleVerifyRequest(request(stream));
      assert.equal(response.status, status);
      await response.text();
      assert.equal(pulled, total, `${status}: the whole upload was read before the answer ended`);
    }
  });

  it('answers 413 from an endless body after reading just past the limit', async () => {
    const body = endlessBody();
    const limit = 256 * 1024;
    const response = await handleVerifyRequest(post(body.stream), { maxBodyBytes: limit });
    const pulledWhenAnswered = body.pulled();
    assert.equal(response.status, 413);
    assert.ok(
      pulledWhenAnswered <= limit + 4 * 64 * 1024,
      `pulled ${pulledWhenAnswered} bytes for a ${limit}-byte limit`,
    );
    const report = (await response.json()) as Report;
    assert.deepEqual(
      report.findings.map((finding) => finding.code),
      ['limit.input_bytes'],
    );
    // Lingering then discards at most one more limit's worth before closing the upload.
    assert.ok(body.pulled() <= 2 * limit + 4 * 64 * 1024, `pulled ${body.pulled()} bytes in all`);
  });

  it('reads the rest of an upload it answered early, so the answer is not reset, then closes it', async () => {
    const limit = 64 * 1024;
    let pulled = 0;
    let cancelled = false;
    const chunk = new TextEncoder().encode('{"type":"exec:chunk"}\n'.repeat(512));
    const finite = (total: number): ReadableStream<Uint8Array> =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= total) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
        cancel() {
          cancelled = true;
        },
      });
    // A body that ends within the budget is read to its end, and only then does the answer end.
    const whole = await handleVerifyRequest(post(finite(limit * 1.5)), { maxBodyBytes: limit });
    assert.equal(whole.status, 413);
    assert.ok(hasCode((await whole.json()) as Report, 'limit.input_bytes'));
    assert.ok(pulled >= limit * 1.5 && !cancelled, `pulled ${pulled}, cancelled ${cancelled}`);

    // A body that stalls is given up after lingerMs, and cancelled.
    pulled = 0;
    let stalled = false;
    const stalling = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled > limit) {
          stalled = true;
          return new Promise<void>(() => undefined);
        }
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
        return undefined;
      },
      cancel() {
        cancelled = true;
      },
    });
    const started = Date.now();
    const stalledAnswer = await handleVerifyRequest(post(stalling), { maxBodyBytes: limit, lingerMs: 200 });
    assert.ok(hasCode((await stalledAnswer.json()) as Report, 'limit.input_bytes'));
    assert.ok(stalled && cancelled, 'the stalled upload is cancelled after lingering');
    assert.ok(Date.now() - started >= 200, 'lingered for lingerMs');

    // lingerMs: 0 cancels at once.
    cancelled = false;
    pulled = 0;
    const closing = await handleVerifyRequest(post(finite(limit * 8)), { maxBodyBytes: limit, lingerMs: 0 });
    await closing.json();
    assert.ok(cancelled && pulled < limit * 8, `pulled ${pulled} of ${limit * 8}`);
  });

  it('keeps little of a Zaxy upload (maxRetainedBytes): a bundle verifies as in Node, a subset gets 413', async () => {
    const zaxy = allFixtureCases().filter((c) => c.format === 'zaxy');
    const bundle = zaxy.find((c) => c.file === 'signed-ed25519-n33.json')!;
    const subset = zaxy.find((c) => c.file === 'subset-ed25519-n100-middle.json')!;
    const options = { limits: { maxRetainedBytes: 256 } };
    const signed = await answer(
      post(chunkedStream(new Uint8Array(readFileSync(bundle.path)), 100), { query: caseQuery(bundle) }),
      options,
    );
    assert.deepEqual(comparable(signed.json as unknown as Report), comparable(await nodeReport(bundle)));
    assert.equal(signed.status, 200);
    const refused = await answer(
      post(chunkedStream(new Uint8Array(readFileSync(subset.path)), 100), { query: caseQuery(subset) }),
      options,
    );
    assert.equal(refused.status, 413);
    assert.ok(hasCode(refused.json as unknown as Report, 'limit.retained_bytes'));
  });

  it('caps limits.maxInputBytes by maxBodyBytes, and keeps a lower one', async () => {
    const small = await answer(post('x'.repeat(2000)), { maxBodyBytes: 1000 });
    assert.equal(small.status, 413);
    const lower = await answer(post('x'.repeat(2000)), { maxBodyBytes: 1_000_000, limits: { maxInputBytes: 500 } });
    assert.equal(lower.status, 413);
  });

  it('reads a gzip body by its magic, and holds Content-Encoding: gzip to it', async () => {
    const gz = gzipSync(readFileSync(fixture.path));
    const plain = await answer(post(gz, { query: `?name=${fixture.file}` }));
    const declared = await answer(
      post(gz, { query: `?name=${fixture.file}`, headers: { 'content-encoding': 'gzip' } }),
    );
    assert.deepEqual(comparable(declared.json as unknown as Report), comparable(plain.json as unknown as Report));
    const liar = await answer(post('{"not":"gzip"}', { headers: { 'content-encoding': 'gzip' } }));
    assert.equal(liar.status, 400);
    assert.equal((liar.json as unknown as Report).findings[0]?.code, 'gzip.not_gzip');
  });

  it('turns a body that fails mid-read into input.unreadable, not an internal error', async () => {
    let sent = 0;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 0) controller.error(new Error('connection reset'));
        else controller.enqueue(new TextEncoder().encode('{"type":"exec:'));
      },
    });
    const { status, json } = await answer(post(broken));
    const codes = (json as unknown as Report).findings.map((finding) => finding.code);
    assert.ok(codes.includes('input.unreadable'), codes.join());
    assert.ok(!codes.includes('kit.internal_error'), codes.join());
    assert.equal(status, 400);
  });

  it('adds CORS headers only when enabled, and answers preflight then', async () => {
    const origin = { origin: 'https://app.example' };
    const off = await handleVerifyRequest(post('{}', { headers: origin }));
    assert.equal(off.headers.get('access-control-allow-origin'), null);
    const any = await handleVerifyRequest(post('{}', { headers: origin }), { cors: true });
    assert.equal(any.headers.get('access-control-allow-origin'), '*');
    const listed = await handleVerifyRequest(post('{}', { headers: origin }), { cors: ['https://app.example'] });
    assert.equal(listed.headers.get('access-control-allow-origin'), 'https://app.example');
    assert.equal(listed.headers.get('vary'), 'Origin');
    const other = await handleVerifyRequest(post('{}', { headers: { origin: 'https://evil.example' } }), {
      cors: ['https://app.example'],
    });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    const preflight = await handleVerifyRequest(
      new Request(URL_BASE, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST' } }),
      { cors: true },
    );
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-methods')!, /POST/);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /X-Expect-Public-Key/);
  });

  it('reads its options from environment strings, ignoring malformed numbers', () => {
    assert.deepEqual(optionsFromEnv({}), {});
    assert.deepEqual(
      optionsFromEnv({
        MAX_BODY_BYTES: '1048576',
        MAX_BUFFERED_BYTES: '2048',
        MAX_RETAINED_BYTES: '1024',
        CORS_ORIGINS: ' https://a.example , https://b.example ',
      }),
      {
        maxBodyBytes: 1048576,
        limits: { maxBufferedBytes: 2048, maxRetainedBytes: 1024 },
        cors: ['https://a.example', 'https://b.example'],
      },
    );
    assert.deepEqual(
      optionsFromEnv({ MAX_BODY_BYTES: '1e9', MAX_BUFFERED_BYTES: '-5', MAX_RETAINED_BYTES: 'x', CORS_ORIGINS: '*' }),
      { cors: true },
    );
    // Read as the CLI's limit flags are: IEC units, nothing hexadecimal, fractional or past 2^53.
    assert.deepEqual(optionsFromEnv({ MAX_BODY_BYTES: ' 64MiB ', MAX_BUFFERED_BYTES: '8KiB' }), {
      maxBodyBytes: 64 << 20,
      limits: { maxBufferedBytes: 8192 },
    });
    assert.deepEqual(
      optionsFromEnv({ MAX_BODY_BYTES: '0x10', MAX_BUFFERED_BYTES: '1.5', MAX_RETAINED_BYTES: '9007199254740993' }),
      {},
    );
  });

  it('throws TypeError for a misconfigured maxBodyBytes or lingerMs (operator error)', async () => {
    await assert.rejects(handleVerifyRequest(post('{}'), { lingerMs: -1 }), TypeError);
    await assert.rejects(handleVerifyRequest(post('{}'), { lingerMs: 0.5 }), TypeError);
    await assert.rejects(handleVerifyRequest(post('{}'), { maxBodyBytes: 0 }), TypeError);
    await assert.rejects(handleVerifyRequest(post('{}'), { maxBodyBytes: 1.5 }), TypeError);
  });
});
