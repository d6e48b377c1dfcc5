// The WebCrypto bulk-digest path (src/crypto/bulk-digest.ts) in Node: `sha256Digest` hashes like
// node:crypto, sends large buffers to WebCrypto and the rest to the WASM `Sha256`, an injected
// `options.sha256` wins, a host without `crypto.subtle` (or one that refuses) falls back to the
// WASM; and an AgentXchain report is the same whichever path hashed: every shared fixture and the
// bulk cases, with WebCrypto, with the WASM only, without crypto.subtle, and with WebCrypto refusing.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BULK_DIGEST_MIN_BYTES, bulkDigest } from '../../src/crypto/bulk-digest.ts';
import type { Sha256 } from '../../src/crypto/sha256.ts';
import { sha256Digest, verifyAgentxchain } from '../../src/index.ts';
import type { Report } from '../../src/report.ts';
import { loadSha256 } from '../../wasm/sha256.ts';
import { FIXTURES } from '../helpers/fixtures.ts';
import { bulkDigestCases, HASHED_CASES } from '../runtimes/bulk-digest-cases.ts';
import { withCrypto } from '../runtimes/bulk-digest-cases.ts';

const hex = (bytes: Uint8Array | ArrayBuffer) =>
  Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString('hex');
const nodeHex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const withoutStats = ({ stats: _stats, ...rest }: Report) => rest;

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

  it('sha256Digest equals node:crypto at and around the threshold and for 16 MiB', async () => {
    assert.ok(bulkDigest({}) !== undefined, 'Node has crypto.subtle');
    assert.equal(BULK_DIGEST_MIN_BYTES, 16384, "Node's threshold (docs/architecture.md, 'Bulk hashing')");
    const min = BULK_DIGEST_MIN_BYTES;
    for (const size of [0, 1, 64, min - 1, min, min + 1, 1 << 20, 16 << 20]) {
      const data = new Uint8Array(randomBytes(size));
      assert.equal(hex(await sha256Digest(data)), nodeHex(data), `${size} bytes`);
      assert.equal(hex(await bulkDigest({})!(data)), nodeHex(data), `WebCrypto, ${size} bytes`);
    }
    // A view into a larger buffer hashes its own bytes only, on either path.
    const whole = randomBytes(3 * min);
    for (const length of [min >> 1, 2 * min]) {
      const middle = new Uint8Array(whole.buffer, whole.byteOffset + 7, length);
      assert.equal(hex(await sha256Digest(middle)), nodeHex(middle), `view of ${length} bytes`);
    }
  });

  it('sends large buffers to WebCrypto, small ones and injected hashing to the Sha256', async () => {
    const { crypto, counter } = countingCrypto();
    const large = new Uint8Array(randomBytes(BULK_DIGEST_MIN_BYTES));
    const small = new Uint8Array(randomBytes(BULK_DIGEST_MIN_BYTES - 1));
    await withCrypto(crypto, async () => {
      assert.equal(hex(await sha256Digest(large)), nodeHex(large));
      assert.equal(counter.calls, 1, 'large: WebCrypto');
      assert.equal(hex(await sha256Digest(small)), nodeHex(small));
      assert.equal(counter.calls, 1, 'small: the WASM Sha256');
      const { sha256, counter: injected } = countingSha256(wasm);
      assert.equal(hex(await sha256Digest(large, { sha256 })), nodeHex(large));
      assert.deepEqual([counter.calls, injected.calls], [1, 1], 'injected: the Sha256 wins');
      assert.equal(bulkDigest({ sha256 }), undefined);
    });
  });

  it('falls back to the WASM Sha256 without crypto.subtle, or when WebCrypto refuses', async () => {
    const large = new Uint8Array(randomBytes(2 * BULK_DIGEST_MIN_BYTES));
    const refusing = countingCrypto(true);
    for (const crypto of [undefined, NO_SUBTLE]) {
      await withCrypto(crypto, async () => {
        assert.equal(bulkDigest({}), undefined, 'no WebCrypto to use');
        assert.equal(hex(await sha256Digest(large)), nodeHex(large));
      });
    }
    await withCrypto(refusing.crypto, async () => assert.equal(hex(await sha256Digest(large)), nodeHex(large)));
    assert.equal(refusing.counter.calls, 1, 'WebCrypto was asked, refused, and the WASM hashed');
    // A view of a shared buffer: WebCrypto refuses it (W3C Web Cryptography API: BufferSource), the WASM does not.
    const shared = new Uint8Array(new SharedArrayBuffer(2 * BULK_DIGEST_MIN_BYTES));
    shared.set(large);
    assert.equal(hex(await sha256Digest(shared)), nodeHex(large));
  });

  it('rejects anything but a Uint8Array with a TypeError', async () => {
    for (const wrong of [new ArrayBuffer(8), 'text', [1, 2], null, undefined])
      await assert.rejects(sha256Digest(wrong as unknown as Uint8Array), TypeError);
  });

  it('AgentXchain reports do not depend on the path that hashed (fixtures and bulk cases)', async () => {
    const fixtures = readdirSync(join(FIXTURES, 'agentxchain'))
      .filter((file) => file.endsWith('.json') && file !== 'manifest.json')
      .map((file): [string, Uint8Array] => [file, new Uint8Array(readFileSync(join(FIXTURES, 'agentxchain', file)))]);
    const cases = bulkDigestCases(wasm);
    assert.ok(fixtures.length > 100, `${fixtures.length} fixtures`);
    const viaWebCryptoCounts = new Map<string, number>();
    for (const [name, bytes] of [...cases, ...fixtures]) {
      const { crypto, counter } = countingCrypto();
      const viaWebCrypto = await withCrypto(crypto, () => verifyAgentxchain(bytes, { name }));
      const viaWasm = await verifyAgentxchain(bytes, { name, sha256: wasm });
      const withoutSubtle = await withCrypto(NO_SUBTLE, () => verifyAgentxchain(bytes, { name }));
      const refused = await withCrypto(countingCrypto(true).crypto, () => verifyAgentxchain(bytes, { name }));
      assert.deepEqual(withoutStats(viaWebCrypto), withoutStats(viaWasm), `${name}: WebCrypto against WASM`);
      assert.deepEqual(withoutStats(withoutSubtle), withoutStats(viaWasm), `${name}: without crypto.subtle`);
      assert.deepEqual(withoutStats(refused), withoutStats(viaWasm), `${name}: WebCrypto refusing`);
      viaWebCryptoCounts.set(name, counter.calls);
      if (HASHED_CASES.includes(name)) {
        assert.ok(counter.calls >= 8, `${name}: WebCrypto hashed ${counter.calls} contents`);
        const codes = new Set<string>(viaWasm.findings.map((finding) => finding.code));
        for (const code of [
          'agentxchain.file_sha256_mismatch',
          'agentxchain.file_bytes_mismatch',
          'agentxchain.file_data_mismatch',
          'agentxchain.file_content_invalid',
        ])
          assert.ok(codes.has(code), `${name}: ${code}`);
        assert.ok(
          viaWasm.findings.some((finding) => /^src\/file-\d+-\d+\.jsonl: invalid JSONL at line/.test(finding.message)),
          `${name}: the JSONL error names its entry`,
        );
      }
    }
    assert.equal(viaWebCryptoCounts.get('strings-export.json'), 0, 'files as a string: nothing to hash');
    // Real exports' planning files (~13 KB) take the WebCrypto path where the threshold lets them
    // (not in Node, whose threshold is 16 KiB: then none may).
    for (const name of ['real-full.json', 'real-bounded.json', 'b64-char-flip.json', 'reseal-invalid-jsonl.json']) {
      const files = (JSON.parse(readFileSync(join(FIXTURES, 'agentxchain', name), 'utf8')) as { files: object }).files;
      const largest = Math.max(
        ...Object.values(files).map((entry: { content_base64?: unknown }) =>
          typeof entry.content_base64 === 'string' ? entry.content_base64.length : 0,
        ),
      );
      const qualifies = largest * 3 >= 4 * BULK_DIGEST_MIN_BYTES;
      assert.equal(viaWebCryptoCounts.get(name)! > 0, qualifies, `${name}: ${largest} characters of base64`);
    }
  });
});
