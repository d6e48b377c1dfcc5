// `sha256Digest` on a host that refuses the kit's WebAssembly (a CSP without 'wasm-unsafe-eval'):
// WebCrypto hashes every size then, an injected `options.sha256` still wins, and only a host
// without crypto.subtle as well is refused, with the reason and what to do. The refusal is
// simulated as test/runtimes/sha256-unavailable.test.ts does, before anything in this process has
// loaded the default SHA-256 (each test file is its own process).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { sha256Digest, type Sha256 } from '../../src/index.ts';
import { loadSha256 } from '#sha256';
import { withCrypto } from '../runtimes/bulk-digest-cases.ts';

const { compile, instantiate } = WebAssembly;
const refusal = (): Promise<never> =>
  Promise.reject(new WebAssembly.CompileError('WebAssembly.compile(): Wasm code generation disallowed by embedder'));
WebAssembly.compile = refusal;
WebAssembly.instantiate = refusal;
await assert.rejects(loadSha256(), /disallowed by embedder/);
WebAssembly.compile = compile;
WebAssembly.instantiate = instantiate;

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
