// The helper worker <verify-export> starts for a large Zaxy bundle (components/helper-threads.ts:
// the entry-hashing worker), as the package ships it: in the tarball, from the CDN build on another
// origin (started through a blob: module under the README's CSP), and bundled by a Vite app. The
// input is a signed Zaxy bundle, gzipped, large enough for a helper's first bundle (16 MB, a .gz
// counted five times its size: components/helper-threads.ts), built here the way Zaxy builds one and
// signed with node:crypto, so that the helper starts and the verdict is a pass.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { JsonValue } from '../../src/json/value.ts';
import { ed25519Signer, signedZaxyBundle } from '../helpers/signed-zaxy.ts';
import {
  closeChromium,
  describeRun,
  devBin,
  packAndInstall,
  readmeSnippet,
  run,
  serveStatic,
  sharedChromium,
  STRICT_CSP,
  type InstalledPackage,
} from './consumer.ts';

let pkg: InstalledPackage;
let bundle: Uint8Array;

before(
  async () => {
    pkg = await packAndInstall();
    bundle = largeSignedBundleGz();
  },
  { timeout: 240_000 },
);

after(async () => {
  await closeChromium();
  pkg?.cleanUp();
});

/** A signed Ed25519 Zaxy bundle of 12,000 entries of random text, gzipped (random text compresses to half). */
function largeSignedBundleGz(): Uint8Array {
  const contents: JsonValue[] = Array.from(
    { length: 12000 },
    (_, i) =>
      new Map<string, JsonValue>([
        ['kind', 'event'],
        ['seq', i],
        ['text', randomBytes(300).toString('hex')],
      ]),
  );
  const gz = gzipSync(signedZaxyBundle(contents, ed25519Signer(), 'helpers'));
  assert.ok(5 * gz.byteLength > 16 << 20, `the .gz counts as more than 16 MB (${gz.byteLength} bytes)`);
  return new Uint8Array(gz);
}

/** Picks the bundle through the element's file input; resolves to the verdict (or the error). */
async function pickBundle(page: Page, dir: string): Promise<string> {
  const file = join(dir, 'bundle.json.gz');
  writeFileSync(file, bundle);
  await page.waitForFunction(() => customElements.get('verify-export') !== undefined, null, { timeout: 60_000 });
  const verdict = page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const element = document.querySelector('verify-export')!;
        element.addEventListener('verify-export:result', (event) =>
          resolve((event as CustomEvent<{ overall: string }>).detail.overall),
        );
        element.addEventListener('verify-export:error', (event) =>
          resolve(`error: ${JSON.stringify((event as CustomEvent).detail)}`),
        );
      }),
  );
  await page.locator('verify-export input[type="file"]').setInputFiles(file);
  return verdict;
}

test('the tarball ships the helper worker, its URL pointing at the compiled file', () => {
  for (const file of [
    'dist/components/helper-threads.js',
    'dist/components/entry-hash-worker.js',
    'dist/components/entry-hash-client.js',
    'dist/cdn/entry-hash-worker.js',
  ])
    assert.ok(existsSync(join(pkg.installed, file)), `${file} in the installed package`);
  const threads = readFileSync(join(pkg.installed, 'dist/components/helper-threads.js'), 'utf8');
  assert.match(threads, /new URL\('\.\/entry-hash-worker\.js', import\.meta\.url\)/);
});

test(
  'CDN from another origin: a large .json.gz starts the helper from the CDN through a blob: worker, and passes',
  { timeout: 120_000 },
  async () => {
    const cdn = join(pkg.installed, 'dist/cdn');
    const cdnServer = await serveStatic({ '/': cdn }, { 'Access-Control-Allow-Origin': '*' }, 'localhost');
    const site = join(pkg.consumer, 'helpers-cdn-page');
    mkdirSync(site, { recursive: true });
    // The README's page, the element taking a picked file instead of its `src`.
    const page = readmeSnippet('page')
      .code.replace('src="verify-export/verify-export.js"', `src="${cdnServer.origin}/verify-export.js"`)
      .replace(' src="export.json"', '');
    assert.ok(page.includes(cdnServer.origin) && !page.includes('export.json'), page);
    writeFileSync(join(site, 'index.html'), `<!doctype html>\n<html lang="en">\n<body>\n${page}</body>\n</html>\n`);
    const csp = `default-src 'self'; script-src 'self' ${cdnServer.origin} 'wasm-unsafe-eval'; worker-src blob:`;
    const pageServer = await serveStatic({ '/': site }, { 'Content-Security-Policy': csp });
    const context = await (await sharedChromium()).newContext();
    const problems: string[] = [];
    try {
      const tab = await context.newPage();
      tab.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      await tab.goto(`${pageServer.origin}/`);
      assert.equal(await pickBundle(tab, site), 'pass');
      assert.ok(
        cdnServer.requested.includes('/entry-hash-worker.js'),
        `the helper from the CDN: ${cdnServer.requested.join(' ')}`,
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
      await pageServer.close();
      await cdnServer.close();
    }
  },
);

test(
  'Vite: an app built from the package bundles the helper; a large .json.gz starts it and passes',
  { timeout: 180_000 },
  async () => {
    const app = join(pkg.consumer, 'helpers-vite-app');
    mkdirSync(app, { recursive: true });
    const main = readmeSnippet('bundler').code.replace(' src="export.json"', '');
    assert.ok(!main.includes('export.json'), main);
    writeFileSync(join(app, 'main.js'), main);
    writeFileSync(
      join(app, 'index.html'),
      '<!doctype html>\n<html lang="en">\n<body>\n<script type="module" src="./main.js"></script>\n</body>\n</html>\n',
    );
    const built = await run(devBin('vite'), ['build', '--logLevel', 'warn'], { cwd: app, timeout: 120_000 });
    assert.equal(built.status, 0, describeRun('vite build', built));
    const server = await serveStatic({ '/': join(app, 'dist') }, { 'Content-Security-Policy': STRICT_CSP });
    const context = await (await sharedChromium()).newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`${server.origin}/`);
      assert.equal(await pickBundle(tab, app), 'pass');
      assert.ok(
        server.requested.some((path) => /entry-hash-worker[\w-]*\.js$/.test(path)),
        `the helper bundled and started: ${server.requested.join(' ')}`,
      );
    } finally {
      await context.close();
      await server.close();
    }
  },
);
