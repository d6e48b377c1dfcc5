// Where the benchmarks find their large inputs (tens of MB each, not in the repository): the
// folder named by the BENCH_DATA environment variable (relative to the working directory), by
// default ../shared/bench-data beside the project. A missing file stops the benchmark with a
// message naming the file and the variable, instead of an ENOENT stack trace.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../test/helpers/fixtures.ts';

/** The bench data folder: $BENCH_DATA, or ../shared/bench-data beside the project. */
export const BENCH_DATA = process.env['BENCH_DATA']
  ? resolve(process.env['BENCH_DATA'])
  : resolve(PROJECT_ROOT, '../shared/bench-data');

/** Why `name` cannot be read, in one line. */
export function missingMessage(name: string): string {
  return `bench data file ${name} not found in ${BENCH_DATA} (set BENCH_DATA=<dir> to the folder that holds it; default ../shared/bench-data)`;
}

/** Absolute path of a bench data file; exits with status 2 and a message when it is missing. */
export function benchFile(name: string): string {
  requireBenchFiles(name);
  return resolve(BENCH_DATA, name);
}

/** Exits with status 2, naming every missing file and BENCH_DATA, unless all of `names` exist. */
export function requireBenchFiles(...names: string[]): void {
  const missing = names.filter((name) => !existsSync(resolve(BENCH_DATA, name)));
  if (missing.length === 0) return;
  for (const name of missing) console.error(missingMessage(name));
  process.exit(2);
}

/** True when the bench data file exists (for benchmarks that skip what is absent). */
export function hasBenchFile(name: string): boolean {
  return existsSync(resolve(BENCH_DATA, name));
}
