// Build step: extracts hash-wasm's embedded SHA-256 WebAssembly module into
// wasm/generated/sha256.wasm, for hosts that cannot compile WASM from bytes at run time
// (Cloudflare Workers / workerd import it as a module). The binary is never committed: it is
// produced from the hash-wasm version in package-lock.json, and checked before it is written.
/* global WebAssembly */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the extracted module is written (gitignored). */
export const SHA256_WASM_PATH = join(PROJECT_ROOT, 'wasm/generated/sha256.wasm');

const REQUIRED_EXPORTS = [
  'memory',
  'Hash_GetBuffer',
  'Hash_Init',
  'Hash_Update',
  'Hash_Final',
  'Hash_GetState',
  'STATE_SIZE',
];

/**
 * Reads hash-wasm's ESM build, finds the embedded module named "sha256" (a base64 string next to
 * `name = "sha256"`), decodes it, proves it hashes like node:crypto, and writes it.
 * @returns the path written
 */
export function extractSha256Wasm(outFile = SHA256_WASM_PATH) {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('hash-wasm/package.json'));
  const source = readFileSync(join(packageDir, 'dist/index.esm.js'), 'utf8');
  const name = /var (name\$\w*) = "sha256";/.exec(source);
  if (!name) throw new Error('hash-wasm: no embedded module named "sha256" found (package layout changed?)');
  const suffix = name[1].slice('name'.length);
  const data = new RegExp(`var data${suffix.replace('$', '\\$')} = "([A-Za-z0-9+/=]+)";`).exec(source);
  if (!data) throw new Error('hash-wasm: the sha256 module data was not found next to its name');
  const bytes = new Uint8Array(Buffer.from(data[1], 'base64'));
  checkModule(bytes);
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, bytes);
  return outFile;
}

/** Compiles the module and hashes a few inputs with it, comparing with node:crypto. */
function checkModule(bytes) {
  const module = new WebAssembly.Module(bytes);
  const exported = WebAssembly.Module.exports(module).map((entry) => entry.name);
  const missing = REQUIRED_EXPORTS.filter((required) => !exported.includes(required));
  if (missing.length > 0) throw new Error(`hash-wasm sha256 module lacks exports: ${missing.join(', ')}`);
  if (WebAssembly.Module.imports(module).length !== 0)
    throw new Error('hash-wasm sha256 module unexpectedly has imports');
  const { exports } = new WebAssembly.Instance(module, {});
  for (const size of [0, 3, 64, 1000]) {
    const input = new Uint8Array(size).map((_, index) => (index * 7 + 1) & 0xff);
    const buffer = exports.Hash_GetBuffer();
    new Uint8Array(exports.memory.buffer, buffer, size).set(input);
    exports.Hash_Init(256);
    exports.Hash_Update(size);
    exports.Hash_Final();
    const got = Buffer.from(new Uint8Array(exports.memory.buffer, buffer, 32)).toString('hex');
    const want = createHash('sha256').update(input).digest('hex');
    if (got !== want) throw new Error(`hash-wasm sha256 module hashes ${size} bytes wrongly`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`wrote ${extractSha256Wasm()}`);
}
