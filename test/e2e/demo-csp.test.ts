// The demo's footer says it runs under a strict Content-Security-Policy: the policy ships with the
// page (a meta tag, so any static host enforces it) and as a header from the dev server (`npm
// start`) and `vite preview`. In Chromium, under the meta tag alone and under the dev server, an
// inline script is refused while the element still verifies a file (module worker and WASM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { DEMO_CSP } from '../../vite.config.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { buildDemo, CHROMIUM, DEMO_DIST, PROJECT_ROOT, serveStatic, type StaticServer } from './serve.ts';

const CONFIG = join(PROJECT_ROOT, 'vite.config.ts');

/** Whether an inline script runs on the page, and the CSP violations it raised. */
async function inlineScriptOutcome(page: Page): Promise<{ ran: boolean; violations: string[] }> {
  return page.evaluate(async () => {
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) => violations.push(event.effectiveDirective));
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true;';
    document.head.append(script);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { ran: (window as unknown as { __inlineRan?: boolean }).__inlineRan === true, violations };
  });
}

/** Verifies a passing AgentXchain export through the element's file input (worker + WASM SHA-256). */
async function verifiesAFile(page: Page): Promise<string> {
  await page.waitForFunction(() => customElements.get('verify-export') !== undefined, undefined, { timeout: 120_000 });
  await page.locator('verify-export input[type="file"]').setInputFiles(fixturePath('agentxchain', 'real-full.json'));
  await page.waitForFunction(
    () =>
      (document.querySelector('verify-export') as unknown as { report?: { input: string } } | null)?.report?.input ===
      'real-full.json',
    undefined,
    { timeout: 120_000 },
  );
  return ((await page.locator('verify-export [part="verdict"]').textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

describe('demo Content-Security-Policy (meta tag, dev server, preview)', { timeout: 300_000 }, () => {
  let browser: Browser;

  before(async () => {
    await buildDemo();
    browser = await chromium.launch({ ...CHROMIUM, headless: true });
  });

  after(async () => {
    await browser?.close();
  });

  it('the built page carries the policy as the first element of <head>', async () => {
    const html = await readFile(join(DEMO_DIST, 'index.html'), 'utf8');
    const head = /<head>\s*(<meta[^>]*>)/.exec(html)?.[1] ?? '';
    assert.match(head, /http-equiv="Content-Security-Policy"/);
    const content = /content="([^"]*)"/.exec(head)?.[1]?.replaceAll('&#39;', "'");
    assert.equal(content, DEMO_CSP, head);
  });

  it('served with no header at all, the meta tag refuses an inline script; the element still verifies', async () => {
    const server: StaticServer = await serveStatic(DEMO_DIST, { sendCsp: false });
    const page = await browser.newPage();
    try {
      const response = await page.goto(`${server.origin}/`);
      assert.equal(response?.headers()['content-security-policy'], undefined, 'no header: the meta tag alone');
      const outcome = await inlineScriptOutcome(page);
      assert.deepEqual(outcome, { ran: false, violations: ['script-src-elem'] });
      assert.match(await verifiesAFile(page), /^PASS\b/);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('the dev server (npm start) sends the policy; an inline script is refused; the element verifies', async () => {
    const server: ViteDevServer = await createServer({
      configFile: CONFIG,
      logLevel: 'silent',
      server: { port: 0, strictPort: false, hmr: false },
    });
    await server.listen();
    const origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
    const page = await browser.newPage();
    try {
      const response = await page.goto(`${origin}/`);
      assert.equal(response?.headers()['content-security-policy'], DEMO_CSP);
      const outcome = await inlineScriptOutcome(page);
      assert.equal(outcome.ran, false);
      assert.ok(outcome.violations.includes('script-src-elem'), outcome.violations.join());
      assert.match(await verifiesAFile(page), /^PASS\b/);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('vite preview sends the policy with every response', async () => {
    const server: PreviewServer = await preview({
      configFile: CONFIG,
      logLevel: 'silent',
      preview: { port: 0, strictPort: false },
    });
    try {
      const origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
      for (const path of ['/', '/favicon.svg']) {
        const response = await fetch(`${origin}${path}`);
        assert.equal(response.status, 200, path);
        assert.equal(response.headers.get('content-security-policy'), DEMO_CSP, path);
      }
    } finally {
      await new Promise<void>((resolve, reject) =>
        server.httpServer.close((error) => (error ? reject(error) : resolve())),
      );
    }
  });
});
