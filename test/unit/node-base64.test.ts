// The CLI's base64 decoder (bin/node-base64.ts, Node's native decoding) answers for canonical base64
// only, and the AgentXchain verifier decodes through it first: the results must be exactly the
// kit's own decoding (Node's lenient rules) for any string, and the reports the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { MAX_NATIVE_BYTES, nodeBase64 } from '../../bin/node-base64.ts';
import { nodeSha256 } from '../../bin/node-sha256.ts';
import type { Base64Decoder } from '../../src/encoding/base64.ts';
import { decodeContentBase64Token } from '../../src/formats/agentxchain/base64-fast-path.ts';
import { toAgentxchainJson, verifyAgentxchain } from '../../src/index.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Canonical base64 with now and then one character changed (junk, padding, url-safe, non-ASCII). */
const nearlyCanonical = fc
  .tuple(
    fc.uint8Array({ maxLength: 200 }),
    fc.option(fc.tuple(fc.nat(), fc.constantFrom('=', '-', '_', ' ', '\n', '!', 'é', 'A', 'l', '\\/'))),
    fc.boolean(),
  )
  .map(([bytes, change, dropPadding]) => {
    let text = Buffer.from(bytes).toString('base64');
    if (dropPadding) text = text.replace(/=+$/, '');
    if (change !== null && text.length > 0) {
      const at = change[0] % text.length;
      text = text.slice(0, at) + change[1] + text.slice(at + 1);
    }
    return text;
  });

test('nodeBase64 decodes canonical base64 and leaves everything else to the kit', () => {
  assert.deepEqual(nodeBase64(ascii('aGk=')), ascii('hi'));
  assert.deepEqual(nodeBase64(ascii('')), new Uint8Array(0));
  for (const text of ['aGk', 'aG k=', 'aGk=\n', 'aGl=', 'a-8=', 'a_8=', 'aGk==', '=', 'aGk=aGk=', 'a\\/8=']) {
    assert.equal(nodeBase64(ascii(text)), undefined, JSON.stringify(text));
  }
  // A plain Uint8Array view, not a Buffer (whose `slice` would share memory).
  assert.equal(nodeBase64(ascii('aGk='))!.constructor, Uint8Array);
  // Past MAX_NATIVE_BYTES (a hostile document's one huge content), the kit decodes it, not Node.
  const huge = new Uint8Array(MAX_NATIVE_BYTES + 4).fill(0x41);
  assert.equal(nodeBase64(huge), undefined);
  assert.ok(nodeBase64(huge.subarray(0, MAX_NATIVE_BYTES)) !== undefined);
});

test('nodeBase64 answers only with what the kit itself decodes, for any nearly-canonical string', () => {
  fc.assert(
    fc.property(nearlyCanonical, fc.nat(7), (text, offset) => {
      const encoded = ascii(text);
      // Bytes at any offset of a larger buffer, as in a document's block.
      const bytes = new Uint8Array(new ArrayBuffer(encoded.byteLength + offset), offset);
      bytes.set(encoded);
      const answer = nodeBase64(bytes);
      const canonical = /^[A-Za-z0-9+/]*={0,2}$/.test(text) && Buffer.from(text, 'base64').toString('base64') === text;
      assert.equal(answer !== undefined, canonical, JSON.stringify(text));
      const token = ascii(JSON.stringify(text));
      assert.deepEqual(decodeContentBase64Token(token, nodeBase64), decodeContentBase64Token(token));
    }),
    { numRuns: 3000 },
  );
});

test('the AgentXchain verifier decodes file contents through options.decodeBase64 first', async () => {
  const bytes = new Uint8Array(readFileSync(fixturePath('agentxchain', 'real-full.json')));
  const plain = await verifyAgentxchain(bytes, { sha256: nodeSha256 });
  assert.equal(plain.overall, 'pass');

  let asked = 0;
  const counting: Base64Decoder = (text) => (asked++, nodeBase64(text));
  const native = await verifyAgentxchain(bytes, { sha256: nodeSha256, decodeBase64: counting });
  assert.ok(asked > 0, 'the decoder was asked');
  assert.deepEqual({ ...native, stats: undefined }, { ...plain, stats: undefined });

  // A decoder that answers wrongly changes the verdict: its answers are used as they are.
  const wrong: Base64Decoder = (text) => {
    const decoded = nodeBase64(text);
    if (decoded !== undefined && decoded.byteLength > 0) decoded[0]! ^= 1;
    return decoded;
  };
  const broken = toAgentxchainJson(await verifyAgentxchain(bytes, { sha256: nodeSha256, decodeBase64: wrong }));
  assert.equal(broken.overall, 'fail');
  assert.ok(broken.errors.some((error) => error.includes('sha256 does not match content_base64')));
});
