// The core makes no network request, watched from outside the page: Debian's Chromium (through
// playwright-core) loads a page that imports the core (one esbuild bundle of src/index.ts, so
// lazily imported format modules are already in it), then fetches every fixture and verifies it,
// plain and gzipped in the page (CompressionStream). Every request the page makes is recorded;
// after the page has loaded, only the fixture fetches themselves may appear. The verdicts must
// also equal Node's for the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { verify } from '../../src/index.ts';
import { loadCorpus } from '../fuzz/corpus.ts';
import { FIXTURES, PROJECT_ROOT } from '../helpers/fixtures.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>no-network</title></head>
<body><script type="module">
import * as core from '/core.js';
window.core = core;
window.ready = true;
</script></body></html>`;

interface PageCase {
  readonly url: string;
  readonly name: string;
  readonly pin?: string;
  readonly gzipInPage: boolean;
}

test('in Chromium, verifying every fixture requests nothing but the fixtures', { timeout: 600_000 }, async () => {
  const bundle = await build({
    entryPoints: [join(PROJECT_ROOT, 'src/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['verify-export-source'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const core = bundle.outputFiles[0]!.contents;
  const fixtureRoot = FIXTURES;
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    } else if (path === '/core.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(core);
    } else if (path.startsWith('/fixtures/')) {
      const file = normalize(join(fixtureRoot, path.slice('/fixtures/'.length)));
      if (!file.startsWith(fixtureRoot) || !existsSync(file)) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The server must close even when Chromium fails to start, or the test process never exits.
  const browser = await chromium
    .launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-dev-shm-usage',
      ],
    })
    .catch((error: unknown) => {
      server.close();
      throw error;
    });
  try {
    const context = await browser.newContext();
    const requests: string[] = [];
    const foreign: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(origin + '/')) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('request', (request) => requests.push(request.url()));
    page.on('websocket', (socket) => foreign.push(`websocket ${socket.url()}`));
    await page.goto(origin + '/');
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    assert.deepEqual(
      requests.map((url) => url.slice(origin.length)),
      ['/', '/core.js'],
      'loading the page',
    );
    const loaded = requests.length;

    const seeds = loadCorpus();
    const cases: PageCase[] = seeds.flatMap((seed) => {
      const base = {
        url: `/fixtures/${seed.format}/${encodeURIComponent(seed.file)}`,
        name: seed.file,
        ...(seed.pin ? { pin: seed.pin } : {}),
      };
      return seed.gzip || seed.bytes.length > 256 * 1024
        ? [{ ...base, gzipInPage: false }]
        : [
            { ...base, gzipInPage: false },
            { ...base, gzipInPage: true },
          ];
    });
    const results = await page.evaluate(async (list: PageCase[]) => {
      const api = (
        window as unknown as {
          core: { verify(input: Uint8Array, options: object): Promise<{ overall: string; format: string | null }> };
        }
      ).core;
      const out: { overall: string; format: string | null }[] = [];
      for (const c of list) {
        let bytes = new Uint8Array(await (await fetch(c.url)).arrayBuffer());
        if (c.gzipInPage)
          bytes = new Uint8Array(
            await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer(),
          );
        const report = await api.verify(bytes, {
          name: c.gzipInPage ? `${c.name}.gz` : c.name,
          ...(c.pin ? { expectPublicKey: c.pin } : {}),
        });
        out.push({ overall: report.overall, format: report.format });
      }
      return out;
    }, cases);

    const after = requests.slice(loaded).map((url) => url.slice(origin.length));
    const unexpected = after.filter((path) => !cases.some((c) => c.url === path));
    assert.deepEqual(unexpected, [], 'requests other than the fixtures while verifying');
    assert.deepEqual(foreign, [], 'requests to other origins');
    assert.equal(after.length, cases.length, 'one request per fixture fetch');

    // Same verdicts as in Node for the plain bytes.
    const mismatches: string[] = [];
    for (const [i, c] of cases.entries()) {
      if (c.gzipInPage) continue;
      const seed = seeds.find((s) => `/fixtures/${s.format}/${encodeURIComponent(s.file)}` === c.url)!;
      const node = await verify(seed.bytes, { name: c.name, ...(c.pin ? { expectPublicKey: c.pin } : {}) });
      if (node.overall !== results[i]!.overall || node.format !== results[i]!.format)
        mismatches.push(
          `${c.url}: Node ${node.overall}/${node.format}, Chromium ${results[i]!.overall}/${results[i]!.format}`,
        );
    }
    assert.deepEqual(mismatches, []);
    assert.ok(cases.length > 500, `${cases.length} verifications in Chromium`);

    // The watch itself works: a request the page does make is seen.
    await page.evaluate(() => fetch('https://example.invalid/beacon').catch(() => undefined));
    assert.deepEqual(foreign, ['https://example.invalid/beacon']);
  } finally {
    await browser.close();
    server.close();
  }
});
