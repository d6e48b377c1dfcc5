// Signature verification (docs/zaxy.md, 'Signatures'): the OpenSSL Ed25519 rule against
// node:crypto on random and malformed inputs, the raw vectors of the fixtures, ML-DSA-65 lengths,
// and the "false, never throw" contract.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { verifyEd25519 } from '../../src/crypto/ed25519.ts';
import {
  loadMlDsa65,
  ML_DSA_65_PUBLIC_KEY_BYTES,
  ML_DSA_65_SIGNATURE_BYTES,
  verifyMlDsa65,
  verifyMlDsa65OnHost,
} from '../../src/crypto/ml-dsa.ts';
import { verifySignature } from '../../src/crypto/signature.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** OpenSSL's verdict through node:crypto. */
function openssl(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    return nodeVerify(null, message, key, signature);
  } catch {
    return false;
  }
}

const keys = Array.from({ length: 4 }, () => {
  const pair = generateKeyPairSync('ed25519');
  const raw = new Uint8Array(pair.publicKey.export({ format: 'der', type: 'spki' }).subarray(12));
  return { privateKey: pair.privateKey, raw };
});

test('Ed25519: valid signatures verify, as in OpenSSL', () => {
  fc.assert(
    fc.property(fc.nat(keys.length - 1), fc.uint8Array({ maxLength: 300 }), (k, message) => {
      const key = keys[k]!;
      const signature = new Uint8Array(nodeSign(null, message, key.privateKey));
      assert.equal(verifyEd25519(key.raw, message, signature), true);
    }),
    { numRuns: 60 },
  );
});

test("Ed25519: any flipped bit of key, message or signature gives OpenSSL's verdict", () => {
  fc.assert(
    fc.property(
      fc.nat(keys.length - 1),
      fc.uint8Array({ minLength: 1, maxLength: 64 }),
      fc.nat(),
      fc.constantFrom('key', 'message', 'signature'),
      (k, message, bit, where) => {
        const key = keys[k]!;
        const publicKey = key.raw.slice();
        const signature = new Uint8Array(nodeSign(null, message, key.privateKey));
        const data = message.slice();
        const target = where === 'key' ? publicKey : where === 'message' ? data : signature;
        target[(bit >> 3) % target.length]! ^= 1 << (bit & 7);
        assert.equal(verifyEd25519(publicKey, data, signature), openssl(publicKey, data, signature));
      },
    ),
    { numRuns: 150 },
  );
});

test('Ed25519: random garbage keys and signatures agree with OpenSSL and never throw', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.uint8Array({ minLength: 64, maxLength: 64 }),
      fc.uint8Array({ maxLength: 16 }),
      (publicKey, signature, message) => {
        assert.equal(verifyEd25519(publicKey, message, signature), openssl(publicKey, message, signature));
      },
    ),
    { numRuns: 150 },
  );
});

test('Ed25519: wrong lengths are false', () => {
  const key = keys[0]!;
  const message = new Uint8Array([1, 2, 3]);
  const signature = new Uint8Array(nodeSign(null, message, key.privateKey));
  assert.equal(verifyEd25519(key.raw.subarray(0, 31), message, signature), false);
  assert.equal(verifyEd25519(key.raw, message, signature.subarray(0, 63)), false);
  assert.equal(verifyEd25519(key.raw, message, new Uint8Array([...signature, 0])), false);
});

test("Ed25519 edge vectors (small order, non-canonical, S = 0, S ≥ L): OpenSSL's verdicts", () => {
  const file = JSON.parse(readFileSync(fixturePath('zaxy', 'sigver-ed25519-edge-openssl.json'), 'utf8')) as {
    tests: { tcId: number; pk: string; message: string; signature: string; testPassed: boolean }[];
  };
  assert.equal(file.tests.length, 9);
  for (const vector of file.tests) {
    const args = [vector.pk, vector.message, vector.signature].map((hex) =>
      Uint8Array.from(Buffer.from(hex, 'hex')),
    ) as [Uint8Array, Uint8Array, Uint8Array];
    assert.equal(verifyEd25519(...args), vector.testPassed, `tcId ${vector.tcId}`);
    assert.equal(openssl(...args), vector.testPassed, `node:crypto, tcId ${vector.tcId}`);
  }
});

test('ML-DSA-65: wrong lengths and garbage are false, not exceptions', async () => {
  const verify = await loadMlDsa65();
  assert.equal(
    verify(
      new Uint8Array(ML_DSA_65_PUBLIC_KEY_BYTES - 1),
      new Uint8Array(1),
      new Uint8Array(ML_DSA_65_SIGNATURE_BYTES),
    ),
    false,
  );
  assert.equal(
    verify(
      new Uint8Array(ML_DSA_65_PUBLIC_KEY_BYTES),
      new Uint8Array(1),
      new Uint8Array(ML_DSA_65_SIGNATURE_BYTES + 1),
    ),
    false,
  );
  assert.equal(
    verify(
      new Uint8Array(ML_DSA_65_PUBLIC_KEY_BYTES).fill(0xff),
      new Uint8Array(1),
      new Uint8Array(ML_DSA_65_SIGNATURE_BYTES).fill(0xff),
    ),
    false,
  );
});

test("ML-DSA-65: the host's WebCrypto gives OpenSSL's verdict or none, and the default always gives it", async () => {
  // Node 20's WebCrypto has no ML-DSA: the host gives no verdict and the JavaScript verifier
  // decides (Chromium's WebCrypto is held to every vector in test/browser/zaxy.test.ts).
  const file = JSON.parse(readFileSync(fixturePath('zaxy', 'sigver-ml-dsa-65-edge-openssl.json'), 'utf8')) as {
    tests: { tcId: number; pk: string; message: string; signature: string; testPassed: boolean }[];
  };
  assert.equal(file.tests.length, 64);
  for (const vector of file.tests) {
    const args = [vector.pk, vector.message, vector.signature].map((hex) =>
      Uint8Array.from(Buffer.from(hex, 'hex')),
    ) as [Uint8Array, Uint8Array, Uint8Array];
    const onHost = await verifyMlDsa65OnHost(...args);
    assert.ok(onHost === undefined || onHost === vector.testPassed, `host, tcId ${vector.tcId}: ${onHost}`);
    assert.equal(await verifyMlDsa65(...args), vector.testPassed, `tcId ${vector.tcId}`);
  }
});

test('verifySignature: unknown algorithms are false; labels are exact', async () => {
  const key = keys[0]!;
  const message = new Uint8Array([7]);
  const signature = new Uint8Array(nodeSign(null, message, key.privateKey));
  assert.equal(await verifySignature('ed25519', key.raw, message, signature), true);
  assert.equal(await verifySignature('Ed25519', key.raw, message, signature), false);
  assert.equal(await verifySignature('ml-dsa-65', key.raw, message, signature), false);
  assert.equal(await verifySignature('rsa', key.raw, message, signature), false);
});
