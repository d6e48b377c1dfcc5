// End to end: build the demo with Vite, serve it on 127.0.0.1 under the strict CSP, drive
// Debian's Chromium with playwright-core, verify fixtures through the element's file input, and
// check that nothing left 127.0.0.1 and nothing broke the CSP. Screenshots go to test-results/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { fixturePath } from '../helpers/fixtures.ts';
import { buildDemo, CHROMIUM, DEMO_DIST, PROJECT_ROOT, serveStatic, type StaticServer } from './serve.ts';

const RESULTS = join(PROJECT_ROOT, 'test-results');

describe('demo page (vite build, strict CSP, Chromium)', { timeout: 240_000 }, () => {
  let server: StaticServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const foreignRequests: string[] = [];
  const cspProblems: string[] = [];
  const pageErrors: string[] = [];
  /** Script files fetched, in order (the page's and its worker's). */
  const scripts: string[] = [];

  before(async () => {
    await buildDemo();
    server = await serveStatic();
    await mkdir(RESULTS, { recursive: true });
    browser = await chromium.launch({ ...CHROMIUM, headless: true });
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, colorScheme: 'light' });
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol === 'blob:' || url.protocol === 'data:') return;
      if (url.origin !== server.origin) foreignRequests.push(request.url());
      else if (url.pathname.endsWith('.js')) scripts.push(url.pathname.split('/').pop()!);
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspProblems.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => customElements.get('verify-export') !== undefined);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function verifyThroughInput(format: string, file: string): Promise<string> {
    const verdict = page.locator('verify-export [part="verdict"]');
    await page.locator('verify-export input[type="file"]').setInputFiles(fixturePath(format, file));
    await page.waitForFunction(
      ([previousName]) => {
        const element = document.querySelector('verify-export');
        const report = (element as unknown as { report?: { input: string } } | null)?.report;
        return report !== undefined && report.input === previousName;
      },
      [file],
      { timeout: 60_000 },
    );
    return (await verdict.textContent())?.replace(/\s+/g, ' ').trim() ?? '';
  }

  it('verifies a passing AgentXchain export picked through the file input', async () => {
    const text = await verifyThroughInput('agentxchain', 'real-full.json');
    assert.match(text, /^PASS Pass: this AgentXchain export is intact\b/);
    assert.equal((await page.locator('verify-export [part="file-table"] tbody tr').count()) > 0, true);
    await page.screenshot({ path: join(RESULTS, 'demo-agentxchain-pass.png'), fullPage: true });
  });

  it('shows a tampered AgentXchain export as failed, with its findings', async () => {
    const text = await verifyThroughInput('agentxchain', 'file-sha-flip.json');
    assert.match(text, /^FAIL Fail: \d+ problems? found in this AgentXchain export\./);
    assert.ok((await page.locator('verify-export [part="findings"] .finding').count()) > 0);
    await page.screenshot({ path: join(RESULTS, 'demo-agentxchain-fail.png'), fullPage: true });
  });

  it('every bundled sample gives the verdict the demo promises; ML-DSA code loads only for the ML-DSA sample', async () => {
    const samples = page.locator('button.sample');
    const count = await samples.count();
    assert.ok(count >= 8, `${count} samples`);
    for (let i = 0; i < count; i++) {
      const name = (await samples.nth(i).getAttribute('title'))!;
      const expected = (await samples.nth(i).locator('.expected').textContent())!.replace('expected: ', '').trim();
      const mlDsaLoaded = scripts.some((script) => script.startsWith('ml-dsa'));
      if (name.includes('ml-dsa')) assert.equal(mlDsaLoaded, false, 'no ML-DSA code before the first ML-DSA bundle');
      await samples.nth(i).click();
      await page.waitForFunction(
        (n) =>
          (document.querySelector('verify-export') as unknown as { report?: { input: string } }).report?.input === n,
        name,
        { timeout: 60_000 },
      );
      const shown = await page.locator('verify-export [part="verdict"]').getAttribute('data-overall');
      assert.equal(shown, expected, `${name}: shown ${shown}, expected ${expected}`);
      if (name === 'zaxy-subset-pass.json')
        await page.screenshot({ path: join(RESULTS, 'demo-zaxy-subset.png'), fullPage: true });
      if (name.includes('ml-dsa'))
        assert.ok(
          scripts.some((script) => script.startsWith('ml-dsa')),
          'ML-DSA code fetched for the ML-DSA bundle',
        );
    }
  });

  it('discloses ticked entries of a signed Zaxy bundle as a downloadable subset that verifies', async () => {
    await page.locator('#pin-sample').click();
    await page.locator('button.sample[title="zaxy-signed-pass.json"]').click();
    await page.waitForFunction(
      () =>
        (
          document.querySelector('verify-export') as unknown as {
            report?: { input: string; verdicts: { trust: string } };
          }
        ).report?.verdicts.trust === 'pass',
    );
    const boxes = page.locator('verify-export [part="entry-table"] input[type="checkbox"]');
    await boxes.nth(0).check();
    await boxes.nth(2).check();
    const downloading = page.waitForEvent('download');
    await page.locator('verify-export [part="disclose-button"]').click();
    const download = await downloading;
    assert.equal(download.suggestedFilename(), 'zaxy-signed-pass.subset.json');
    const saved = join(RESULTS, 'zaxy-signed-pass.subset.json');
    await download.saveAs(saved);
    const subset = JSON.parse(await readFile(saved, 'utf8')) as { disclosed: { index: number }[] };
    assert.deepEqual(
      subset.disclosed.map((entry) => entry.index),
      [0, 2],
    );
    await page.screenshot({ path: join(RESULTS, 'demo-zaxy-disclosure.png'), fullPage: true });
    await page.locator('verify-export .actions button', { hasText: 'Verify this subset' }).click();
    await page.waitForFunction(
      () =>
        (document.querySelector('verify-export') as unknown as { report?: { input: string } }).report?.input ===
        'zaxy-signed-pass.subset.json',
    );
    assert.match(
      (await page.locator('verify-export [part="verdict"]').textContent())!,
      /Pass: this Zaxy disclosed subset is intact/,
    );
    await page.locator('#pin-clear').click();
  });

  it('the built demo ships compiled code only (no TypeScript source copied as an asset)', async () => {
    const assets = await readdir(join(DEMO_DIST, 'assets'));
    assert.ok(
      assets.some((name) => /^entry-hash-worker-[\w-]+\.js$/.test(name)),
      assets.join(' '),
    );
    assert.deepEqual(
      assets.filter((name) => name.endsWith('.ts')),
      [],
    );
  });

  it('made no request outside 127.0.0.1 and broke no CSP rule', () => {
    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(cspProblems, []);
    assert.deepEqual(pageErrors, []);
  });
});
