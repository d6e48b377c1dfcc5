/**
 * The kit's decompressors as stream pairs (`GunzipFactory`, docs/architecture.md, 'Streams and
 * gzip'): the member parser on fflate, the platform's `DecompressionStream`, and the default,
 * which takes the platform's decoder where it passes the probe (browsers), else fflate. All keep
 * the error contract of `contract.ts`.
 * @module
 */
import { streamFromPushCore, type PushCore, type StreamPair } from '../push-core.ts';
import type { GunzipFactory, GunzipOptions } from './contract.ts';
import { createGunzipCore } from './members.ts';
import { createNativeGunzipCore, nativeGunzipUsable } from './native.ts';

/**
 * Decompresses a gzip byte stream (one or more members) with fflate, checking each member's
 * header, CRC-32 and ISIZE, truncation, trailing garbage and the size/ratio limits.
 * @example
 * const text = await new Response(blob.stream().pipeThrough(gunzipStream({ limits: DEFAULT_LIMITS }))).text();
 */
export function gunzipStream(options: GunzipOptions): StreamPair {
  return streamFromPushCore((emit) => createGunzipCore(options, emit));
}

/**
 * Gunzip on `DecompressionStream('gzip')`, for platforms where `nativeGunzipUsable()`.
 * @example
 * const text = await new Response(blob.stream().pipeThrough(nativeGunzipStream({ limits: DEFAULT_LIMITS }))).text();
 */
export const nativeGunzipStream: GunzipFactory = (options) =>
  streamFromPushCore((emit) => createNativeGunzipCore(options, emit));

/**
 * The default decompressor: the platform's decoder where it passes the probe (browsers), else
 * fflate (`gunzipStream`). Both keep the same error contract.
 * @example
 * const report = await verify(file, { gunzip: defaultGunzip }); // the same as leaving it out
 */
export const defaultGunzip: GunzipFactory = (options) =>
  streamFromPushCore((emit) => {
    let core: PushCore | undefined;
    const ready = nativeGunzipUsable().then((native) => {
      core = native ? createNativeGunzipCore(options, emit) : createGunzipCore(options, emit);
    });
    return {
      async push(chunk) {
        await ready;
        return core!.push(chunk);
      },
      async finish() {
        await ready;
        return core!.finish();
      },
      destroy() {
        core?.destroy?.();
      },
    };
  });
