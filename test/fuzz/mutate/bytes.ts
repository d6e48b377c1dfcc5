/**
 * Format-blind byte mutations: bit flips, interesting bytes, insertion, deletion, duplication,
 * truncation, BOMs, invalid UTF-8 and long runs.
 * @module
 */
import { concatBytes } from '../gzip-tools.ts';
import type { Rng } from '../rng.ts';

export interface ByteMutation {
  readonly bytes: Uint8Array;
  readonly note: string;
}

export const BYTE_OPS = [
  'flip-bit',
  'set-byte',
  'insert',
  'delete',
  'duplicate',
  'truncate',
  'bom',
  'invalid-utf8',
  'long-run',
  'zero-fill',
] as const;
export type ByteOp = (typeof BYTE_OPS)[number];

/** Bytes that are structural in JSON/NDJSON/UTF-8/gzip. */
const INTERESTING = [
  0x00, 0xff, 0x22, 0x5c, 0x0a, 0x0d, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x20, 0x80, 0xbf, 0xc0, 0xc3, 0xed, 0xef,
  0xf4, 0xf8, 0x1f, 0x8b, 0x30, 0x2d, 0x65,
];

/** Byte sequences that are invalid or tricky UTF-8 (overlong, surrogate, truncated, beyond U+10FFFF). */
const BAD_UTF8: readonly number[][] = [
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf0, 0x9f],
  [0xc3],
  [0x80],
  [0xfe],
  [0xef, 0xbb, 0xbf],
  [0xe2, 0x80, 0xa8],
];

/**
 * Applies one byte-level mutation.
 * @example
 * mutateBytes(new Uint8Array([1, 2, 3]), createRng(1, 0), 'truncate').bytes.length < 3; // true
 */
export function mutateBytes(input: Uint8Array, rng: Rng, op: ByteOp = rng.pick(BYTE_OPS)): ByteMutation {
  const length = input.length;
  const at = rng.int(length + 1);
  switch (op) {
    case 'flip-bit': {
      if (length === 0) return { bytes: new Uint8Array([1 << rng.int(8)]), note: 'flip-bit (empty input)' };
      const out = input.slice();
      const pos = rng.int(length);
      const bit = rng.int(8);
      out[pos] = out[pos]! ^ (1 << bit);
      return { bytes: out, note: `flip-bit @${pos} bit ${bit}` };
    }
    case 'set-byte': {
      if (length === 0) return { bytes: new Uint8Array([rng.pick(INTERESTING)]), note: 'set-byte (empty input)' };
      const out = input.slice();
      const pos = rng.int(length);
      const value = rng.chance(0.7) ? rng.pick(INTERESTING) : rng.int(256);
      out[pos] = value;
      return { bytes: out, note: `set-byte @${pos} = 0x${value.toString(16)}` };
    }
    case 'insert': {
      const inserted = rng.chance(0.5)
        ? rng.bytes(rng.size(64))
        : new Uint8Array(Array.from({ length: rng.range(1, 8) }, () => rng.pick(INTERESTING)));
      return {
        bytes: concatBytes([input.subarray(0, at), inserted, input.subarray(at)]),
        note: `insert ${inserted.length} bytes @${at}`,
      };
    }
    case 'delete': {
      const count = Math.min(length - at, rng.size(256));
      return {
        bytes: concatBytes([input.subarray(0, at), input.subarray(at + count)]),
        note: `delete ${count} bytes @${at}`,
      };
    }
    case 'duplicate': {
      const count = Math.min(length - at, rng.size(4096));
      const to = rng.int(length + 1);
      return {
        bytes: concatBytes([input.subarray(0, to), input.subarray(at, at + count), input.subarray(to)]),
        note: `duplicate ${count} bytes from @${at} to @${to}`,
      };
    }
    case 'truncate':
      return { bytes: input.slice(0, at), note: `truncate to ${at} bytes` };
    case 'bom':
      return rng.chance(0.7)
        ? { bytes: concatBytes([new Uint8Array([0xef, 0xbb, 0xbf]), input]), note: 'prepend UTF-8 BOM' }
        : {
            bytes: concatBytes([
              new Uint8Array(
                rng.pick([
                  [0xfe, 0xff],
                  [0xff, 0xfe],
                  [0x00, 0x00, 0xfe, 0xff],
                ]),
              ),
              input,
            ]),
            note: 'prepend UTF-16/32 BOM',
          };
    case 'invalid-utf8': {
      const seq = rng.pick(BAD_UTF8);
      return {
        bytes: concatBytes([input.subarray(0, at), new Uint8Array(seq), input.subarray(at)]),
        note: `insert ${seq.map((b) => b.toString(16)).join(' ')} @${at}`,
      };
    }
    case 'long-run': {
      const count = rng.weighted([65_537, 1 << 20, 4 << 20], [60, 35, 5]);
      const value = rng.pick([0x61, 0x20, 0x30, 0x5b, 0x7b, 0x0a, 0x00]);
      return {
        bytes: concatBytes([input.subarray(0, at), new Uint8Array(count).fill(value), input.subarray(at)]),
        note: `insert run of ${count} x 0x${value.toString(16)} @${at}`,
      };
    }
    case 'zero-fill': {
      const count = Math.min(length - at, rng.size(1024));
      const out = input.slice();
      out.fill(0, at, at + count);
      return { bytes: out, note: `zero ${count} bytes @${at}` };
    }
  }
}
