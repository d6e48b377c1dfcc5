/**
 * Default SHA-256 for the core: hash-wasm's WebAssembly SHA-256 behind the core's synchronous
 * `Sha256` interface. This module is the one place that knows how that WASM is loaded.
 * @module
 */
import { createSHA256, type IHasher } from 'hash-wasm';
import type { Sha256, Sha256Hasher } from '../src/crypto/sha256.ts';

let loading: Promise<Sha256> | undefined;

/**
 * Loads (once) and returns the default SHA-256.
 * @example
 * const sha256 = await loadSha256();
 * sha256.digest(new TextEncoder().encode('abc')); // ba7816bf…
 */
export function loadSha256(): Promise<Sha256> {
  loading ??= createSHA256().then(fromHashWasm);
  return loading;
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
