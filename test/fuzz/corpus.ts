/**
 * The fuzzer's seed corpus: every fixture of every format in `test/fixtures/` (the synced copy of
 * the conformance fixtures), read through the manifests. A manifest that yields zero cases fails
 * loudly.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { FormatId } from '../../src/report/types.ts';
import { fixturePath, loadCases } from '../helpers/fixtures.ts';

export const FORMATS: readonly FormatId[] = ['agentxchain', 'zaxy', 'agent-history', 'codex-exec'];

/** One fixture as a fuzz seed. */
export interface Seed {
  readonly format: FormatId;
  readonly file: string;
  readonly bytes: Uint8Array;
  /** The file is gzip (`.gz`). */
  readonly gzip: boolean;
  /** The fixture's recorded verdict is a pass (true), a failure (false), or unknown (null). */
  readonly expectedPass: boolean | null;
  /** Zaxy: `signed` | `subset` | `unsigned` | `sigver`. */
  readonly shape?: string;
  /** Zaxy: the public key to pin (the manifest's `expect_public_key`). */
  readonly pin?: string;
}

interface AgentxchainCase {
  file: string;
  expected: { overall: string } | null;
}
interface ZaxyCase {
  file: string;
  shape: string;
  expected: { ok: boolean } | null;
  expect_public_key: string | null;
}
interface NdjsonCase {
  file: string;
  expected: { valid: boolean };
}

function read(format: FormatId, file: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath(format, file)));
}

let cached: Seed[] | undefined;

/**
 * Loads every fixture of every format (cached per process).
 * @example
 * loadCorpus().filter((seed) => seed.format === 'zaxy').length; // 97
 */
export function loadCorpus(): Seed[] {
  if (cached) return cached;
  const seeds: Seed[] = [];
  for (const c of loadCases<AgentxchainCase>('agentxchain', (m) => (m as { cases: AgentxchainCase[] }).cases)) {
    seeds.push({
      format: 'agentxchain',
      file: c.file,
      bytes: read('agentxchain', c.file),
      gzip: false,
      expectedPass: c.expected === null ? false : c.expected.overall === 'pass',
    });
  }
  for (const c of loadCases<ZaxyCase>('zaxy')) {
    seeds.push({
      format: 'zaxy',
      file: c.file,
      bytes: read('zaxy', c.file),
      gzip: false,
      expectedPass: c.expected === null ? (c.shape === 'sigver' ? null : false) : c.expected.ok,
      shape: c.shape,
      ...(c.expect_public_key ? { pin: c.expect_public_key } : {}),
    });
  }
  for (const format of ['agent-history', 'codex-exec'] as const) {
    for (const c of loadCases<NdjsonCase>(format)) {
      seeds.push({
        format,
        file: c.file,
        bytes: read(format, c.file),
        gzip: c.file.endsWith('.gz'),
        expectedPass: c.expected.valid,
      });
    }
  }
  for (const format of FORMATS) {
    if (!seeds.some((seed) => seed.format === format)) throw new Error(`no fuzz seeds for ${format}`);
  }
  cached = seeds;
  return seeds;
}
