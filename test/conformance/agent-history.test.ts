// Every agent-history fixture through the core API: `valid` must equal `overall === 'pass'`, every
// expected error that names a line needs an error finding on that line, every expected warning
// that names a line a warning finding on that line (the manifest's `expected`, test/fixtures/).
// With the CLI's WebAssembly string skip (`VerifyOptions.stringSkipper`), the report is the same.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { verifyAgentHistory } from '../../src/formats/agent-history/index.ts';
import { loadStringSkipper } from '../../wasm/string-skip.ts';
import { fixturePath, loadCases } from '../helpers/fixtures.ts';
import { assertMatchesExpectation, type NdjsonCase } from './agent-history-expect.ts';

const cases = loadCases<NdjsonCase>('agent-history');

/** A report without what differs from run to run (its duration). */
function withoutTimes(report: object): unknown {
  return JSON.parse(JSON.stringify(report, (key, value: unknown) => (key === 'duration_ms' ? undefined : value)));
}

describe('agent-history fixtures (core API)', () => {
  it('finds all 59 cases', () => assert.equal(cases.length, 59));
  for (const testCase of cases) {
    it(`${testCase.file}: ${testCase.description}`, async () => {
      const bytes = readFileSync(fixturePath('agent-history', testCase.file));
      const report = await verifyAgentHistory(new Uint8Array(bytes), { name: testCase.file });
      assertMatchesExpectation(report, testCase);
      if (testCase.schema && report.overall !== 'error') assert.equal(report.kind, testCase.schema, 'schema detected');
      const stringSkipper = await loadStringSkipper();
      assert.ok(stringSkipper, 'Node compiles the WebAssembly SIMD string skip');
      const skipped = await verifyAgentHistory(new Uint8Array(bytes), { name: testCase.file, stringSkipper });
      assert.deepEqual(withoutTimes(skipped), withoutTimes(report), 'the same report with the string skip');
    });
  }
});
