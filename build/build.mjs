// Builds the Node CLI bundle (dist/cli.js, and dist/sha256-worker.js, its hashing thread). Runs on
// `npm install` (prepare) and `npm run build`.
import { build } from 'esbuild';

await build({
  entryPoints: { cli: 'bin/cli.ts', 'sha256-worker': 'bin/sha256-worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // ESM entry points first: a package's CommonJS "main" cannot be tree-shaken, and hash-wasm's
  // carries every algorithm it has (it made a third of the bundle, and of the start-up time).
  mainFields: ['module', 'main'],
  sourcemap: 'linked',
  logLevel: 'warning',
  // The core imports format modules lazily; one file keeps CLI start-up to a single read.
  splitting: false,
});

// The edge worker bundle (dist/worker/) and wasm/generated/sha256.wasm, extracted from hash-wasm.
const { buildWorker, writeWorkerdConfig } = await import('./worker.mjs');
writeWorkerdConfig({ outDir: (await buildWorker()).outDir });
