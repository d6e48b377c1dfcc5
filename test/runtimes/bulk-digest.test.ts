// The WebCrypto bulk-digest path (src/crypto/bulk-digest.ts) in workerd and Deno: every
// AgentXchain fixture and the bulk cases (bulk-digest-cases.ts) give the same report with
// WebCrypto, with the WASM `Sha256` injected and without crypto.subtle (bulk-digest-probe.ts, run
// in each runtime), WebCrypto really hashed the bulk cases' contents and the real exports' large
// ones, `sha256Digest` gives the WASM's digest on every path, and the report equals the one Node's
// core gives with the WASM `Sha256`. Node's and Chromium's own tests: test/unit/bulk-digest.test.ts
// and test/browser/bulk-digest.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifyAgentxchain } from '../../src/formats/agentxchain/index.ts';
import type { Report } from '../../src/report.ts';
import { loadSha256 } from '../../wasm/sha256.ts';
import { FIXTURES, PROJECT_ROOT } from '../helpers/fixtures.ts';
import { bulkDigestCases, HASHED_CASES } from './bulk-digest-cases.ts';
import type { HashingPaths } from './bulk-digest-probe.ts';
import { comparable, startWorkerd, type RunningWorkerd } from './harness.ts';

const FOLDER = join(FIXTURES, 'agentxchain');
/** Real exports whose planning files are large enough for WebCrypto. */
const REAL_BULK = ['real-full.json', 'real-bounded.json', 'reseal-invalid-jsonl.json'];

async function inputs(): Promise<[string, Uint8Array][]> {
  const fixtures = readdirSync(FOLDER)
    .filter((name) => name.endsWith('.json') && name !== 'manifest.json')
    .map((name): [string, Uint8Array] => [name, new Uint8Array(readFileSync(join(FOLDER, name)))]);
  return [...bulkDigestCases(await loadSha256()), ...fixtures];
}

/** Asserts one runtime's answers: its threshold, the three paths agreed, WebCrypto was used, Node's report. */
async function assertAnswers(
  answers: Map<string, HashingPaths>,
  all: [string, Uint8Array][],
  threshold: number,
): Promise<void> {
  assert.equal(answers.size, all.length);
  const wasm = await loadSha256();
  for (const [name, bytes] of all) {
    const answer = answers.get(name)!;
    assert.equal(answer.threshold, threshold, `${name}: BULK_DIGEST_MIN_BYTES`);
    assert.ok(answer.same, `${name}: the hashing paths gave different reports`);
    if (HASHED_CASES.includes(name)) assert.ok(answer.webCryptoCalls >= 8, `${name}: ${answer.webCryptoCalls} calls`);
    if (REAL_BULK.includes(name)) assert.ok(answer.webCryptoCalls > 0, `${name}: not hashed with WebCrypto`);
    assert.ok(answer.digestsAgree, `${name}: sha256Digest differs from the WASM hash on some path`);
    const expected = await verifyAgentxchain(bytes, { name, sha256: wasm });
    assert.deepEqual(comparable(answer.report), comparable(expected), `${name}: Node's report`);
  }
}

describe('bulk digest in workerd', { timeout: 180_000 }, () => {
  let workerd: RunningWorkerd;
  before(async () => {
    workerd = await startWorkerd([{ name: 'probe', entry: 'probe.js' }], {
      'probe.js': 'test/runtimes/bulk-digest-probe.ts',
    });
  });
  after(async () => {
    await workerd?.stop();
  });

  it('reports do not depend on the path that hashed', async () => {
    const all = await inputs();
    const answers = new Map<string, HashingPaths>();
    for (const [name, bytes] of all) {
      const response = await fetch(`${workerd.urls['probe']}?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        body: bytes as Uint8Array<ArrayBuffer>,
      });
      answers.set(name, (await response.json()) as HashingPaths);
    }
    await assertAnswers(answers, all, 4096);
  });
});

describe('bulk digest in Deno', { timeout: 180_000 }, () => {
  it('reports do not depend on the path that hashed', async () => {
    const result = spawnSync(
      join(PROJECT_ROOT, 'node_modules/.bin/deno'),
      [
        'run',
        '--no-prompt',
        '--conditions=verify-export-source',
        `--allow-read=${FOLDER}`,
        'test/runtimes/bulk-digest-deno.ts',
        FOLDER,
      ],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' },
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        timeout: 150_000,
      },
    );
    assert.equal(result.status, 0, result.stderr);
    const answers = new Map<string, HashingPaths>();
    for (const line of result.stdout.split('\n').filter(Boolean)) {
      const { name, ...answer } = JSON.parse(line) as HashingPaths & { name: string };
      answers.set(name, answer as HashingPaths & { report: Report });
    }
    await assertAnswers(answers, await inputs(), 8192);
  });
});
