/// <reference types="mocha" />
// The WebCrypto bulk-digest path in Chromium (a secure context: the test page is on localhost):
// `sha256Digest` equals the WASM hash on either side of the threshold and falls back to it without
// `crypto.subtle` (what an insecure context has) or when WebCrypto refuses; every AgentXchain
// fixture and the bulk cases (test/runtimes/bulk-digest-cases.ts) give the same report with
// WebCrypto, with the WASM `Sha256` injected, and with no `crypto.subtle`; and WebCrypto really
// hashed the bulk cases' contents and the real exports' large ones.
import { BULK_DIGEST_MIN_BYTES, bulkDigest } from '../../src/crypto/bulk-digest.ts';
import { toHex } from '../../src/encoding/hex.ts';
import { sha256Digest, verifyAgentxchain } from '../../src/index.ts';
import { loadSha256 } from '../../wasm/sha256.ts';
import { bulkDigestCases, comparable, HASHED_CASES, withCrypto } from '../runtimes/bulk-digest-cases.ts';
import { fixtureBytes, fixtureManifest } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** A `crypto` without `subtle` (an insecure context), one whose digest counts calls, one that refuses. */
function cryptos() {
  const real = globalThis.crypto;
  const noSubtle = { getRandomValues: real.getRandomValues.bind(real) };
  const counter = { calls: 0 };
  const counting = {
    ...noSubtle,
    subtle: {
      digest: (algorithm: string, data: Uint8Array<ArrayBuffer>) => (
        counter.calls++,
        real.subtle.digest(algorithm, data)
      ),
    },
  };
  const refusing = { ...noSubtle, subtle: { digest: () => Promise.reject(new Error('refused')) } };
  return { noSubtle, counting, refusing, counter };
}

describe('bulk digest (WebCrypto) in Chromium', () => {
  it('is a secure context with crypto.subtle; sha256Digest equals the WASM hash, with or without WebCrypto', async () => {
    assert(globalThis.isSecureContext && globalThis.crypto.subtle !== undefined, 'secure context expected');
    assert(BULK_DIGEST_MIN_BYTES === 4096, `the browsers' threshold is 4 KiB, not ${BULK_DIGEST_MIN_BYTES}`);
    const wasm = await loadSha256();
    const { noSubtle, counting, refusing, counter } = cryptos();
    for (const size of [0, BULK_DIGEST_MIN_BYTES - 1, BULK_DIGEST_MIN_BYTES, 3 << 20]) {
      const data = new Uint8Array(size).map((_, i) => (i * 2654435761) >>> 24);
      const expected = toHex(wasm.digest(data));
      const before = counter.calls;
      assert(toHex(await withCrypto(counting, () => sha256Digest(data))) === expected, `${size} bytes`);
      assert(counter.calls - before === (size >= BULK_DIGEST_MIN_BYTES ? 1 : 0), `${size} bytes: WebCrypto calls`);
      assert(toHex(await withCrypto(noSubtle, () => sha256Digest(data))) === expected, `${size} bytes, no subtle`);
      assert(toHex(await withCrypto(refusing, () => sha256Digest(data))) === expected, `${size} bytes, refused`);
    }
    await withCrypto(noSubtle, async () => assert(bulkDigest({}) === undefined, 'no crypto.subtle: no bulk digest'));
  });

  it('AgentXchain reports do not depend on the path that hashed', async () => {
    const wasm = await loadSha256();
    const { noSubtle, counting, counter } = cryptos();
    const manifest = await fixtureManifest<{ cases: { file: string }[] }>('agentxchain');
    const fixtures = await Promise.all(
      manifest.cases.map(async ({ file }): Promise<[string, Uint8Array]> => [
        file,
        await fixtureBytes(`agentxchain/${file}`),
      ]),
    );
    const cases = bulkDigestCases(wasm);
    const different: string[] = [];
    const used = new Map<string, number>();
    for (const [name, bytes] of [...cases, ...fixtures]) {
      const before = counter.calls;
      const viaWebCrypto = comparable(await withCrypto(counting, () => verifyAgentxchain(bytes, { name })));
      used.set(name, counter.calls - before);
      const viaWasm = comparable(await verifyAgentxchain(bytes, { name, sha256: wasm }));
      const withoutSubtle = comparable(await withCrypto(noSubtle, () => verifyAgentxchain(bytes, { name })));
      if (viaWebCrypto !== viaWasm || withoutSubtle !== viaWasm) different.push(name);
    }
    assert(fixtures.length > 100, `${fixtures.length} fixtures`);
    assert(different.length === 0, `reports differ: ${different.join(', ')}`);
    for (const name of HASHED_CASES)
      assert(used.get(name)! >= 8, `${name}: WebCrypto hashed ${used.get(name)} contents`);
    for (const name of ['real-full.json', 'real-bounded.json', 'reseal-invalid-jsonl.json'])
      assert(used.get(name)! > 0, `${name}: hashed with WebCrypto`);
  });
});
