// The Zaxy verifier in Chromium: every shared fixture through the core API (Zaxy's {ok, reason}
// exactly), the raw signature vectors through the kit's verifier (OpenSSL's verdicts), the kit's
// edge vectors, Zaxy's unsigned entry ids, and a disclosure that verifies — the same modules Node runs.
import { loadMlDsa65, verifyMlDsa65OnHost } from '../../src/crypto/ml-dsa.ts';
import { verifySignature } from '../../src/crypto/signature.ts';
import { discloseSubset, toZaxyJson, verifyZaxy } from '../../src/formats/zaxy/index.ts';
import { verify } from '../../src/verify.ts';
import { fixtureBytes, fixtureManifest, fixtureUrl } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

interface Case {
  readonly file: string;
  readonly shape: string;
  readonly expect_public_key: string | null;
  readonly expected: { ok: boolean; reason: string | null } | null;
  readonly zaxy_entry_ids?: string[];
}

interface Vector {
  readonly file: string;
  readonly source: 'zaxy' | 'kit';
  readonly expect_public_key: string | null;
  readonly expected: { ok: boolean; reason?: string | null; reason_starts_with?: string };
}

const fromHex = (hex: string): Uint8Array => {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
};

async function vectorBytes(file: string): Promise<Uint8Array> {
  const response = await fetch(`/test/vectors/zaxy/${file}`);
  if (!response.ok) throw new Error(`vector ${file}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

describe('Zaxy verifier in Chromium', () => {
  it("gives Zaxy's {ok, reason} for every shared fixture", async () => {
    const cases = await fixtureManifest<Case[]>('zaxy');
    const verdicts = cases.filter((c) => c.shape !== 'sigver');
    assert(verdicts.length === 94, `expected 94 verdict cases, found ${verdicts.length}`);
    for (const c of verdicts) {
      const bytes = await fixtureBytes(`zaxy/${c.file}`);
      const report = await verifyZaxy(bytes, {
        name: c.file,
        ...(c.expect_public_key === null ? {} : { expectPublicKey: c.expect_public_key }),
      });
      const answer = toZaxyJson(report);
      assert(
        answer.ok === c.expected!.ok && answer.reason === c.expected!.reason,
        `${c.file}: got ${JSON.stringify(answer)}, want ${JSON.stringify(c.expected)}`,
      );
      // Detection picks the same verifier.
      const detected = await verify(
        bytes,
        c.expect_public_key === null ? {} : { expectPublicKey: c.expect_public_key },
      );
      assert(
        detected.format === 'zaxy' && JSON.stringify(toZaxyJson(detected)) === JSON.stringify(answer),
        `${c.file}: detection`,
      );
      if (c.zaxy_entry_ids !== undefined && c.shape === 'unsigned') {
        assert(report.kind === 'zaxy.export.unsigned.v1', `${c.file}: an unsigned envelope`);
        const ids = report.details.entries.map((entry) => entry.id);
        assert(JSON.stringify(ids) === JSON.stringify(c.zaxy_entry_ids), `${c.file}: entry ids`);
      }
    }
  });

  it("gives OpenSSL's verdicts on every sigver vector (Ed25519 edge cases included)", async () => {
    const cases = await fixtureManifest<Case[]>('zaxy');
    let count = 0;
    for (const c of cases.filter((item) => item.shape === 'sigver')) {
      const file = (await (await fetch(fixtureUrl(`zaxy/${c.file}`))).json()) as {
        algorithm: string;
        tests: { tcId: number; pk: string; message: string; signature: string; testPassed: boolean }[];
      };
      for (const vector of file.tests) {
        const verdict = await verifySignature(
          file.algorithm,
          fromHex(vector.pk),
          fromHex(vector.message),
          fromHex(vector.signature),
        );
        assert(verdict === vector.testPassed, `${c.file} tcId ${vector.tcId}: got ${verdict}`);
        count++;
      }
    }
    assert(count === 85, `expected 85 vectors, ran ${count}`);
  });

  it("verifies ML-DSA-65 on Chromium's WebCrypto, and in JavaScript, with OpenSSL's verdicts on every vector", async () => {
    // verifySignature takes the host's verdict where it gives one: here it must give one for every
    // vector (so the vectors above ran through it), and so must the JavaScript fallback.
    const file = (await (await fetch(fixtureUrl('zaxy/sigver-ml-dsa-65-edge-openssl.json'))).json()) as {
      tests: { tcId: number; pk: string; message: string; signature: string; testPassed: boolean }[];
    };
    assert(file.tests.length === 64, `expected 64 ML-DSA-65 vectors, found ${file.tests.length}`);
    const inJavaScript = await loadMlDsa65();
    for (const vector of file.tests) {
      const args = [fromHex(vector.pk), fromHex(vector.message), fromHex(vector.signature)] as const;
      const onHost = await verifyMlDsa65OnHost(...args);
      assert(onHost === vector.testPassed, `WebCrypto, tcId ${vector.tcId}: got ${onHost}`);
      assert(inJavaScript(...args) === vector.testPassed, `JavaScript, tcId ${vector.tcId}`);
    }
  });

  it("matches Zaxy on the kit's edge vectors", async () => {
    const { vectors } = JSON.parse(new TextDecoder().decode(await vectorBytes('vectors.json'))) as {
      vectors: Vector[];
    };
    assert(vectors.length >= 100, 'edge vectors found');
    for (const vector of vectors) {
      // The test server re-encodes served text as UTF-8 (an invalid byte arrives as U+FFFD): checked below instead.
      if (vector.file === 'kit-invalid-utf8.json') continue;
      const report = await verifyZaxy(
        await vectorBytes(vector.file),
        vector.expect_public_key === null ? {} : { expectPublicKey: vector.expect_public_key },
      );
      const answer = toZaxyJson(report);
      if (vector.source === 'zaxy') {
        assert(
          answer.ok === vector.expected.ok && answer.reason === vector.expected.reason,
          `${vector.file}: got ${JSON.stringify(answer)}, want ${JSON.stringify(vector.expected)}`,
        );
      } else {
        assert(
          !answer.ok && answer.reason!.startsWith(vector.expected.reason_starts_with!),
          `${vector.file}: got ${JSON.stringify(answer)}`,
        );
      }
    }
  });

  it("reports invalid UTF-8 as Python's UnicodeDecodeError", async () => {
    const valid = await vectorBytes('bundle-valid.json');
    const at = new TextDecoder().decode(valid).indexOf('"vec"') + 2;
    const bytes = valid.slice();
    bytes[at] = 0xff;
    const answer = toZaxyJson(await verifyZaxy(bytes));
    assert(
      !answer.ok &&
        answer.reason!.startsWith(
          `cannot read the bundle: not UTF-8 text (Python: UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position ${at}`,
        ),
      JSON.stringify(answer),
    );
  });

  it('discloses a subset without a key, and the subset verifies', async () => {
    const bundle = await fixtureBytes('zaxy/signed-ml-dsa-65-n17.json');
    const result = await discloseSubset(bundle, { grains: ['semantic'] });
    assert(result.ok && result.indices.length > 0, 'semantic entries disclosed');
    const report = await verifyZaxy(result.json);
    assert(toZaxyJson(report).ok, `subset verifies: ${JSON.stringify(toZaxyJson(report))}`);
    assert(report.kind === 'zaxy.subset' && report.details.disclosed_count === result.indices.length, 'subset facts');
  });
});
