// A tiny static server for the built demo (demo/dist) on 127.0.0.1, sending the strict CSP the
// demo must work under. Used by the end-to-end test and the component benchmark.
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_CSP } from '../../vite.config.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEMO_DIST = join(PROJECT_ROOT, 'demo', 'dist');

/** The policy of README.md, 'Demo': own files only, WASM compilation allowed, nothing inline. */
export { DEMO_CSP as STRICT_CSP };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  // Samples are served as they are: a .gz file is gzip bytes, never a Content-Encoding.
  '.gz': 'application/gzip',
  '.ndjson': 'application/x-ndjson',
  '.jsonl': 'application/jsonl',
};

export interface StaticServer {
  readonly origin: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Builds the demo with Vite (demo/dist). */
export async function buildDemo(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: join(PROJECT_ROOT, 'vite.config.ts'), logLevel: 'warn' });
}

/**
 * Serves `root` on 127.0.0.1 with the strict CSP on every response (unless `sendCsp` is false:
 * then the page's meta tag alone).
 */
export async function serveStatic(
  root = DEMO_DIST,
  options: { readonly sendCsp?: boolean } = {},
): Promise<StaticServer> {
  const csp: Record<string, string> = options.sendCsp === false ? {} : { 'Content-Security-Policy': DEMO_CSP };
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const relative = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
    let path = join(root, relative);
    if (!path.startsWith(root + sep) && path !== root) {
      response.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
      const body = await readFile(path);
      response.writeHead(200, {
        'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
        'Content-Length': body.byteLength,
        ...csp,
        'Cache-Control': 'no-cache',
      });
      response.end(body);
    } catch {
      response.writeHead(404, csp).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Debian's Chromium, driven by playwright-core (no browser download). */
export const CHROMIUM = {
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
};
