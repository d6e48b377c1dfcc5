// SHA-256 speed by buffer size in Node, Chromium, Deno and workerd: the WASM `Sha256` (hash-wasm),
// WebCrypto's `crypto.subtle.digest` awaited one call at a time and with 16 calls in flight, and
// the kit's interface (`sha256Digest`, src/crypto/sha256-digest.ts). Where WebCrypto overtakes
// WASM is the crossover BULK_DIGEST_MIN_BYTES is chosen from (figures in docs/architecture.md,
// 'Bulk hashing'). `npm run bench -- hash` runs every runtime; `… hash.bench.ts chromium` one.
// Target: Chromium, 16 MiB through the kit's interface ≥ 1,000 MB/s (hash-wasm: ~200 MB/s), the
// median of single calls, on the page and in a dedicated worker (where <verify-export> verifies).
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../test/helpers/fixtures.ts';
import { startWorkerd } from '../test/runtimes/harness.ts';
import { BULK_DIGEST_MIN_BYTES } from '../src/crypto/bulk-digest.ts';
import { measureAll, METHODS, repsFor, SIZES, type Method } from './hash-measure.ts';

const MiB16 = 16 << 20;
const TARGET_16MIB = 1000;

type Table = Record<string, Record<Method, number>>;
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const only = process.argv.slice(2);
const wanted = (runtime: string): boolean => only.length === 0 || only.includes(runtime);

function print(runtime: string, table: Table, threshold: number): void {
  console.log(`\n${runtime} (MB/s, best of 3; its threshold ${threshold} bytes; load average ${loadAverage()})`);
  console.log(`  ${'bytes'.padStart(9)} ${METHODS.map((m) => m.padStart(12)).join('')}`);
  for (const size of SIZES) {
    console.log(`  ${String(size).padStart(9)} ${METHODS.map((m) => String(table[size]![m]).padStart(12)).join('')}`);
  }
}

/** The measurement code as one ES module, for a page and for Deno. */
async function bundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { measureAll, medianSingle } from './bench/hash-measure.ts';
        import { BULK_DIGEST_MIN_BYTES } from './src/crypto/bulk-digest.ts';
        globalThis.bulkThreshold = BULK_DIGEST_MIN_BYTES;
        globalThis.measureHashes = () => measureAll(() => performance.now());
        globalThis.measure16 = async () => {
          const now = () => performance.now();
          return { kit: await medianSingle('kit', ${MiB16}, 9, now), wasm: await medianSingle('wasm', ${MiB16}, 5, now) };
        };
        if (typeof WorkerGlobalScope !== 'undefined') onmessage = async () => postMessage(await globalThis.measure16());`,
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

if (wanted('node')) print(`Node ${process.version}`, await measureAll(() => performance.now()), BULK_DIGEST_MIN_BYTES);

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
      ['/bench.js', '/worker.js'].includes(new URL(route.request().url()).pathname)
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
    print(
      `Chromium ${browser.version()}`,
      table,
      await page.evaluate(() => (globalThis as unknown as { bulkThreshold: number }).bulkThreshold),
    );
    type Figures = { kit: number; wasm: number };
    const onPage = await page.evaluate(() => (globalThis as unknown as { measure16(): Promise<Figures> }).measure16());
    const inWorker = await page.evaluate(
      () =>
        new Promise<Figures>((resolve) => {
          const worker = new Worker('/worker.js', { type: 'module' });
          worker.onmessage = (event) => resolve(event.data as Figures);
          worker.postMessage('go');
        }),
    );
    console.log(`  SHA-256 of a 16 MiB buffer through the kit's interface (sha256Digest), median of 9 single calls:`);
    for (const [where, figures] of [
      ['page', onPage],
      ['dedicated worker', inWorker],
    ] as const) {
      console.log(
        `    ${where.padEnd(17)} ${String(figures.kit).padStart(5)} MB/s (target ≥ ${TARGET_16MIB.toLocaleString('en')} MB/s; hash-wasm alone: ${figures.wasm} MB/s)`,
      );
    }
    console.log(`  machine load average: ${loadAverage()}`);
  } finally {
    await browser.close();
  }
}

if (wanted('deno')) {
  const work = mkdtempSync(join(tmpdir(), 'verify-export-hash-bench-'));
  try {
    const file = join(work, 'bench.mjs');
    writeFileSync(
      file,
      `${code}\nconsole.log(JSON.stringify({ table: await globalThis.measureHashes(), threshold: globalThis.bulkThreshold }));\n`,
    );
    const result = spawnSync(join(PROJECT_ROOT, 'node_modules/.bin/deno'), ['run', '--no-prompt', file], {
      encoding: 'utf8',
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    });
    if (result.status !== 0) throw new Error(`deno exited with ${result.status}: ${result.stderr}`);
    const version = spawnSync(join(PROJECT_ROOT, 'node_modules/.bin/deno'), ['--version'], { encoding: 'utf8' });
    const { table, threshold } = JSON.parse(result.stdout) as { table: Table; threshold: number };
    print(version.stdout.split('\n')[0]!, table, threshold);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (wanted('workerd')) {
  const workerd = await startWorkerd([{ name: 'hash', entry: 'hash.js' }], { 'hash.js': 'bench/hash-worker.ts' });
  try {
    const url = workerd.urls['hash']!;
    let threshold = 0;
    const roundTrip = async (method: Method, size: number, reps: number): Promise<number> => {
      const start = performance.now();
      const response = await fetch(`${url}?method=${method}&size=${size}&reps=${reps}`);
      const answer = (await response.json()) as { webCrypto: boolean; threshold: number };
      if (!answer.webCrypto) throw new Error('workerd has no crypto.subtle');
      threshold = answer.threshold;
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
    print('workerd (timed around each request, less an empty one)', table, threshold);
  } finally {
    await workerd.stop();
  }
}
