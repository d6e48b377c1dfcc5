/**
 * SHA-256 for Cloudflare Workers / workerd (the `workerd` export condition of
 * `verify-export/wasm/sha256`). workerd refuses to compile WebAssembly from bytes at run time
 * ("Wasm code generation disallowed by embedder"), so the module is imported as a `.wasm` file,
 * which the platform compiles at deploy time, and handed to `initSha256`. Nothing runs at module
 * top level (workerd forbids timers and random values there; instantiation waits for a request).
 * @module
 */
import sha256Module from './generated/sha256.wasm';
import type { Sha256 } from '../src/crypto/sha256.ts';
import { initSha256 } from './sha256.ts';

export { initSha256, type Sha256WasmSource } from './sha256.ts';

let loading: Promise<Sha256> | undefined;

/**
 * Instantiates (once) the imported module and makes it the default for the whole core, then
 * returns it. Same contract as the default `loadSha256`.
 * @example
 * const sha256 = await loadSha256(); // inside a Worker's fetch handler
 */
export function loadSha256(): Promise<Sha256> {
  loading ??= initSha256(sha256Module);
  return loading;
}
