// Input that is not JSON, given as a whole-document format (`kind: 'zaxy'` or `'agentxchain'`),
// is not buffered up to limits.maxBufferedBytes before it fails: reading stops at the first byte
// that cannot start or continue the document (AgentXchain), or holds nothing past it and only
// checks the rest as UTF-8 (Zaxy, whose Python decodes the whole file before parsing). The answer
// is the one reading the whole document gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { toAgentxchainJson, toZaxyJson, verify, type Report } from '../../src/index.ts';
import { createDocumentReader, readJsonDocument } from '../../src/json/reader.ts';
import { createJsonPrefixChecker } from '../../src/json/prefix.ts';

const MiB = 1024 ** 2;
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** `total` bytes of `fill`, after `head`, in 1 MiB chunks; counts what the verifier pulled. */
function endless(
  head: Uint8Array,
  fill: number,
  total: number,
): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const chunk = new Uint8Array(MiB).fill(fill);
  let first = true;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (first) {
          first = false;
          sent += head.byteLength;
          controller.enqueue(head);
          return;
        }
        if (sent >= total) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => sent };
}

test('AgentXchain: 256 MiB of zeros stop after a few MiB, with the message JSON.parse gives', async () => {
  const { stream, pulled } = endless(new Uint8Array(0), 0, 256 * MiB);
  const report = await verify(stream, { kind: 'agentxchain' });
  assert.deepEqual(
    report.findings.map((f) => f.code),
    ['input.not_json'],
  );
  assert.equal(report.findings[0]!.message, `Unexpected token '\u0000', "${'\u0000'.repeat(10)}"... is not valid JSON`);
  assert.ok(pulled() < 16 * MiB, `pulled ${pulled() / MiB} MiB`);
});

test('AgentXchain: junk after a document, and a bad byte deep inside, word the error as a whole read does', async () => {
  const real = new Uint8Array(readFileSync(new URL('../fixtures/agentxchain/real-fresh.json', import.meta.url)));
  const cases = [
    Uint8Array.from([...real, 0x20, 0x78, ...new Uint8Array(5000).fill(0x41)]),
    Uint8Array.from([...real.subarray(0, 3000), 0x01, ...real.subarray(3001)]),
    Uint8Array.from([...real.subarray(0, 1), 0xc3, 0xa9, ...real.subarray(1)]),
    Uint8Array.from([0xef, 0xbb, 0xbf, ...real]),
    encode('{"a": tru}'),
    encode('[1, 2] 3'),
  ];
  for (const bytes of cases) {
    let expected: string | undefined;
    try {
      JSON.parse(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes));
    } catch (error) {
      expected = (error as Error).message;
    }
    assert.ok(expected !== undefined, 'the case does not parse');
    const report = await verify(bytes, { kind: 'agentxchain' });
    const compat = toAgentxchainJson(report);
    assert.equal('message' in compat ? compat.message : undefined, `Invalid JSON export artifact: ${expected}`);
  }
});

test('Zaxy: 256 MiB of text that is not JSON are read without being held; the answer is the whole read’s', async () => {
  const { stream } = endless(new Uint8Array(0), 0x41, 256 * MiB);
  const before = process.memoryUsage().rss;
  const report: Report = await verify(stream, { kind: 'zaxy' });
  const grown = process.memoryUsage().rss - before;
  assert.deepEqual(toZaxyJson(report), {
    ok: false,
    reason:
      'cannot read the bundle: not a JSON document Python can read (json.JSONDecodeError: Expecting value: line 1 column 1 (char 0))',
  });
  assert.ok(grown < 128 * MiB, `RSS grew by ${Math.round(grown / MiB)} MiB`);
});

test('createDocumentReader: a document refused early holds ~64 bytes past the refusal, and answers as a whole read', () => {
  const visitor = { streamKeys: ['a'], startArray: () => undefined, element: () => undefined };
  const padding = `"pad": "${'p'.repeat(200_000)}", `;
  const cases = [
    { head: '{"a": [1, 2], "b": x', fill: 0x41 },
    // past the first chunk, inside the root object, the walk itself finds the bad byte: in a
    // streamed array, in a member value, in a key, and after a value that ended
    { head: `{${padding}"a": [1, 2, `, fill: 0x00 },
    { head: `{${padding}"a": [{"k": "v"}, {"k": `, fill: 0x78 },
    { head: `{${padding}"b": {"c": [true, "`, fill: 0x01 },
    { head: `{${padding}"b": 1, "`, fill: 0x0a },
    { head: `{${padding}"a": [1] `, fill: 0x41 },
    { head: '   ', fill: 0x00 },
    { head: '{"a": "', fill: 0x01 },
    { head: '[NaN, -Infinity] ', fill: 0x7d },
    // invalid UTF-8 after the syntax error wins, as Python decodes first
    { head: '{"a": 1} x', fill: 0x41, tail: [0xff] },
    { head: '{"a": 1} \u00e9x', fill: 0x41, tail: [0xe2, 0x28] },
  ];
  for (const { head, fill, tail } of cases) {
    const bytes = Uint8Array.from([...encode(head), ...new Uint8Array(4 * MiB).fill(fill), ...(tail ?? [])]);
    const reader = createDocumentReader(visitor);
    for (let at = 0; at < bytes.length; at += 65_536) reader.push(bytes.subarray(at, at + 65_536));
    const label = head.replace(padding, '…');
    assert.deepEqual(reader.finish(), readJsonDocument(bytes, visitor), label);
    assert.ok(reader.heldBytes() < 70_000 + head.length, `${label}: holds ${reader.heldBytes()} bytes`);
    assert.equal(reader.pushedBytes(), bytes.length);
    assert.equal(reader.bytes(), undefined, 'no second reading of bytes not held');
  }
});

test('createJsonPrefixChecker never refuses a document JSON.parse (or Python) accepts, however it is chunked', () => {
  const valid = [
    '{"a": [1, -0.5e+10, 0, 1E5, true, false, null, "\\u00e9\\n\\"", {}, []]}',
    ' [ ] ',
    '"x"',
    '-0',
    readFileSync(new URL('../fixtures/zaxy/signed-ed25519-n33.json', import.meta.url), 'utf8'),
  ];
  for (const text of valid) {
    const bytes = encode(text);
    for (const size of [1, 2, 3, 7, bytes.length]) {
      const checker = createJsonPrefixChecker();
      for (let at = 0; at < bytes.length; at += size) assert.equal(checker.push(bytes.subarray(at, at + size)), -1);
    }
  }
  const python = createJsonPrefixChecker({ python: true });
  assert.equal(python.push(encode('[NaN, Infinity, -Infinity]')), -1);
  assert.equal(createJsonPrefixChecker().push(encode('[NaN]')), 1);
  for (const [text, at] of [
    ['01', 1],
    ['{"a" 1}', 5],
    ['[1,]', 3],
    ['{} {}', 3],
    ['"a\u0001"', 2],
    ['"\\q"', 2],
    ['\ufeff{}', 0],
  ] as const) {
    assert.equal(createJsonPrefixChecker().push(encode(text)), at, text);
  }
});

test('AgentXchain: a raw control byte in a string deep in a large document stops the read there', async () => {
  const head = encode('{"schema_version": "0.3", "note": "');
  const body = new Uint8Array(8 << 20).fill(0x41);
  body[1000] = 0x01;
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === 0) controller.enqueue(head);
      else if (pulled <= 64) controller.enqueue(body.subarray((pulled - 1) * 131072, pulled * 131072));
      else controller.close();
      pulled++;
    },
  });
  const report = await verify(stream, { kind: 'agentxchain' });
  const compat = toAgentxchainJson(report);
  assert.equal(compat.overall, 'error');
  assert.match('message' in compat ? String(compat.message) : '', /^Invalid JSON export artifact: /);
  assert.ok(pulled < 10, `read ${pulled} chunks of 128 KiB after the bad byte`);
});
