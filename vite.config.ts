// Vite serves and builds the demo page (`npm start`, `npm run build:demo`). The page lives in
// demo/ but imports the element from ../components and the core from ../src (and ../wasm), so
// the whole project folder is allowed; the verification worker is bundled as an ES module
// worker so the core's per-format dynamic imports stay separate chunks.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./demo', import.meta.url)),
  base: './',
  server: {
    host: '127.0.0.1',
    fs: { allow: [projectRoot] },
  },
  preview: { host: '127.0.0.1' },
  worker: { format: 'es' },
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
