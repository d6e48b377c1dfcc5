// Runtime parity in Chromium for the edge/WASM layer: initSha256 with the module extracted at
// build time (by URL, as bytes, as a compiled Module) hashes like WebCrypto, and the edge handler
// (usable in a service worker) answers one fixture of each format with the report verify() gives
// in the same page. Node, workerd and Deno run the fixture matrix in test/runtimes/.
import { handleVerifyRequest, statusForReport } from '../../src/edge/index.ts';
import { toHex } from '../../src/encoding/hex.ts';
import type { Sha256 } from '../../src/crypto/sha256.ts';
import { verify } from '../../src/verify.ts';
import { initSha256 } from '../../wasm/sha256.ts';
import { fixtureBytes, fixtureManifest } from './fixtures.ts';
import type { Report } from '../../src/report.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const wasmUrl = (): URL => new URL('/wasm/generated/sha256.wasm', location.href);

async function assertHashesLikeWebCrypto(sha256: Sha256): Promise<void> {
  const sizes = [0, 1, 55, 64, 65, 16384, 16385, 1 << 20];
  for (let i = 0; i < 12; i++) sizes.push(Math.floor(Math.random() * 200_000));
  for (const size of sizes) {
    const data = new Uint8Array(size);
    for (let offset = 0; offset < size; offset += 65536)
      crypto.getRandomValues(data.subarray(offset, Math.min(size, offset + 65536)));
    const expected = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));
    assert(toHex(sha256.digest(data)) === expected, `one-shot digest of ${size} bytes`);
    const cut = Math.floor(Math.random() * (size + 1));
    assert(
      toHex(sha256.create().update(data.subarray(0, cut)).update(data.subarray(cut)).digest()) === expected,
      `incremental digest of ${size} bytes`,
    );
  }
}

/** The report without its stats (wall time; bytes read depends on how the body was chunked). */
function comparable(report: Report): string {
  const { stats: _stats, ...rest } = report;
  return JSON.stringify(rest);
}

describe('edge and WASM layer in Chromium', () => {
  it('initSha256 by URL, bytes and compiled Module hashes like WebCrypto', async () => {
    await assertHashesLikeWebCrypto(await initSha256(wasmUrl()));
    const response = await fetch(wasmUrl());
    assert(response.ok, `the build writes wasm/generated/sha256.wasm (HTTP ${response.status}); run npm run build`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    await assertHashesLikeWebCrypto(await initSha256(bytes));
    await assertHashesLikeWebCrypto(await initSha256(await WebAssembly.compile(bytes)));
  });

  it('the edge handler answers like verify() for one fixture of each format', async () => {
    const picks: [string, string][] = [];
    const agentxchain = await fixtureManifest<{ cases: { file: string }[] }>('agentxchain');
    picks.push(['agentxchain', agentxchain.cases[0]!.file]);
    for (const format of ['zaxy', 'agent-history', 'codex-exec']) {
      const cases = await fixtureManifest<{ file: string; expect_public_key?: string | null }[]>(format);
      const unpinned = cases.find((entry) => !entry.expect_public_key) ?? cases[0]!;
      picks.push([format, unpinned.file]);
    }
    picks.push(['agent-history', 'design-small-multimember.ndjson.gz']);
    for (const [format, file] of picks) {
      const bytes = await fixtureBytes(`${format}/${file}`);
      const response = await handleVerifyRequest(
        new Request(`https://edge.test/?name=${encodeURIComponent(file)}`, {
          method: 'POST',
          body: bytes as Uint8Array<ArrayBuffer>,
        }),
      );
      const answered = (await response.json()) as Report;
      const direct = await verify(bytes, { name: file });
      assert(comparable(answered) === comparable(direct), `${format}/${file}: handler and verify() disagree`);
      assert(
        response.status === statusForReport(direct),
        `${format}/${file}: status ${response.status} for ${direct.overall}`,
      );
    }
  });
});
