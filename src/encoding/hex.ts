/**
 * Lowercase hex encoding of digests and keys.
 * @module
 */

const HEX_PAIRS: readonly string[] = /* @__PURE__ */ Array.from({ length: 256 }, (_, i) =>
  i.toString(16).padStart(2, '0'),
);

/**
 * Bytes to lowercase hex.
 * @example
 * toHex(new Uint8Array([0, 255])); // '00ff'
 */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX_PAIRS[bytes[i]!];
  return out;
}
