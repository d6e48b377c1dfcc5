// `npm start`, first half: verify every bundled sample in demo/samples/ with the CLI and print
// one line each, so the terminal shows what the demo page will show. A sample named *-pass must
// pass and *-fail must fail; anything else stops `npm start` with exit 1.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const samples = join(root, 'demo/samples');
// The Ed25519 samples were signed with this key (demo/samples/SOURCES.md): pin it where it fits.
const PINNED = '235274396125169ca046a1f1f076d39cb450fdb7d850f0da4539f54bdd2eaa0c';

let wrong = 0;
for (const name of readdirSync(samples)
  .filter((n) => /-(pass|fail)\.(json|jsonl|ndjson)(\.gz)?$/.test(n))
  .sort()) {
  const pin = /^zaxy-(signed|subset)-pass/.test(name) ? ['--expect-public-key', PINNED] : [];
  const run = spawnSync(
    process.execPath,
    [join(root, 'bin/verify-export.js'), '--format', 'json', ...pin, join(samples, name)],
    { encoding: 'utf8' },
  );
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    console.log(`✗ ${name}: the CLI printed no report (exit ${run.status})\n${run.stderr}`);
    wrong++;
    continue;
  }
  const want = name.includes('-pass') ? 'pass' : 'fail';
  const first = report.findings.find((f) => f.severity === 'error');
  const ok = report.overall === want;
  if (!ok) wrong++;
  console.log(
    `${ok ? '✓' : '✗'} ${name.padEnd(36)} ${report.overall.toUpperCase().padEnd(5)} ${report.format}${first ? `  ${first.path}: ${first.message}` : ''}`,
  );
}
if (wrong > 0) {
  console.error(`${wrong} sample(s) did not give their expected verdict`);
  process.exit(1);
}
console.log('\nThe demo page verifies the same samples in your browser:');
