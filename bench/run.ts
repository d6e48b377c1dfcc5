// `npm run bench`: runs every bench/*.bench.ts in its own Node process (so each one's peak RSS is
// its own) and prints what they print. Speed and memory targets live here, never in tests.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort();
if (files.length === 0) throw new Error('no benchmarks found');
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(
    process.execPath,
    ['--conditions=verify-export-source', '--import', 'tsx', '--expose-gc', join(here, file)],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
