// Builds everything the package ships into dist/ (run by `npm run build`, `npm install` and
// `npm pack` through prepack):
// - dist/src, dist/components, dist/wasm: the library compiled by tsc (ESM .js, .d.ts, source
//   maps), with hash-wasm's SHA-256 module as dist/wasm/generated/sha256.wasm;
// - dist/cli.js, dist/sha256-worker.js and dist/pool-worker.js: the Node CLI and its threads,
//   bundled so that start-up is one read;
// - dist/cdn/: the element with every dependency bundled, for a page without a bundler;
// - dist/custom-elements.json: the Custom Elements Manifest;
// - dist/worker/: the edge worker bundled for the local workerd (`npm run edge`, tests; not shipped).
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { extractSha256Wasm } from './wasm.mjs';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(PROJECT_ROOT, 'dist');
/** Custom condition under which the package's `#sha256` import names the TypeScript sources. */
export const SOURCE_CONDITION = 'verify-export-source';

/** Compiles src/, components/ and wasm/ with tsc into dist/. */
function compileLibrary() {
  for (const folder of ['src', 'components', 'wasm']) rmSync(join(DIST, folder), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(PROJECT_ROOT, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${result.status})`);
  const wasmFile = extractSha256Wasm();
  mkdirSync(join(DIST, 'wasm/generated'), { recursive: true });
  copyFileSync(wasmFile, join(DIST, 'wasm/generated/sha256.wasm'));
  copyFileSync(join(PROJECT_ROOT, 'wasm/sha256-module.d.ts'), join(DIST, 'wasm/generated/sha256.wasm.d.ts'));
  pointWorkerUrlAtJs(join(DIST, 'components/verify-client.js'), ['verify-worker']);
  pointWorkerUrlAtJs(join(DIST, 'components/helper-threads.js'), ['entry-hash-worker']);
}

/**
 * tsc rewrites the specifiers of imports, not URLs: each worker's `new URL('./<name>.ts',
 * import.meta.url)` in `file` must name the compiled file. Fails the build if one is not there once.
 */
function pointWorkerUrlAtJs(file, workers) {
  let source = readFileSync(file, 'utf8');
  for (const worker of workers) {
    const pattern = new RegExp(`new URL\\('\\./${worker}\\.ts', import\\.meta\\.url\\)`, 'g');
    const count = source.match(pattern)?.length ?? 0;
    if (count !== 1) throw new Error(`${file}: expected one URL of ${worker} to rewrite, found ${count}`);
    source = source.replace(pattern, `new URL('./${worker}.js', import.meta.url)`);
  }
  writeFileSync(file, source);
}

/** Subcommands the CLI loads only when named (bin/cli.ts), each bundled into its own file. */
const SUBCOMMANDS = ['report', 'diff', 'markdown'];

/**
 * The Node CLI, its hashing thread, its verifying thread (--jobs) and its subcommands, each one
 * file. Without code splitting: `verify-export <file>` reads one file at start-up. The subcommands'
 * code (the governance report, the diff, the markdown renderer) stays out of that file; bin/cli.ts
 * imports each by its source path, which this build points at the subcommand's own bundle.
 */
async function buildCli() {
  const common = {
    absWorkingDir: PROJECT_ROOT,
    outdir: DIST,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: [SOURCE_CONDITION],
    // ESM entry points first: a package's CommonJS "main" cannot be tree-shaken, and hash-wasm's
    // carries every algorithm it has (it made a third of the bundle, and of the start-up time).
    mainFields: ['module', 'main'],
    sourcemap: 'linked',
    logLevel: 'warning',
    splitting: false,
  };
  const subcommandBundles = {
    name: 'subcommand-bundles',
    setup(build) {
      build.onResolve({ filter: /^\.\/commands\/[a-z]+\.ts$/ }, (args) => {
        const name = /([a-z]+)\.ts$/.exec(args.path)[1];
        return SUBCOMMANDS.includes(name) ? { path: `./cli-${name}.js`, external: true } : undefined;
      });
    },
  };
  await build({
    ...common,
    entryPoints: { cli: 'bin/cli.ts', 'sha256-worker': 'bin/sha256-worker.ts', 'pool-worker': 'bin/pool-worker.ts' },
    plugins: [subcommandBundles],
  });
  await build({
    ...common,
    entryPoints: Object.fromEntries(SUBCOMMANDS.map((name) => [`cli-${name}`, `bin/commands/${name}.ts`])),
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  compileLibrary();
  await buildCli();
  const { buildCdn } = await import('./cdn.mjs');
  await buildCdn();
  const { writeCustomElementsManifest } = await import('./manifest.mjs');
  writeCustomElementsManifest();
  const { buildWorker, writeWorkerdConfig } = await import('./worker.mjs');
  writeWorkerdConfig({ outDir: (await buildWorker()).outDir });
}
