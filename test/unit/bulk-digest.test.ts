// The WebCrypto bulk-digest path (src/crypto/bulk-digest.ts) in Node: it hashes like node:crypto,
// an injected `options.sha256` wins, a host without `crypto.subtle` (or one that refuses) falls
// back to the WASM `Sha256`, and an AgentXchain report is the same whichever path hashed: every
// shared fixture and the bulk cases, with WebCrypto, with the WASM only, and without crypto.subtle.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BULK_DIGEST_MIN_BYTES, bulkDigest, sha256Of } from '../../src/crypto/bulk-digest.ts';
import type { Sha256 } from '../../src/crypto/sha256.ts';
import { verifyAgentxchain } from '../../src/formats/agentxchain/index.ts';
import type { Report } from '../../src/report.ts';
import { loadSha256 } from '../../wasm/sha256.ts';
import { FIXTURES } from '../helpers/fixtures.ts';
import { bulkDigestCases } from '../runtimes/bulk-digest-cases.ts';

const hex = (bytes: Uint8Array | ArrayBuffer) =>
  Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString('hex');
const nodeHex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const withoutStats = ({ stats: _stats, ...rest }: Report) => rest;

/** Runs `body` with `globalThis.crypto` replaced by `value`, restoring it afterwards. */
async function withCrypto<T>(value: unknown, body: () => Promise<T>): Promise<T> {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
  Object.defineProperty(globalThis, 'crypto', { value, configurable: true, writable: true });
  try {
    return await body();
  } finally {
    Object.defineProperty(globalThis, 'crypto', original);
  }
}

// What an insecure browser context keeps (the kit draws nonces from it): crypto without subtle.
const getRandomValues = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
const NO_SUBTLE = { getRandomValues };

/** A `crypto` whose subtle.digest counts its calls (and can be made to refuse). */
function countingCrypto(refuse = false) {
  const real = globalThis.crypto.subtle;
  const counter = { calls: 0, bytes: 0 };
  const subtle = {
    digest(algorithm: string, data: Uint8Array) {
      counter.calls++;
      counter.bytes += data.byteLength;
      return refuse ? Promise.reject(new Error('refused')) : real.digest(algorithm, data as Uint8Array<ArrayBuffer>);
    },
  };
  return { crypto: { subtle, getRandomValues }, counter };
}

/** A `Sha256` that counts its one-shot digests. */
function countingSha256(inner: Sha256): { sha256: Sha256; counter: { calls: number } } {
  const counter = { calls: 0 };
  return { sha256: { digest: (data) => (counter.calls++, inner.digest(data)), create: () => inner.create() }, counter };
}

describe('bulk digest (WebCrypto) in Node', () => {
  let wasm: Sha256;
  before(async () => {
    wasm = await loadSha256();
  });

  it('equals node:crypto at and around the threshold and for 16 MiB', async () => {
    const bulk = bulkDigest({})!;
    assert.ok(bulk !== undefined, 'Node has crypto.subtle');
    for (const size of [0, 1, BULK_DIGEST_MIN_BYTES - 1, BULK_DIGEST_MIN_BYTES, BULK_DIGEST_MIN_BYTES + 1, 16 << 20]) {
      const data = randomBytes(size);
      const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      assert.equal(hex(await bulk(view)), nodeHex(data), `bulk, ${size} bytes`);
      assert.equal(hex(await sha256Of(view, wasm, {})), nodeHex(data), `sha256Of, ${size} bytes`);
    }
    // A view into a larger buffer hashes its own bytes only.
    const whole = randomBytes(3 * BULK_DIGEST_MIN_BYTES);
    const middle = new Uint8Array(whole.buffer, whole.byteOffset + 7, 2 * BULK_DIGEST_MIN_BYTES);
    assert.equal(hex(await sha256Of(middle, wasm, {})), nodeHex(middle));
  });

  it('sends large buffers to WebCrypto, small ones and injected hashing to the Sha256', async () => {
    const { crypto, counter } = countingCrypto();
    const large = randomBytes(BULK_DIGEST_MIN_BYTES);
    const small = randomBytes(BULK_DIGEST_MIN_BYTES - 1);
    await withCrypto(crypto, async () => {
      const { sha256, counter: wasmCalls } = countingSha256(wasm);
      assert.equal(hex(await sha256Of(large, sha256, {})), nodeHex(large));
      assert.deepEqual([counter.calls, wasmCalls.calls], [1, 0], 'large: WebCrypto');
      assert.equal(hex(await sha256Of(small, sha256, {})), nodeHex(small));
      assert.deepEqual([counter.calls, wasmCalls.calls], [1, 1], 'small: the Sha256');
      assert.equal(hex(await sha256Of(large, sha256, { sha256 })), nodeHex(large));
      assert.deepEqual([counter.calls, wasmCalls.calls], [1, 2], 'injected: the Sha256 wins');
      assert.equal(bulkDigest({ sha256 }), undefined);
    });
  });

  it('falls back to the Sha256 without crypto.subtle, or when WebCrypto refuses', async () => {
    const large = randomBytes(2 * BULK_DIGEST_MIN_BYTES);
    for (const crypto of [undefined, NO_SUBTLE, countingCrypto(true).crypto]) {
      await withCrypto(crypto, async () => {
        const { sha256, counter } = countingSha256(wasm);
        assert.equal(hex(await sha256Of(large, sha256, {})), nodeHex(large));
        assert.equal(counter.calls, 1);
      });
    }
    await withCrypto(undefined, async () => assert.equal(bulkDigest({}), undefined));
  });

  it('AgentXchain reports do not depend on the path that hashed (fixtures and bulk cases)', async () => {
    const fixtures = readdirSync(join(FIXTURES, 'agentxchain'))
      .filter((file) => file.endsWith('.json') && file !== 'manifest.json')
      .map((file): [string, Uint8Array] => [file, new Uint8Array(readFileSync(join(FIXTURES, 'agentxchain', file)))]);
    const cases = bulkDigestCases(wasm);
    assert.ok(fixtures.length > 100, `${fixtures.length} fixtures`);
    let bulkBytes = 0;
    for (const [name, bytes] of [...cases, ...fixtures]) {
      const { crypto, counter } = countingCrypto();
      const viaWebCrypto = await withCrypto(crypto, () => verifyAgentxchain(bytes, { name }));
      const viaWasm = await verifyAgentxchain(bytes, { name, sha256: wasm });
      const withoutSubtle = await withCrypto(NO_SUBTLE, () => verifyAgentxchain(bytes, { name }));
      const refused = await withCrypto(countingCrypto(true).crypto, () => verifyAgentxchain(bytes, { name }));
      assert.deepEqual(withoutStats(viaWebCrypto), withoutStats(viaWasm), `${name}: WebCrypto against WASM`);
      assert.deepEqual(withoutStats(withoutSubtle), withoutStats(viaWasm), `${name}: without crypto.subtle`);
      assert.deepEqual(withoutStats(refused), withoutStats(viaWasm), `${name}: WebCrypto refusing`);
      if (cases.some(([caseName]) => caseName === name)) {
        assert.ok(counter.calls >= 8, `${name}: WebCrypto hashed ${counter.calls} contents`);
        assert.ok(
          viaWasm.findings.some((f) => f.code === 'agentxchain.file_sha256_mismatch'),
          name,
        );
        assert.ok(
          viaWasm.findings.some((f) => f.code === 'agentxchain.file_data_mismatch'),
          name,
        );
      }
      bulkBytes += counter.bytes;
    }
    assert.ok(bulkBytes > 0);
  });
});
