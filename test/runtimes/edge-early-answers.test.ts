// Every early answer of the edge worker reaches a client that uploads at full speed (issue 15,
// item 2): a 413 for an over-limit Content-Length, 415, 405 and 400 before the body is read,
// and a limit that stops mid-body. Each upload is over 100 MiB, written as fast as the socket
// takes it (as curl does), through real workerd: a server that closes with unread bytes makes the
// client's TCP stack reset the connection, and the client then loses the answer to EPIPE.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startWorkerd, type RunningWorkerd } from './harness.ts';

const MiB = 1024 * 1024;
const SPACES = new Uint8Array(110 * MiB).fill(0x20);
/** Well-formed codex-exec JSONL lines: read until the body limit (100 MiB by default) stops them. */
const LINES = new Uint8Array(110 * MiB);
LINES.set(new TextEncoder().encode('{"type":"exec:chunk"}\n'.repeat(Math.floor(LINES.byteLength / 22))));

/** An answer, or how the upload failed before it could be read. */
type Outcome = { status: number; body: string } | { lost: string };

/** Sends `body` (default SPACES) at full speed, with a Content-Length or chunked: the answer, or the loss. */
function upload(
  url: string,
  init: { method?: string; headers?: Record<string, string>; chunked?: boolean; body?: Uint8Array },
): Promise<Outcome> {
  const body = init.body ?? SPACES;
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...init.headers };
    if (!init.chunked) headers['content-length'] = body.byteLength;
    const request = httpRequest(url, { method: init.method ?? 'POST', headers });
    request.on('socket', (socket) => socket.on('error', () => undefined));
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ lost: error.code ?? error.message }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ lost: error.code ?? error.message }));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    if (init.chunked) {
      for (let offset = 0; offset < body.byteLength; offset += MiB) request.write(body.subarray(offset, offset + MiB));
      request.end();
    } else {
      request.end(body);
    }
  });
}

describe('early answers of the edge worker in workerd, at full upload speed', { timeout: 240_000 }, () => {
  let workerd: RunningWorkerd;

  before(async () => {
    workerd = await startWorkerd([{ name: 'main' }]);
  });
  after(async () => {
    await workerd?.stop();
  });

  /** Sends `times` uploads one after another; every one must be answered with `status`. */
  async function assertAnswered(
    what: string,
    times: number,
    init: Parameters<typeof upload>[1] & { query?: string },
    status: number,
    check: (body: string) => void,
  ): Promise<void> {
    const lost: string[] = [];
    for (let attempt = 0; attempt < times; attempt++) {
      const outcome = await upload(workerd.urls['main']! + (init.query ?? ''), init);
      if ('lost' in outcome) {
        lost.push(`#${attempt}: ${outcome.lost}`);
        continue;
      }
      assert.equal(outcome.status, status, `${what}: ${outcome.body.slice(0, 200)}`);
      check(outcome.body);
    }
    assert.deepEqual(lost, [], `${what}: answers lost`);
  }

  const findingCodes = (body: string): string[] =>
    (JSON.parse(body) as { findings: { code: string }[] }).findings.map((finding) => finding.code);

  it('answers 413 for an over-limit Content-Length, 10 uploads of 110 MiB, none lost', async () => {
    await assertAnswered('413 Content-Length', 10, {}, 413, (body) =>
      assert.deepEqual(findingCodes(body), ['limit.input_bytes']),
    );
  });

  it('answers 415, 405 and 400 before reading the body, none lost', async () => {
    const error = (expected: string) => (body: string) =>
      assert.equal((JSON.parse(body) as { error: string }).error, expected);
    await assertAnswered(
      '415',
      2,
      { headers: { 'content-type': 'multipart/form-data; boundary=x' } },
      415,
      error('unsupported_media_type'),
    );
    await assertAnswered('405', 2, { method: 'PUT' }, 405, error('method_not_allowed'));
    await assertAnswered('400 parameter', 2, { query: '?kind=pdf' }, 400, error('bad_request'));
  });

  it('answers 400 after the first bytes of a chunked upload (not gzip, no known format), none lost', async () => {
    // Without a Content-Length, the worker drains up to maxBodyBytes (100 MiB) more: the whole of
    // any upload the limit allows.
    const body = SPACES.subarray(0, 99 * MiB);
    await assertAnswered(
      '400 not gzip',
      2,
      { chunked: true, body, headers: { 'content-encoding': 'gzip' } },
      400,
      (body) => assert.deepEqual(findingCodes(body), ['gzip.not_gzip']),
    );
    await assertAnswered('400 unknown format', 2, { chunked: true, body }, 400, (body) =>
      assert.ok(findingCodes(body).includes('input.unknown_format'), body.slice(0, 300)),
    );
  });

  it('answers 413 when a limit stops a chunked upload mid-body, none lost', async () => {
    await assertAnswered('413 mid-body', 2, { chunked: true, body: LINES }, 413, (body) =>
      assert.ok(findingCodes(body).includes('limit.input_bytes'), body.slice(0, 300)),
    );
  });
});
