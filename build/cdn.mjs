// The build for a page without a bundler (dist/cdn/): the element with every dependency bundled,
// loaded by one `<script type="module" src=".../dist/cdn/verify-export.js">`. Its Web Worker is the
// sibling verify-worker.js, with the helper worker it starts, entry-hash-worker.js; the parts
// loaded on demand (report view, each format's verifier, ML-DSA) are chunks in the same folder, so
// every URL the element makes stays relative to it. Bundled from the compiled dist/components,
// whose worker URLs already name the .js files.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CDN_DIR = join(PROJECT_ROOT, 'dist/cdn');

/**
 * Bundles dist/components/verify-export.js and its worker into dist/cdn/ (minified ESM, chunks
 * beside the entries).
 * @returns {Promise<{ file: string, bytes: number, gzipBytes: number, imports: { file: string, dynamic: boolean }[],
 * inputs: string[] }[]>}
 *   each JavaScript output: its size, the outputs it imports, and the modules it holds
 */
export async function buildCdn({ outDir = CDN_DIR } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  const common = {
    absWorkingDir: PROJECT_ROOT,
    outdir: outDir,
    entryNames: '[name]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    mainFields: ['module', 'browser', 'main'],
    minify: true,
    sourcemap: 'linked',
    legalComments: 'linked',
    metafile: true,
    write: true,
    logLevel: 'warning',
  };
  // The entry-hashing worker is bundled on its own, so that its imports do not split the
  // verifiers' chunks further.
  const [split, alone] = await Promise.all([
    build({
      ...common,
      entryPoints: {
        'verify-export': 'dist/components/verify-export.js',
        'verify-worker': 'dist/components/verify-worker.js',
      },
      chunkNames: 'chunk-[hash]',
      splitting: true,
    }),
    build({ ...common, entryPoints: { 'entry-hash-worker': 'dist/components/entry-hash-worker.js' } }),
  ]);
  return Object.entries({ ...split.metafile.outputs, ...alone.metafile.outputs })
    .filter(([file]) => file.endsWith('.js'))
    .map(([file, output]) => {
      const absolute = join(PROJECT_ROOT, file);
      const imports = output.imports
        .filter((imported) => !imported.external)
        .map((imported) => ({
          file: relative(outDir, join(PROJECT_ROOT, imported.path)),
          dynamic: imported.kind === 'dynamic-import',
        }));
      return {
        file: relative(outDir, absolute),
        bytes: output.bytes,
        gzipBytes: gzipSizeOf(absolute),
        imports,
        inputs: Object.keys(output.inputs),
      };
    });
}

function gzipSizeOf(file) {
  return gzipSync(readFileSync(file), { level: 9 }).byteLength;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { file, bytes, gzipBytes } of await buildCdn()) console.log(`${file}\t${bytes} B\t${gzipBytes} B gzip`);
}
