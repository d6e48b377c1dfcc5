// Browser tests (@web/test-runner) in Debian's Chromium. The server root is the project itself:
// tests fetch the fixtures from /test/fixtures/ (the synced copy, see test/browser/fixtures.ts)
// and project files by their path from the root, e.g. /wasm/generated/sha256.wasm.
import { mkdir } from 'node:fs/promises';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';

/**
 * `executeServerCommand('save-screenshot', { name })` saves a PNG of the test page as
 * test-results/screenshots/<name> (@web/test-runner-commands 0.9 has no screenshot command).
 */
function saveScreenshotPlugin() {
  return {
    name: 'save-screenshot-command',
    async executeCommand({ command, payload, session }) {
      if (command !== 'save-screenshot') return undefined;
      const name = String(payload?.name ?? '');
      if (!/^[\w.-]+\.png$/.test(name)) throw new Error('save-screenshot: name must be a plain .png file name');
      await mkdir('test-results/screenshots', { recursive: true });
      await session.browser
        .getPage(session.id)
        .screenshot({ path: `test-results/screenshots/${name}`, fullPage: true });
      return true;
    },
  };
}

export default {
  rootDir: '.',
  files: [`test/browser/**/*.test.ts`],
  // The package's `#sha256` import names the TypeScript sources under this condition (the
  // compiled dist/ otherwise; see package.json "imports").
  nodeResolve: { exportConditions: ['verify-export-source'] },
  concurrency: 1,
  browserStartTimeout: 120000,
  testsFinishTimeout: 600000,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }), saveScreenshotPlugin()],
  testFramework: { config: { timeout: 120000 } },
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
          '--disable-sync',
        ],
      },
    }),
  ],
};
