// `npm run sync-fixtures`: refreshes test/fixtures/, the repository's copy of the conformance
// fixtures, from ../shared/fixtures/ (the folder beside the project where they are maintained).
//
// test/fixtures/ is an exact mirror: every file byte for byte, nothing added (no README there),
// nothing edited by hand. This script is the only way it changes: it copies new and changed
// files, deletes files (and folders left empty) that the source no longer has, and prints one
// summary line. test/unit/fixtures-copy.test.ts fails when the copy and the source differ, and
// checks the copy on its own (every file a manifest names is present) when the source is absent,
// as in a fresh clone. Nothing else reads ../shared/fixtures/: the tests use the copy.
//
// Usage: node build/sync-fixtures.mjs   (no arguments, no dependencies; Node ≥ 20)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = resolve(PROJECT_ROOT, '../shared/fixtures');
const TARGET = join(PROJECT_ROOT, 'test', 'fixtures');

/** Regular files under `root`, sorted '/'-separated paths relative to it; refuses anything else. */
function listFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(relative(root, path).split(sep).join('/'));
      else throw new Error(`${path}: neither a file nor a folder (symbolic links and the like are not mirrored)`);
    }
  };
  walk(root);
  return files.sort();
}

/** Folders under `root`, deepest first. */
function listFolders(root) {
  const folders = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        walk(join(dir, entry.name));
        folders.push(join(dir, entry.name));
      }
    }
  };
  walk(root);
  return folders;
}

if (!existsSync(SOURCE) || !statSync(SOURCE).isDirectory()) {
  console.error(
    `sync-fixtures: ${SOURCE} not found. The fixtures are synced from ../shared/fixtures/ beside the project; test/fixtures/ is left as it is.`,
  );
  process.exit(1);
}

const sourceFiles = listFiles(SOURCE);
if (sourceFiles.length === 0) {
  console.error(`sync-fixtures: ${SOURCE} holds no files; refusing to empty test/fixtures/.`);
  process.exit(1);
}
mkdirSync(TARGET, { recursive: true });

let added = 0;
let updated = 0;
let unchanged = 0;
let removed = 0;
const wanted = new Set(sourceFiles);

// Files the source no longer has go first, then folders left empty (deepest first), so a path
// that changed from folder to file (or back) is free before the copy.
for (const file of listFiles(TARGET)) {
  if (!wanted.has(file)) {
    rmSync(join(TARGET, file));
    removed++;
  }
}
for (const folder of listFolders(TARGET)) {
  if (readdirSync(folder).length === 0) rmdirSync(folder);
}

for (const file of sourceFiles) {
  const bytes = readFileSync(join(SOURCE, file));
  const target = join(TARGET, file);
  if (existsSync(target)) {
    if (readFileSync(target).equals(bytes)) {
      unchanged++;
      continue;
    }
    // Removed, not overwritten: a read-only copy (the source's mode) must not stop the sync.
    rmSync(target);
    updated++;
  } else {
    added++;
  }
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, bytes, { mode: 0o644 });
}

const bytes = sourceFiles.reduce((total, file) => total + statSync(join(TARGET, file)).size, 0);
console.log(
  `sync-fixtures: ${sourceFiles.length} files (${(bytes / 1e6).toFixed(1)} MB) in test/fixtures/ from ${SOURCE}: ${added} added, ${updated} updated, ${removed} removed, ${unchanged} unchanged`,
);
