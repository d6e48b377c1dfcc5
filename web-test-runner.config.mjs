// Browser tests (@web/test-runner) in Debian's Chromium. The server root is the folder above the
// project so tests can fetch the shared fixtures from ../shared/ without copying them.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { basename } from 'node:path';

const project = basename(process.cwd());

export default {
  rootDir: '..',
  files: [`test/browser/**/*.test.ts`],
  nodeResolve: true,
  concurrency: 1,
  browserStartTimeout: 120000,
  testsFinishTimeout: 600000,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' })],
  testFramework: { config: { timeout: 120000 } },
  testRunnerHtml: (testFramework) =>
    `<html><body><script>window.__PROJECT__ = ${JSON.stringify(project)};</script><script type="module" src="${testFramework}"></script></body></html>`,
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
      },
    }),
  ],
};
