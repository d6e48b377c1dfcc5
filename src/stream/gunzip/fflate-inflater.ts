/**
 * fflate's streaming `Inflate` as the raw inflater of the gzip member parser (`members.ts`), and
 * the default engine: fflate and the JavaScript CRC-32, pure JavaScript everywhere.
 *
 * fflate has no public "bytes consumed" answer, so the end of the DEFLATE stream is read from the
 * private state of its `Inflate`, as fflate's own `Gunzip` does. Those fields are not part of
 * fflate's API: package.json pins the fflate version this was proven on, and a unit test fails
 * if the installed fflate no longer has them, or they no longer mean what is read here.
 * @module
 */
import { Inflate } from 'fflate';
import { StreamProblem } from '../problem.ts';
import { crc32 } from './crc32.ts';
import type { GunzipEngine, RawInflaterFactory } from './members.ts';

/** fflate's `Inflate` state that tells where the DEFLATE stream ended (fflate 0.8.3, see its `inflt`). */
interface InflateInternals {
  /** Pending input, starting at the byte that holds bit `s.p`. */
  p: Uint8Array;
  /** f: last block seen; l: a Huffman block is in progress; p: bit position inside `p`. */
  s: { f?: number; l?: unknown; p?: number };
}

/**
 * How many bytes of the pending input follow the end of the DEFLATE stream, or `undefined` while
 * the final block is not complete.
 * @example
 * const inflater = new Inflate(() => undefined);
 * inflater.push(deflated, false);
 * bytesAfterDeflateEnd(inflater); // 0 when `deflated` is exactly one whole DEFLATE stream
 */
export function bytesAfterDeflateEnd(inflater: Inflate): number | undefined {
  const internals = inflater as unknown as InflateInternals;
  if (!internals.s.f || internals.s.l) return undefined;
  return internals.p.byteLength - (((internals.s.p ?? 0) + 7) >> 3);
}

/** fflate's streaming `Inflate` as a `RawInflater`. */
export const fflateInflater: RawInflaterFactory = (onData) => {
  const inflater = new Inflate(onData);
  return {
    push(input) {
      try {
        inflater.push(input, false);
      } catch (error) {
        if (error instanceof StreamProblem) throw error; // a limit, from onData
        throw new StreamProblem('gzip.bad_data', error instanceof Error ? error.message : String(error));
      }
      const unconsumed = bytesAfterDeflateEnd(inflater);
      if (unconsumed === undefined) return { used: input.byteLength, ended: false };
      // The final block is complete: the bytes fflate did not consume start the trailer.
      // fflate decodes all it can on every push, so the end always lies in this input.
      if (unconsumed < 0 || unconsumed > input.byteLength)
        throw new Error('gunzip: DEFLATE end outside the current input (bad math)');
      return { used: input.byteLength - unconsumed, ended: true };
    },
    destroy() {},
  };
};

/** The default engine: fflate and the slicing-by-8 CRC-32, pure JavaScript everywhere. */
export const FFLATE_ENGINE: GunzipEngine = { inflater: fflateInflater, crc32: (bytes, crc) => crc32(bytes, crc) };
