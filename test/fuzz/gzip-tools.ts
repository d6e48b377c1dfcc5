/**
 * Test-side gzip tools, independent of the kit's gunzip: a strict RFC 1952 member walker (the
 * oracle that says whether a container is intact) and builders for the gzip-aware mutations.
 * Uses node:zlib, which the isomorphic core never uses.
 * @module
 */
import { gzipSync, inflateRawSync } from 'node:zlib';

/** The answer of the strict walker. `uncertain`: decoders may legitimately differ, no claim. */
export type GzipVerdict =
  | { readonly ok: true; readonly data: Uint8Array; readonly members: readonly GzipMember[] }
  | { readonly ok: false; readonly problem: string; readonly decoded: number }
  | { readonly ok: 'uncertain'; readonly problem: string; readonly decoded: number };

/** Where one member's parts lie in the container. */
export interface GzipMember {
  readonly start: number;
  /** Offset of the deflate data. */
  readonly dataStart: number;
  /** Offset of the 8-byte trailer (CRC32, ISIZE). */
  readonly trailerStart: number;
  readonly end: number;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as gzip uses it. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/** Decompressed output above this is not checked (no claim either way). */
const MAX_OUTPUT = 96 * 1024 * 1024;

/**
 * Walks every member of a gzip container strictly: magic, method 8, header fields, deflate data,
 * CRC32 and ISIZE of each member, and nothing but further members after the first.
 * Reserved flag bits and FHCRC are reported `uncertain` (decoders differ on them).
 * @example
 * checkGzip(gzipSync(Buffer.from('x'))).ok; // true
 */
export function checkGzip(bytes: Uint8Array): GzipVerdict {
  const members: GzipMember[] = [];
  const parts: Uint8Array[] = [];
  let total = 0;
  let pos = 0;
  while (pos < bytes.length) {
    const start = pos;
    if (bytes.length - pos < 2 || bytes[pos] !== 0x1f || bytes[pos + 1] !== 0x8b) {
      return {
        ok: false,
        problem: members.length === 0 ? 'no gzip magic' : `trailing bytes at ${pos}`,
        decoded: total,
      };
    }
    if (bytes.length - pos < 10) return { ok: false, problem: `truncated header at ${pos}`, decoded: total };
    if (bytes[pos + 2] !== 8) return { ok: false, problem: `compression method ${bytes[pos + 2]}`, decoded: total };
    const flags = bytes[pos + 3]!;
    if (flags & 0xe0) return { ok: 'uncertain', problem: 'reserved header flags', decoded: total };
    if (flags & 0x02) return { ok: 'uncertain', problem: 'FHCRC header', decoded: total };
    pos += 10;
    if (flags & 0x04) {
      if (bytes.length - pos < 2) return { ok: false, problem: 'truncated FEXTRA', decoded: total };
      const xlen = bytes[pos]! | (bytes[pos + 1]! << 8);
      pos += 2 + xlen;
      if (pos > bytes.length) return { ok: false, problem: 'truncated FEXTRA', decoded: total };
    }
    for (const flag of [0x08, 0x10]) {
      if (flags & flag) {
        while (pos < bytes.length && bytes[pos] !== 0) pos++;
        if (pos >= bytes.length) return { ok: false, problem: 'truncated FNAME/FCOMMENT', decoded: total };
        pos++;
      }
    }
    const dataStart = pos;
    let data: Buffer;
    let consumed: number;
    try {
      const result = inflateRawSync(bytes.subarray(pos), { info: true, maxOutputLength: MAX_OUTPUT }) as unknown as {
        buffer: Buffer;
        engine: { bytesWritten: number };
      };
      data = result.buffer;
      consumed = result.engine.bytesWritten;
    } catch (error) {
      if (error instanceof RangeError) return { ok: 'uncertain', problem: 'output too large to check', decoded: total };
      return { ok: false, problem: `deflate: ${(error as Error).message}`, decoded: total };
    }
    pos += consumed;
    const trailerStart = pos;
    if (bytes.length - pos < 8) return { ok: false, problem: 'truncated trailer', decoded: total + data.length };
    if (u32(bytes, pos) !== crc32(data))
      return { ok: false, problem: `CRC32 mismatch in member at ${start}`, decoded: total + data.length };
    if (u32(bytes, pos + 4) !== data.length % 2 ** 32)
      return { ok: false, problem: `ISIZE mismatch in member at ${start}`, decoded: total + data.length };
    pos += 8;
    members.push({ start, dataStart, trailerStart, end: pos });
    parts.push(data);
    total += data.length;
    if (total > MAX_OUTPUT) return { ok: 'uncertain', problem: 'output too large to check', decoded: total };
  }
  if (members.length === 0) return { ok: false, problem: 'empty', decoded: total };
  const data = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    data.set(part, offset);
    offset += part.length;
  }
  return { ok: true, data, members };
}

/** One gzip member of `data` at a compression level (0–9). */
export function gzipMember(data: Uint8Array, level = 6): Uint8Array {
  return new Uint8Array(gzipSync(data, { level }));
}

/** A gzip member whose header carries an FNAME, FCOMMENT and/or FEXTRA field (valid). */
export function gzipWithHeaderFields(
  data: Uint8Array,
  fields: { name?: string; comment?: string; extra?: Uint8Array },
): Uint8Array {
  const plain = gzipMember(data);
  const header = [...plain.subarray(0, 10)];
  let flags = 0;
  const extra: number[] = [];
  if (fields.extra) {
    flags |= 0x04;
    extra.push(fields.extra.length & 0xff, fields.extra.length >> 8, ...fields.extra);
  }
  if (fields.name !== undefined) {
    flags |= 0x08;
    extra.push(...new TextEncoder().encode(fields.name.replace(/\0/g, '')), 0);
  }
  if (fields.comment !== undefined) {
    flags |= 0x10;
    extra.push(...new TextEncoder().encode(fields.comment.replace(/\0/g, '')), 0);
  }
  header[3] = flags;
  return concatBytes([new Uint8Array(header), new Uint8Array(extra), plain.subarray(10)]);
}

/** Joins byte arrays. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
