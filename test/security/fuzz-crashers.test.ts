// Every input the fuzzer ever broke an oracle with (test/fuzz/crashers/<format>/) is replayed
// here with the call that broke it, through the same oracles, on a worker thread (so a hang is
// reported, not waited for). A vector stays red until the kit is fixed, and green after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCrashers } from '../fuzz/crashers.ts';
import { runPool, type JobOutcome } from '../fuzz/pool.ts';
import type { Job } from '../fuzz/worker.ts';

const crashers = loadCrashers();

test('crasher vectors are found', () => {
  assert.ok(crashers.length > 0, 'no vectors under test/fuzz/crashers/');
});

test('every crasher vector now satisfies every oracle', async (t) => {
  const outcomes: JobOutcome[] = [];
  const jobs: Job[] = crashers.map((crasher) => ({ kind: 'case', case: crasher.case, differentials: false }));
  await runPool(jobs[Symbol.iterator](), { jobs: 1 }, (outcome) => outcomes.push(outcome));
  for (const [i, crasher] of crashers.entries()) {
    await t.test(`${crasher.name} (${crasher.sidecar.oracle}: ${crasher.sidecar.observed.slice(0, 80)})`, () => {
      const outcome = outcomes.find((o) => o.id === i)!;
      assert.equal(outcome.harnessError, undefined);
      const failures = outcome.result?.failures ?? (outcome.poolFailure ? [outcome.poolFailure] : []);
      assert.deepEqual(
        failures.map((f) => `${f.oracle}: ${f.detail}`),
        [],
      );
    });
  }
});
