// Runs inside workerd (as a Worker: `POST /?name=…` with a document) and Deno (imported by
// bulk-digest-deno.ts): verifies one AgentXchain document three ways, with WebCrypto hashing the
// large contents (the default), with the WASM `Sha256` injected, and with no `crypto.subtle`; and
// answers the WebCrypto report, whether the three agree (timing stats aside), how many contents
// WebCrypto hashed, and whether `sha256Digest` of the document gives the WASM's digest with
// WebCrypto, without crypto.subtle, and with WebCrypto refusing.
import { BULK_DIGEST_MIN_BYTES } from '../../src/crypto/bulk-digest.ts';
import { toHex } from '../../src/encoding/hex.ts';
import { sha256Digest, verifyAgentxchain } from '../../src/index.ts';
import type { Report } from '../../src/report.ts';
import { loadSha256 } from '#sha256';
import { comparable, withCrypto } from './bulk-digest-cases.ts';

/** What one document gave. */
export interface HashingPaths {
  readonly report: Report;
  readonly same: boolean;
  readonly webCryptoCalls: number;
  readonly digestsAgree: boolean;
  /** This runtime's BULK_DIGEST_MIN_BYTES. */
  readonly threshold: number;
}

/** Verifies `bytes` with each hashing path (see the module comment). */
export async function compareHashingPaths(name: string, bytes: Uint8Array): Promise<HashingPaths> {
  const real = globalThis.crypto;
  const noSubtle = { getRandomValues: real.getRandomValues.bind(real) };
  let webCryptoCalls = 0;
  const counting = {
    ...noSubtle,
    subtle: {
      digest: (algorithm: string, data: Uint8Array<ArrayBuffer>) => (
        webCryptoCalls++,
        real.subtle.digest(algorithm, data)
      ),
    },
  };
  const report = await withCrypto(counting, () => verifyAgentxchain(bytes, { name }));
  const viaWasm = await verifyAgentxchain(bytes, { name, sha256: await loadSha256() });
  const withoutSubtle = await withCrypto(noSubtle, () => verifyAgentxchain(bytes, { name }));
  const same = comparable(report) === comparable(viaWasm) && comparable(withoutSubtle) === comparable(viaWasm);
  const calls = webCryptoCalls;
  const expected = toHex((await loadSha256()).digest(bytes));
  const refusing = { ...noSubtle, subtle: { digest: () => Promise.reject(new Error('refused')) } };
  // One at a time: each swaps the global crypto.
  const digests: Uint8Array[] = [];
  for (const crypto of [counting, noSubtle, refusing])
    digests.push(await withCrypto(crypto, () => sha256Digest(bytes)));
  const digestsAgree = digests.every((digest) => toHex(digest) === expected);
  return { report, same, webCryptoCalls: calls, digestsAgree, threshold: BULK_DIGEST_MIN_BYTES };
}

export default {
  async fetch(request: Request): Promise<Response> {
    const name = new URL(request.url).searchParams.get('name') ?? 'input.json';
    return Response.json(await compareHashingPaths(name, new Uint8Array(await request.arrayBuffer())));
  },
};
