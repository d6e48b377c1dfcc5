// AgentXchain verifier behaviour beyond the shared fixtures: JSON paths of odd keys, JS key order,
// the reference's crash sites (docs/agentxchain.md §9) as findings, bounded nesting, the kit's own
// warnings, strict mode and limits that never change the compat output, and the details rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { nodeSha256 } from '../../bin/node-sha256.ts';
import { toAgentxchainJson, verifyAgentxchain } from '../../src/formats/agentxchain/index.ts';
import type { VerifyOptions } from '../../src/options.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import type { Finding, Report, ReportOf } from '../../src/report.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function fixture(file: string): Json {
  return JSON.parse(readFileSync(fixturePath('agentxchain', file), 'utf8')) as Json;
}

function verifyJson(artifact: unknown, options: VerifyOptions = {}): Promise<ReportOf<'agentxchain'>> {
  return verifyAgentxchain(new TextEncoder().encode(JSON.stringify(artifact)), {
    sha256: nodeSha256,
    name: 'x.json',
    ...options,
  });
}

/** Re-seals a file entry around new content (bytes, sha256, content_base64 and data all rewritten). */
function seal(files: Json, key: string, format: 'json' | 'jsonl' | 'text', data: unknown): void {
  const text =
    format === 'json'
      ? JSON.stringify(data)
      : format === 'jsonl'
        ? (data as unknown[]).map((d) => JSON.stringify(d)).join('\n') + '\n'
        : (data as string);
  const bytes = Buffer.from(text, 'utf8');
  files[key] = {
    format,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    content_base64: bytes.toString('base64'),
    data,
  };
}

function compatErrors(report: Report): string[] {
  const out = toAgentxchainJson(report);
  return 'errors' in out ? out.errors : [];
}

function find(report: Report, code: string, path?: string): Finding {
  const found = report.findings.find((f) => f.code === code && (path === undefined || f.path === path));
  assert.ok(
    found,
    `no ${code} at ${path ?? 'any path'}; findings: ${JSON.stringify(report.findings.map((f) => [f.code, f.path])).slice(0, 2000)}`,
  );
  return found;
}

test('odd file keys: escaped JSON path, raw reference path in compat', async () => {
  const artifact = fixture('real-fresh.json');
  const key = 'we"ird]key\n.md';
  artifact.files[key] = { ...(artifact.files['TALK.md'] ?? Object.values(artifact.files)[0]), sha256: '0'.repeat(64) };
  const report = await verifyJson(artifact);
  const finding = find(report, 'agentxchain.file_sha256_mismatch');
  assert.equal(finding.path, '$.files["we\\"ird]key\\n.md"].sha256');
  assert.equal(finding.compat, `files.${key}: sha256 does not match content_base64`);
  assert.equal(finding.message, 'sha256 does not match content_base64');
  assert.equal(finding.expected, '0'.repeat(64));
  assert.match(finding.actual ?? '', /^[a-f0-9]{64}$/);
});

test('integer-like file keys are checked in JS own-key order, as the reference iterates them', async () => {
  const artifact = fixture('real-fresh.json');
  const entry = Object.values(artifact.files)[0] as Json;
  for (const key of ['b', '10', 'a', '2']) artifact.files[key] = { ...entry, bytes: -1 };
  const errors = compatErrors(await verifyJson(artifact)).filter(
    (e) => /^files\.(b|10|a|2):/.test(e) && e.includes('non-negative'),
  );
  assert.deepEqual(
    errors.map((e) => e.split(':')[0]),
    ['files.2', 'files.10', 'files.b', 'files.a'],
  );
});

test('nested child exports: findings under $.repos[id].export with the repos.<id>.export: prefix', async () => {
  const artifact = fixture('real-coord-broken.json');
  const id = 'w.e"b';
  artifact.repos[id] = artifact.repos.web;
  delete artifact.repos.web;
  artifact.repos[id].export.files['.agentxchain/state.json'].sha256 = 'f'.repeat(64);
  const report = await verifyJson(artifact);
  const finding = find(report, 'agentxchain.file_sha256_mismatch');
  assert.equal(finding.path, '$.repos["w.e\\"b"].export.files[".agentxchain/state.json"].sha256');
  assert.equal(
    finding.compat,
    `repos.${id}.export: files..agentxchain/state.json: sha256 does not match content_base64`,
  );
  const rows = report.details.repos ?? [];
  assert.deepEqual(
    rows.map((r) => [r.id, r.overall]),
    [
      ['api', 'pass'],
      ['broken', 'not-checked'],
      [id, 'fail'],
    ],
  );
});

test('crash site 9: repos_with_events without includes() is reported, the other aggregated checks still run', async () => {
  const artifact = fixture('real-coord-broken.json');
  artifact.summary.aggregated_events.repos_with_events = 2;
  const report = await verifyJson(artifact);
  assert.equal(report.overall, 'fail');
  const finding = find(report, 'agentxchain.unprocessable_value', '$.summary.aggregated_events.repos_with_events');
  assert.equal(finding.severity, 'error');
  assert.deepEqual(compatErrors(report), [
    'summary.aggregated_events.repos_with_events: must be an array or a string to be searched for failed repos',
    'summary.aggregated_events.repos_with_events: must match reconstructed contributing repo ids',
  ]);
});

test('crash site 8: a null repo run in the multirepo state is reported at its place', async () => {
  const artifact = fixture('real-coord-broken.json');
  const state = structuredClone(artifact.files['.agentxchain/multirepo/state.json'].data);
  state.repo_runs.web = null;
  seal(artifact.files, '.agentxchain/multirepo/state.json', 'json', state);
  const report = await verifyJson(artifact);
  find(report, 'agentxchain.unprocessable_value', '$.files[".agentxchain/multirepo/state.json"].data.repo_runs.web');
  assert.ok(
    compatErrors(report).includes(
      'files..agentxchain/multirepo/state.json.data.repo_runs.web: is null, so summary.repo_run_statuses cannot be reconstructed',
    ),
  );
});

test('crash site 10: an unprintable event timestamp stops the event ordering with a finding, not a crash', async () => {
  const artifact = fixture('real-coord-broken.json');
  const files = artifact.repos.api.export.files;
  const events = structuredClone(files['.agentxchain/events.jsonl'].data) as Json[];
  events[1]!.timestamp = { toString: 'soon' };
  seal(files, '.agentxchain/events.jsonl', 'jsonl', events);
  const report = await verifyJson(artifact);
  find(
    report,
    'agentxchain.unprocessable_value',
    '$.repos.api.export.files[".agentxchain/events.jsonl"].data[1].timestamp',
  );
  assert.equal(report.overall, 'fail');
});

test('crash site 10: unprintable format, bytes and export_kind get readable messages', async () => {
  const artifact = fixture('real-fresh.json');
  const [first, second] = Object.keys(artifact.files) as [string, string];
  artifact.files[first].format = { toString: 'json' };
  artifact.files[second].bytes = { toString: 1 };
  const report = await verifyJson(artifact);
  const errors = compatErrors(report);
  assert.ok(
    errors.includes(`files.${first}: unsupported format (an object with its own "toString" key)`),
    errors.join('\n'),
  );
  assert.ok(errors.includes(`files.${second}: bytes must be a non-negative integer`));
  assert.ok(
    errors.some((e) =>
      e.startsWith(`files.${second}: bytes mismatch: expected an object with its own "toString" key, got `),
    ),
  );
});

test('crash sites 4 and 5: a null delegation and non-iterable review results are reported in history.jsonl', async () => {
  for (const [mutate, where] of [
    [
      (history: Json[]) => (history.find((h) => Array.isArray(h.delegations_issued))!.delegations_issued[0] = null),
      /\.delegations_issued\[0\]$/,
    ],
    [
      (history: Json[]) => (history.find((h) => h.delegation_review)!.delegation_review.results = 7),
      /\.delegation_review\.results$/,
    ],
  ] as const) {
    const artifact = fixture('real-full.json');
    const history = structuredClone(artifact.files['.agentxchain/history.jsonl'].data) as Json[];
    mutate(history);
    seal(artifact.files, '.agentxchain/history.jsonl', 'jsonl', history);
    const report = await verifyJson(artifact);
    const finding = find(report, 'agentxchain.unprocessable_value');
    assert.match(finding.path, where);
    assert.match(finding.path, /^\$\.files\["\.agentxchain\/history\.jsonl"\]\.data\[\d+\]/);
    assert.equal(report.overall, 'fail');
  }
});

test('crash site 10: two unprintable repo-decision categories cannot be sorted; reported at the category', async () => {
  const artifact = fixture('real-full.json');
  const decisions = structuredClone(artifact.files['.agentxchain/repo-decisions.jsonl'].data) as Json[];
  const active = decisions.filter((d) => d.status === 'active');
  active[0]!.category = { toString: 'x' };
  seal(artifact.files, '.agentxchain/repo-decisions.jsonl', 'jsonl', decisions);
  const report = await verifyJson(artifact);
  const finding = find(report, 'agentxchain.unprocessable_value');
  assert.match(finding.path, /^\$\.files\["\.agentxchain\/repo-decisions\.jsonl"\]\.data\[\d+\]\.category$/);
});

test('crash site 1: a run export without files is a failure with every other check reported', async () => {
  const artifact = fixture('real-full.json');
  delete artifact.files;
  const report = await verifyJson(artifact);
  assert.equal(report.overall, 'fail');
  const errors = compatErrors(report);
  assert.equal(errors[0], 'files: must be an object keyed by relative path');
  assert.ok(
    !errors.some((e) => e.startsWith('summary.intake_present') || e.startsWith('summary.coordinator_present')),
    'the two Object.keys(files) checks are skipped',
  );
  assert.ok(errors.includes('summary.history_entries: must match .agentxchain/history.jsonl entry count'));
});

/**
 * JSON text of a chain of coordinator exports nested `levels` deep, each with one ok child (built as text: too deep for
 * JSON.stringify).
 */
function nestedCoordinators(levels: number): string {
  const head =
    '{"schema_version":"0.3","export_kind":"agentxchain_coordinator_export","exported_at":"2026-01-01","config":{},"files":{},"repos":{"a":{"ok":true,"path":"a","export":';
  const leaf =
    '{"schema_version":"0.3","export_kind":"agentxchain_run_export","exported_at":"2026-01-01","config":{},"files":{}}';
  return head.repeat(levels) + leaf + '}}}'.repeat(levels);
}

function verifyText(text: string, options: VerifyOptions = {}): Promise<ReportOf<'agentxchain'>> {
  return verifyAgentxchain(new TextEncoder().encode(text), { sha256: nodeSha256, name: 'x.json', ...options });
}

test('deep coordinator nesting is bounded by limits.maxJsonDepth: a limit finding, no stack overflow', async () => {
  const report = await verifyText(nestedCoordinators(2000), { limits: { maxFindings: 100_000 } });
  assert.equal(report.overall, 'error');
  // maxJsonDepth counts JSON containers, as in every format: each coordinator level is three
  // (repos, <id>, export), and the finding names the start of the path (about 512 characters).
  const limit = find(report, 'limit.json_depth');
  assert.ok(limit.path.startsWith('$.repos.a.export.repos.a.export.'));
  assert.ok(limit.path.length <= 600 && (limit.path.match(/\.export/g) ?? []).length >= 20, limit.path);
  const small = await verifyText(nestedCoordinators(20), { limits: { maxJsonDepth: 30 } });
  // The container past depth 30 is the 10th level's export: the whole path fits, so it is named.
  assert.equal(find(small, 'limit.json_depth').path, '$' + '.repos.a.export'.repeat(10));
  assert.equal(toAgentxchainJson(small).overall, 'error');
  const within = await verifyText(nestedCoordinators(5));
  assert.notEqual(within.overall, 'error');
  assert.ok(
    compatErrors(within).some((e) => e.startsWith('repos.a.export: repos.a.export: repos.a.export: repos.a.export: ')),
  );
});

test("the kit's warnings: skipped integrity per null-content entry and one unsigned-format note; strict never changes compat", async () => {
  const bytes = readFileSync(fixturePath('agentxchain', 'real-bounded.json'));
  const report = await verifyAgentxchain(bytes, { sha256: nodeSha256, name: 'real-bounded.json' });
  assert.equal(report.overall, 'pass');
  const skipped = report.findings.filter((f) => f.code === 'agentxchain.file_integrity_skipped');
  assert.ok(
    skipped.length >= 3 &&
      skipped.every((f) => f.severity === 'warning' && f.compat === undefined && f.path.endsWith('.content_base64')),
  );
  assert.equal(report.findings.filter((f) => f.code === 'kit.unsigned_format').length, 1);
  assert.deepEqual(report.verdicts, {
    structure: 'pass',
    integrity: 'pass',
    authenticity: 'not-checked',
    trust: 'not-checked',
  });
  const rows = report.details.files ?? [];
  assert.equal(rows.filter((r) => r.status === 'skipped').length, skipped.length);

  const strict = await verifyAgentxchain(bytes, { sha256: nodeSha256, name: 'real-bounded.json', strict: true });
  assert.equal(strict.overall, 'fail');
  assert.deepEqual(toAgentxchainJson(strict), toAgentxchainJson(report));
});

test('maxFindings drops findings but never turns the compat verdict into a pass', async () => {
  const artifact = fixture('real-bounded.json');
  for (const entry of Object.values(artifact.files) as Json[])
    if (typeof entry.content_base64 === 'string') entry.sha256 = 'a'.repeat(64);
  const report = await verifyJson(artifact, { limits: { maxFindings: 2 } });
  const compat = toAgentxchainJson(report);
  assert.equal(compat.overall, 'fail');
  assert.equal(report.findings.at(-1)!.code, 'limit.findings');
});

test('details: one row per file with its status, kind and counts', async () => {
  const report = await verifyAgentxchain(readFileSync(fixturePath('agentxchain', 'file-sha-flip.json')), {
    sha256: nodeSha256,
  });
  assert.equal(report.kind, 'agentxchain_run_export');
  assert.equal(report.details.file_count, 25);
  assert.equal(report.details.repo_count, 0);
  const rows = report.details.files ?? [];
  assert.equal(rows.length, 25);
  assert.deepEqual(
    rows.filter((r) => r.status !== 'verified').map((r) => [r.path, r.status]),
    [['.planning/ROADMAP.md', 'mismatch']],
  );
  assert.ok(
    rows.every((r) => typeof r.bytes === 'number' && typeof r.sha256 === 'string' && /^[a-f0-9]{64}$/.test(r.sha256)),
  );
  assert.deepEqual(report.verdicts, {
    structure: 'pass',
    integrity: 'fail',
    authenticity: 'not-checked',
    trust: 'not-checked',
  });
});

test('input problems are command errors: not JSON (V8 message), BOM, empty, over the buffer limit, aborted', async () => {
  const bom = await verifyAgentxchain(readFileSync(fixturePath('agentxchain', 'raw-bom.json')), {
    name: 'raw-bom.json',
  });
  assert.equal(bom.overall, 'error');
  assert.equal(
    find(bom, 'input.not_json').compat,
    `Invalid JSON export artifact: Unexpected token '\ufeff', "\ufeff{"schema_"... is not valid JSON`,
  );
  assert.deepEqual(toAgentxchainJson(await verifyAgentxchain(new Uint8Array(0), { name: 'e.json' })), {
    overall: 'error',
    input: 'e.json',
    message: 'Invalid JSON export artifact: Unexpected end of JSON input',
  });
  const big = await verifyAgentxchain(readFileSync(fixturePath('agentxchain', 'real-full.json')), {
    limits: { maxBufferedBytes: 1000 },
  });
  assert.equal(toAgentxchainJson(big).overall, 'error');
  find(big, 'limit.buffered_bytes');
  const controller = new AbortController();
  controller.abort();
  const aborted = await verifyAgentxchain(readFileSync(fixturePath('agentxchain', 'real-full.json')), {
    signal: controller.signal,
  });
  find(aborted, 'input.aborted');
  assert.equal(aborted.overall, 'error');
});

test('a gzip artifact gives the same report as the plain one', async () => {
  const plain = readFileSync(fixturePath('agentxchain', 'agg-child-events-edited.json'));
  const a = toAgentxchainJson(await verifyAgentxchain(plain, { sha256: nodeSha256, name: 'x' }));
  const b = toAgentxchainJson(await verifyAgentxchain(gzipSync(plain), { sha256: nodeSha256, name: 'x' }));
  assert.deepEqual(b, a);
  assert.equal(a.overall, 'fail');
});

test('the default SHA-256 (hash-wasm) gives the same verdicts as node:crypto', async () => {
  for (const file of ['real-full.json', 'file-sha-flip.json', 'b64-char-flip.json']) {
    const bytes = readFileSync(fixturePath('agentxchain', file));
    assert.deepEqual(
      toAgentxchainJson(await verifyAgentxchain(bytes)),
      toAgentxchainJson(await verifyAgentxchain(bytes, { sha256: nodeSha256 })),
      file,
    );
  }
});

test('an echoed schema_version nested too deep to print is replaced and reported, not a crash', async () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const report = await verifyText(`{"schema_version":${deep},"export_kind":"agentxchain_run_export"}`);
  assert.ok(find(report, 'limit.json_depth').path.startsWith('$.schema_version[0][0][0]'));
  const compat = toAgentxchainJson(report);
  assert.equal(compat.overall, 'error');
  assert.doesNotThrow(() => JSON.stringify(report));
});

test('the report survives a JSON round trip whatever numbers the artifact holds (1e400, -0)', async () => {
  for (const text of [
    '{"schema_version":"0.3","files":{"":{"bytes":1e400}}}',
    '{"schema_version":"0.3","files":{"a":{"format":"text","bytes":-0,"sha256":"x","content_base64":""}}}',
    '{"schema_version":1e400,"export_kind":[-0,1e400,{"a":-1e400}]}',
  ]) {
    const report = await verifyText(text);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(report)), report, text);
    const compat = toAgentxchainJson(report);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(compat)), compat, text);
  }
  const echoed = toAgentxchainJson(await verifyText('{"schema_version":1e400,"export_kind":[-0,1e400]}'));
  assert.ok('schema_version' in echoed);
  assert.equal(echoed.schema_version, null, 'Infinity prints as null, as in the reference');
  assert.deepStrictEqual(echoed.export_kind, [0, null]);
});
