// Browser tests (@web/test-runner) in Debian's Chromium. The server root is the project itself:
// tests fetch the fixtures from /test/fixtures/ (the synced copy, see test/browser/fixtures.ts)
// and project files by their path from the root, e.g. /wasm/generated/sha256.wasm.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';

export default {
  rootDir: '.',
  files: [`test/browser/**/*.test.ts`],
  // The package's `#sha256` import names the TypeScript sources under this condition (the
  // compiled dist/ otherwise; see package.json "imports").
  nodeResolve: { exportConditions: ['verify-export-source'] },
  concurrency: 1,
  browserStartTimeout: 120000,
  testsFinishTimeout: 600000,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' })],
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
