// Byte budgets of <verify-export> (gzip: element shell ≤ 15 KB, AgentXchain path ≤ 60 KB),
// measured on a minified esbuild build with code splitting, the way a bundler ships it: the element
// shell before verification starts, everything an AgentXchain export needs (with what a large one
// loads for the helper worker), and ML-DSA only behind the dynamic import an ML-DSA bundle takes.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

const KB = 1024;
const SHELL_BUDGET = 15 * KB;
const AGENTXCHAIN_BUDGET = 60 * KB;

interface Graph {
  readonly outputs: Metafile['outputs'];
  readonly gzipSize: Map<string, number>;
  /** Output path of the chunk built for an entry (static or dynamic-import) module. */
  chunkOf(entry: string): string;
}

async function buildComponent(): Promise<Graph> {
  const result = await build({
    // (The entry-hashing worker a large Zaxy bundle starts is bundled on its own, as build/cdn.mjs does.)
    entryPoints: ['components/verify-export.ts', 'components/verify-worker.ts'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['verify-export-source'],
    target: 'es2022',
    minify: true,
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const cwd = process.cwd();
  const gzipSize = new Map<string, number>();
  for (const file of result.outputFiles)
    gzipSize.set(file.path.slice(cwd.length + 1), gzipSync(file.contents).byteLength);
  const outputs = result.metafile.outputs;
  return {
    outputs,
    gzipSize,
    chunkOf(entry) {
      const found = Object.entries(outputs).find(
        ([path, output]) => output.entryPoint === entry && path.endsWith('.js'),
      );
      assert.ok(found, `no chunk for ${entry}`);
      return found[0];
    },
  };
}

/** The chunks loaded with `start`: its static imports, transitively (plus dynamic ones if asked). */
function closure(graph: Graph, starts: readonly string[], follow: 'static' | 'all' = 'static'): Set<string> {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const imported of graph.outputs[path]?.imports ?? []) {
      if (imported.external) continue;
      if (imported.kind === 'import-statement' || (follow === 'all' && imported.kind === 'dynamic-import'))
        queue.push(imported.path);
    }
  }
  return seen;
}

function gzipTotal(graph: Graph, chunks: Iterable<string>): number {
  let total = 0;
  for (const chunk of chunks) total += graph.gzipSize.get(chunk) ?? 0;
  return total;
}

function inputsOf(graph: Graph, chunks: Iterable<string>): string[] {
  return [...chunks].flatMap((chunk) => Object.keys(graph.outputs[chunk]?.inputs ?? {}));
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

describe('<verify-export> bundle budgets', () => {
  let graph: Graph;
  before(async () => {
    graph = await buildComponent();
  });

  it(`element shell is at most ${kb(SHELL_BUDGET)} gzip and holds no verifier code`, (t) => {
    const shell = closure(graph, [graph.chunkOf('components/verify-export.ts')]);
    const size = gzipTotal(graph, shell);
    t.diagnostic(`element shell: ${kb(size)} gzip in ${shell.size} chunk(s)`);
    assert.ok(size <= SHELL_BUDGET, `shell is ${kb(size)}`);
    const inputs = inputsOf(graph, shell);
    for (const heavy of [
      'src/formats/',
      'hash-wasm',
      'fflate',
      '@noble/',
      'src/verify.ts',
      'components/report-view.ts',
    ]) {
      assert.ok(!inputs.some((input) => input.includes(heavy)), `shell must not include ${heavy}`);
    }
  });

  it(`everything an AgentXchain export needs is at most ${kb(AGENTXCHAIN_BUDGET)} gzip`, (t) => {
    // A large export (a MB or more) also loads the helper worker's module in the verification
    // worker (components/helper-threads.ts), which starts no helper for it.
    const helpers = closure(graph, [graph.chunkOf('components/helper-threads.ts')]);
    const withoutHelpers = new Set([
      ...closure(graph, [
        graph.chunkOf('components/verify-export.ts'),
        graph.chunkOf('components/report-view.ts'),
        graph.chunkOf('components/verify-worker.ts'),
      ]),
      ...closure(graph, [graph.chunkOf('src/formats/agentxchain/verify.ts')], 'all'),
    ]);
    const needed = new Set([...withoutHelpers, ...helpers]);
    const size = gzipTotal(graph, needed);
    // Counting every dynamic import below the verifier includes gunzip (a .json.gz export); a plain
    // .json export loads the rest only.
    const gunzip = [graph.chunkOf('src/stream/gunzip/index.ts')];
    const helpersOnly = size - gzipTotal(graph, withoutHelpers);
    t.diagnostic(
      `AgentXchain path (shell + report view + worker + verifier + SHA-256 + gunzip + helper module): ${kb(size)} gzip in ${needed.size} chunk(s)`,
    );
    t.diagnostic(
      `  of which gunzip (only for .json.gz): ${kb(gzipTotal(graph, gunzip))}; helper module (only for a large export): ${kb(helpersOnly)}; small plain .json: ${kb(size - helpersOnly - gzipTotal(graph, gunzip))}`,
    );
    assert.ok(size <= AGENTXCHAIN_BUDGET, `AgentXchain path is ${kb(size)}`);
    const inputs = inputsOf(graph, needed);
    assert.ok(
      inputs.some((input) => input.includes('hash-wasm')),
      'the path includes the SHA-256 it needs',
    );
    assert.ok(!inputs.some((input) => input.includes('@noble/post-quantum')), 'no ML-DSA code on the AgentXchain path');
  });

  it('ML-DSA code is fetched only through a dynamic import taken for ML-DSA bundles', (t) => {
    const all = Object.keys(graph.outputs).filter((path) => path.endsWith('.js'));
    const mlDsaChunks = all.filter((chunk) =>
      inputsOf(graph, [chunk]).some((input) => input.includes('@noble/post-quantum')),
    );
    assert.ok(mlDsaChunks.length > 0, 'the Zaxy verifier can reach ML-DSA');
    const zaxyStatic = closure(graph, [
      graph.chunkOf('components/verify-export.ts'),
      graph.chunkOf('components/report-view.ts'),
      graph.chunkOf('components/verify-worker.ts'),
      graph.chunkOf('src/formats/zaxy/verify.ts'),
    ]);
    for (const chunk of mlDsaChunks)
      assert.ok(!zaxyStatic.has(chunk), `${chunk} (ML-DSA) is loaded with every Zaxy bundle`);
    t.diagnostic(`ML-DSA: ${kb(gzipTotal(graph, mlDsaChunks))} gzip, loaded on demand`);
    t.diagnostic(`Zaxy Ed25519 path: ${kb(gzipTotal(graph, zaxyStatic))} gzip`);
  });

  it('helper worker: a large input loads no hashing code for it; the entry-hashing worker is bundled alone', async (t) => {
    const helpers = closure(graph, [graph.chunkOf('components/helper-threads.ts')]);
    const inputs = inputsOf(graph, helpers);
    for (const hashingCode of ['src/', 'components/entry-hash-client.ts', 'hash-wasm', '@noble/'])
      assert.ok(
        !inputs.some((input) => input.includes(hashingCode)),
        `the helper module must not include ${hashingCode}`,
      );
    // The entry-hashing worker, as build/cdn.mjs bundles it: its SHA-256 and Merkle fold, no reader.
    const alone = await build({
      entryPoints: ['components/entry-hash-worker.ts'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['verify-export-source'],
      target: 'es2022',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const worker = Object.keys(Object.values(alone.metafile.outputs)[0]!.inputs);
    assert.ok(worker.some((input) => input.includes('hash-wasm')) && worker.includes('src/crypto/merkle.ts'));
    assert.ok(!worker.some((input) => input.includes('src/json/reader')), 'no JSON reader in the entry-hashing worker');
    t.diagnostic(
      `helper module a large input loads: ${kb(gzipTotal(graph, helpers))}; the entry-hashing worker (a large Zaxy bundle): ${kb(gzipSync(alone.outputFiles[0]!.contents).byteLength)} gzip`,
    );
  });
});
