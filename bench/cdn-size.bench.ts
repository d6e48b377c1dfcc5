// What a page without a bundler downloads from dist/cdn/ (the element with every dependency bundled;
// `npm run build` writes it, this rebuilds it into a temporary folder): gzip bytes of the first load
// (the element, before any file is chosen) and of everything each format then loads (the worker, the
// report view, the format's verifier and what it imports, including gunzip and SHA-256 where used).
// Targets, the same as the bundler build's (test/build/component-budget.test.ts checks those):
// first load ≤ 15 KB, an AgentXchain export ≤ 60 KB.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCdn } from '../build/cdn.mjs';

type Output = Awaited<ReturnType<typeof buildCdn>>[number];

const KB = 1024;
const FIRST_LOAD_TARGET = 15 * KB;
const AGENTXCHAIN_TARGET = 60 * KB;

const outDir = await mkdtemp(join(tmpdir(), 'verify-export-cdn-'));
try {
  const outputs = new Map((await buildCdn({ outDir })).map((output) => [output.file, output]));
  /** The outputs loaded with `starts`: static imports, and dynamic ones too if `followDynamic`. */
  const closure = (starts: readonly string[], followDynamic: boolean): Set<Output> => {
    const seen = new Set<Output>();
    const queue = [...starts];
    while (queue.length > 0) {
      const output = outputs.get(queue.pop()!);
      if (output === undefined || seen.has(output)) continue;
      seen.add(output);
      for (const imported of output.imports) if (followDynamic || !imported.dynamic) queue.push(imported.file);
    }
    return seen;
  };
  const gzip = (set: Iterable<Output>): number => [...set].reduce((sum, output) => sum + output.gzipBytes, 0);
  const holding = (module: string): string => {
    const found = [...outputs.values()].find((output) => output.inputs.some((input) => input.endsWith(module)));
    if (found === undefined) throw new Error(`no CDN output holds ${module}`);
    return found.file;
  };
  const kb = (bytes: number): string => `${(bytes / KB).toFixed(1)} KB`;

  const firstLoad = closure(['verify-export.js'], false);
  console.log(
    `first load (verify-export.js and its imports): ${kb(gzip(firstLoad))} gzip in ${firstLoad.size} file(s), target ≤ ${kb(FIRST_LOAD_TARGET)}`,
  );
  const common = [...firstLoad, ...closure(['verify-worker.js', holding('dist/components/report-view.js')], false)];
  for (const format of ['agentxchain', 'zaxy', 'agent-history', 'codex-exec']) {
    const loaded = new Set([...common, ...closure([holding(`dist/src/formats/${format}/verify.js`)], true)]);
    const target = format === 'agentxchain' ? `, target ≤ ${kb(AGENTXCHAIN_TARGET)}` : '';
    console.log(
      `${format}: ${kb(gzip(loaded))} gzip in ${loaded.size} file(s), every dynamic import below its verifier counted (an upper bound)${target}`,
    );
  }
  const total = gzip(outputs.values());
  console.log(`all of dist/cdn: ${kb(total)} gzip in ${outputs.size} JavaScript file(s)`);
} finally {
  await rm(outDir, { recursive: true, force: true });
}
