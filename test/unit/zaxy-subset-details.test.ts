// A disclosed subset's details show each element's proof as the document writes it: every step's
// side and sibling text, in order, the first 64 steps of a longer proof (src/formats/zaxy/scan.ts
// reads the common shape straight from the document's bytes; the element draws them).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { verifyZaxy } from '../../src/formats/zaxy/index.ts';
import { fixturePath } from '../helpers/fixtures.ts';

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
