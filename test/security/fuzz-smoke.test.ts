// CI smoke run of the fuzz harness (test/fuzz/, `npm run fuzz`): 5,000 mutated inputs over the
// four formats with a fixed seed, every oracle on (no escape, no hang, bounded heap, well-formed
// report, no false pass, chunking and gzip differentials). The full run is `npm run fuzz`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFuzz } from '../fuzz/session.ts';

const SEED = 20261122;
const COUNT = 5000;

test(`fuzz smoke: ${COUNT} mutated inputs, seed ${SEED}`, { timeout: 280_000 }, async () => {
  const failures: string[] = [];
  const summary = await runFuzz({
    seed: SEED,
    start: 0,
    count: COUNT,
    jobs: 2,
    // The six 1.4 MiB AgentXchain fixtures are left to the full run, to keep CI fast.
    caseOptions: { maxSeedBytes: 256 * 1024 },
    differentials: true,
    onFailure: (c, failure) =>
      failures.push(
        `[${failure.oracle}] ${c.format}/${c.file} --seed ${SEED} --index ${c.index} --max-seed-bytes 262144: ${failure.detail.split('\n')[0]}`,
      ),
  });
  assert.equal(summary.completed, COUNT);
  assert.equal(summary.harnessErrors, 0, summary.harnessErrorSamples.join('\n'));
  assert.deepEqual(failures.slice(0, 20), []);
  for (const format of ['agentxchain', 'zaxy', 'agent-history', 'codex-exec']) {
    const stats = summary.byFormat[format]!;
    assert.equal(stats.cases, COUNT / 4, format);
    // The no-false-pass oracle must actually have been exercised on every format.
    assert.ok(stats.mustFail > stats.cases / 10, `${format}: only ${stats.mustFail} cases had a must-fail claim`);
    assert.ok(stats.pass + stats.fail + stats.error === stats.cases, format);
  }
});
