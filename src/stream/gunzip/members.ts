/**
 * Gzip member parsing (RFC 1952; docs/architecture.md, 'Streams and gzip') for the decompressors
 * built from a push-style core: this module parses the gzip member framing itself (header,
 * trailer, concatenated members) and hands only the raw DEFLATE data to a raw inflater (fflate's
 * streaming `Inflate` by default; the CLI plugs in node:zlib's, see `GunzipEngine`), so that every
 * member's CRC-32 and ISIZE are checked (fflate's own `Gunzip` checks neither) and bytes after the
 * last member are caught instead of ignored. Browsers decode with `DecompressionStream` instead,
 * where it behaves (`native.ts`).
 *
 * The compressed bytes are attacker-controlled: output is capped by size and by ratio so a gzip
 * bomb stops at the limit instead of filling memory, and the input is fed to the inflater in
 * slices sized from the ratio seen so far (`output-guard.ts`, `slices.ts`).
 * @module
 */
import type { PushCore } from '../push-core.ts';
import { StreamProblem } from '../problem.ts';
import type { GunzipOptions } from './contract.ts';
import { crc32 } from './crc32.ts';
import { FFLATE_ENGINE } from './fflate-inflater.ts';
import { createOutputGuard } from './output-guard.ts';
import { createReplay, FIRST_SLICE, MAX_SLICE, nextSliceSize } from './slices.ts';

/** What one raw-DEFLATE push did: how many input bytes were DEFLATE data, and whether the stream ended. */
export interface InflateStep {
  /** Bytes of the input that belonged to the DEFLATE stream (all of them unless `ended`). */
  readonly used: number;
  /** The final block is complete; the bytes after `used` start the gzip trailer. */
  readonly ended: boolean;
}

/**
 * A raw-DEFLATE decoder for one gzip member (RFC 1951), the part a native library can replace.
 * `push` decodes what it can, emitting output through the callback it was created with (which may
 * throw a limit `StreamProblem`: let it propagate), and throws `gzip.bad_data` on corrupt data.
 */
export interface RawInflater {
  push(input: Uint8Array): InflateStep | Promise<InflateStep>;
  destroy(): void;
}

/** Makes the raw-DEFLATE decoder of one member. */
export type RawInflaterFactory = (onData: (bytes: Uint8Array) => void) => RawInflater;

/** What a gunzip core is built from: the raw inflater and the CRC-32 (both have native versions). */
export interface GunzipEngine {
  readonly inflater: RawInflaterFactory;
  /** CRC-32 continuation with the signature of `crc32` (./crc32.ts). */
  readonly crc32: (bytes: Uint8Array, crc: number) => number;
}

/** FLG bits (RFC 1952 §2.3.1). */
const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;
const FRESERVED = 0xe0;

type Phase =
  | 'fixed' // the 10-byte fixed header
  | 'xlen' // FEXTRA length (2 bytes)
  | 'extra' // FEXTRA payload
  | 'name' // zero-terminated FNAME
  | 'comment' // zero-terminated FCOMMENT
  | 'hcrc' // header CRC16 (2 bytes)
  | 'deflate'
  | 'trailer'; // CRC32 + ISIZE (8 bytes)

/**
 * The gzip member parser around a raw inflater (push-style; see `PushCore`); `engine` defaults to
 * fflate and the JavaScript CRC-32.
 * Attacker-controlled input: every length field is bounded by the bytes actually present, and no
 * header field is buffered (names and comments are skipped as they stream by).
 */
export function createGunzipCore(
  options: GunzipOptions,
  emit: (bytes: Uint8Array) => void,
  engine: GunzipEngine = FFLATE_ENGINE,
): PushCore {
  const guard = createOutputGuard(options);
  let consumed = 0; // compressed bytes taken before the current chunk
  let member = 0; // 1-based number of the member being read (or last read)
  let memberStart = 0;
  let phase: Phase = 'fixed';
  const small = new Uint8Array(10); // fixed header / xlen / hcrc / trailer bytes
  let smallLength = 0;
  let flags = 0;
  let extraLeft = 0;
  let headerCrc = 0;
  let inflater: RawInflater | undefined;
  let dataCrc = 0;
  let dataSize = 0; // ISIZE: decompressed size modulo 2^32
  let pushOutput = 0;
  let slice = FIRST_SLICE;

  let sliceEnd = 0; // absolute end of the DEFLATE slice being inflated (for the ratio limit)
  const pass = (data: Uint8Array): void => {
    dataCrc = engine.crc32(data, dataCrc);
    dataSize = (dataSize + data.byteLength) >>> 0;
    pushOutput += data.byteLength;
    emit(data);
  };
  const onData = (data: Uint8Array): void => {
    if (data.byteLength > 0) guard.pass(data, sliceEnd, pass);
  };

  /** Collects fixed-size fields into `small`; true once `size` bytes are there. */
  const collect = (chunk: Uint8Array, at: number, size: number): number => {
    const take = Math.min(size - smallLength, chunk.byteLength - at);
    small.set(chunk.subarray(at, at + take), smallLength);
    smallLength += take;
    return take;
  };

  /** Takes header bytes from `chunk[at…]` (RFC 1952 §2.3); returns the new position. */
  const header = (chunk: Uint8Array, at: number): number => {
    const end = chunk.byteLength;
    let crcFrom = phase === 'hcrc' ? -1 : at; // header bytes not yet folded into headerCrc (-1 while reading the CRC16)
    const enter = (next: Phase, position: number): void => {
      if (next === 'hcrc') {
        headerCrc = crc32(chunk, headerCrc, crcFrom, position);
        crcFrom = -1;
      }
      phase = next;
    };
    while (at < end && phase !== 'deflate') {
      switch (phase) {
        case 'fixed': {
          if (smallLength === 0) {
            member++;
            memberStart = consumed + at;
            headerCrc = 0;
            dataCrc = 0;
            dataSize = 0;
          }
          at += collect(chunk, at, 10);
          // Check the magic as soon as its bytes are here: after the first member, anything
          // else is trailing garbage (RFC 1952 §2.2 allows only further members).
          checkMagic(small, smallLength, member > 1, memberStart);
          if (smallLength < 10) break;
          if (small[2] !== 8) {
            throw new StreamProblem(
              'gzip.bad_header',
              `gzip: unknown compression method ${small[2]} in member ${member} header (compressed byte ${memberStart + 2})`,
              memberStart + 2,
            );
          }
          flags = small[3]!;
          if (flags & FRESERVED) {
            throw new StreamProblem(
              'gzip.bad_header',
              `gzip: reserved flags set in member ${member} header (compressed byte ${memberStart + 3})`,
              memberStart + 3,
            );
          }
          smallLength = 0;
          enter(nextHeaderPhase('fixed', flags), at);
          break;
        }
        case 'xlen':
          at += collect(chunk, at, 2);
          if (smallLength < 2) break;
          extraLeft = small[0]! | (small[1]! << 8);
          smallLength = 0;
          enter(extraLeft > 0 ? 'extra' : nextHeaderPhase('extra', flags), at);
          break;
        case 'extra': {
          const take = Math.min(extraLeft, end - at);
          extraLeft -= take;
          at += take;
          if (extraLeft === 0) enter(nextHeaderPhase('extra', flags), at);
          break;
        }
        case 'name':
        case 'comment': {
          const zero = chunk.indexOf(0, at);
          if (zero === -1) {
            at = end;
            break;
          }
          at = zero + 1;
          enter(nextHeaderPhase(phase, flags), at);
          break;
        }
        case 'hcrc': {
          at += collect(chunk, at, 2);
          if (smallLength < 2) break;
          smallLength = 0;
          if ((small[0]! | (small[1]! << 8)) !== (headerCrc & 0xffff)) {
            const offset = consumed + at - 2;
            throw new StreamProblem(
              'gzip.bad_header',
              `gzip: header CRC16 mismatch in member ${member} (compressed byte ${offset})`,
              offset,
            );
          }
          phase = 'deflate';
          break;
        }
        default:
          break;
      }
    }
    if (crcFrom >= 0 && phase !== 'deflate') headerCrc = crc32(chunk, headerCrc, crcFrom, at);
    return at;
  };

  const trailer = (chunk: Uint8Array, at: number): number => {
    at += collect(chunk, at, 8);
    if (smallLength < 8) return at;
    smallLength = 0;
    phase = 'fixed';
    const trailerAt = consumed + at - 8;
    const storedCrc = (small[0]! | (small[1]! << 8) | (small[2]! << 16) | (small[3]! << 24)) >>> 0;
    const storedSize = (small[4]! | (small[5]! << 8) | (small[6]! << 16) | (small[7]! << 24)) >>> 0;
    if (storedCrc !== dataCrc) {
      throw new StreamProblem(
        'gzip.crc_mismatch',
        `gzip: CRC32 mismatch at end of member ${member} (trailer at compressed byte ${trailerAt}: stored ${hex32(storedCrc)}, computed ${hex32(dataCrc)})`,
        trailerAt,
      );
    }
    if (storedSize !== dataSize) {
      throw new StreamProblem(
        'gzip.size_mismatch',
        `gzip: ISIZE mismatch at end of member ${member} (trailer at compressed byte ${trailerAt + 4}: stored ${storedSize}, decompressed ${dataSize} mod 2^32)`,
        trailerAt + 4,
      );
    }
    return at;
  };

  /**
   * Inflates one slice. Slice boundaries depend only on compressed offsets and on the data (never
   * on how the input was chunked), so the output delivered before a problem, and so the report,
   * is the same for every chunking.
   */
  const inflate = async (piece: Uint8Array, offset: number): Promise<InflateStep> => {
    inflater ??= engine.inflater(onData);
    sliceEnd = offset + piece.byteLength;
    pushOutput = 0;
    let step: InflateStep;
    try {
      step = await inflater.push(piece);
    } catch (error) {
      if (error instanceof StreamProblem && error.code === 'gzip.bad_data') {
        throw new StreamProblem(
          'gzip.bad_data',
          `gzip: ${error.message} in member ${member} DEFLATE data (near compressed byte ${offset})`,
          offset,
        );
      }
      throw error;
    }
    // Size the next slice from this one's ratio (a bomb gets small slices, text large ones).
    slice = nextSliceSize(piece.byteLength, pushOutput);
    if (step.ended) {
      inflater.destroy();
      inflater = undefined;
      phase = 'trailer';
      smallLength = 0;
    }
    return step;
  };

  // DEFLATE bytes collected until a whole slice is there (when the input comes in smaller pieces).
  const pending = new Uint8Array(MAX_SLICE);
  let pendingLength = 0;
  // Bytes that followed the end of a DEFLATE stream inside a collected slice: taken again first.
  const replay = createReplay((bytes) => take(bytes));

  /** Inflates the collected slice; what follows the end of the DEFLATE stream is replayed. */
  const inflatePending = async (): Promise<void> => {
    const piece = pending.slice(0, pendingLength);
    pendingLength = 0;
    const step = await inflate(piece, consumed - piece.byteLength);
    if (step.ended && step.used < piece.byteLength) {
      replay.hold(piece.subarray(step.used));
      consumed -= piece.byteLength - step.used;
    }
  };

  /** Takes bytes from `bytes` (at most one inflater slice per call); returns how many. */
  const take = async (bytes: Uint8Array): Promise<number> => {
    let at = 0;
    while (at < bytes.byteLength) {
      if (phase !== 'deflate') {
        at = phase === 'trailer' ? trailer(bytes, at) : header(bytes, at);
        continue;
      }
      if (pendingLength === 0 && bytes.byteLength - at >= slice) {
        // A whole slice is here: inflate it in place.
        const offset = consumed + at;
        const step = await inflate(bytes.subarray(at, at + slice), offset);
        at += step.used;
        break;
      }
      const n = Math.min(slice - pendingLength, bytes.byteLength - at);
      pending.set(bytes.subarray(at, at + n), pendingLength);
      pendingLength += n;
      at += n;
      if (pendingLength < slice) break;
      consumed += at;
      await inflatePending();
      return at;
    }
    consumed += at;
    return at;
  };

  return {
    // Header and trailer bytes are cheap; DEFLATE goes one slice per call, so the caller can hand
    // each slice's output on before more is produced.
    async push(chunk) {
      if (replay.waiting) {
        await replay.drain();
        return 0;
      }
      return take(chunk);
    },
    async finish() {
      await replay.drain();
      // The last, short slice may end this member and reveal further ones.
      while (phase === 'deflate' && pendingLength > 0) {
        await inflatePending();
        await replay.drain();
      }
      if (phase === 'fixed' && smallLength === 0 && member >= 1) return; // clean end after a trailer
      const part = phase === 'deflate' ? 'DEFLATE data' : phase === 'trailer' ? 'trailer' : 'header';
      throw new StreamProblem(
        'gzip.truncated',
        `gzip: unexpected end of compressed stream in member ${Math.max(member, 1)} ${part} (after ${consumed} compressed bytes)`,
        consumed,
      );
    },
    destroy() {
      inflater?.destroy();
      inflater = undefined;
    },
  };
}

/**
 * Throws unless the first `length` bytes of a member (only the first two are looked at) can be
 * the gzip magic 1f 8b (RFC 1952 §2.3.1). After a member, anything else is trailing garbage
 * (RFC 1952 §2.2 allows only further members).
 * @param offset compressed offset of the member's first byte
 */
export function checkMagic(first: ArrayLike<number>, length: number, afterMember: boolean, offset: number): void {
  if ((length >= 1 && first[0] !== 0x1f) || (length >= 2 && first[1] !== 0x8b)) {
    if (afterMember)
      throw new StreamProblem(
        'gzip.trailing_garbage',
        `gzip: trailing data after last member is not a gzip header (at compressed byte ${offset})`,
        offset,
      );
    throw new StreamProblem(
      'gzip.bad_header',
      `gzip: bad magic bytes, not gzip (at compressed byte ${offset})`,
      offset,
    );
  }
}

function nextHeaderPhase(after: Phase, flags: number): Phase {
  const order: readonly [Phase, number][] = [
    ['xlen', FEXTRA],
    ['name', FNAME],
    ['comment', FCOMMENT],
    ['hcrc', FHCRC],
  ];
  const from = after === 'fixed' ? 0 : after === 'extra' ? 1 : after === 'name' ? 2 : after === 'comment' ? 3 : 4;
  for (let i = from; i < order.length; i++) if (flags & order[i]![1]) return order[i]![0];
  return 'deflate';
}

function hex32(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}
