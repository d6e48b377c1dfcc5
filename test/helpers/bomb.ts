// A 4 GiB NDJSON gzip bomb built in memory, so the tests that need one depend on no outside file.
// It expands to the same bytes as `agent-history--bomb-4gb.ndjson.gz` of the benchmark data
// (bench/data.ts): 65,995 identical lines of 65,080 bytes, 4,294,954,600 bytes in all (CRC-32
// 0x55667ed2), in about 7.6 MB of gzip.
//
// Built without deflating 4 GiB (RFC 1951, RFC 1952): the first line is one deflate stream piece,
// then a run of 64 lines is deflated once with the 32 KiB that precede every run (the end of a
// line) as preset dictionary and repeated, each piece ending byte-aligned on an empty stored
// block (Z_SYNC_FLUSH); a final empty block and the trailer close the member. The trailer's
// CRC-32 is combined arithmetically from the line's (as zlib's crc32_combine), not computed over
// the 4 GiB.
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** One line of the bomb: a valid JSON object padded with 65,000 spaces, newline-terminated. */
export const BOMB_LINE = new TextEncoder().encode(
  `{"type": "session",${' '.repeat(65_000)}"session": {"id": "bomb", "agent": "codex"}, "messages": []}\n`,
);
/** Lines in the bomb. */
export const BOMB_LINES = 65_995;
/** Bytes the bomb expands to. */
export const BOMB_EXPANDED_BYTES = BOMB_LINE.byteLength * BOMB_LINES;

const RUN = 64;
const WINDOW = 32_768;
/** CRC-32's polynomial, reflected. */
const POLY = 0xedb88320;

/** a(x)·b(x) modulo the CRC polynomial (reflected bit order, as zlib's multmodp). */
function multModP(a: number, b: number): number {
  let m = 1 << 31;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0..31. */
const X2N: number[] = [1 << 30];
for (let k = 1; k < 32; k++) X2N.push(multModP(X2N[k - 1]!, X2N[k - 1]!));

/** x^(n·2^k) modulo the polynomial (n may exceed 2^32). */
function x2nModP(n: number, k: number): number {
  let p = 1 << 31;
  for (; n > 0; n = Math.floor(n / 2), k++) if (n % 2 === 1) p = multModP(X2N[k & 31]!, p);
  return p;
}

/** CRC-32 of A followed by B, from CRC-32(A), CRC-32(B) and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x2nModP(lengthB, 3), crcA) ^ crcB) >>> 0;
}

/** CRC-32 of `unit` repeated `count` times, by doubling. */
export function crc32Repeated(unit: Uint8Array, count: number): number {
  let result = 0;
  let resultLength = 0;
  let power = crc32(unit);
  let powerLength = unit.byteLength;
  for (let n = count; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) {
      result = resultLength === 0 ? power : crc32Combine(result, power, powerLength);
      resultLength += powerLength;
    }
    power = crc32Combine(power, power, powerLength);
    powerLength *= 2;
  }
  return result >>> 0;
}

let cached: Uint8Array | undefined;

/** The bomb's gzip bytes (built once per process). */
export function ndjsonBomb(): Uint8Array {
  if (cached) return cached;
  const sync = { level: 9, finishFlush: constants.Z_SYNC_FLUSH };
  const dictionary = BOMB_LINE.subarray(BOMB_LINE.byteLength - WINDOW);
  const lines = (n: number): Uint8Array => new Uint8Array(Buffer.concat(Array.from({ length: n }, () => BOMB_LINE)));
  const first = deflateRawSync(BOMB_LINE, sync);
  const run = deflateRawSync(lines(RUN), { ...sync, dictionary });
  const runs = Math.floor((BOMB_LINES - 1) / RUN);
  const rest = (BOMB_LINES - 1) % RUN;
  const tail = rest === 0 ? new Uint8Array(0) : deflateRawSync(lines(rest), { ...sync, dictionary });
  const header = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3);
  const finalBlock = Uint8Array.of(0x03, 0x00);
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, crc32Repeated(BOMB_LINE, BOMB_LINES), true);
  view.setUint32(4, BOMB_EXPANDED_BYTES % 2 ** 32, true);
  cached = new Uint8Array(
    Buffer.concat([header, first, ...Array.from({ length: runs }, () => run), tail, finalBlock, trailer]),
  );
  return cached;
}
