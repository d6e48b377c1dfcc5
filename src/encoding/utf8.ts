/**
 * UTF-8 decoding with Node's `buffer.toString('utf8')` semantics: invalid sequences become
 * U+FFFD (WHATWG maximal-subpart replacement, which Node follows), and a leading BOM is kept.
 * @module
 */

const lenient = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const strict = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes bytes as Node would: never throws, BOM kept, invalid bytes → U+FFFD.
 * @example
 * decodeUtf8Lenient(new Uint8Array([0x68, 0xff])); // 'h\uFFFD'
 */
export function decodeUtf8Lenient(bytes: Uint8Array): string {
  return lenient.decode(bytes);
}

/**
 * Decodes bytes that must be valid UTF-8; returns `undefined` when they are not.
 * @example
 * decodeUtf8Strict(new Uint8Array([0xff])); // undefined
 */
export function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Encodes a string as UTF-8 (lone surrogates become U+FFFD, as in every Web API).
 * @example
 * encodeUtf8('é'); // Uint8Array [0xc3, 0xa9]
 */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}
