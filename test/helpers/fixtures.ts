// Node-side access to the conformance fixtures: test/fixtures/, a synced copy kept byte for byte
// by `npm run sync-fixtures` (build/sync-fixtures.mjs), checked by test/unit/fixtures-copy.test.ts.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (this file lives in test/helpers/). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The fixtures folder: one subfolder per format, each with its manifest.json. */
export const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures');

/** Absolute path of a fixture file of one format. */
export function fixturePath(format: string, file: string): string {
  return join(FIXTURES, format, file);
}

/**
 * Reads a fixture manifest and returns its cases; throws when it finds none, so a broken path
 * can never turn into a green run with zero assertions.
 */
export function loadCases<T>(format: string, pick: (manifest: unknown) => T[] = (m) => m as T[]): T[] {
  const manifest: unknown = JSON.parse(readFileSync(fixturePath(format, 'manifest.json'), 'utf8'));
  const cases = pick(manifest);
  if (!Array.isArray(cases) || cases.length === 0) throw new Error(`no fixture cases found for ${format}`);
  return cases;
}
