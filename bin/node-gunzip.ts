/**
 * The Node decompressor the CLI passes as `options.gunzip`: the core's gzip member parser
 * (docs/architecture.md, 'Streams and gzip': headers, CRC-32 and ISIZE per member, truncation,
 * trailing garbage, the size/ratio limits, identical findings) with node:zlib's native raw
 * inflate and CRC-32 in place of fflate's and the JavaScript one. zlib inflates on the thread
 * pool, so with the core's read-ahead it decompresses while the verifier parses the previous
 * output.
 * @module
 */
import zlib from 'node:zlib';
import {
  createGunzipCore,
  crc32 as jsCrc32,
  type GunzipEngine,
  type GunzipFactory,
  type InflateStep,
  type RawInflaterFactory,
} from '../src/stream/gunzip/index.ts';
import { StreamProblem } from '../src/stream/problem.ts';
import { streamFromPushCore } from '../src/stream/push-core.ts';

/**
 * node:zlib's streaming raw inflate as a `RawInflater`. Where the DEFLATE stream ends is read from
 * `bytesWritten` (the input zlib consumed): zlib takes every byte of a write unless the stream
 * ended inside it.
 */
export const zlibInflater: RawInflaterFactory = (onData) => {
  const inflate = zlib.createInflateRaw({ chunkSize: 1024 * 1024 });
  let fed = 0;
  let problem: unknown;
  let wake: (() => void) | undefined;
  const settle = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  inflate.on('data', (data: Uint8Array) => {
    if (problem !== undefined) return;
    try {
      onData(data);
    } catch (error) {
      problem = error; // a limit: stop inflating now
      inflate.destroy();
      settle();
    }
  });
  inflate.on('error', (error: Error) => {
    problem ??= new StreamProblem('gzip.bad_data', error.message);
    settle();
  });
  inflate.on('close', settle);
  return {
    push(input) {
      return new Promise<InflateStep>((resolve, reject) => {
        const finish = (): void => {
          if (problem !== undefined) return reject(problem);
          const unconsumed = fed - inflate.bytesWritten;
          resolve({ used: input.byteLength - unconsumed, ended: unconsumed > 0 });
        };
        if (problem !== undefined) return reject(problem);
        fed += input.byteLength;
        wake = finish;
        inflate.write(input, settle);
      });
    },
    destroy() {
      inflate.destroy();
    },
  };
};

/** zlib.crc32 arrived in Node 20.15 / 22.2; older Nodes use the core's JavaScript CRC-32. */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** node:zlib raw inflate and CRC-32 under the core's gzip member parser. */
export const NODE_ENGINE: GunzipEngine = {
  inflater: zlibInflater,
  crc32: nativeCrc32 ? (bytes, crc) => nativeCrc32(bytes, crc) : (bytes, crc) => jsCrc32(bytes, crc),
};

/**
 * node:zlib gunzip with the kit's error contract.
 * @example
 * const report = await verify(input, { gunzip: nodeGunzip });
 */
export const nodeGunzip: GunzipFactory = (options) =>
  streamFromPushCore((emit) => createGunzipCore(options, emit, NODE_ENGINE));
