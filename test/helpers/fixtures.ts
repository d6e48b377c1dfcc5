// Node-side access to the shared fixtures (read from ../shared/, never copied).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (this file lives in test/helpers/). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** ../shared beside the project root. */
export const SHARED = resolve(PROJECT_ROOT, '../shared');

/** Absolute path of a fixture file of one format. */
export function fixturePath(format: string, file: string): string {
  return join(SHARED, 'fixtures', format, file);
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
