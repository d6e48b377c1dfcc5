/// <reference types="mocha" />
// AgentXchain conformance in Chromium: every case of the shared manifest through the core API
// (default SHA-256: hash-wasm), with the reference's report as expected. Cases whose expected text
// quotes a V8 JSON.parse message are compared on overall and exit code only, since Chromium's V8
// may word them differently from Node 20's (docs/agentxchain.md §11).
import { toAgentxchainJson, verifyAgentxchain } from '../../src/formats/agentxchain/index.ts';
import { fixtureBytes, fixtureManifest } from './fixtures.ts';

interface Case {
  readonly file: string;
  readonly expected: Record<string, unknown> | null;
  readonly exit_code: number;
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const EXIT: Record<string, number> = { pass: 0, fail: 1, error: 2 };

/** The expected output quotes a V8 `JSON.parse` message (a command error, or a json/jsonl file that does not parse). */
function quotesV8Message(expected: Record<string, unknown>): boolean {
  if (expected['overall'] === 'error') return true;
  const errors = (expected['errors'] ?? []) as string[];
  return errors.some(
    (error) =>
      /: invalid JSONL at line \d+: /.test(error) ||
      /^files\.[^:]*: (Unexpected|Unterminated|Expected|Bad|No number|Exponent)/.test(error),
  );
}

describe('AgentXchain verification in Chromium (shared fixtures)', () => {
  it('gives the reference report for every manifest case', async () => {
    const manifest = await fixtureManifest<{ cases: Case[] }>('agentxchain');
    assert(manifest.cases.length === 136, `expected 136 cases, found ${manifest.cases.length}`);
    const mismatches: string[] = [];
    let exact = 0;
    let v8Worded = 0;
    for (const c of manifest.cases) {
      const report = await verifyAgentxchain(await fixtureBytes(`agentxchain/${c.file}`), { name: c.file });
      const compat = toAgentxchainJson(report) as unknown as Record<string, unknown>;
      if (c.expected === null) {
        // The reference crashed; we report a failure with the reason as an error finding.
        if (
          compat['overall'] !== 'fail' ||
          !report.findings.some((f) => f.severity === 'error' && f.compat !== undefined)
        ) {
          mismatches.push(`${c.file}: expected a documented failure, got ${JSON.stringify(compat)}`);
        }
        continue;
      }
      if (EXIT[compat['overall'] as string] !== c.exit_code)
        mismatches.push(`${c.file}: exit code ${EXIT[compat['overall'] as string]} != ${c.exit_code}`);
      if (quotesV8Message(c.expected)) {
        v8Worded++;
        if (compat['overall'] !== c.expected['overall'])
          mismatches.push(`${c.file}: overall ${String(compat['overall'])} != ${String(c.expected['overall'])}`);
        continue;
      }
      exact++;
      if (JSON.stringify(compat) !== JSON.stringify(c.expected))
        mismatches.push(`${c.file}:\n  got ${JSON.stringify(compat)}\n  exp ${JSON.stringify(c.expected)}`);
    }
    assert(mismatches.length === 0, mismatches.join('\n'));
    const crashes = manifest.cases.filter((c) => c.expected === null).length;
    assert(
      v8Worded <= 10 && exact === manifest.cases.length - crashes - v8Worded,
      `${exact} exact, ${v8Worded} V8-worded, ${crashes} crashes`,
    );
  });

  it('reports the runner inconsistencies of the rn-* fixtures as warnings, none for real in-flight exports', async () => {
    const expected: Record<string, string | null> = {
      'real-inflight-dev-staged.json': null,
      'real-inflight-retry.json': null,
      'rn-staged-turn-id-mismatch.json': 'runner.turn_id_mismatch',
      'rn-staged-run-id-foreign.json': 'runner.run_id_mismatch',
      'rn-staged-orphan-no-active-turn.json': 'runner.turn_not_active',
      'rn-staged-duplicate-delegation-ids.json': 'runner.delegation_id_duplicate',
    };
    for (const [file, code] of Object.entries(expected)) {
      const report = await verifyAgentxchain(await fixtureBytes(`agentxchain/${file}`), { name: file });
      const runner = report.findings.filter((f) => f.code.startsWith('runner.'));
      assert(toAgentxchainJson(report).overall === 'pass', `${file}: the reference verdict is pass`);
      assert(
        runner.every((f) => f.severity === 'warning' && f.compat === undefined),
        `${file}: runner findings are warnings without compat text`,
      );
      if (code === null) assert(runner.length === 0, `${file}: ${JSON.stringify(runner)}`);
      else
        assert(
          runner.some((f) => f.code === code),
          `${file}: expected ${code}, got ${JSON.stringify(runner)}`,
        );
    }
  });

  it('verifies a gzip-compressed artifact like the plain one', async () => {
    const bytes = await fixtureBytes('agentxchain/nest-child-double.json');
    const gzipped = new Uint8Array(
      await new Response(
        new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('gzip')),
      ).arrayBuffer(),
    );
    const plain = toAgentxchainJson(await verifyAgentxchain(bytes, { name: 'x.json' }));
    const viaGzip = toAgentxchainJson(await verifyAgentxchain(gzipped, { name: 'x.json' }));
    assert(JSON.stringify(plain) === JSON.stringify(viaGzip), `${JSON.stringify(plain)} != ${JSON.stringify(viaGzip)}`);
    assert(plain.overall === 'fail', 'the nested tampering is found');
  });
});
