// SHA-256 speed by buffer size in Node, Chromium, Deno and workerd: the WASM `Sha256` (hash-wasm),
// WebCrypto's `crypto.subtle.digest` awaited one call at a time and with 16 calls in flight, and
// the kit's choice (`sha256Of`, bench/bulk-digest.ts). Where WebCrypto overtakes WASM is the
// crossover BULK_DIGEST_MIN_BYTES is chosen from (figures in docs/architecture.md, 'Bulk hashing').
// Target: Chromium, 16 MiB through the kit's interface ≥ 1,000 MB/s (hash-wasm: ~200 MB/s).
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../test/helpers/fixtures.ts';
import { startWorkerd } from '../test/runtimes/harness.ts';
import { BULK_DIGEST_MIN_BYTES } from './bulk-digest.ts';
import { measureAll, METHODS, repsFor, SIZES, type Method } from './hash-measure.ts';

type Table = Record<string, Record<Method, number>>;
const only = process.argv.slice(2);
const wanted = (runtime: string): boolean => only.length === 0 || only.includes(runtime);

function print(runtime: string, table: Table): void {
  console.log(`\n${runtime} (MB/s, best of 3; threshold ${BULK_DIGEST_MIN_BYTES} bytes)`);
  console.log(`  ${'bytes'.padStart(9)} ${METHODS.map((m) => m.padStart(12)).join('')}`);
  for (const size of SIZES) {
    console.log(`  ${String(size).padStart(9)} ${METHODS.map((m) => String(table[size]![m]).padStart(12)).join('')}`);
  }
}

/** The measurement code as one ES module, for a page and for Deno. */
async function bundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { measureAll } from './bench/hash-measure.ts';
        globalThis.measureHashes = () => measureAll(() => performance.now());`,
      resolveDir: PROJECT_ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['verify-export-source'],
    target: 'es2022',
    write: false,
  });
  return result.outputFiles[0]!.text;
}

if (wanted('node')) print(`Node ${process.version}`, await measureAll(() => performance.now()));

const code = wanted('chromium') || wanted('deno') ? await bundle() : '';

if (wanted('chromium')) {
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    headless: true,
  });
  try {
    const page = await browser.newPage();
    // localhost is a secure context: crypto.subtle exists there (not on plain http elsewhere).
    const origin = 'http://localhost:8199';
    await page.route(`${origin}/**`, (route) =>
      new URL(route.request().url()).pathname === '/bench.js'
        ? route.fulfill({ body: code, contentType: 'text/javascript' })
        : route.fulfill({
            body: '<!doctype html><script type="module" src="/bench.js"></script>',
            contentType: 'text/html',
          }),
    );
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'measureHashes' in globalThis);
    const table = await page.evaluate(() =>
      (globalThis as unknown as { measureHashes(): Promise<Table> }).measureHashes(),
    );
    print(`Chromium ${browser.version()}`, table);
  } finally {
    await browser.close();
  }
}

if (wanted('deno')) {
  const work = mkdtempSync(join(tmpdir(), 'verify-export-hash-bench-'));
  try {
    const file = join(work, 'bench.mjs');
    writeFileSync(file, `${code}\nconsole.log(JSON.stringify(await globalThis.measureHashes()));\n`);
    const result = spawnSync(join(PROJECT_ROOT, 'node_modules/.bin/deno'), ['run', '--no-prompt', file], {
      encoding: 'utf8',
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    });
    if (result.status !== 0) throw new Error(`deno exited with ${result.status}: ${result.stderr}`);
    const version = spawnSync(join(PROJECT_ROOT, 'node_modules/.bin/deno'), ['--version'], { encoding: 'utf8' });
    print(version.stdout.split('\n')[0]!, JSON.parse(result.stdout) as Table);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (wanted('workerd')) {
  const workerd = await startWorkerd([{ name: 'hash', entry: 'hash.js' }], { 'hash.js': 'bench/hash-worker.ts' });
  try {
    const url = workerd.urls['hash']!;
    const roundTrip = async (method: Method, size: number, reps: number): Promise<number> => {
      const start = performance.now();
      const response = await fetch(`${url}?method=${method}&size=${size}&reps=${reps}`);
      const answer = (await response.json()) as { webCrypto: boolean };
      if (!answer.webCrypto) throw new Error('workerd has no crypto.subtle');
      return performance.now() - start;
    };
    const table: Table = {};
    for (const size of SIZES) {
      const row = {} as Record<Method, number>;
      for (const method of METHODS) {
        await roundTrip(method, size, 1);
        let best = Infinity;
        let empty = Infinity;
        for (let round = 0; round < 3; round++) {
          empty = Math.min(empty, await roundTrip(method, size, 0));
          best = Math.min(best, await roundTrip(method, size, repsFor(size)));
        }
        row[method] = Math.round((size * repsFor(size)) / 1e3 / Math.max(0.001, best - empty));
      }
      table[size] = row;
    }
    print('workerd (timed around each request, less an empty one)', table);
  } finally {
    await workerd.stop();
  }
}
