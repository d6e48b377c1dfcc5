// A disclosed subset's details show each element's proof as the document writes it: every step's
// side and sibling text, in order, the first 64 steps of a longer proof (src/formats/zaxy/scan.ts
// reads the common shape straight from the document's bytes; the element draws them).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { nodeSha256 } from '../../bin/node-sha256.ts';
import type { JsonValue } from '../../src/json/value.ts';
import { discloseSubset, toZaxyJson, verifyZaxy } from '../../src/formats/zaxy/index.ts';
import { scanSignedDocument } from '../../src/formats/zaxy/scan.ts';
import { loadSha256Many } from '../../wasm/sha256-lanes.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { ed25519Signer, signedZaxyBundle } from '../helpers/signed-zaxy.ts';

interface Disclosed {
  proof: [string, string][];
}

const encoder = new TextEncoder();

async function proofsShown(text: string): Promise<(readonly { side: string; sibling: string }[])[]> {
  const report = await verifyZaxy(encoder.encode(text));
  assert.ok(report.format === 'zaxy' && report.kind === 'zaxy.subset', report.kind ?? 'no kind');
  return report.details.disclosed.map((entry) => entry.proof);
}

const expected = (value: { disclosed: Disclosed[] }): { side: string; sibling: string }[][] =>
  value.disclosed.map((element) => element.proof.slice(0, 64).map(([sibling, side]) => ({ side, sibling })));

describe('Zaxy subset details: proofs as written', () => {
  const text = readFileSync(fixturePath('zaxy', 'subset-ed25519-n100-middle.json'), 'utf8');
  const value = JSON.parse(text) as { disclosed: Disclosed[] };

  it('every step of every disclosed element, as indented by the fixture and in one line', async () => {
    assert.ok(
      value.disclosed.every((element) => element.proof.length > 1),
      'proofs of several steps',
    );
    assert.deepEqual(await proofsShown(text), expected(value));
    assert.deepEqual(await proofsShown(JSON.stringify(value)), expected(value));
  });

  it('the first 64 steps of a longer proof, with other whitespace between them', async () => {
    const long = structuredClone(value);
    const element = long.disclosed[0]!;
    while (element.proof.length < 70) element.proof.push(...element.proof);
    const spaced = JSON.stringify(long).replaceAll('],[', '],\n\t [');
    assert.deepEqual(await proofsShown(spaced), expected(long));
  });
});

/** The subset disclosing every entry of a signed bundle of `count` small entries, as a value. */
async function wholeSubset(count: number): Promise<{ disclosed: Record<string, unknown>[] }> {
  const contents = Array.from({ length: count }, (_, k) => new Map<string, JsonValue>([['kind', `k${k}`]]));
  const bundle = signedZaxyBundle(contents, ed25519Signer(), 'tests');
  const disclosed = await discloseSubset(encoder.encode(bundle), [...contents.keys()]);
  assert.ok(disclosed.ok);
  return JSON.parse(disclosed.json) as { disclosed: Record<string, unknown>[] };
}

describe('Zaxy subset scan: problems in element order across batches', () => {
  it('errors and mismatches among 3,000 elements (three batches), with and without the 4-lane hasher', async () => {
    const subset = await wholeSubset(3000);
    const expected: [number, string][] = [];
    subset.disclosed.forEach((element, position) => {
      if (position % 11 === 5) {
        delete element['proof'];
        expected.push([position, 'error']);
      } else if (position % 7 === 3) {
        element['content'] = { kind: 'changed' };
        expected.push([position, 'mismatch']);
      }
    });
    const bytes = encoder.encode(JSON.stringify(subset));
    const many = await loadSha256Many();
    assert.ok(many);
    for (const sha256Many of [() => many, undefined]) {
      const scanned = await scanSignedDocument(bytes, {
        sha256: nodeSha256,
        maxDepth: 100,
        maxProblems: 10_000,
        maxFacts: 0,
        maxDisclosedDetails: 3000,
        sha256Many,
      });
      assert.ok(scanned.ok);
      const scan = scanned.scan.disclosed;
      assert.deepEqual(
        scan.problems.map((problem) => [problem.position, problem.kind]),
        expected,
      );
      assert.equal(scan.problemCount, expected.length);
      assert.equal(scan.included, 3000 - expected.length);
      assert.deepEqual(
        scan.details.map((detail) => detail.included),
        subset.disclosed.map((_, position) => (position % 11 === 5 ? null : position % 7 !== 3)),
      );
    }
  });
});

describe('Zaxy subset read in chunks through a moving window', () => {
  it("names the index of an element far past the reading window's first size", async () => {
    // ~2.7 MB, streamed in 50,000-byte chunks: the window (256 KiB to start) has moved many times
    // before the tampered element, whose index is read again from the document at its offset.
    const subset = await wholeSubset(3000);
    subset.disclosed[2500]!['content'] = { kind: 'changed' };
    const bytes = encoder.encode(JSON.stringify(subset));
    assert.ok(bytes.length > 2_000_000, `${bytes.length} bytes`);
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + 50_000));
        at += 50_000;
      },
    });
    const report = await verifyZaxy(stream);
    assert.deepEqual(toZaxyJson(report), { ok: false, reason: 'inclusion proof failed for index 2500' });
  });
});
