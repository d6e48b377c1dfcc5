/**
 * Node's lenient base64 decoding (its byte buffers' `'base64'` encoding), reproduced exactly because
 * AgentXchain verifies `content_base64` with it (docs/agentxchain.md §4.7). `atob` is stricter
 * and would turn accepted artifacts into failures, so it must not be used.
 *
 * Rules: characters outside the base64 and base64url alphabets are skipped; `-`/`_` count as
 * `+`/`/`; decoding stops at the first `=`; missing padding is fine; a final group of one
 * character is dropped, two give one byte, three give two bytes. Never throws.
 * @module
 */

/**
 * A host's own base64 decoder, faster than the kit's where the platform has one (the CLI passes
 * Node's, `bin/node-base64.ts`; `VerifyOptions.decodeBase64`). `text` is the characters as bytes,
 * one per character. For canonical base64 (RFC 4648 §4: the standard alphabet, padded with `=` to
 * a multiple of four, pad bits zero) it returns the decoding; for anything else `undefined`, and the
 * kit decodes by Node's lenient rules itself. It may return `undefined` for any input. A decoder
 * that returns anything else for a string changes verdicts.
 * @example
 * const decodeBase64: Base64Decoder = (text) => undefined; // always leave it to the kit
 */
export type Base64Decoder = (text: Uint8Array) => Uint8Array | undefined;

/** Sextet value per char code; SKIP for characters that are ignored, STOP for `=`. */
const SKIP = 64;
const STOP = 65;
const SEXTETS: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(256).fill(SKIP);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  table['-'.charCodeAt(0)] = 62;
  table['_'.charCodeAt(0)] = 63;
  table['='.charCodeAt(0)] = STOP;
  return table;
})();

/**
 * Decodes `text` as Node's lenient `'base64'` decoding does.
 * `text` is attacker-controlled: every code unit is looked up by its low byte, as Node does
 * (`\u0141` counts as `A`, `\ud83d` as `=`), so no input can throw or decode differently.
 * @example
 * decodeBase64Lenient('aGk');       // Uint8Array [0x68, 0x69]
 * decodeBase64Lenient('aG k=junk'); // Uint8Array [0x68, 0x69]
 */
export function decodeBase64Lenient(text: string): Uint8Array {
  const length = text.length;
  // Pass 1: count significant characters up to the first '=' to size the output exactly.
  let significant = 0;
  let end = length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    const sextet = SEXTETS[code & 0xff]!;
    if (sextet < SKIP) significant++;
    else if (sextet === STOP) {
      end = i;
      break;
    }
  }
  const remainder = significant & 3;
  const out = new Uint8Array((significant >> 2) * 3 + (remainder === 0 ? 0 : remainder - 1));
  // Pass 2: decode groups of four sextets.
  let acc = 0;
  let count = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const sextet = SEXTETS[code & 0xff]!;
    if (sextet >= SKIP) continue;
    acc = (acc << 6) | sextet;
    if (++count === 4) {
      out[o++] = (acc >> 16) & 0xff;
      out[o++] = (acc >> 8) & 0xff;
      out[o++] = acc & 0xff;
      acc = 0;
      count = 0;
    }
  }
  if (count === 2) out[o++] = (acc >> 4) & 0xff;
  else if (count === 3) {
    out[o++] = (acc >> 10) & 0xff;
    out[o++] = (acc >> 2) & 0xff;
  }
  return out;
}
