// Runs inside Deno (spawned by bulk-digest.test.ts): every AgentXchain fixture (the folder given
// as the first argument) and the bulk cases through compareHashingPaths, one JSON line each.
import { loadSha256 } from '../../wasm/sha256.ts';
import { bulkDigestCases } from './bulk-digest-cases.ts';
import { compareHashingPaths } from './bulk-digest-probe.ts';

declare const Deno: {
  args: string[];
  readFile(path: string): Promise<Uint8Array>;
  readDir(path: string): AsyncIterable<{ name: string }>;
  stdout: { write(bytes: Uint8Array): Promise<number> };
};

const encoder = new TextEncoder();
async function print(value: unknown): Promise<void> {
  const bytes = encoder.encode(`${JSON.stringify(value)}\n`);
  for (let offset = 0; offset < bytes.byteLength;) offset += await Deno.stdout.write(bytes.subarray(offset));
}

const folder = Deno.args[0]!;
const inputs: [string, Uint8Array][] = bulkDigestCases(await loadSha256());
for await (const { name } of Deno.readDir(folder)) {
  if (name.endsWith('.json') && name !== 'manifest.json') inputs.push([name, await Deno.readFile(`${folder}/${name}`)]);
}
for (const [name, bytes] of inputs) await print({ name, ...(await compareHashingPaths(name, bytes)) });
