/**
 * Streaming gunzip (RFC 1952) as a Web stream pair (docs/architecture.md, 'Streams and gzip'),
 * built from a push-style core: this module parses the gzip member framing itself (header,
 * trailer, concatenated members) and hands only the raw DEFLATE data to a raw inflater (fflate's
 * streaming `Inflate` by default; the CLI plugs in node:zlib's, see `GunzipEngine`), so that every
 * member's CRC-32 and ISIZE are checked (fflate's own `Gunzip` checks neither) and bytes after the
 * last member are caught instead of ignored. Browsers use `gunzip-native.ts` (DecompressionStream)
 * by default.
 *
 * The compressed bytes are attacker-controlled: output is capped by size and by ratio so a gzip
 * bomb stops at the limit instead of filling memory, and the input is fed to the inflater in
 * slices sized from the ratio seen so far, so one push never expands into more than about
 * `TARGET_OUTPUT_PER_PUSH` bytes.
 *
 * Error contract (shared by every decompressor passed as `options.gunzip`): the readable side
 * first delivers the data decoded before a problem, then errors with a `StreamProblem` whose code
 * is one of `gzip.bad_header`, `gzip.bad_data`, `gzip.crc_mismatch`, `gzip.size_mismatch`,
 * `gzip.truncated`, `gzip.trailing_garbage`, `limit.decompressed_bytes`,
 * `limit.compression_ratio`, with the compressed byte offset in its message and `offset`.
 * @module
 */
import { Inflate } from 'fflate';
import type { Limits } from '../limits.ts';
import { crc32 } from './crc32.ts';
import { isStreamProblem, StreamProblem } from './problem.ts';

export interface GunzipOptions {
  readonly limits: Limits;
  /** Live counters shared with the caller: compressed bytes in, decompressed bytes out. */
  readonly counters?: { bytesIn: number; bytesOut: number };
}

/**
 * A decompressor: gzip bytes in, decompressed bytes out, with the error contract described in
 * this module's doc. `TransformStream` satisfies it; `gunzipStream` is the default.
 */
/**
 * A decompressor as a pair of streams (the DOM library's `ReadableWritablePair`, spelled so that a
 * project typed with Node's types only can read these declarations).
 */
export interface StreamPair {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}

export type GunzipFactory = (options: GunzipOptions) => StreamPair;

/**
 * A push-style decoder: `push` consumes a prefix of `chunk` and returns how many bytes it took
 * (0 only while it works through bytes it held back), emitting output through the callback it was
 * created with; `finish` is called once at end of input. Both throw (or reject with) a
 * `StreamProblem` on bad data.
 */
export interface PushCore {
  push(chunk: Uint8Array): number | Promise<number>;
  finish(): void | Promise<void>;
  /** Frees resources after a problem or a cancel (optional). */
  destroy?(): void;
}

/** Output one inflater push should produce at most, roughly (bounds memory on bombs). */
const TARGET_OUTPUT_PER_PUSH = 1 << 20;
const MIN_SLICE = 1 << 10;
const MAX_SLICE = 256 << 10;
/** First slice: small, so even a maximal-ratio (1032:1) first push stays about 4 MiB. */
const FIRST_SLICE = 4 << 10;

/**
 * Decompresses a gzip byte stream (one or more members) with fflate, checking each member's
 * header, CRC-32 and ISIZE, truncation, trailing garbage and the size/ratio limits.
 * @example
 * const text = await new Response(blob.stream().pipeThrough(gunzipStream({ limits: DEFAULT_LIMITS }))).text();
 */
export function gunzipStream(options: GunzipOptions): StreamPair {
  return streamFromPushCore((emit) => createGunzipCore(options, emit));
}

/** Passes decompressed output on while it stays within the limits (see `createOutputGuard`). */
export interface OutputGuard {
  /**
   * Hands `data` to `emit`, or only the part that fits under the limits and then throws the
   * `limit.*` StreamProblem, so the output stops exactly at `limits.maxDecompressedBytes`.
   * `compressedSeen` is the compressed input consumed so far (for the ratio limit).
   */
  pass(data: Uint8Array, compressedSeen: number, emit: (bytes: Uint8Array) => void): void;
}

/**
 * Tracks decompressed output against `limits.maxDecompressedBytes` and
 * `limits.maxCompressionRatio` (the ratio only once `limits.ratioGraceBytes` were produced).
 * Shared by every decompressor so that all of them stop a bomb the same way.
 * @example
 * const guard = createOutputGuard({ limits: DEFAULT_LIMITS });
 * guard.pass(output, compressedBytesSoFar, (bytes) => controller.enqueue(bytes)); // throws past a limit
 */
export function createOutputGuard(options: GunzipOptions): OutputGuard {
  const { limits } = options;
  const counters = options.counters ?? { bytesIn: 0, bytesOut: 0 };
  return {
    pass(data, compressedSeen, emit) {
      const bySize = limits.maxDecompressedBytes;
      const byRatio = Math.max(limits.ratioGraceBytes, compressedSeen * limits.maxCompressionRatio);
      const room = Math.min(bySize, byRatio) - counters.bytesOut;
      if (data.byteLength <= room) {
        counters.bytesOut += data.byteLength;
        emit(data);
        return;
      }
      if (room > 0) {
        counters.bytesOut += room;
        emit(data.subarray(0, room));
      }
      if (bySize <= byRatio) {
        throw new StreamProblem(
          'limit.decompressed_bytes',
          `decompressed size exceeds limits.maxDecompressedBytes (${bySize} bytes), at compressed byte ${compressedSeen}`,
          compressedSeen,
        );
      }
      throw new StreamProblem(
        'limit.compression_ratio',
        `decompression ratio exceeds limits.maxCompressionRatio (${limits.maxCompressionRatio}:1): more than ${Math.floor(byRatio)} bytes out of ${compressedSeen} compressed bytes`,
        compressedSeen,
      );
    },
  };
}

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

/** fflate's `Inflate` state that tells where the DEFLATE stream ended (fflate 0.8, see its `inflt`). */
interface InflateInternals {
  /** Pending input, starting at the byte that holds bit `s.p`. */
  p: Uint8Array;
  /** f: last block seen; l: a Huffman block is in progress; p: bit position inside `p`. */
  s: { f?: number; l?: unknown; p?: number };
}

/**
 * fflate's streaming `Inflate` as a `RawInflater`. fflate has no public "bytes consumed" answer,
 * so the end of the DEFLATE stream is read from its state, as fflate's own `Gunzip` does.
 */
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
      const internals = inflater as unknown as InflateInternals;
      if (!internals.s.f || internals.s.l) return { used: input.byteLength, ended: false };
      // The final block is complete: the bytes fflate did not consume start the trailer.
      const unconsumed = internals.p.byteLength - (((internals.s.p ?? 0) + 7) >> 3);
      // fflate decodes all it can on every push, so the end always lies in this input.
      if (unconsumed < 0 || unconsumed > input.byteLength) throw new Error('gunzip: DEFLATE end outside the current input (bad math)');
      return { used: input.byteLength - unconsumed, ended: true };
    },
    destroy() {},
  };
};

/** The default engine: fflate and the slicing-by-8 CRC-32, pure JavaScript everywhere. */
export const FFLATE_ENGINE: GunzipEngine = { inflater: fflateInflater, crc32: (bytes, crc) => crc32(bytes, crc) };

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
export function createGunzipCore(options: GunzipOptions, emit: (bytes: Uint8Array) => void, engine: GunzipEngine = FFLATE_ENGINE): PushCore {
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
          if ((smallLength >= 1 && small[0] !== 0x1f) || (smallLength >= 2 && small[1] !== 0x8b)) {
            if (member > 1) {
              throw new StreamProblem(
                'gzip.trailing_garbage',
                `gzip: trailing data after last member is not a gzip header (at compressed byte ${memberStart})`,
                memberStart,
              );
            }
            throw new StreamProblem('gzip.bad_header', `gzip: bad magic bytes, not gzip (at compressed byte ${memberStart})`, memberStart);
          }
          if (smallLength < 10) break;
          if (small[2] !== 8) {
            throw new StreamProblem('gzip.bad_header', `gzip: unknown compression method ${small[2]} in member ${member} header (compressed byte ${memberStart + 2})`, memberStart + 2);
          }
          flags = small[3]!;
          if (flags & FRESERVED) {
            throw new StreamProblem('gzip.bad_header', `gzip: reserved flags set in member ${member} header (compressed byte ${memberStart + 3})`, memberStart + 3);
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
            throw new StreamProblem('gzip.bad_header', `gzip: header CRC16 mismatch in member ${member} (compressed byte ${offset})`, offset);
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
        throw new StreamProblem('gzip.bad_data', `gzip: ${error.message} in member ${member} DEFLATE data (near compressed byte ${offset})`, offset);
      }
      throw error;
    }
    // Size the next slice from this one's ratio (a bomb gets small slices, text large ones).
    slice = Math.max(MIN_SLICE, Math.min(MAX_SLICE, Math.floor((TARGET_OUTPUT_PER_PUSH * piece.byteLength) / Math.max(piece.byteLength, pushOutput))));
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
  let replay: Uint8Array | undefined;

  /** Inflates the collected slice; what follows the end of the DEFLATE stream is replayed. */
  const inflatePending = async (): Promise<void> => {
    const piece = pending.slice(0, pendingLength);
    pendingLength = 0;
    const step = await inflate(piece, consumed - piece.byteLength);
    if (step.ended && step.used < piece.byteLength) {
      replay = piece.subarray(step.used);
      consumed -= replay.byteLength;
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

  /** Takes replayed bytes (they may end further members), before any new input. */
  const drainReplay = async (): Promise<void> => {
    while (replay) {
      const bytes: Uint8Array = replay;
      replay = undefined;
      let at = 0;
      while (at < bytes.byteLength) {
        at += await take(bytes.subarray(at));
        const again = replay as Uint8Array | undefined; // set by take() when a member ended
        if (again) {
          const rest = bytes.subarray(at);
          const joined = new Uint8Array(again.byteLength + rest.byteLength);
          joined.set(again);
          joined.set(rest, again.byteLength);
          replay = joined;
          break;
        }
      }
    }
  };

  return {
    // Header and trailer bytes are cheap; DEFLATE goes one slice per call, so the caller can hand
    // each slice's output on before more is produced.
    async push(chunk) {
      if (replay) {
        await drainReplay();
        return 0;
      }
      return take(chunk);
    },
    async finish() {
      await drainReplay();
      // The last, short slice may end this member and reveal further ones.
      while (phase === 'deflate' && pendingLength > 0) {
        await inflatePending();
        await drainReplay();
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

/** Decompressed bytes read ahead of the consumer (lets a native inflater work in parallel). */
const READ_AHEAD_BYTES = 1 << 20;

/**
 * Wraps a push-style core as a `{ writable, readable }` pair for `pipeThrough`. Unlike a plain
 * `TransformStream`, which drops queued output when it errors, a problem is delivered only after
 * every byte decoded before it was read, so the lines before a damaged gzip trailer are still
 * verified. Up to `READ_AHEAD_BYTES` of output are produced ahead of the reader, so an
 * asynchronous core (node:zlib on the thread pool) inflates while the reader parses.
 * @example
 * const pair = streamFromPushCore((emit) => createGunzipCore({ limits }, emit));
 * const text = await new Response(gzipped.pipeThrough(pair)).text();
 */
export function streamFromPushCore(create: (emit: (bytes: Uint8Array) => void) => PushCore): StreamPair {
  const inbox = new TransformStream<Uint8Array, Uint8Array>();
  const reader = inbox.readable.getReader();
  const queue: Uint8Array[] = [];
  const core = create((bytes) => {
    if (bytes.byteLength > 0) queue.push(bytes);
  });
  let pending: Uint8Array | undefined;
  let problem: unknown;
  let ended = false;

  let drained: Promise<void> | undefined;
  const fail = (error: unknown): void => {
    problem = error;
    core.destroy?.();
    if (isStreamProblem(error) && error.code.startsWith('gzip.')) {
      // Damaged container: read (not inflate) the rest, so the bytes-read count is the file's size
      // and does not depend on where chunks happened to end. Limits and aborts stop at once.
      drained = (async () => {
        try {
          while (!(await reader.read()).done);
        } catch {
          // the source's own problem (abort, input limit) ends the drain
        }
      })();
    } else {
      reader.cancel(error).catch(() => undefined);
    }
  };

  const readable = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (queue.length === 0) {
          if (problem !== undefined) {
            // Error only once the reader has taken everything queued before the problem.
            if ((controller.desiredSize ?? 0) >= READ_AHEAD_BYTES) {
              await drained;
              controller.error(problem);
            }
            return;
          }
          if (ended) {
            controller.close();
            return;
          }
          try {
            if (pending === undefined || pending.byteLength === 0) {
              const result = await reader.read();
              if (result.done) {
                ended = true;
                await core.finish();
                continue;
              }
              pending = result.value;
              continue;
            }
            const taken = await core.push(pending);
            pending = pending.subarray(taken);
          } catch (error) {
            fail(error);
          }
        }
        for (const bytes of queue) controller.enqueue(bytes);
        queue.length = 0;
      },
      async cancel(reason) {
        core.destroy?.();
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: READ_AHEAD_BYTES, size: (chunk) => chunk.byteLength },
  );
  return { writable: inbox.writable, readable };
}
