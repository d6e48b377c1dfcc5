// The same conformance vectors under Deno (npm `deno`, run offline): the core's TypeScript
// imported directly by test/runtimes/deno-runner.ts must produce, for every shared fixture of
// every format, the report Node's core produces; both SHA-256 loaders must equal WebCrypto; and
// the Deno.serve entry (src/edge/deno.ts) must answer like the handler does in Node.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { statusForReport } from '../../src/edge/response.ts';
import { FIXTURES, PROJECT_ROOT } from '../helpers/fixtures.ts';
import { extractSha256Wasm } from '../../build/wasm.mjs';
import {
  allFixtureCases,
  assertSameBytesRead,
  caseQuery,
  comparable,
  FORMATS,
  freePort,
  nodeReport,
  type FixtureCase,
} from './harness.ts';
import { within } from './http.ts';
import { manyBatchBundle } from '../helpers/signed-zaxy.ts';
import type { Report } from '../../src/report.ts';

const DENO = join(PROJECT_ROOT, 'node_modules/.bin/deno');
const DENO_ENV = { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' };

/**
 * Signed bundles of many batches (the fixtures are smaller than one): their entries are hashed in
 * place a batch at a time, with the 4-lane SIMD hasher where the runtime has it.
 */
function manyBatchCases(folder: string): FixtureCase[] {
  const variants: [string, Parameters<typeof manyBatchBundle>[1]][] = [
    ['many-batches.json', () => undefined],
    ['many-batches-tampered.json', (entries) => void (entries[2500]!.content['kind'] = 'changed')],
  ];
  return variants.map(([file, change]) => {
    const path = join(folder, file);
    writeFileSync(path, manyBatchBundle(120, change));
    return { format: 'zaxy', file, path };
  });
}

describe('core under Deno', { timeout: 180_000 }, () => {
  const generated = mkdtempSync(join(tmpdir(), 'verify-export-deno-bundles-'));
  const cases = [...allFixtureCases(), ...manyBatchCases(generated)];
  const reports = new Map<string, Report>();
  let summary: {
    cases: number;
    deno: string;
    v8: string;
    sha256: { fromBytes: number[]; fromModule: number[] };
    sigver: Record<string, { ran: number; wrong: number[] }>;
  };

  before(() => {
    const work = mkdtempSync(join(tmpdir(), 'verify-export-deno-'));
    try {
      const casesFile = join(work, 'cases.json');
      writeFileSync(casesFile, JSON.stringify(cases));
      const wasmFile = extractSha256Wasm();
      const result = spawnSync(
        DENO,
        [
          'run',
          '--no-prompt',
          '--conditions=verify-export-source',
          `--allow-read=${FIXTURES},${generated},${casesFile},${wasmFile}`,
          'test/runtimes/deno-runner.ts',
          casesFile,
          wasmFile,
        ],
        {
          cwd: PROJECT_ROOT,
          env: DENO_ENV,
          encoding: 'utf8',
          maxBuffer: 512 * 1024 * 1024,
          timeout: 150_000,
        },
      );
      if (result.status !== 0) throw new Error(`deno exited with ${result.status ?? result.signal}:\n${result.stderr}`);
      for (const line of result.stdout.split('\n').filter(Boolean)) {
        const record = JSON.parse(line) as { file?: string; report?: Report; summary?: typeof summary };
        if (record.summary) summary = record.summary;
        else reports.set(record.file!, record.report!);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  after(() => rmSync(generated, { recursive: true, force: true }));

  it('ran every case', () => {
    assert.equal(summary.cases, cases.length);
    assert.equal(reports.size, cases.length);
  });

  it('hashes like WebCrypto with hash-wasm from bytes and with initSha256(module bytes)', () => {
    assert.deepEqual(summary.sha256, { fromBytes: [], fromModule: [] });
  });

  it('gives the reference verdicts on every Zaxy signature vector (Ed25519, ML-DSA-65)', () => {
    const files = cases.filter((c) => c.format === 'zaxy' && c.file.startsWith('sigver-'));
    assert.ok(files.length > 0, 'no sigver files in the zaxy manifest');
    for (const fixture of files) {
      const result = summary.sigver[fixture.file]!;
      assert.ok(result.ran > 0, fixture.file);
      assert.deepEqual(result.wrong, [], `${fixture.file}: tcIds with another verdict`);
    }
  });

  for (const format of FORMATS) {
    it(`reports every ${format} fixture as Node's core does`, async (t) => {
      const ofFormat = cases.filter((fixture) => fixture.format === format);
      assert.ok(ofFormat.length > 0);
      for (const fixture of ofFormat) {
        await t.test(fixture.file, async () => {
          const expected = await nodeReport(fixture);
          const report = reports.get(fixture.path)!;
          assert.deepEqual(comparable(report), comparable(expected));
          assertSameBytesRead(report, expected, readFileSync(fixture.path).byteLength);
        });
      }
    });
  }
});

describe('Deno.serve entry (src/edge/deno.ts)', { timeout: 120_000 }, () => {
  let base = '';
  let stopServer: () => Promise<void> = async () => undefined;
  const cases = allFixtureCases();
  const MAX_BODY_BYTES = 4 * 1024 * 1024;

  before(async () => {
    const port = await freePort();
    const child = spawn(
      DENO,
      [
        'run',
        '--no-prompt',
        '--conditions=verify-export-source',
        `--allow-net=127.0.0.1:${port}`,
        '--allow-env=LISTEN_HOST,PORT,MAX_BODY_BYTES,MAX_BUFFERED_BYTES,MAX_RETAINED_BYTES,CORS_ORIGINS',
        'src/edge/deno.ts',
      ],
      {
        cwd: PROJECT_ROOT,
        env: {
          ...DENO_ENV,
          PORT: String(port),
          MAX_BODY_BYTES: String(MAX_BODY_BYTES),
          CORS_ORIGINS: 'https://app.example',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    process.on('exit', () => child.kill('SIGKILL'));
    let output = '';
    const listening = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('listening on')) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void exited.then(() => reject(new Error(`deno exited:\n${output}`)));
    });
    await within(listening, 30_000, 'deno serve start');
    base = `http://127.0.0.1:${port}/`;
    stopServer = async () => {
      child.kill('SIGTERM');
      await exited;
    };
  });
  after(() => stopServer());

  async function assertParity(fixture: FixtureCase): Promise<void> {
    const response = await fetch(base + caseQuery(fixture), { method: 'POST', body: readFileSync(fixture.path) });
    const report = (await response.json()) as Report;
    const expected = await nodeReport(fixture);
    assert.deepEqual(comparable(report), comparable(expected), fixture.file);
    assert.equal(response.status, statusForReport(expected), fixture.file);
  }

  it('answers one fixture of each format like Node, 20 of them concurrently', async () => {
    const picked = FORMATS.flatMap((format) => {
      const ofFormat = cases.filter((c) => c.format === format);
      return Array.from({ length: 5 }, (_, index) => ofFormat[Math.floor((index * ofFormat.length) / 5)]!);
    });
    await Promise.all(picked.map((fixture) => assertParity(fixture)));
  });

  it('refuses a declared oversize body with 413, and GET answers usage', async () => {
    const response = await fetch(base, { method: 'POST', body: new Uint8Array(MAX_BODY_BYTES + 1) });
    assert.equal(response.status, 413);
    assert.equal(((await response.json()) as Report).findings[0]?.code, 'limit.input_bytes');
    const usage = await fetch(base);
    assert.match(await usage.text(), /POST \//);
  });

  it('takes CORS origins from the environment', async () => {
    const response = await fetch(base, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://app.example');
  });
});
