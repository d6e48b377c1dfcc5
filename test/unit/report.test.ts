import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonPath, linePath } from '../../src/report/path.ts';
import { dimensionOf, type FindingCode } from '../../src/codes.ts';
import { buildReport, createCollector } from '../../src/report/collector.ts';
import { DEFAULT_LIMITS, resolveLimits } from '../../src/limits.ts';

test('jsonPath uses dots for identifiers and quoted brackets for anything else', () => {
  assert.equal(jsonPath(['files', '.agentxchain/state.json', 'sha256']), '$.files[".agentxchain/state.json"].sha256');
  assert.equal(jsonPath(['entries', 3, 'id']), '$.entries[3].id');
  assert.equal(jsonPath(['a"]b', 'x y']), '$["a\\"]b"]["x y"]');
  assert.equal(jsonPath([]), '$');
  assert.equal(linePath(17), 'line 17');
  assert.equal(linePath(2, ['payload', 'bytes']), 'line 2 $.payload.bytes');
});

test('the report is pass only without error findings, and unchecked dimensions stay not-checked', () => {
  const clean = createCollector({ maxFindings: 10, dimensionOf });
  clean.add('kit.unsigned_format', '$', 'no signature', { severity: 'warning' });
  const passed = buildReport(clean, {
    format: 'agentxchain',
    kind: null,
    input: 'x',
    checked: { structure: true, integrity: true },
    bytesRead: 1,
    durationMs: 3,
  });
  assert.equal(passed.overall, 'pass');
  assert.deepEqual(passed.stats, { bytes_read: 1, duration_ms: 3 });
  assert.deepEqual(passed.verdicts, {
    structure: 'pass',
    integrity: 'pass',
    authenticity: 'not-checked',
    trust: 'not-checked',
  });
  assert.ok(Object.isFrozen(passed) && Object.isFrozen(passed.findings));

  const broken = createCollector({ maxFindings: 10, dimensionOf });
  broken.add('gzip.crc_mismatch', '$', 'crc');
  const failed = buildReport(broken, {
    format: null,
    kind: null,
    input: 'x',
    checked: {},
    bytesRead: 1,
    durationMs: 0,
  });
  assert.equal(failed.overall, 'fail');
  assert.equal(failed.verdicts.integrity, 'fail');

  const unreadable = createCollector({ maxFindings: 10, dimensionOf });
  unreadable.add('input.not_json', '$', 'nope');
  assert.equal(
    buildReport(unreadable, { format: null, kind: null, input: 'x', checked: {}, bytesRead: 0, durationMs: 0 }).overall,
    'error',
  );
});

test('the collector counts each error in the dimension its lookup gives', () => {
  const collector = createCollector({
    maxFindings: 10,
    dimensionOf: (code: FindingCode) => (code === 'gzip.crc_mismatch' ? 'trust' : dimensionOf(code)),
  });
  collector.add('gzip.crc_mismatch', '$', 'crc');
  collector.add('gzip.size_mismatch', '$', 'isize');
  assert.equal(collector.errorCount('trust'), 1);
  assert.equal(collector.errorCount('integrity'), 1);
});

test('strict turns warnings into errors; maxFindings bounds what is kept and says so', () => {
  const strict = createCollector({ maxFindings: 10, strict: true, dimensionOf });
  strict.add('gzip.trailing_garbage', '$', 'extra bytes', { severity: 'warning', compat: 'x' });
  assert.equal(strict.findings[0]!.severity, 'error');
  assert.equal(strict.findings[0]!.compat, 'x');
  strict.add('kit.unsigned_format', '$', 'no signature', { severity: 'warning' });
  assert.equal(strict.findings[1]!.severity, 'warning', 'a statement of fact about the format is not promoted');

  const bounded = createCollector({ maxFindings: 2, dimensionOf });
  for (let i = 0; i < 5; i++) bounded.add('gzip.bad_data', '$', `n${i}`);
  assert.equal(bounded.findings.length, 3);
  assert.equal(bounded.findings[2]!.code, 'limit.findings');
  assert.match(bounded.findings[2]!.message, /^3 more/);
  assert.equal(bounded.errorCount('integrity'), 5);
});

test('resolveLimits merges overrides and rejects misuse with TypeError', () => {
  assert.equal(resolveLimits(), DEFAULT_LIMITS);
  assert.equal(resolveLimits({ maxLineBytes: 10 }).maxLineBytes, 10);
  assert.throws(() => resolveLimits({ maxLineBytes: -1 }), TypeError);
  assert.throws(() => resolveLimits({ nope: 1 } as never), TypeError);
});

test('a limit finding past maxFindings is still kept: it says why verification stopped', () => {
  const bounded = createCollector({ maxFindings: 2, dimensionOf });
  for (let i = 0; i < 5; i++) bounded.add('gzip.bad_data', '$', `n${i}`);
  bounded.add('limit.compression_ratio', '$', 'bomb');
  const codes = bounded.findings.map((f) => f.code);
  assert.deepEqual(codes, ['gzip.bad_data', 'gzip.bad_data', 'limit.compression_ratio', 'limit.findings']);
  const report = buildReport(bounded, {
    format: null,
    kind: null,
    input: 'x',
    checked: {},
    bytesRead: 1,
    durationMs: 0,
  });
  assert.equal(report.overall, 'error');
});
