// Every agent-history and codex-exec fixture through the core API in Chromium (mocha), bytes from
// test/fixtures and the file name passed so the `.gz` rule applies; plus streaming inputs,
// progress and abort.
//
// Fixture bytes come through the test runner's readFile command (base64), not `fixtureBytes`:
// the dev server turns every non-binary response into a string, which replaces invalid UTF-8 by
// U+FFFD and so silently repairs design-small-invalid-utf8.ndjson.
import { readFile } from '@web/test-runner-commands';
import { verifyAgentHistory } from '../../src/formats/agent-history/index.ts';
import { verifyCodexExec } from '../../src/formats/codex-exec/index.ts';
import { assertMatchesExpectation, type NdjsonCase } from '../conformance/agent-history-expect.ts';
import { fixtureManifest } from './fixtures.ts';
import type { Report } from '../../src/report.ts';

/** The fixture's exact bytes from test/fixtures, read by the test runner (path relative to this file). */
async function fixtureBytes(relative: string): Promise<Uint8Array<ArrayBuffer>> {
  const base64 = await readFile({ path: `../fixtures/${relative}`, encoding: 'base64' });
  if (base64 === undefined) throw new Error(`fixture ${relative} not found`);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

for (const [format, verify, count] of [
  ['agent-history', verifyAgentHistory, 59],
  ['codex-exec', verifyCodexExec, 48],
] as const) {
  describe(`${format} fixtures in Chromium`, () => {
    it(`every case (${count}) meets its expectation`, async () => {
      const cases = await fixtureManifest<NdjsonCase[]>(format);
      assert(cases.length === count, `${format}: found ${cases.length} cases, expected ${count}`);
      const failures: string[] = [];
      for (const testCase of cases) {
        const bytes = await fixtureBytes(`${format}/${testCase.file}`);
        const report: Report = await verify(bytes, { name: testCase.file });
        try {
          assertMatchesExpectation(report, testCase);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
      assert(failures.length === 0, failures.join('\n\n'));
    });
  });
}

describe('NDJSON streaming in Chromium', () => {
  it('gives the same report for a Blob, a Response and a 7-byte-chunk stream of a multi-member .gz', async () => {
    const bytes = await fixtureBytes('agent-history/design-small-multimember-midline.ndjson.gz');
    const name = 'design-small-multimember-midline.ndjson.gz';
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.byteLength) return controller.close();
        controller.enqueue(bytes.slice(offset, offset + 7));
        offset += 7;
      },
    });
    const reports = [
      await verifyAgentHistory(new Blob([bytes]), { name }),
      await verifyAgentHistory(new Response(bytes), { name }),
      await verifyAgentHistory(stream, { name }),
    ];
    const strip = (r: Report): string => JSON.stringify({ ...r, stats: null });
    assert(reports[0]!.overall === 'pass', `overall ${reports[0]!.overall}`);
    assert(strip(reports[1]!) === strip(reports[0]!) && strip(reports[2]!) === strip(reports[0]!), 'reports differ');
  });

  it('reports progress and honours an AbortSignal', async () => {
    const bytes = await fixtureBytes('codex-exec/real-interleaved.jsonl');
    const seen: number[] = [];
    await verifyCodexExec(bytes, { onProgress: (read) => seen.push(read) });
    assert(seen.at(-1) === bytes.byteLength, `progress ended at ${seen.at(-1)}`);
    const controller = new AbortController();
    controller.abort();
    const report = await verifyCodexExec(bytes, { signal: controller.signal });
    assert(report.overall === 'error' && report.findings.some((f) => f.code === 'input.aborted'), 'aborted');
  });
});
