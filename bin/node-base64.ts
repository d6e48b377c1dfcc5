/**
 * Node's own base64 decoding (its byte buffers' `'base64'` encoding, native code) as the core's
 * `Base64Decoder`, for the CLI: several times faster than the kit's decoder in JavaScript, which
 * was the largest cost of verifying a large AgentXchain export.
 *
 * It answers for canonical base64 only, and knows a string is canonical by encoding what it decoded
 * and finding the same string: a string that is the encoding of some bytes decodes to those bytes
 * by any decoder (Node's lenient rules, whatever the Node version, and the kit's). Anything else
 * (whitespace, junk, missing padding, the base64url alphabet) is left to the kit, whose rules are
 * the reference's (docs/agentxchain.md §4.7).
 * @module
 */
import type { Base64Decoder } from '../src/encoding/base64.ts';

/** Longest text decoded natively: real file contents are far shorter (the 54 MB export's: < 100 KB). */
export const MAX_NATIVE_BYTES = 16 * 1024 * 1024;

/**
 * @example
 * nodeBase64(new TextEncoder().encode('aGk='));  // Uint8Array [0x68, 0x69]
 * nodeBase64(new TextEncoder().encode('aGk'));   // undefined: not padded, the kit decodes it
 */
export const nodeBase64: Base64Decoder = (text) => {
  // A string of each character, the decoded bytes and the re-encoded string all exist at once: a
  // hostile document's one huge content (V8 strings end near 512 MiB) goes to the kit instead.
  if (text.byteLength > MAX_NATIVE_BYTES) return undefined;
  const characters = Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('latin1');
  const decoded = Buffer.from(characters, 'base64');
  if (decoded.toString('base64') !== characters) return undefined;
  // A plain view: a Buffer's `slice` shares memory where a Uint8Array's copies.
  return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength);
};
