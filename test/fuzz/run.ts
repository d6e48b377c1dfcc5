/**
 * `npm run fuzz -- [--seed N] [--count N] [--start I] [--format F] [--jobs J] [--index I]
 *                  [--max-seed-bytes B] [--no-differentials] [--no-save] [--json FILE]`
 *
 * Seeded, reproducible hostile-input fuzzing of the public API over every fixture. Prints the
 * seed first; every failure prints `--seed S --index I` to replay it alone and is written to
 * `test/fuzz/crashers/<format>/` (at most 3 per distinct failure). Exit code 1 on any failure.
 * @module
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { FormatId } from '../../src/report/types.ts';
import { generateCase, type CaseOptions } from './case.ts';
import { saveCrasher } from './crashers.ts';
import type { Failure } from './execute.ts';
import { runPool, type JobOutcome } from './pool.ts';
import type { Job } from './worker.ts';
import { runFuzz, type FuzzSummary } from './session.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    count: { type: 'string', default: '100000' },
    start: { type: 'string', default: '0' },
    index: { type: 'string' },
    format: { type: 'string' },
    jobs: { type: 'string', default: '1' },
    'max-seed-bytes': { type: 'string' },
    'no-differentials': { type: 'boolean', default: false },
    'no-save': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});

const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const options: CaseOptions = {
  ...(values.format ? { format: values.format as FormatId } : {}),
  ...(values['max-seed-bytes'] ? { maxSeedBytes: Number(values['max-seed-bytes']) } : {}),
};

if (values.index !== undefined) {
  // Replay one case in this process, verbosely.
  const c = generateCase(seed, Number(values.index), options);
  console.log(`case --seed ${seed} --index ${c.index}: ${c.format}/${c.file}, ${c.bytes.length} bytes`);
  for (const step of c.steps) console.log(`  step: ${step}`);
  console.log(`  call: ${JSON.stringify(c.call)}`);
  // On a worker, so a case that never returns is reported as a hang instead of freezing here.
  let outcome: JobOutcome | undefined;
  await runPool(
    [{ kind: 'case', case: c, differentials: !values['no-differentials'] } satisfies Job][Symbol.iterator](),
    { jobs: 1 },
    (o) => {
      outcome = o;
    },
  );
  if (outcome?.harnessError) throw new Error(outcome.harnessError);
  const result = outcome?.result ?? {
    failures: outcome?.poolFailure ? [outcome.poolFailure] : [],
    durationMs: NaN,
    heapDeltaBytes: 0,
  };
  console.log(
    `  overall ${'overall' in result ? result.overall : '(none)'} in ${Math.round(result.durationMs)} ms${'claim' in result && result.claim ? `; must fail because: ${result.claim}` : ''}`,
  );
  for (const failure of result.failures) {
    console.log(`  FAIL [${failure.oracle}] ${failure.detail}`);
    if (!values['no-save']) console.log(`  saved -> ${saveCrasher(c, failure)}`);
  }
  if ('controlMismatch' in result && result.controlMismatch)
    console.log(`  control did not pass: ${result.controlMismatch}`);
  process.exitCode = result.failures.length > 0 ? 1 : 0;
} else {
  const count = Number(values.count);
  const start = Number(values.start);
  console.log(
    `fuzz: seed ${seed}, cases ${start}..${start + count - 1}, format ${values.format ?? 'all'}, jobs ${values.jobs}`,
  );
  const summary: FuzzSummary = await runFuzz({
    seed,
    start,
    count,
    jobs: Number(values.jobs),
    caseOptions: options,
    differentials: !values['no-differentials'],
    onProgress: (line) => console.log(line),
    onFailure: (c, failure: Failure, keep) => {
      const where = keep && !values['no-save'] ? ` -> ${saveCrasher(c, failure)}` : '';
      console.log(
        `FAIL [${failure.oracle}] ${c.format}/${c.file} --seed ${seed} --index ${c.index}${where}\n  ${failure.detail.split('\n').join('\n  ')}`,
      );
    },
  });
  console.log(JSON.stringify(summary, null, 2));
  if (values.json) writeFileSync(values.json, JSON.stringify(summary, null, 2) + '\n');
  process.exitCode = summary.failures === 0 && summary.harnessErrors === 0 ? 0 : 1;
}
