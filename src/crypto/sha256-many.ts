/**
 * The default `Sha256Many` (the 4-lane WebAssembly SIMD hasher, `wasm/sha256-lanes.ts`, through
 * the package's `#sha256-lanes` import, which only the Zaxy path loads), for hashing a large Zaxy
 * bundle's entries in place. Loaded on the first ask and used from the next ask on once it is
 * there: the synchronous hashing loop never waits for it, and a bundle of less than one batch
 * never loads it. Where it cannot run (workerd, no SIMD, a CSP that refuses compiling WebAssembly),
 * it stays undefined and entries are hashed one at a time with the kit's `Sha256`
 * (docs/architecture.md, 'Bulk hashing').
 * @module
 */
import type { Sha256Many } from './sha256.ts';

let loaded: Sha256Many | undefined;
let asked = false;

/**
 * The default `Sha256Many` if it has loaded; starts loading it at the first call.
 * @example
 * const many = defaultSha256Many(); // undefined at first, then the hasher
 */
export function defaultSha256Many(): Sha256Many | undefined {
  if (!asked) {
    asked = true;
    import('#sha256-lanes')
      .then(({ loadSha256Many }) => loadSha256Many())
      .then(
        (many) => void (loaded = many),
        () => undefined,
      );
  }
  return loaded;
}
