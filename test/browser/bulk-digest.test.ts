/// <reference types="mocha" />
// The WebCrypto bulk-digest path in Chromium (a secure context: the test page is on localhost):
// every AgentXchain fixture and the bulk cases (test/runtimes/bulk-digest-cases.ts) give the same
// report with WebCrypto, with the WASM `Sha256` injected, and with no `crypto.subtle` (what an
// insecure context has); and WebCrypto really hashed the bulk cases' contents.
import { BULK_DIGEST_MIN_BYTES, sha256Of } from '../../src/crypto/bulk-digest.ts';
import { toHex } from '../../src/encoding/hex.ts';
import { verifyAgentxchain } from '../../src/formats/agentxchain/index.ts';
import type { Report } from '../../src/report.ts';
import { loadSha256 } from '../../wasm/sha256.ts';
import { bulkDigestCases } from '../runtimes/bulk-digest-cases.ts';
import { fixtureBytes, fixtureManifest } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const comparable = ({ stats: _stats, ...rest }: Report): string => JSON.stringify(rest);

/** Runs `body` with `globalThis.crypto` replaced by `value`, restoring it afterwards. */
async function withCrypto<T>(value: unknown, body: () => Promise<T>): Promise<T> {
  const own = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  Object.defineProperty(globalThis, 'crypto', { value, configurable: true, writable: true });
  try {
    return await body();
  } finally {
    if (own === undefined) delete (globalThis as { crypto?: unknown }).crypto;
    else Object.defineProperty(globalThis, 'crypto', own);
  }
}

describe('bulk digest (WebCrypto) in Chromium', () => {
  it('is a secure context with crypto.subtle, and sha256Of equals the WASM hash', async () => {
    assert(globalThis.isSecureContext && globalThis.crypto.subtle !== undefined, 'secure context expected');
    const wasm = await loadSha256();
    for (const size of [BULK_DIGEST_MIN_BYTES - 1, BULK_DIGEST_MIN_BYTES, 3 << 20]) {
      const data = new Uint8Array(size).map((_, i) => (i * 2654435761) >>> 24);
      assert(toHex(await sha256Of(data, wasm, {})) === toHex(wasm.digest(data)), `${size} bytes`);
    }
  });

  it('AgentXchain reports do not depend on the path that hashed', async () => {
    const wasm = await loadSha256();
    const real = globalThis.crypto;
    const noSubtle = { getRandomValues: real.getRandomValues.bind(real) };
    let calls = 0;
    const counting = {
      getRandomValues: noSubtle.getRandomValues,
      subtle: {
        digest: (algorithm: string, data: Uint8Array<ArrayBuffer>) => (calls++, real.subtle.digest(algorithm, data)),
      },
    };
    const manifest = await fixtureManifest<{ cases: { file: string }[] }>('agentxchain');
    const fixtures = await Promise.all(
      manifest.cases.map(async ({ file }): Promise<[string, Uint8Array]> => [
        file,
        await fixtureBytes(`agentxchain/${file}`),
      ]),
    );
    const cases = bulkDigestCases(wasm);
    const different: string[] = [];
    for (const [name, bytes] of [...cases, ...fixtures]) {
      const before = calls;
      const viaWebCrypto = comparable(await withCrypto(counting, () => verifyAgentxchain(bytes, { name })));
      const used = calls - before;
      const viaWasm = comparable(await verifyAgentxchain(bytes, { name, sha256: wasm }));
      const withoutSubtle = comparable(await withCrypto(noSubtle, () => verifyAgentxchain(bytes, { name })));
      if (viaWebCrypto !== viaWasm || withoutSubtle !== viaWasm) different.push(name);
      if (cases.some(([caseName]) => caseName === name))
        assert(used >= 8, `${name}: WebCrypto hashed ${used} contents`);
    }
    assert(fixtures.length > 100, `${fixtures.length} fixtures`);
    assert(different.length === 0, `reports differ: ${different.join(', ')}`);
  });
});
