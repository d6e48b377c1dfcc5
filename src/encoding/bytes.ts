/**
 * Joining byte arrays: one place for the copy every reader that collects chunks needs.
 * @module
 */

/**
 * The bytes of `parts` one after another. A single part is returned as it is (no copy), so the
 * result may share memory with it: copy it first if the part will be changed.
 * @example
 * concatBytes([Uint8Array.of(1), Uint8Array.of(2, 3)]); // Uint8Array [1, 2, 3]
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let total = 0;
  for (const part of parts) total += part.byteLength;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
