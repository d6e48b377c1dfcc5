/**
 * CRC-32 (ISO 3309 / ITU-T V.42, reflected polynomial 0xEDB88320) as used by the gzip trailer
 * (RFC 1952 §8). Slicing-by-16: sixteen 256-entry tables let the inner loop consume sixteen bytes
 * per step, read as four little-endian 32-bit words where the host is little-endian.
 *
 * Why: the platform's gzip decoder (`native.ts`) keeps a CRC of everything it outputs, so this
 * loop runs over every decompressed byte in browsers. In Chromium, slicing-by-8 with byte reads
 * took ~70–95 ms for a 54 MB export; this takes ~26 ms, as fast as a WebAssembly CRC measured
 * there (hash-wasm's), without adding a module to the bundle.
 * @module
 */

/** The sixteen lookup tables, one flat array: table k lives at [k * 256, k * 256 + 256). */
const TABLES: Int32Array = /* @__PURE__ */ buildTables();

/** Whether 32-bit words read from memory are little-endian (then 4 bytes are read at once). */
const LITTLE_ENDIAN = /* @__PURE__ */ new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

function buildTables(): Int32Array {
  const tables = new Int32Array(16 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  // Table k: the CRC contribution of a byte followed by k zero bytes.
  for (let n = 0; n < 256; n++) {
    let c = tables[n]!;
    for (let k = 1; k < 16; k++) {
      c = tables[c & 0xff]! ^ (c >>> 8);
      tables[k * 256 + n] = c;
    }
  }
  return tables;
}

/**
 * Continues a CRC-32 over `bytes[start, end)`. Start with `0` for a new checksum; the result is
 * the finished CRC of everything fed so far (unsigned 32-bit), and can be fed back in.
 * @example
 * crc32(new TextEncoder().encode('123456789')); // 0xcbf43926
 * crc32(bytes.subarray(4), crc32(bytes.subarray(0, 4))) === crc32(bytes); // true
 */
export function crc32(bytes: Uint8Array, crc = 0, start = 0, end = bytes.length): number {
  const t = TABLES;
  let c = ~crc;
  let i = start;
  // Byte at a time up to a 4-byte aligned address, so the words below can be read in place.
  while (i < end && (bytes.byteOffset + i) & 3) c = t[(c ^ bytes[i++]!) & 0xff]! ^ (c >>> 8);
  if (end - i >= 16) {
    const steps = (end - i) >>> 4;
    const words = LITTLE_ENDIAN
      ? new Int32Array(bytes.buffer, bytes.byteOffset + i, steps * 4)
      : littleEndianWords(bytes, i, steps * 4);
    for (let w = 0; w < words.length; w += 4) {
      const a = c ^ words[w]!;
      const b = words[w + 1]!;
      const d = words[w + 2]!;
      const e = words[w + 3]!;
      c =
        t[3840 + (a & 0xff)]! ^
        t[3584 + ((a >>> 8) & 0xff)]! ^
        t[3328 + ((a >>> 16) & 0xff)]! ^
        t[3072 + (a >>> 24)]! ^
        t[2816 + (b & 0xff)]! ^
        t[2560 + ((b >>> 8) & 0xff)]! ^
        t[2304 + ((b >>> 16) & 0xff)]! ^
        t[2048 + (b >>> 24)]! ^
        t[1792 + (d & 0xff)]! ^
        t[1536 + ((d >>> 8) & 0xff)]! ^
        t[1280 + ((d >>> 16) & 0xff)]! ^
        t[1024 + (d >>> 24)]! ^
        t[768 + (e & 0xff)]! ^
        t[512 + ((e >>> 8) & 0xff)]! ^
        t[256 + ((e >>> 16) & 0xff)]! ^
        t[e >>> 24]!;
    }
    i += steps * 16;
  }
  for (; i < end; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * `count` little-endian 32-bit words of `bytes` from `from`, copied: how a big-endian host reads
 * them (an `Int32Array` view would read them big-endian there).
 * @example
 * littleEndianWords(Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0x80), 0, 2); // Int32Array [1, -2147483648]
 */
export function littleEndianWords(bytes: Uint8Array, from: number, count: number): Int32Array {
  const words = new Int32Array(count);
  for (let w = 0, i = from; w < count; w++, i += 4)
    words[w] = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
  return words;
}
