// SHA-256 of many small messages, the shape of a Zaxy bundle's entries: 200,000 messages of
// 400–1,200 bytes (~160 MB), hashed (a) one message per call through hash-wasm (`loadSha256().digest`,
// what `hashEntries` does in browsers) and (b) all at once with the 4-lane WebAssembly SIMD hasher
// (`loadSha256Many().digestMany`, wasm/sha256-lanes.ts), in one call and in batches of ~512 KiB
// (as `hashEntries` is called); plus one 32 MiB message (the lanes' worst case: one lane busy).
// The same measuring code runs in Node and in Chromium (Debian's, through playwright-core).
// Target: (b) ≥ 1.6× (a) in Chromium. Median of 5 rounds; the load average is printed (2 shared cores).
// `npm run bench -- sha256-lanes`; `… sha256-lanes.bench.ts node` (or `chromium`) runs one runtime.
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, PROJECT_ROOT } from '../test/e2e/serve.ts';

/** What the measuring code returns. */
interface Figures {
  megabytes: number;
  loadMs: number;
  perCall: number[];
  manyOneCall: number[];
  manyBatches: number[];
  longWasm: number;
  longMany: number;
  same: boolean;
}

// The measuring code, bundled for each runtime. Rates in MB/s (10^6 bytes a second).
const MEASURE = `
import { loadSha256Many } from './wasm/sha256-lanes.ts';
import { loadSha256 } from './wasm/sha256.ts';

const MESSAGES = 200000;
const ROUNDS = 5;
const BATCH_BYTES = 512 * 1024;

export async function measure() {
  let seed = 12345;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const starts = new Uint32Array(MESSAGES);
  const ends = new Uint32Array(MESSAGES);
  let total = 0;
  for (let k = 0; k < MESSAGES; k++) {
    starts[k] = total;
    total += 400 + Math.floor(random() * 801);
    ends[k] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < total; i++) data[i] = (Math.imul(i, 2654435761) >>> 24) ^ (i >>> 10);
  const sha256 = await loadSha256();
  let start = performance.now();
  const many = await loadSha256Many();
  const loadMs = performance.now() - start;
  if (many === undefined) throw new Error('the 4-lane hasher did not load');
  // Batches of about BATCH_BYTES, as hashEntries gets them.
  const batches = [0];
  for (let k = 0; k < MESSAGES; k++) if (ends[k] - starts[batches.at(-1)] >= BATCH_BYTES) batches.push(k + 1);
  if (batches.at(-1) !== MESSAGES) batches.push(MESSAGES);
  const expected = new Uint8Array(32 * MESSAGES);
  const out = new Uint8Array(32 * MESSAGES);
  const rate = (bytes, ms) => Math.round(bytes / 1e3 / ms);
  const perCall = [], manyOneCall = [], manyBatches = [];
  let same = true;
  for (let round = 0; round < ROUNDS; round++) {
    start = performance.now();
    for (let k = 0; k < MESSAGES; k++) expected.set(sha256.digest(data.subarray(starts[k], ends[k])), 32 * k);
    perCall.push(rate(total, performance.now() - start));
    out.fill(0);
    start = performance.now();
    many.digestMany(data, starts, ends, out);
    manyOneCall.push(rate(total, performance.now() - start));
    same &&= out.every((byte, i) => byte === expected[i]);
    out.fill(0);
    start = performance.now();
    for (let b = 0; b + 1 < batches.length; b++) {
      const from = batches[b], to = batches[b + 1];
      many.digestMany(data, starts.subarray(from, to), ends.subarray(from, to), out.subarray(32 * from, 32 * to));
    }
    manyBatches.push(rate(total, performance.now() - start));
    same &&= out.every((byte, i) => byte === expected[i]);
  }
  const long = data.subarray(0, 32 << 20);
  const longOut = new Uint8Array(32);
  start = performance.now();
  const longExpected = sha256.digest(long);
  const longWasm = rate(long.length, performance.now() - start);
  start = performance.now();
  many.digestMany(long, Uint32Array.of(0), Uint32Array.of(long.length), longOut);
  const longMany = rate(long.length, performance.now() - start);
  same &&= longOut.every((byte, i) => byte === longExpected[i]);
  return { megabytes: total / 1e6, loadMs, perCall, manyOneCall, manyBatches, longWasm, longMany, same };
}
globalThis.measureLanes = measure;
`;

const only = process.argv.slice(2);
const wanted = (runtime: string): boolean => only.length === 0 || only.includes(runtime);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function print(runtime: string, figures: Figures): void {
  if (!figures.same) throw new Error(`${runtime}: the 4-lane digests differ from hash-wasm's`);
  const wasm = median(figures.perCall);
  const oneCall = median(figures.manyOneCall);
  const batches = median(figures.manyBatches);
  const list = (values: number[]): string => values.join(', ');
  console.log(
    `\n${runtime}: ${MESSAGES_LABEL} (${figures.megabytes.toFixed(0)} MB), MB/s, median of 5 (all 5 in brackets)`,
  );
  console.log(`  (a) hash-wasm, one message per call  ${String(wasm).padStart(5)}  [${list(figures.perCall)}]`);
  console.log(
    `  (b) digestMany, one call             ${String(oneCall).padStart(5)}  [${list(figures.manyOneCall)}]  ${(oneCall / wasm).toFixed(2)}× (a)`,
  );
  console.log(
    `  (b) digestMany, ~512 KiB batches     ${String(batches).padStart(5)}  [${list(figures.manyBatches)}]  ${(batches / wasm).toFixed(2)}× (a)`,
  );
  console.log(
    `  one 32 MiB message: hash-wasm ${figures.longWasm} MB/s, digestMany ${figures.longMany} MB/s (one lane of four busy)`,
  );
  console.log(
    `  loadSha256Many() (generate, compile, self-test): ${figures.loadMs.toFixed(1)} ms; load average ${load()}`,
  );
}
const MESSAGES_LABEL = '200,000 messages of 400–1,200 bytes';

const work = mkdtempSync(join(tmpdir(), 'verify-export-sha256-lanes-bench-'));
try {
  const bundled = await build({
    stdin: { contents: MEASURE, resolveDir: PROJECT_ROOT, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['verify-export-source'],
    target: 'es2022',
    write: false,
  });
  const code = bundled.outputFiles[0]!.text;

  if (wanted('node')) {
    const file = join(work, 'measure.mjs');
    writeFileSync(file, code);
    const { measure } = (await import(pathToFileURL(file).href)) as { measure(): Promise<Figures> };
    print(`Node ${process.version}`, await measure());
  }

  if (wanted('chromium')) {
    const browser = await chromium.launch({ ...CHROMIUM, headless: true });
    try {
      const page = await browser.newPage();
      const origin = 'http://localhost:8199';
      await page.route(`${origin}/**`, (route) =>
        new URL(route.request().url()).pathname === '/measure.js'
          ? route.fulfill({ body: code, contentType: 'text/javascript' })
          : route.fulfill({
              body: '<!doctype html><script type="module" src="/measure.js"></script>',
              contentType: 'text/html',
            }),
      );
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => 'measureLanes' in globalThis);
      const figures = await page.evaluate(() =>
        (globalThis as unknown as { measureLanes(): Promise<Figures> }).measureLanes(),
      );
      print(`Chromium ${browser.version()}`, figures);
    } finally {
      await browser.close();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
