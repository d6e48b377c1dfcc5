// test/fixtures/ is a synced copy of the conformance fixtures maintained in ../shared/fixtures/
// beside the project (build/sync-fixtures.mjs). Where that folder exists, the copy must be
// exactly it: the same files, byte for byte. In a fresh clone it does not: the copy is then
// checked on its own (every file a manifest names is there, under the name it names).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { FIXTURES, loadCases, PROJECT_ROOT } from '../helpers/fixtures.ts';

/** Where the fixtures are maintained; the copy is compared with it when it exists. */
const SHARED_FIXTURES = resolve(PROJECT_ROOT, '../shared/fixtures');
const FORMATS = ['agentxchain', 'zaxy', 'agent-history', 'codex-exec'] as const;
/** How many differences a failure lists by name. */
const SHOWN = 10;

/** Every regular file under `root`, as sorted '/'-separated relative paths. */
function listFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return files.sort();
}

function listed(label: string, names: readonly string[]): string {
  if (names.length === 0) return '';
  const more = names.length > SHOWN ? ` … and ${names.length - SHOWN} more` : '';
  return `\n  ${label} (${names.length}): ${names.slice(0, SHOWN).join(', ')}${more}`;
}

test('test/fixtures/ is a copy of ../shared/fixtures/ when present, and holds every file its manifests name', (t) => {
  assert.ok(
    existsSync(FIXTURES) && statSync(FIXTURES).isDirectory(),
    `${FIXTURES} is missing: run npm run sync-fixtures`,
  );
  const copy = listFiles(FIXTURES);

  // The copy on its own: every manifest parses, has cases, and each case's file is a regular file.
  const named: string[] = [];
  for (const format of FORMATS) {
    const cases = loadCases<{ file: unknown }>(format, (manifest) =>
      Array.isArray(manifest) ? manifest : (manifest as { cases: { file: unknown }[] }).cases,
    );
    for (const [index, entry] of cases.entries()) {
      assert.equal(typeof entry.file, 'string', `${format}/manifest.json case ${index}: no file name`);
      named.push(`${format}/${String(entry.file)}`);
    }
  }
  const present = new Set(copy);
  const absent = named.filter((file) => !present.has(file));
  assert.deepEqual(
    absent,
    [],
    `files named by the manifests but missing from test/fixtures/: run npm run sync-fixtures${listed('missing', absent)}`,
  );

  if (!existsSync(SHARED_FIXTURES)) {
    t.diagnostic(
      `${SHARED_FIXTURES} not found: the copy was not compared with its source (checked on its own: ${copy.length} files, the ${named.length} named by the manifests present)`,
    );
    return;
  }

  // The copy against its source: same file list, same bytes.
  const source = listFiles(SHARED_FIXTURES);
  const sourceSet = new Set(source);
  const missing = source.filter((file) => !present.has(file));
  const extra = copy.filter((file) => !sourceSet.has(file));
  const changed = source.filter(
    (file) =>
      present.has(file) && !readFileSync(join(SHARED_FIXTURES, file)).equals(readFileSync(join(FIXTURES, file))),
  );
  assert.ok(
    missing.length === 0 && extra.length === 0 && changed.length === 0,
    `test/fixtures/ differs from ${SHARED_FIXTURES}: run npm run sync-fixtures` +
      listed('missing from the copy', missing) +
      listed('not in the source', extra) +
      listed('different bytes', changed),
  );
  t.diagnostic(`test/fixtures/ equals ${SHARED_FIXTURES}: ${source.length} files, byte for byte`);
});
