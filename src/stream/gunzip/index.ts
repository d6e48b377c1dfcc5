/**
 * Gzip (RFC 1952) for the core (docs/architecture.md, 'Streams and gzip'), one module per job:
 * the decompressor contract (`contract.ts`), the member parser (`members.ts`), the output limits
 * (`output-guard.ts`), the input slicing both cores share (`slices.ts`), the fflate inflater
 * (`fflate-inflater.ts`), the platform's decoder (`native.ts`), the CRC-32 (`crc32.ts`) and the
 * decompressors as stream pairs (`streams.ts`).
 * @module
 */
export type { GunzipFactory, GunzipOptions } from './contract.ts';
export {
  createGunzipCore,
  type GunzipEngine,
  type InflateStep,
  type RawInflater,
  type RawInflaterFactory,
} from './members.ts';
export { createOutputGuard, type OutputGuard } from './output-guard.ts';
export { FFLATE_ENGINE, fflateInflater } from './fflate-inflater.ts';
export { createNativeGunzipCore, nativeGunzipUsable } from './native.ts';
export { crc32 } from './crc32.ts';
export { defaultGunzip, gunzipStream, nativeGunzipStream } from './streams.ts';
