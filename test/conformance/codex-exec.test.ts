// Every codex-exec fixture through the core API: `valid` must equal `overall === 'pass'`, every
// expected error that names a line needs an error finding on that line, every expected warning
// that names a line a warning finding on that line (the manifest's `expected`, test/fixtures/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { verifyCodexExec } from '../../src/formats/codex-exec/index.ts';
import { fixturePath, loadCases } from '../helpers/fixtures.ts';
import { assertMatchesExpectation, type NdjsonCase } from './agent-history-expect.ts';

const cases = loadCases<NdjsonCase>('codex-exec');

describe('codex-exec fixtures (core API)', () => {
  it('finds all 48 cases', () => assert.equal(cases.length, 48));
  for (const testCase of cases) {
    it(`${testCase.file}: ${testCase.description}`, async () => {
      const bytes = readFileSync(fixturePath('codex-exec', testCase.file));
      const report = await verifyCodexExec(new Uint8Array(bytes), { name: testCase.file });
      assertMatchesExpectation(report, testCase);
      assert.equal(report.kind, 'exec-jsonl');
    });
  }
});
