/**
 * `#sha256-lanes` in Cloudflare workerd: the 4-lane hasher's module is made and compiled from bytes
 * at run time (`sha256-lanes.ts`), which workerd refuses, so there is none, and a Workers bundle
 * carries none of its code: a Zaxy bundle's entries are hashed one at a time there.
 * @module
 */
import type { Sha256Many } from '../src/crypto/sha256.ts';

/**
 * No 4-lane hasher in workerd.
 * @example
 * await loadSha256Many(); // undefined
 */
export function loadSha256Many(): Promise<Sha256Many | undefined> {
  return Promise.resolve(undefined);
}
