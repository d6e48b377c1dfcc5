// The public API is the deliberate list the README gives (section "Library", table "The public
// API"): the names each entry point exports at run time must be exactly the names its row lists,
// so that nothing internal leaks into the API and nothing documented is missing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../helpers/fixtures.ts';

/** The names a README row documents for `entry`: the backticked words, minus type names. */
function documentedValues(entry: string): string[] {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith(`| \`${entry}\``));
  assert.ok(row, `the README's public API table has no row for ${entry}`);
  const names = row.split('|')[2]!;
  // Each "; "-separated group is values, unless it starts with "type"/"types" (not visible at run time).
  return names
    .split(';')
    .filter((group) => !/^\s*types?\s/.test(group))
    .flatMap((group) => [...group.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((match) => match[1]!))
    .sort();
}

for (const [entry, module] of [
  ['verify-export', '../../src/index.ts'],
  ['verify-export/edge', '../../src/edge/index.ts'],
  ['verify-export/wasm', '../../wasm/sha256.ts'],
] as const) {
  test(`${entry} exports exactly the names the README lists`, async () => {
    const exported = Object.keys(await import(module)).sort();
    assert.deepEqual(exported, documentedValues(entry));
  });
}
