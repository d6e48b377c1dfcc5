// `sha256Digest` on a host that refuses the kit's WebAssembly (a CSP without 'wasm-unsafe-eval'):
// WebCrypto hashes every size then, an injected `options.sha256` still wins, and only a host
// without crypto.subtle as well is refused, with the reason and what to do. The refusal is
// simulated by test/helpers/refused-wasm.ts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { sha256Digest, type Sha256 } from '../../src/index.ts';
import { refuseDefaultSha256 } from '../helpers/refused-wasm.ts';
import { withCrypto } from '../runtimes/bulk-digest-cases.ts';

await refuseDefaultSha256();

const nodeHex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

test('without WebAssembly, WebCrypto hashes buffers of every size', async () => {
  for (const size of [0, 64, 1000]) {
    const data = new Uint8Array(size).map((_, i) => i * 7);
    assert.equal(hex(await sha256Digest(data)), nodeHex(data), `${size} bytes`);
  }
});

test('an injected Sha256 still hashes everything', async () => {
  let calls = 0;
  const injected: Sha256 = {
    digest: (data) => (calls++, new Uint8Array(createHash('sha256').update(data).digest())),
    create: () => {
      throw new Error('not used');
    },
  };
  const data = new Uint8Array(1 << 20).fill(3);
  assert.equal(hex(await sha256Digest(data, { sha256: injected })), nodeHex(data));
  assert.equal(calls, 1);
});

test('without WebAssembly and without crypto.subtle, it rejects saying what to do', async () => {
  const noSubtle = { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) };
  await withCrypto(noSubtle, () =>
    assert.rejects(sha256Digest(new Uint8Array(64)), (error: Error) => {
      assert.match(error.message, /disallowed by embedder/);
      assert.match(error.message, /options\.sha256/);
      assert.match(error.message, /initSha256/);
      return true;
    }),
  );
});
