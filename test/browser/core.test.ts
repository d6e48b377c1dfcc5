// Smoke test of the isomorphic core in Chromium: the same modules Node runs.
import { decodeBase64Lenient } from '../../src/encoding/base64.ts';
import { jsonDeepStrictEqual } from '../../src/json/deep-equal.ts';
import { loadSha256 } from '../../wasm/sha256.ts';
import { toHex } from '../../src/encoding/hex.ts';
import { fixtureUrl } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

describe('core in Chromium', () => {
  it('decodes lenient base64 like Node', () => {
    assert(toHex(decodeBase64Lenient('aG k=junk')) === '6869', 'lenient base64');
  });
  it('hash-wasm SHA-256 matches WebCrypto on random data', async () => {
    const sha256 = await loadSha256();
    for (const size of [0, 1, 63, 64, 65, 1000, 1 << 20]) {
      const data = crypto.getRandomValues(new Uint8Array(Math.min(size, 65536)));
      const big = new Uint8Array(size);
      for (let i = 0; i < size; i += data.length || 1) big.set(data.subarray(0, Math.min(data.length, size - i)), i);
      const expected = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', big)));
      assert(toHex(sha256.digest(big)) === expected, `one-shot digest of ${size} bytes`);
      const hasher = sha256.create();
      hasher.update(big.subarray(0, size >> 1)).update(big.subarray(size >> 1));
      assert(toHex(hasher.digest()) === expected, `incremental digest of ${size} bytes`);
    }
  });
  it('deep-strict equality treats -0 and 0 as different', () => {
    assert(!jsonDeepStrictEqual(JSON.parse('-0'), 0), '-0 vs 0');
  });
  it('reads the shared fixtures', async () => {
    const response = await fetch(fixtureUrl('agentxchain/manifest.json'));
    const manifest = await response.json();
    assert(manifest.cases.length > 0, 'fixture manifest has cases');
  });
});
