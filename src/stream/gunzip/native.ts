/**
 * Gunzip on the platform's `DecompressionStream('gzip')` (browsers, workers), with the kit's
 * error contract (`contract.ts`), and the probe that tells whether the platform's decoder behaves
 * as measured (`streams.ts` picks it then, else fflate).
 *
 * Why: in Chromium the native decoder is 2–4× faster than fflate (measured: ~100–420 MB/s vs
 * ~40–90 MB/s), which the browser throughput target needs. Why it needs care: it decodes one
 * gzip member only, failing with "junk after end" at the next member or at trailing bytes, and it
 * does not say where the member ended. So each member gets its own stream, and after the junk
 * error the member's end is found exactly: the native decoder has already verified the member's
 * trailer (CRC-32 and ISIZE) at the true end, so the end is among the positions whose 4 bytes
 * before hold the size of the output received (ISIZE). A unique such position is the end. Only
 * when there are several is the output's CRC-32 needed: it is computed then, by decoding the
 * member again from its compressed bytes, kept for that (up to `KEEP_MEMBER_BYTES`; computing
 * the CRC-32 of every output byte as it came cost ~14% of a 54 MB export's verification in
 * Chromium). The positions whose 8 bytes before hold the CRC-32 and size are then the
 * candidates. Several of those (an attacker placing a copy of the trailer inside the DEFLATE
 * data), or a tie in a member too large to have been kept, make the input refused
 * (`gzip.bad_data`), never read two ways.
 *
 * Input goes to the native decoder in slices whose boundaries depend only on the compressed
 * offsets (not on how the input was chunked), so reports stay identical for any chunking. One
 * difference from the fflate path remains, as the platform decides it: on a CRC-32, ISIZE or
 * DEFLATE error, Chromium drops the output of the slice that failed, so the last lines before
 * the damage may not be seen; the finding is the same.
 * @module
 */
import { isStreamProblem, StreamProblem } from '../problem.ts';
import type { PushCore } from '../push-core.ts';
import type { GunzipOptions } from './contract.ts';
import { crc32 } from './crc32.ts';
import { checkMagic } from './members.ts';
import { createOutputGuard } from './output-guard.ts';
import { createReplay, FIRST_SLICE, nextSliceSize } from './slices.ts';

/**
 * A member's compressed bytes are kept up to this size, to decode it again if its end is a tie
 * (see the module doc). A tie in a larger member is refused: in data that is not forged, it
 * takes 4 bytes of the member's last slice (at most 256 KiB) equal to its size by chance.
 */
const KEEP_MEMBER_BYTES = 16 << 20;

/** One gzip member being decoded by a native stream. */
interface NativeMember {
  readonly writer: WritableStreamDefaultWriter<BufferSource>;
  /** Settles when the member's output has all been received (or the stream failed). */
  drained: Promise<void>;
  /** Why the output side failed, if it did. */
  failure?: unknown;
}

/**
 * The push-style core on `DecompressionStream('gzip')` (see the module doc).
 * Attacker-controlled input: every member end is located exactly or the input is refused.
 */
export function createNativeGunzipCore(
  options: GunzipOptions,
  emit: (bytes: Uint8Array) => void,
  keepMemberBytes = KEEP_MEMBER_BYTES,
): PushCore {
  const guard = createOutputGuard(options);
  let consumed = 0; // compressed bytes accepted (absolute offset of the next byte)
  let members = 0; // members started
  let memberStart = 0;
  let current: NativeMember | undefined;
  let limitProblem: unknown;
  // The next member's first two bytes, checked before a native stream is made for it.
  const magic: number[] = [];
  // Bytes that followed a member's end inside the slice that found it: read again first.
  const replay = createReplay((bytes) => take(bytes));
  // The slice being collected, and what came before it in this member (for locating its end).
  let slice = new Uint8Array(FIRST_SLICE);
  let sliceLength = 0;
  let sliceSize = FIRST_SLICE;
  let sliceOutput = 0;
  const before = new Uint8Array(8);
  const lastBytes = new Uint8Array(8);
  let beforeLength = 0;
  let outputSize = 0; // ISIZE: output size modulo 2^32
  /** The member's slices sent so far, while they fit in `keepMemberBytes`; else undefined. */
  let memberSlices: Uint8Array<ArrayBuffer>[] | undefined = [];
  let memberSlicesBytes = 0;

  const onData = (data: Uint8Array): void => {
    guard.pass(data, consumed, (kept) => {
      outputSize = (outputSize + kept.byteLength) >>> 0;
      sliceOutput += kept.byteLength;
      emit(kept);
    });
  };

  const startMember = (): void => {
    const stream = new DecompressionStream('gzip');
    const reader = stream.readable.getReader();
    const member: NativeMember = {
      writer: stream.writable.getWriter(),
      drained: Promise.resolve(),
    };
    member.drained = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          onData(value);
        }
      } catch (error) {
        member.failure = error;
        if (isStreamProblem(error)) {
          limitProblem = error;
          member.writer.abort(error).catch(() => undefined);
        }
        await reader.cancel().catch(() => undefined);
      }
    })();
    members++;
    current = member;
    memberStart = consumed - magic.length;
    outputSize = 0;
    beforeLength = 0;
    memberSlices = [];
    memberSlicesBytes = 0;
  };

  /** Keeps a slice sent to the member's decoder, while the member fits in `keepMemberBytes`. */
  const keepSlice = (bytes: Uint8Array<ArrayBuffer>): void => {
    memberSlicesBytes += bytes.byteLength;
    if (memberSlicesBytes > keepMemberBytes) memberSlices = undefined;
    else memberSlices?.push(bytes);
  };

  /** Sends the collected slice to the native decoder; on failure finds out what happened. */
  const flush = async (final: boolean): Promise<void> => {
    const member = current!;
    const bytes = slice.slice(0, sliceLength);
    const start = consumed - sliceLength;
    sliceLength = 0;
    sliceOutput = 0;
    keepSlice(bytes);
    try {
      if (bytes.byteLength > 0) await member.writer.write(bytes);
      if (final) {
        await member.writer.close();
        await member.drained;
        if (member.failure !== undefined) throw member.failure;
        current = undefined;
        return;
      }
    } catch (error) {
      await member.drained;
      if (limitProblem !== undefined) throw limitProblem;
      const problem = classify(error, final ? consumed : start);
      // Only an error the platform does not name as damage can be the end of the member ("junk").
      const end = problem.code === 'gzip.bad_data' ? await locateEnd(bytes, start) : undefined;
      if (end === undefined) throw problem;
      // The member ended at `end`: what follows in this slice is read again as the next thing.
      current = undefined;
      replay.hold(bytes.slice(end - start));
      consumed = end;
      return;
    }
    keepLastBytes(bytes);
    sliceSize = nextSliceSize(bytes.byteLength, sliceOutput);
  };

  /** Keeps the last 8 bytes sent, of `before` then `bytes` (a trailer may start in this slice and end in the next). */
  const keepLastBytes = (bytes: Uint8Array): void => {
    const total = beforeLength + bytes.byteLength;
    const keep = Math.min(8, total);
    for (let i = 0, at = total - keep; i < keep; i++, at++)
      lastBytes[i] = at < beforeLength ? before[at]! : bytes[at - beforeLength]!;
    before.set(lastBytes.subarray(0, keep));
    beforeLength = keep;
  };

  /**
   * The absolute offset where the member ended inside `bytes` (starting at `start`): the unique
   * position whose preceding 4 bytes are the ISIZE of the output received or, when several are,
   * whose preceding 8 bytes are its CRC-32 and ISIZE (see the module doc).
   */
  const locateEnd = async (bytes: Uint8Array, start: number): Promise<number | undefined> => {
    const window = new Uint8Array(beforeLength + bytes.byteLength);
    window.set(before.subarray(0, beforeLength));
    window.set(bytes, beforeLength);
    // RFC 1952 §2.1: the trailer's numbers are little-endian.
    const view = new DataView(window.buffer);
    const ambiguous = (): StreamProblem =>
      new StreamProblem(
        'gzip.bad_data',
        `gzip: the end of member ${members} is ambiguous (two trailers near compressed byte ${start}); refused`,
        start,
      );
    // The first byte the decoder refused lies in this slice: the end is at or after its start.
    const candidates: number[] = [];
    for (let e = Math.max(8, beforeLength); e < window.byteLength; e++)
      if (view.getUint32(e - 4, true) === outputSize) candidates.push(e);
    let found = candidates[0];
    if (candidates.length > 1) {
      if (memberSlices === undefined) throw ambiguous();
      const crc = await crcOfMember(memberSlices, outputSize);
      const matching = candidates.filter((e) => view.getUint32(e - 8, true) === crc);
      if (matching.length > 1) throw ambiguous();
      found = matching[0];
    }
    if (found === undefined) return undefined;
    const end = start + found - beforeLength;
    return end < start ? undefined : end;
  };

  /** Takes bytes: the magic of a next member, or slice bytes of the current one. */
  const take = async (bytes: Uint8Array): Promise<number> => {
    if (!current) {
      let at = 0;
      while (magic.length < 2 && at < bytes.byteLength) magic.push(bytes[at++]!);
      consumed += at;
      checkMagic(magic, magic.length, members > 0, consumed - magic.length);
      if (magic.length < 2) return at;
      startMember();
      slice.set(magic, 0);
      sliceLength = magic.length;
      magic.length = 0;
      return at;
    }
    if (slice.byteLength < sliceSize) {
      const grown = new Uint8Array(sliceSize);
      grown.set(slice.subarray(0, sliceLength));
      slice = grown;
    }
    const n = Math.min(bytes.byteLength, sliceSize - sliceLength);
    slice.set(bytes.subarray(0, n), sliceLength);
    sliceLength += n;
    consumed += n;
    if (sliceLength >= sliceSize) await flush(false);
    return n;
  };

  return {
    async push(chunk) {
      await replay.drain();
      return take(chunk);
    },
    async finish() {
      await replay.drain();
      // A final slice may end a member and leave bytes for the next one, and so on.
      while (current) {
        await flush(true);
        await replay.drain();
      }
      if (magic.length > 0 || members === 0) {
        throw new StreamProblem(
          'gzip.truncated',
          `gzip: unexpected end of compressed stream in member ${members + 1} header (after ${consumed} compressed bytes)`,
          consumed,
        );
      }
    },
    destroy() {
      current?.writer.abort().catch(() => undefined);
      current = undefined;
    },
  };

  function classify(error: unknown, offset: number): StreamProblem {
    if (isStreamProblem(error)) return error;
    const message = error instanceof Error ? error.message : String(error);
    const where = `member ${members}, near compressed byte ${offset}`;
    if (/data check|crc/i.test(message))
      return new StreamProblem('gzip.crc_mismatch', `gzip: CRC32 mismatch at end of ${where}`, offset);
    if (/length check|size/i.test(message))
      return new StreamProblem('gzip.size_mismatch', `gzip: ISIZE mismatch at end of ${where}`, offset);
    if (/truncat|unexpected end|end of (file|stream|input)/i.test(message)) {
      return new StreamProblem('gzip.truncated', `gzip: unexpected end of compressed stream in ${where}`, offset);
    }
    if (/header|method|flag/i.test(message) && outputSize === 0)
      return new StreamProblem('gzip.bad_header', `gzip: bad header in ${where} (${message})`, memberStart);
    return new StreamProblem('gzip.bad_data', `gzip: ${message} (${where})`, offset);
  }
}

/**
 * The CRC-32 of what a member's `slices` decode to, decoded again by a native stream fed the same
 * slices; -1 when that output's size modulo 2^32 is not `size`, the size received the first time
 * (no trailer then matches). The decoder's error at the member's end is expected and ignored.
 */
async function crcOfMember(slices: readonly Uint8Array<ArrayBuffer>[], size: number): Promise<number> {
  const stream = new DecompressionStream('gzip');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  let crc = 0;
  let total = 0;
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      crc = crc32(value, crc);
      total = (total + value.byteLength) >>> 0;
    }
  })().catch(() => undefined);
  const writing = (async () => {
    for (const slice of slices) await writer.write(slice);
    await writer.close();
  })().catch(() => undefined);
  await Promise.all([reading, writing]);
  return total === size ? crc >>> 0 : -1;
}

/** The native decoder behaves as this module expects: junk error after a member, its output first. */
async function probeNativeGunzip(): Promise<boolean> {
  if (typeof DecompressionStream === 'undefined') return false;
  try {
    // gzip of "a\n" followed by the start of a second member (gzip of "b\n").
    const member = (letter: number): number[] => [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x4b, letter, 2, 0];
    const crcA = [0x07, 0xa1, 0xea, 0xdd, 2, 0, 0, 0];
    const stream = new DecompressionStream('gzip');
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const output: number[] = [];
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'done';
        output.push(...value);
      }
    })().catch(() => 'error');
    const written = writer
      .write(Uint8Array.from([...member(0xe4), ...crcA, ...member(0xe2)]))
      .then(() => writer.close())
      .then(
        () => 'ok',
        () => 'error',
      );
    const [readResult, writeResult] = await Promise.all([reading, written]);
    return (
      readResult === 'error' &&
      writeResult === 'error' &&
      output.length === 2 &&
      output[0] === 0x61 &&
      output[1] === 0x0a
    );
  } catch {
    return false;
  }
}

let nativeUsable: Promise<boolean> | undefined;

/**
 * Whether `DecompressionStream('gzip')` is present and stops at the end of a member as expected
 * (checked once, on a 36-byte sample).
 * @example
 * if (await nativeGunzipUsable()) console.log('using the platform decoder');
 */
export function nativeGunzipUsable(): Promise<boolean> {
  nativeUsable ??= probeNativeGunzip();
  return nativeUsable;
}
