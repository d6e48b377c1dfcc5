// `limits.maxJsonDepth` (`--max-depth`) in every format (docs/architecture.md, 'Limits'): nesting
// past it is a `limit.json_depth` finding with a path, never a pass. AgentXchain documents stop
// before any check (the compat output is the command-error shape, as for any limit); an NDJSON
// line is reported on its line and skipped, and the checks over the whole input then say they
// were not made instead of reporting a count or a closing record as missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { toAgentxchainJson, verify, type Report } from '../../src/index.ts';
import { findNestingPastLimit } from '../../src/json/depth.ts';

const fixture = (path: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../fixtures/${path}`, import.meta.url)));
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const encode = (value: string): Uint8Array => new TextEncoder().encode(value);

function depthFindings(report: Report): { path: string; message: string }[] {
  return report.findings.filter((f) => f.code === 'limit.json_depth').map(({ path, message }) => ({ path, message }));
}

test('findNestingPastLimit: the path to the first container past the limit; getters are never called', () => {
  assert.equal(findNestingPastLimit(1, 0), undefined);
  assert.equal(findNestingPastLimit({ a: [1, { b: 2 }] }, 3), undefined);
  assert.deepEqual(findNestingPastLimit({ a: [1, { b: 2 }] }, 2), ['a', 1]);
  assert.deepEqual(findNestingPastLimit([], 0), []);
  const deep = JSON.parse(`{"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`) as unknown;
  assert.equal(findNestingPastLimit(deep, 300)?.length, 300);
  let called = false;
  const lazy = Object.defineProperty({}, 'data', {
    enumerable: true,
    get() {
      called = true;
      return { nested: { deeper: {} } };
    },
  });
  assert.equal(findNestingPastLimit(lazy, 1), undefined);
  assert.equal(called, false);
});

test('AgentXchain: a real export under --max-depth 3 stops with limit.json_depth and a path', async () => {
  const report = await verify(fixture('agentxchain/real-fresh.json'), { limits: { maxJsonDepth: 3 } });
  assert.equal(report.overall, 'error');
  assert.deepEqual(
    report.findings.map((f) => f.code),
    ['limit.json_depth'],
  );
  const [finding] = depthFindings(report);
  assert.match(finding!.path, /^\$\.[a-z_]+/);
  assert.match(finding!.message, /limits\.maxJsonDepth \(3\)/);
  const compat = toAgentxchainJson(report);
  assert.equal(compat.overall, 'error');
  assert.equal('message' in compat && compat.message, finding!.message);
  assert.equal((await verify(fixture('agentxchain/real-fresh.json'))).overall, 'pass', 'the default limit passes it');
});

test('AgentXchain: a 3000-deep field fails --max-depth 100 and the default; passes a limit above it', async () => {
  const doc = JSON.parse(text(fixture('agentxchain/real-fresh.json'))) as Record<string, unknown>;
  doc['extra'] = JSON.parse(`${'['.repeat(3000)}${']'.repeat(3000)}`);
  const bytes = encode(JSON.stringify(doc));
  for (const limits of [{ maxJsonDepth: 100 }, {}]) {
    const report = await verify(bytes, { limits });
    assert.equal(report.overall, 'error', JSON.stringify(limits));
    // One finding, naming the start of the path (namedSteps: about 512 characters of it).
    const paths = depthFindings(report).map((f) => f.path);
    assert.equal(paths.length, 1);
    assert.ok(paths[0]!.startsWith('$.extra[0][0][0]') && paths[0]!.length <= 600, paths[0]);
  }
  assert.equal((await verify(bytes, { limits: { maxJsonDepth: 3002 } })).overall, 'pass');
});

test('NDJSON: a line nested past the limit is reported on its line and skipped, for both formats', async () => {
  const cases = [
    ['codex-exec/real-success.jsonl', 2],
    ['agent-history/real-impl-small-claude-20251120090536_6513270e-269e-0d37-f2a7-4de452e6b438.ndjson', 1],
    ['agent-history/design-small.ndjson', 3],
  ] as const;
  for (const [path, maxJsonDepth] of cases) {
    const bytes = fixture(path);
    assert.equal((await verify(bytes)).overall, 'pass', path);
    const report = await verify(bytes, { limits: { maxJsonDepth } });
    assert.equal(report.overall, 'error', path);
    const found = depthFindings(report);
    assert.ok(found.length > 0, `${path}: ${report.findings.map((f) => f.code).join()}`);
    for (const finding of found) assert.match(finding.path, /^line [1-9][0-9]* \$[.[]/, path);
    // Nothing but the depth findings: no count, summary or sequence mismatch from the skipped lines.
    assert.deepEqual(
      report.findings.filter((f) => f.code !== 'limit.json_depth').map((f) => f.code),
      [],
      path,
    );
    assert.ok((report.details as { not_checked?: string[] }).not_checked?.length, `${path}: not_checked`);
  }
});

test('NDJSON: after a deep line, lines are still read and framed; records no longer reach the format', async () => {
  const lines = text(fixture('codex-exec/real-success.jsonl')).split('\n');
  const deep = `{"type":"exec:chunk","timestamp":"2025-01-01T00:00:00.000Z","payload":${'['.repeat(1200)}${']'.repeat(1200)}}`;
  const report = await verify(encode([lines[0], deep, 'not json', ...lines.slice(1)].join('\n')), {
    kind: 'codex-exec',
  });
  assert.equal(report.overall, 'error');
  assert.deepEqual(
    report.findings.map((f) => `${f.code} @ ${f.path.slice(0, 'line 2 $.payload[0][0][0]'.length)}`),
    ['limit.json_depth @ line 2 $.payload[0][0][0]', 'ndjson.invalid_json @ line 3'],
  );
  assert.ok(report.findings[0]!.path.length <= 600);
  assert.equal(report.findings[0]!.message, 'JSON nesting is deeper than limits.maxJsonDepth (1000); skipped');
  assert.deepEqual((report.details as { not_checked?: readonly string[] }).not_checked, [
    "the format's checks of the lines after line 2",
    'every attempt that began has an exec:end',
    'exactly one run:summary, the last record',
  ]);
});
