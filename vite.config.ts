// Vite serves and builds the demo page (`npm start`, `npm run build:demo`). The page lives in
// demo/ but imports the element from ../components and the core from ../src (and ../wasm), so
// the whole project folder is allowed; the verification worker is bundled as an ES module
// worker so the core's per-format dynamic imports stay separate chunks.
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The demo's Content-Security-Policy (README.md, 'Demo'): its own files only, WebAssembly
 * compilation allowed (the default SHA-256), nothing inline. The page carries it as a meta tag, so
 * any static host enforces it, and the dev server and `vite preview` also send it as a header.
 * In development Vite's client connects back over a WebSocket to the same host and port, which
 * `'self'` allows.
 */
export const DEMO_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

/** Puts the policy in the page itself, first in `<head>`, so it governs everything the page loads. */
function cspMetaTag(): Plugin {
  return {
    name: 'verify-export:csp-meta-tag',
    transformIndexHtml: {
      order: 'pre',
      handler: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: DEMO_CSP },
          injectTo: 'head-prepend',
        },
      ],
    },
  };
}

const projectRoot = fileURLToPath(new URL('.', import.meta.url));
const demoRoot = fileURLToPath(new URL('./demo', import.meta.url));

/**
 * The dev server labels `.gz` files `Content-Encoding: gzip`, so the browser would hand the
 * element decompressed bytes under a `.gz` name (which the core rightly reports as
 * `gzip.not_gzip`). Serve the demo's gzip samples as the plain bytes they are, like any static host.
 */
function gzipSamplesAsBytes(): Plugin {
  return {
    name: 'verify-export:gzip-samples-as-bytes',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        // `…gz?url` and other queries are Vite's own module requests; only plain file fetches are ours.
        const url = request.url ?? '';
        if (url.includes('?')) return next();
        const pathname = decodeURIComponent(url);
        if (!pathname.startsWith('/samples/') || !pathname.endsWith('.gz')) return next();
        const file = normalize(join(demoRoot, pathname));
        if (!file.startsWith(join(demoRoot, 'samples'))) return next();
        readFile(file).then(
          (body) => {
            response.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': body.byteLength });
            response.end(body);
          },
          () => next(),
        );
      });
    },
  };
}

export default defineConfig({
  root: demoRoot,
  plugins: [gzipSamplesAsBytes(), cspMetaTag()],
  base: './',
  server: {
    host: '127.0.0.1',
    fs: { allow: [projectRoot] },
    headers: { 'Content-Security-Policy': DEMO_CSP },
  },
  preview: { host: '127.0.0.1', headers: { 'Content-Security-Policy': DEMO_CSP } },
  // The demo runs the TypeScript sources: the package's `#sha256` import names them under this
  // condition (build/build.mjs), and the compiled dist/ otherwise.
  resolve: { conditions: ['verify-export-source', ...defaultClientConditions] },
  worker: { format: 'es' },
  // The worker's dependencies are not found by Vite's dependency scan (they sit behind the
  // worker URL and dynamic imports); listing them avoids a mid-session re-optimisation, which
  // reloads the page and leaves the running worker with stale module URLs.
  optimizeDeps: {
    include: [
      'lit',
      '@lit/task',
      'hash-wasm',
      'fflate',
      '@noble/curves/ed25519.js',
      '@noble/hashes/sha2.js',
      '@noble/post-quantum/ml-dsa.js',
      'valibot',
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Samples must stay files: a data: URL would be blocked by the page's CSP (connect-src 'self').
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
