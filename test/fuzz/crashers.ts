/**
 * Crashers: inputs that broke an oracle, kept as regression vectors under
 * `test/fuzz/crashers/<format>/<name>.bin` with a `<name>.json` sidecar (seed, index, mutation
 * steps, call plan, oracle, observed failure). The replay test runs every one of them.
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FormatId } from '../../src/report/types.ts';
import type { CallPlan, FuzzCase } from './case.ts';
import type { Failure } from './execute.ts';

export const CRASHER_DIR = join(dirname(fileURLToPath(import.meta.url)), 'crashers');

export interface CrasherSidecar {
  readonly format: FormatId;
  readonly fixture: string;
  readonly seed: number;
  readonly index: number;
  readonly steps: readonly string[];
  readonly call: CallPlan;
  readonly oracle: Failure['oracle'];
  readonly observed: string;
  readonly found: string;
}

export interface Crasher {
  readonly name: string;
  readonly sidecar: CrasherSidecar;
  readonly case: FuzzCase;
}

/** Writes a failing case as a vector; answers the path of its bytes. */
export function saveCrasher(c: FuzzCase, failure: Failure, directory = CRASHER_DIR): string {
  const folder = join(directory, c.format);
  mkdirSync(folder, { recursive: true });
  const name = `${failure.oracle}-s${c.seed}-i${c.index}`;
  const sidecar: CrasherSidecar = {
    format: c.format,
    fixture: c.file,
    seed: c.seed,
    index: c.index,
    steps: c.steps,
    call: c.call,
    oracle: failure.oracle,
    observed: failure.detail,
    found: new Date().toISOString().slice(0, 10),
  };
  writeFileSync(join(folder, `${name}.bin`), c.bytes);
  writeFileSync(join(folder, `${name}.json`), JSON.stringify(sidecar, null, 2) + '\n');
  return join(folder, `${name}.bin`);
}

/** Every stored crasher, as a case ready to replay. */
export function loadCrashers(directory = CRASHER_DIR): Crasher[] {
  if (!existsSync(directory)) return [];
  const out: Crasher[] = [];
  for (const format of readdirSync(directory, { withFileTypes: true })) {
    if (!format.isDirectory()) continue;
    const folder = join(directory, format.name);
    for (const file of readdirSync(folder)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const name = file.slice(0, -'.json'.length);
      const sidecar = JSON.parse(readFileSync(join(folder, file), 'utf8')) as CrasherSidecar;
      const bytes = new Uint8Array(readFileSync(join(folder, `${name}.bin`)));
      out.push({
        name: `${format.name}/${name}`,
        sidecar,
        case: {
          seed: sidecar.seed,
          index: sidecar.index,
          format: sidecar.format,
          file: sidecar.fixture,
          bytes,
          steps: sidecar.steps,
          call: sidecar.call,
          control: false,
        },
      });
    }
  }
  return out;
}
