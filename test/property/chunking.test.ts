// Property: how the input stream is cut into chunks never changes the report (everything but
// stats.duration_ms) — 1-byte chunks, random sizes, cuts inside gzip headers, trailers and across
// member boundaries — and splitting a file into gzip members at arbitrary points changes nothing
// but the container facts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { verifyAgentHistory } from '../../src/formats/agent-history/index.ts';
import { verifyCodexExec } from '../../src/formats/codex-exec/index.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import type { Report } from '../../src/report.ts';

type Verifier = (input: Uint8Array | ReadableStream<Uint8Array>, options: { name: string }) => Promise<Report>;

const CASES: [string, string, Verifier][] = [
  ['agent-history', 'design-small.ndjson.gz', verifyAgentHistory],
  ['agent-history', 'design-small-multimember-midline.ndjson.gz', verifyAgentHistory],
  ['agent-history', 'design-small-bad-crc.ndjson.gz', verifyAgentHistory],
  ['agent-history', 'design-small-truncated.ndjson.gz', verifyAgentHistory],
  ['agent-history', 'design-small-trailing-garbage.ndjson.gz', verifyAgentHistory],
  ['agent-history', 'design-small-crlf.ndjson', verifyAgentHistory],
  ['agent-history', 'design-small-bom.ndjson', verifyAgentHistory],
  ['agent-history', 'design-small-invalid-utf8.ndjson', verifyAgentHistory],
  ['agent-history', 'impl-small-codex-message-after-summary.ndjson', verifyAgentHistory],
  ['codex-exec', 'real-split-utf8.jsonl', verifyCodexExec],
  ['codex-exec', 'interleaved-sequence-gap.jsonl', verifyCodexExec],
  ['codex-exec', 'interleaved-no-trailing-newline.jsonl', verifyCodexExec],
];

/** A stream that hands out `bytes` cut at `cuts` (offsets, any order, duplicates ignored). */
function chunked(bytes: Uint8Array, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((c) => c % (bytes.byteLength + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.byteLength]) {
    if (point > start) pieces.push(bytes.subarray(start, point));
    start = point;
  }
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

function oneByteChunks(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return chunked(
    bytes,
    Array.from({ length: bytes.byteLength }, (_, i) => i),
  );
}

/** The report without its timing (the only part allowed to differ). */
function comparable(report: Report): unknown {
  return { ...report, stats: { bytes_read: report.stats.bytes_read } };
}

describe('any chunking gives the identical report', () => {
  for (const [format, file, verify] of CASES) {
    const bytes = new Uint8Array(readFileSync(fixturePath(format, file)));
    it(`${format}/${file}`, async () => {
      const reference = comparable(await verify(bytes, { name: file }));
      assert.deepEqual(comparable(await verify(oneByteChunks(bytes), { name: file })), reference, '1-byte chunks');
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat({ max: bytes.byteLength }), { maxLength: 40 }), async (cuts) => {
          assert.deepEqual(comparable(await verify(chunked(bytes, cuts), { name: file })), reference);
        }),
        { numRuns: 25 },
      );
    });
  }
});

describe('gzip members split anywhere', () => {
  for (const [format, file, verify] of [
    ['agent-history', 'design-small.ndjson', verifyAgentHistory],
    ['agent-history', 'design-small-no-trailing-newline.ndjson', verifyAgentHistory],
    ['codex-exec', 'interleaved-retry-ok.jsonl', verifyCodexExec],
  ] as [string, string, Verifier][]) {
    const plain = new Uint8Array(readFileSync(fixturePath(format, file)));
    it(`${format}/${file}`, async () => {
      const reference = comparable(await verify(plain, { name: file })) as { details: Record<string, unknown> };
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.nat({ max: plain.byteLength }), { minLength: 1, maxLength: 6 }),
          fc.array(fc.nat(), { maxLength: 20 }),
          async (memberCuts, chunkCuts) => {
            const points = [...new Set([0, ...memberCuts, plain.byteLength])].sort((a, b) => a - b);
            const members = points.slice(1).map((end, i) => gzipSync(plain.subarray(points[i], end)));
            const gz = new Uint8Array(Buffer.concat(members));
            const report = comparable(
              await verify(
                chunked(
                  gz,
                  chunkCuts.map((c) => c % (gz.byteLength + 1)),
                ),
                { name: file },
              ),
            ) as typeof reference & { stats: unknown };
            assert.deepEqual(
              { ...report, details: { ...report.details, bytes_in: 0, compressed: false }, stats: 0 },
              { ...reference, details: { ...reference.details, bytes_in: 0, compressed: false }, stats: 0 },
            );
          },
        ),
        { numRuns: 25 },
      );
    });
  }
});

describe('damaged gzip: the same report for any chunking', () => {
  const gz = new Uint8Array(readFileSync(fixturePath('agent-history', 'design-small.ndjson.gz')));
  it('agent-history/design-small.ndjson.gz with a byte flipped, deleted or inserted anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: gz.byteLength - 1 }),
        fc.integer({ min: 1, max: 255 }),
        fc.constantFrom('flip', 'delete', 'insert'),
        fc.array(fc.nat({ max: gz.byteLength }), { maxLength: 30 }),
        async (at, value, edit, cuts) => {
          const bytes = Array.from(gz);
          if (edit === 'flip') bytes[at]! ^= value;
          else if (edit === 'delete') bytes.splice(at, 1);
          else bytes.splice(at, 0, value);
          const damaged = Uint8Array.from(bytes);
          const name = 'damaged.ndjson.gz';
          const reference = comparable(await verifyAgentHistory(damaged, { name }));
          assert.deepEqual(comparable(await verifyAgentHistory(chunked(damaged, cuts), { name })), reference);
        },
      ),
      { numRuns: 60 },
    );
  });
});
