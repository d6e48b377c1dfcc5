// Signed Zaxy bundles built for tests the way Zaxy builds them (build_export, docs/zaxy.md): the
// entries' canonical bytes give their ids and the Merkle root, the canonical header is signed with
// an Ed25519 key made here by node:crypto, and the document is written as Python's
// json.dumps(indent=2) writes it.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { leafHash, merkleRoot } from '../../src/crypto/merkle.ts';
import { toHex } from '../../src/encoding/hex.ts';
import { canonicalJson, pythonJsonDumps } from '../../src/json/canonical.ts';
import type { JsonObject, JsonValue } from '../../src/json/value.ts';
import { nodeSha256 as sha256 } from '../../bin/node-sha256.ts';
import { fixturePath } from './fixtures.ts';

/** An Ed25519 signer: its raw public key as hex, and its signature of a message. */
export interface TestSigner {
  readonly publicKey: string;
  sign(message: Uint8Array): Uint8Array;
}

/** A fresh Ed25519 key pair. */
export function ed25519Signer(): TestSigner {
  const keyPair = generateKeyPairSync('ed25519');
  return {
    publicKey: toHex(new Uint8Array(keyPair.publicKey.export({ format: 'der', type: 'spki' }).subarray(12))),
    sign: (message) => new Uint8Array(nodeSign(null, message, keyPair.privateKey)),
  };
}

/**
 * The text of a signed bundle of `contents`, signed by `signer`.
 * @example
 * const text = signedZaxyBundle([new Map([['kind', 'event']])], ed25519Signer(), 'tests');
 */
export function signedZaxyBundle(contents: readonly JsonValue[], signer: TestSigner, sessionId: string): string {
  const canonical = contents.map((content) => {
    const result = canonicalJson(content);
    assert.ok(result.ok);
    return result.bytes;
  });
  const header: JsonObject = new Map<string, JsonValue>([
    ['version', 'zaxy.portable.v1'],
    ['algorithm', 'ed25519'],
    ['public_key', signer.publicKey],
    ['session_id', sessionId],
    ['created_at', '2026-06-15T00:00:00+00:00'],
    ['nonce', '0123456789abcdef0123456789abcdef'],
    [
      'merkle_root',
      toHex(
        merkleRoot(
          canonical.map((bytes) => leafHash(bytes, sha256)),
          sha256,
        ),
      ),
    ],
  ]);
  const signed = canonicalJson(header);
  assert.ok(signed.ok);
  const bundle: JsonObject = new Map([
    ...header,
    ['anchor', null],
    [
      'entries',
      contents.map(
        (content, i) =>
          new Map<string, JsonValue>([
            ['id', toHex(sha256.digest(canonical[i]!))],
            ['content', content],
          ]),
      ),
    ],
    ['signature', toHex(signer.sign(signed.bytes))],
  ]);
  return pythonJsonDumps(bundle, { indent: 2 });
}

/**
 * A signed bundle of many batches for an entry hasher (fixtures are smaller than one batch, which
 * is hashed in place): the 33 entries of a fixture, `copies` times over, changed by `change`.
 */
export function manyBatchBundle(
  copies: number,
  change: (entries: { id: unknown; content: Record<string, unknown> }[]) => void,
): Uint8Array {
  const bundle = JSON.parse(readFileSync(fixturePath('zaxy', 'signed-ed25519-n33.json'), 'utf8')) as {
    entries: { id: unknown; content: Record<string, unknown> }[];
  };
  bundle.entries = Array.from({ length: copies }, () => structuredClone(bundle.entries)).flat();
  change(bundle.entries);
  return new TextEncoder().encode(JSON.stringify(bundle));
}
