/**
 * Default SHA-256 for the core: hash-wasm's WebAssembly SHA-256 behind the core's synchronous
 * `Sha256` interface. This module is the one place that knows how that WASM is loaded
 * (docs/architecture.md, 'WASM loading'):
 * - browsers, Vite, Node and Deno: hash-wasm compiles its inlined module from bytes (the default);
 * - Cloudflare Workers / workerd refuse to compile WASM from bytes at run time, so the `workerd`
 *   export condition selects `sha256.workerd.ts`, which imports `generated/sha256.wasm` as a
 *   module and registers it through `initSha256`;
 * - any other host that hands WASM over its own way (a platform that gives compiled modules for
 *   `.wasm` imports, a bundler that emits `.wasm` assets by URL) calls `initSha256(source)` once
 *   with a `WebAssembly.Module`, the module's bytes, or its URL.
 * A page whose CSP allows no WASM at all (no `'wasm-unsafe-eval'`) cannot use any of these: pass
 * a pure-JavaScript `options.sha256` there instead.
 * @module
 */
import { createSHA256, type IHasher } from 'hash-wasm';
import type { Sha256, Sha256Hasher } from '../src/crypto/sha256.ts';

/** What `initSha256` accepts: the compiled module, its bytes, or where to fetch them. */
export type Sha256WasmSource = WebAssembly.Module | ArrayBuffer | ArrayBufferView | URL | Response;

declare global {
  // `WebAssembly.Module` for projects typed with Node's types only (no DOM library, which
  // declares the whole namespace): an empty interface merges with the full one where it exists.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace WebAssembly {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Module {}
  }
}

let loading: Promise<Sha256> | undefined;

/**
 * Loads (once) and returns the default SHA-256: the one registered by `initSha256`, else
 * hash-wasm instantiated from its inlined bytes.
 * @example
 * const sha256 = await loadSha256();
 * sha256.digest(new TextEncoder().encode('abc')); // ba7816bf…
 */
export function loadSha256(): Promise<Sha256> {
  loading ??= createSHA256().then(fromHashWasm);
  return loading;
}

/**
 * Instantiates hash-wasm's SHA-256 module from `source` and makes it the default every later
 * `loadSha256()` returns. For hosts that forbid compiling WASM from bytes: pass the
 * `WebAssembly.Module` your platform gives for an imported `.wasm` file
 * (`verify-export/wasm/sha256.wasm`). A URL is fetched only because the caller asked for it.
 * @throws TypeError for a source of another type or a module that is not hash-wasm's SHA-256.
 * @example
 * import sha256Module from 'verify-export/wasm/sha256.wasm';
 * await initSha256(sha256Module); // before the first verify()
 */
export function initSha256(source: Sha256WasmSource): Promise<Sha256> {
  const previous = loading;
  // The adapter is loaded on demand: the default path (hash-wasm) never needs it.
  const registered = Promise.all([instantiate(source), import('./sha256-instance.ts')]).then(
    ([instance, { sha256FromInstance }]) => sha256FromInstance(instance),
  );
  // Callers of loadSha256() meanwhile wait for this one; if it fails, they get what was there.
  loading = registered.catch(() => {
    loading = previous;
    return loadSha256();
  });
  return registered;
}

async function instantiate(source: Sha256WasmSource): Promise<WebAssembly.Instance> {
  if (source instanceof WebAssembly.Module) return WebAssembly.instantiate(source, {});
  if (source instanceof URL) source = await fetch(source);
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (!source.ok) throw new TypeError(`initSha256: fetching the module answered HTTP ${source.status}`);
    source = await source.arrayBuffer();
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return (await WebAssembly.instantiate(source as BufferSource, {})).instance;
  }
  throw new TypeError(
    'initSha256: source must be a WebAssembly.Module, an ArrayBuffer / typed array, a URL or a Response',
  );
}

/**
 * Adapts one hash-wasm instance to the `Sha256` interface. Incremental hashers share the single
 * WASM instance by saving and restoring its state around each update, so `create()` stays sync.
 */
function fromHashWasm(wasm: IHasher): Sha256 {
  wasm.init();
  const initialState = wasm.save();
  return {
    digest(data) {
      wasm.init();
      wasm.update(data);
      return wasm.digest('binary');
    },
    create(): Sha256Hasher {
      let state = initialState;
      const hasher: Sha256Hasher = {
        update(data) {
          wasm.load(state);
          wasm.update(data);
          state = wasm.save();
          return hasher;
        },
        digest() {
          wasm.load(state);
          return wasm.digest('binary');
        },
      };
      return hasher;
    },
  };
}
