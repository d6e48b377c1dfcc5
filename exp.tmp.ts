import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { verifyZaxy, toZaxyJson } from './src/formats/zaxy/index.ts';
import { nodeSha256 } from './bin/node-sha256.ts';
const bytes = new Uint8Array(gunzipSync(readFileSync('../shared/bench-data/zaxy--bundle-100k-ml-dsa-65.json.gz')));
const sync = { digest: nodeSha256.digest, create: nodeSha256.create };
for (let r = 0; r < 4; r++) for (const [name, sha] of [['worker', nodeSha256], ['sync', sync]] as const) {
  const t = performance.now();
  const rep = await verifyZaxy(bytes, { sha256: sha });
  console.log(name, (performance.now() - t).toFixed(0), 'ms', JSON.stringify(toZaxyJson(rep)), rep.findings.slice(0,2).map(f => f.code + ' ' + f.path + ' ' + f.message.slice(0,100)));
}
process.exit(0);
