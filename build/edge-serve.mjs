// `npm run edge`: builds the worker bundle and serves it in real workerd on 127.0.0.1
// (PORT, default 8787). Environment variables MAX_BODY_BYTES, MAX_BUFFERED_BYTES,
// MAX_RETAINED_BYTES and CORS_ORIGINS become the worker's bindings, as `[vars]` would in wrangler. Ctrl-C stops it.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorker, writeWorkerdConfig } from './worker.mjs';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port <= 0 || port > 65535)
  throw new Error(`PORT must be a TCP port, not ${process.env.PORT}`);

const vars = {};
for (const name of ['MAX_BODY_BYTES', 'MAX_BUFFERED_BYTES', 'MAX_RETAINED_BYTES', 'CORS_ORIGINS']) {
  if (process.env[name] !== undefined) vars[name] = process.env[name];
}
const { outDir } = await buildWorker();
const config = writeWorkerdConfig({ outDir, address: `127.0.0.1:${port}`, vars });
console.log(`verify-export worker on http://127.0.0.1:${port}/ (workerd, ${config})`);

const workerd = spawn(join(PROJECT_ROOT, 'node_modules/.bin/workerd'), ['serve', config, '--verbose'], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => workerd.kill(signal));
workerd.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
