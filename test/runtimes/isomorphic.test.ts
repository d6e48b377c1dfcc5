// The isomorphic rule (docs/architecture.md, 'Layout'), proven on the bundles a consumer would
// build: the public API, the edge entries and the WASM loaders bundle for `platform: 'neutral'`
// without a single Node built-in, including everything they pull from dependencies.
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { describe, it } from 'node:test';
import { build, type Plugin } from 'esbuild';
import { PROJECT_ROOT } from '../helpers/fixtures.ts';

const ENTRIES = [
  'src/index.ts',
  'src/edge/index.ts',
  'src/edge/worker.ts',
  'src/edge/deno.ts',
  'wasm/sha256.ts',
  'wasm/sha256.workerd.ts',
];
const NODE_BUILTINS = new Set(builtinModules);

/** Records (and keeps external) every import of a Node built-in, by either spelling. */
function nodeImportRecorder(found: string[]): Plugin {
  return {
    name: 'record-node-imports',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, '').split('/')[0]!;
        if (args.path.startsWith('node:') || (NODE_BUILTINS.has(bare) && !args.path.startsWith('.'))) {
          found.push(`${args.path} (imported by ${args.importer.replace(`${PROJECT_ROOT}/`, '')})`);
          return { path: args.path, external: true };
        }
        if (args.path.endsWith('.wasm')) return { path: args.path, external: true };
        return undefined;
      });
    },
  };
}

describe('isomorphic core', () => {
  for (const entry of ENTRIES) {
    it(`${entry} bundles for platform neutral with no node: import`, async () => {
      const found: string[] = [];
      const result = await build({
        absWorkingDir: PROJECT_ROOT,
        entryPoints: [entry],
        bundle: true,
        write: false,
        platform: 'neutral',
        conditions: ['verify-export-source'],
        format: 'esm',
        mainFields: ['module', 'main'],
        logLevel: 'silent',
        plugins: [nodeImportRecorder(found)],
      });
      assert.deepEqual(found, []);
      assert.equal(result.errors.length, 0);
      const text = result.outputFiles.map((file) => file.text).join('\n');
      assert.doesNotMatch(text, /\bfrom\s*["']node:|import\(\s*["']node:|require\(\s*["']node:/);
    });
  }
});
