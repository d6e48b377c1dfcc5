// A handful of agent-history and codex-exec fixtures through the real CLI process (file and
// stdin, plain and gzip, format auto-detected): exit code and the JSON report agree with the
// fixture's expectation. Run `npm run build` first (the CLI runs from dist/).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { verify } from '../../src/verify.ts';
import { execLines } from '../runtimes/exec-stream.ts';
import { runCli } from '../helpers/cli.ts';
import { fixturePath, loadCases } from '../helpers/fixtures.ts';
import { assertMatchesExpectation, type NdjsonCase } from './agent-history-expect.ts';
import type { Report } from '../../src/report.ts';

const PICKS: Record<string, string[]> = {
  'agent-history': [
    'design-small.ndjson.gz',
    'design-small-multimember-midline.ndjson.gz',
    'design-small-bad-crc.ndjson.gz',
    'design-small-trailing-garbage.ndjson.gz',
    'design-small-not-gzip.ndjson.gz',
    'design-small-header-missing.ndjson',
    'design-small-bom.ndjson',
    'real-impl-small-gemini-20251120092438_session-2025-11-20T09-24-c870fef2.ndjson',
    'impl-small-codex-message-after-summary.ndjson',
  ],
  'codex-exec': [
    'real-split-utf8.jsonl',
    'interleaved-end-stdout-mismatch.jsonl',
    'interleaved-crlf.jsonl',
    'success-chunk-attempt2-no-begin.jsonl',
  ],
};

describe('agent-history and codex-exec through the CLI', () => {
  for (const [format, files] of Object.entries(PICKS)) {
    const cases = loadCases<NdjsonCase>(format);
    for (const file of files) {
      const testCase = cases.find((c) => c.file === file);
      it(`${format}/${file} (file argument)`, () => {
        assert.ok(testCase, `${file} is in the manifest`);
        const result = runCli(['--format', 'json', fixturePath(format, file)]);
        const report = JSON.parse(result.stdout) as Report;
        assert.equal(report.format, format);
        assertMatchesExpectation(report, testCase);
        assert.equal(result.status, testCase.expected.valid ? 0 : report.overall === 'error' ? 2 : 1);
      });
    }
  }

  for (const [format, file] of [
    ['agent-history', 'design-small.ndjson.gz'],
    ['agent-history', 'design-small-truncated.ndjson.gz'],
    ['codex-exec', 'interleaved-sequence-gap.jsonl'],
  ] as const) {
    it(`${format}/${file} from stdin`, () => {
      const testCase = loadCases<NdjsonCase>(format).find((c) => c.file === file)!;
      const result = runCli(['--format', 'json', '-'], { input: readFileSync(fixturePath(format, file)) });
      const report = JSON.parse(result.stdout) as Report;
      assert.equal(report.input, 'stdin');
      assert.equal(report.format, format);
      assertMatchesExpectation(report, testCase);
      assert.equal(result.status, testCase.expected.valid ? 0 : 1);
    });
  }

  // Files over 4 MiB are not read whole: the CLI streams them from disk in 1 MiB reads.
  it('streams a file over 4 MiB from disk: the report the core gives for its bytes, plain and gzip', async () => {
    const bytes = execLines(40_000);
    assert.ok(bytes.length > 6 * 2 ** 20, `${bytes.length} bytes`);
    const folder = mkdtempSync(join(tmpdir(), 'verify-export-cli-'));
    try {
      for (const [name, content] of [
        ['long.jsonl', bytes],
        ['long.jsonl.gz', gzipSync(bytes, { level: 1 })],
      ] as const) {
        const file = join(folder, name);
        writeFileSync(file, content);
        const result = runCli(['--format', 'json', file]);
        assert.equal(result.stderr, '', name);
        const report = JSON.parse(result.stdout) as Report;
        const expected = await verify(content, { name: file });
        assert.deepEqual({ ...report, stats: null }, { ...expected, stats: null }, name);
        assert.equal(report.stats.bytes_read, content.length, name);
        assert.equal(result.status, 1, `${name}: the stream has no exec:end`);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('prints a text report naming the schema', () => {
    const result = runCli([
      fixturePath('agent-history', 'real-impl-small-claude-20251120090628_agent-d75d6769.ndjson'),
    ]);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /agent-history \(impl-2\.0\)/);
  });
});
