import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../helpers/fixtures.ts';
import { withCodesTable } from '../../build/codes-table.ts';
import { CODES } from '../../src/codes.ts';

test('the README documents every finding code exactly as codes.ts defines it (npm run docs)', () => {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  assert.equal(readme, withCodesTable(readme), 'README codes table is stale: run `npm run docs`');
  for (const code of Object.keys(CODES)) assert.ok(readme.includes(`\`${code}\``), code);
});

test('every code has a dimension and a one-line summary', () => {
  for (const [code, info] of Object.entries(CODES)) {
    assert.match(code, /^[a-z0-9-]+\.[a-z0-9_.]+$/, code);
    assert.ok(['input', 'structure', 'integrity', 'authenticity', 'trust'].includes(info.dimension), code);
    assert.ok(info.summary.length > 10 && !info.summary.includes('\n'), code);
  }
});
