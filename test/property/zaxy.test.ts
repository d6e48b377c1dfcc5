// discloseSubset properties (docs/zaxy.md, 'Selectors and disclosure'): its output is byte for
// byte the subset Zaxy's disclose_subset wrote for the shared fixtures (where the bundle is
// given), and for random signed bundles of 1..300 entries every disclosure verifies with
// verifyZaxy, while a flipped bit anywhere in a disclosed content or proof sibling makes it fail.
// Also: the verifier reads its input as it arrives, and any chunking of it gives the same report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { pythonJsonDumps } from '../../src/json/canonical.ts';
import { readJson } from '../../src/json/reader.ts';
import type { JsonValue } from '../../src/json/value.ts';
import { discloseSubset, type DisclosureSelector, toZaxyJson, verifyZaxy } from '../../src/formats/zaxy/index.ts';
import { fixturePath, loadCases, PROJECT_ROOT } from '../helpers/fixtures.ts';
import { ed25519Signer, signedZaxyBundle } from '../helpers/signed-zaxy.ts';
import { nodeSha256 as sha256 } from '../../bin/node-sha256.ts';
import type { Report } from '../../src/report.ts';

interface Case {
  readonly file: string;
  readonly shape: string;
  readonly category: string;
  readonly note: string;
  readonly expect_public_key: string | null;
  readonly expected: { ok: boolean; reason: string | null } | null;
}

const HEADER = [
  'version',
  'algorithm',
  'public_key',
  'session_id',
  'created_at',
  'nonce',
  'merkle_root',
  'signature',
] as const;
const cases = loadCases<Case>('zaxy');
const read = (file: string): Map<string, JsonValue> => {
  const result = readJson(readFileSync(fixturePath('zaxy', file)));
  assert.ok(result.ok, file);
  return result.value as Map<string, JsonValue>;
};
const sameHeader = (a: Map<string, JsonValue>, b: Map<string, JsonValue>): boolean =>
  HEADER.every((key) => a.get(key) === b.get(key));

/** The selectors Zaxy's disclose_export_bundle was called with (manifest notes). */
const SELECTORS: Record<string, DisclosureSelector> = {
  'subset-ed25519-n5-selector-goal.json': { grains: ['event'], kinds: ['goal.created'] },
  'subset-ed25519-n5-selector-semantic-since.json': { grains: ['semantic'], since_seq: 1, max_seq: 2 },
};

test("discloseSubset reproduces the fixtures' subsets byte for byte from their bundles", async () => {
  const bundles = cases.filter(
    (c) =>
      c.shape === 'signed' &&
      (c.expected?.ok || c.expected?.reason === 'public key does not match the pinned/expected key'),
  );
  let compared = 0;
  for (const subsetCase of cases.filter((c) => c.category === 'subset-valid')) {
    const subset = read(subsetCase.file);
    const source = bundles.find((b) => sameHeader(read(b.file), subset));
    if (source === undefined) continue;
    const indices = (subset.get('disclosed') as Map<string, JsonValue>[]).map((d) => Number(d.get('index')));
    const selection = SELECTORS[subsetCase.file] ?? indices;
    const result = await discloseSubset(readFileSync(fixturePath('zaxy', source.file)), selection, { sha256 });
    assert.ok(result.ok, subsetCase.file);
    assert.equal(
      result.json,
      readFileSync(fixturePath('zaxy', subsetCase.file), 'utf8'),
      `${subsetCase.file} from ${source.file}`,
    );
    assert.deepEqual(result.indices, indices);
    compared++;
  }
  assert.ok(compared >= 11, `only ${compared} subsets had their bundle`);
});

test('subsets whose bundle differs only in its signer disclose the same entries and proofs', async () => {
  let compared = 0;
  for (const subsetCase of cases.filter((c) => c.category === 'subset-valid')) {
    const subset = read(subsetCase.file);
    const source = cases.find(
      (b) =>
        b.shape === 'signed' &&
        b.expected?.ok &&
        read(b.file).get('merkle_root') === subset.get('merkle_root') &&
        !sameHeader(read(b.file), subset),
    );
    if (source === undefined) continue;
    const disclosed = subset.get('disclosed') as Map<string, JsonValue>[];
    const result = await discloseSubset(
      readFileSync(fixturePath('zaxy', source.file)),
      disclosed.map((d) => Number(d.get('index'))),
      { sha256 },
    );
    assert.ok(result.ok);
    const ours = (readJson(new TextEncoder().encode(result.json)) as { value: Map<string, JsonValue> }).value.get(
      'disclosed',
    );
    assert.equal(pythonJsonDumps(ours!, { indent: 2 }), pythonJsonDumps(disclosed, { indent: 2 }), subsetCase.file);
    compared++;
  }
  assert.ok(compared >= 2, `only ${compared} subsets compared`);
});

test('discloseSubset refuses unsigned envelopes and out-of-range indices, and rejects bad selectors', async () => {
  const unsigned = await discloseSubset(readFileSync(fixturePath('zaxy', 'unsigned-event-3.json')), [0], { sha256 });
  assert.deepEqual(unsigned, { ok: false, reason: 'disclosure requires a signed bundle (merkle_root + signature)' });
  const outOfRange = await discloseSubset(readFileSync(fixturePath('zaxy', 'signed-ed25519-n3.json')), [3], { sha256 });
  assert.equal(outOfRange.ok, false);
  await assert.rejects(
    discloseSubset(readFileSync(fixturePath('zaxy', 'signed-ed25519-n3.json')), { grains: [] }),
    TypeError,
  );
  await assert.rejects(discloseSubset(readFileSync(fixturePath('zaxy', 'signed-ed25519-n3.json')), [0.5]), TypeError);
});

// Random signed bundles, built the way Zaxy builds them (build_export) and signed with node:crypto.
const signer = ed25519Signer();
const publicKey = signer.publicKey;
const buildBundle = (contents: JsonValue[]): string => signedZaxyBundle(contents, signer, 'prop');

const content = fc
  .record({
    grain: fc.constantFrom('event', 'semantic'),
    kind: fc.constantFrom('goal.created', 'entity:goal', 'edge:created'),
    seq: fc.integer({ min: 1, max: 50 }),
    payload: fc.jsonValue({ maxDepth: 2 }),
    f: fc.double({ noNaN: true }),
    text: fc.string({ unit: 'binary', maxLength: 8 }),
  })
  .map((record) => {
    const read = readJson(new TextEncoder().encode(JSON.stringify(record)));
    assert.ok(read.ok);
    return read.value;
  });

test('random bundles (1..300 entries): every disclosure verifies; a flipped content or sibling fails', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(content, { minLength: 1, maxLength: 300 }),
      fc.array(fc.nat(), { maxLength: 6 }),
      fc.nat(),
      async (contents, picks, bit) => {
        const bundle = buildBundle(contents);
        assert.deepEqual(toZaxyJson(await verifyZaxy(bundle, { sha256, expectPublicKey: publicKey })), {
          ok: true,
          reason: null,
        });
        const indices = picks.map((pick) => pick % contents.length);
        const result = await discloseSubset(bundle, indices, { sha256 });
        assert.ok(result.ok);
        const report = await verifyZaxy(result.json, { sha256, expectPublicKey: publicKey });
        assert.deepEqual(toZaxyJson(report), { ok: true, reason: null });
        assert.ok(report.kind === 'zaxy.subset');
        assert.equal(report.details.disclosed_count, indices.length);
        if (indices.length === 0) return;
        // Flip one bit of a proof sibling's hex, or change one content character.
        const subset = (readJson(new TextEncoder().encode(result.json)) as { value: Map<string, JsonValue> }).value;
        const disclosed = subset.get('disclosed') as Map<string, JsonValue>[];
        const target = disclosed[bit % disclosed.length]!;
        const proof = target.get('proof') as string[][];
        if (proof.length > 0 && bit % 2 === 0) {
          const step = proof[bit % proof.length]!;
          const byte = parseInt(step[0]!.slice(0, 2), 16) ^ (1 << (bit % 8));
          step[0] = byte.toString(16).padStart(2, '0') + step[0]!.slice(2);
        } else {
          (target.get('content') as Map<string, JsonValue>).set('seq', 1000n);
        }
        const tampered = await verifyZaxy(pythonJsonDumps(subset, { indent: 2 }), {
          sha256,
          expectPublicKey: publicKey,
        });
        assert.equal(toZaxyJson(tampered).ok, false);
        assert.match(toZaxyJson(tampered).reason!, /^inclusion proof failed for index \d+$/);
      },
    ),
    { numRuns: 25 },
  );
});

// With maxRetainedBytes the reader drops what it has read: the report must not change, except
// that a document needing a second reading (a subset, keys after the entries that change its
// shape) stops with limit.retained_bytes instead.
test('any chunking of the input, keeping all or little of it, gives the same report (fixtures and edge vectors, chunks of 1..600 bytes)', async () => {
  const files = [
    ...cases.filter((c) => c.shape !== 'sigver').map((c) => fixturePath('zaxy', c.file)),
    ...readdirSync(join(PROJECT_ROOT, 'test/vectors/zaxy'))
      .filter((name) => name.endsWith('.json') && name !== 'vectors.json')
      .map((name) => join(PROJECT_ROOT, 'test/vectors/zaxy', name)),
  ];
  assert.ok(files.length > 200);
  const withoutStats = (report: Report): string => JSON.stringify({ ...report, stats: null });
  let droppedAndEqual = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...files),
      fc.integer({ min: 1, max: 600 }),
      fc.integer(),
      fc.option(fc.integer({ min: 1, max: 4000 })),
      async (file, maxChunk, seed, retained) => {
        const bytes = new Uint8Array(readFileSync(file));
        const whole = await verifyZaxy(bytes, { sha256, name: 'x' });
        let offset = 0;
        let state = seed;
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (offset >= bytes.length) return controller.close();
            state = (state * 1103515245 + 12345) | 0;
            const size = 1 + (Math.abs(state) % maxChunk);
            controller.enqueue(bytes.slice(offset, offset + size));
            offset += size;
          },
        });
        const streamed = await verifyZaxy(stream, {
          sha256,
          name: 'x',
          ...(retained === null ? {} : { limits: { maxRetainedBytes: retained } }),
        });
        if (retained !== null && streamed.findings.some((finding) => finding.code === 'limit.retained_bytes')) {
          assert.equal(streamed.overall, 'error', file);
          return;
        }
        assert.equal(withoutStats(streamed), withoutStats(whole), file);
        if (retained !== null && bytes.length > retained + 600) droppedAndEqual++;
      },
    ),
    { numRuns: 400 },
  );
  assert.ok(droppedAndEqual >= 50, `only ${droppedAndEqual} runs dropped bytes and compared`);
});
