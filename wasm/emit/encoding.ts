/**
 * The value encodings of the WebAssembly binary format (WebAssembly Core Specification 2.0,
 * §5.1 'Conventions' and §5.2 'Values'): LEB128 integers, names and vectors.
 * @module
 */

/** Bytes as a list (small things) or a typed array (assembled ones). */
export type Bytes = Uint8Array | readonly number[];

/**
 * Unsigned LEB128 (§5.2.2 'Integers', uN): seven bits a byte, low first, the high bit set on
 * every byte but the last. Requires an integer 0 ≤ value < 2^32.
 * @example
 * unsignedLeb128(624485); // [0xe5, 0x8e, 0x26]
 */
export function unsignedLeb128(value: number): number[] {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError(`not a u32: ${value}`);
  const bytes: number[] = [];
  do {
    const low = value % 128;
    value = Math.floor(value / 128);
    bytes.push(value === 0 ? low : low | 0x80);
  } while (value !== 0);
  return bytes;
}

/**
 * Signed LEB128 (§5.2.2, sN) of a 32-bit integer, two's complement: the last byte's bit 6 carries
 * the sign. A value ≥ 2^31 is taken as its 32-bit two's complement (`i32.const 0xff00ff00`).
 * @example
 * signedLeb128(-123456); // [0xc0, 0xbb, 0x78]
 */
export function signedLeb128(value: number): number[] {
  if (!Number.isInteger(value) || value < -0x80000000 || value > 0xffffffff)
    throw new RangeError(`not an i32: ${value}`);
  let rest = value | 0;
  const bytes: number[] = [];
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0);
    bytes.push(done ? low : low | 0x80);
    if (done) return bytes;
  }
}

/**
 * The parts one after the other, in one array.
 * @example
 * concat([[1], Uint8Array.of(2, 3)]); // Uint8Array [1, 2, 3]
 */
export function concat(parts: readonly Bytes[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const part of parts) length += part.length;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/**
 * A vector (§5.1.3): its length as a u32, then its elements.
 * @example
 * vector([[1], [2, 3]]); // Uint8Array [2, 1, 2, 3]
 */
export function vector(elements: readonly Bytes[]): Uint8Array<ArrayBuffer> {
  return concat([unsignedLeb128(elements.length), ...elements]);
}

/**
 * A name (§5.2.4): its UTF-8 bytes as a vector.
 * @example
 * name('run'); // [3, 0x72, 0x75, 0x6e]
 */
export function name(text: string): number[] {
  const bytes = new TextEncoder().encode(text);
  return [...unsignedLeb128(bytes.length), ...bytes];
}
