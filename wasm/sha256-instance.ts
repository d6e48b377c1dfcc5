/**
 * The core's synchronous `Sha256` over a raw instance of hash-wasm's SHA-256 module (the one
 * `build/wasm.mjs` extracts to `wasm/generated/sha256.wasm`). Used where the module arrives
 * ready-made: workerd's `.wasm` module import, and `initSha256(source)`.
 *
 * The module's ABI (hash-wasm `src/sha256.c`): a 16 KiB input buffer at `Hash_GetBuffer()`;
 * `Hash_Init(256)`, `Hash_Update(length)` over the buffer, `Hash_Final()` writes the digest to the
 * buffer's start; the whole hashing state is `STATE_SIZE` bytes at `Hash_GetState()`.
 * @module
 */
import type { Sha256, Sha256Hasher } from '../src/crypto/sha256.ts';

/** Bytes of the module's input buffer (`MAIN_BUFFER_SIZE` in hash-wasm's `hash-wasm.h`). */
const BUFFER_BYTES = 16 * 1024;
const DIGEST_BYTES = 32;

interface Sha256Exports {
  readonly memory: WebAssembly.Memory;
  readonly STATE_SIZE: WebAssembly.Global;
  Hash_GetBuffer(): number;
  Hash_Init(bits: number): void;
  Hash_Update(length: number): void;
  Hash_Final(): void;
  Hash_GetState(): number;
}

/** True when `exports` look like hash-wasm's SHA-256 module. */
function isSha256Exports(exports: WebAssembly.Exports): exports is WebAssembly.Exports & Sha256Exports {
  return (
    exports['memory'] instanceof WebAssembly.Memory &&
    exports['STATE_SIZE'] instanceof WebAssembly.Global &&
    ['Hash_GetBuffer', 'Hash_Init', 'Hash_Update', 'Hash_Final', 'Hash_GetState'].every(
      (name) => typeof exports[name] === 'function',
    )
  );
}

/**
 * Wraps an instance of hash-wasm's SHA-256 module. All hashers share the instance: an
 * incremental hasher keeps its own copy of the state and swaps it in around each call, so
 * `create()` stays synchronous and cheap.
 * @throws TypeError when the instance is not hash-wasm's SHA-256 module.
 * @example
 * const { instance } = await WebAssembly.instantiate(bytes, {});
 * sha256FromInstance(instance).digest(new TextEncoder().encode('abc')); // ba7816bf…
 */
export function sha256FromInstance(instance: WebAssembly.Instance): Sha256 {
  const exports = instance.exports;
  if (!isSha256Exports(exports))
    throw new TypeError("initSha256: the WebAssembly module is not hash-wasm's SHA-256 module");
  const bufferOffset = exports.Hash_GetBuffer();
  const stateOffset = exports.Hash_GetState();
  const stateBytes = new DataView(exports.memory.buffer).getUint32(exports.STATE_SIZE.value as number, true);

  let memory = new Uint8Array(exports.memory.buffer);
  /** The memory view, renewed if the module ever grew its memory (which detaches the old buffer). */
  const view = (): Uint8Array => {
    if (memory.byteLength === 0) memory = new Uint8Array(exports.memory.buffer);
    return memory;
  };
  const absorb = (data: Uint8Array): void => {
    for (let offset = 0; offset < data.byteLength; offset += BUFFER_BYTES) {
      const chunk = data.subarray(offset, Math.min(data.byteLength, offset + BUFFER_BYTES));
      view().set(chunk, bufferOffset);
      exports.Hash_Update(chunk.byteLength);
    }
  };
  const finish = (): Uint8Array => {
    exports.Hash_Final();
    return view().slice(bufferOffset, bufferOffset + DIGEST_BYTES);
  };

  exports.Hash_Init(256);
  const initialState = view().slice(stateOffset, stateOffset + stateBytes);

  return {
    digest(data) {
      exports.Hash_Init(256);
      absorb(data);
      return finish();
    },
    create(): Sha256Hasher {
      const state = initialState.slice();
      let finished = false;
      const hasher: Sha256Hasher = {
        update(data) {
          if (finished) throw new TypeError('Sha256Hasher.update called after digest()');
          view().set(state, stateOffset);
          absorb(data);
          state.set(view().subarray(stateOffset, stateOffset + stateBytes));
          return hasher;
        },
        digest() {
          if (finished) throw new TypeError('Sha256Hasher.digest called twice');
          finished = true;
          view().set(state, stateOffset);
          return finish();
        },
      };
      return hasher;
    },
  };
}
