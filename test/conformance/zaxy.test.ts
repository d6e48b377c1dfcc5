// Differential conformance with Zaxy's own `verify_export` / `verify_subset` (docs/zaxy.md,
// 'verify_export order' and 'verify_subset order'): every case of
// test/fixtures/zaxy/manifest.json through the real CLI (`--compat zaxy`), the raw signature
// vectors through the kit's verifier and node:crypto, Zaxy's entry ids for the unsigned
// envelopes, and the kit's own edge vectors (test/vectors/zaxy, recorded against Zaxy's unchanged
// code) through the core API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { merkleRoot, leafHash } from '../../src/crypto/merkle.ts';
import { verifySignature } from '../../src/crypto/signature.ts';
import { toHex } from '../../src/encoding/hex.ts';
import { canonicalJson } from '../../src/json/canonical.ts';
import { readJson } from '../../src/json/reader.ts';
import { toZaxyJson, verifyZaxy } from '../../src/formats/zaxy/index.ts';
import { verify } from '../../src/verify.ts';
import { runCli } from '../helpers/cli.ts';
import { manyBatchBundle } from '../helpers/signed-zaxy.ts';
import { fixturePath, loadCases, PROJECT_ROOT } from '../helpers/fixtures.ts';
import { nodeEntryHasher, nodeSha256 } from '../../bin/node-sha256.ts';
import { chunkedStream } from '../runtimes/chunked.ts';

interface Case {
  readonly file: string;
  readonly shape: 'signed' | 'subset' | 'unsigned' | 'sigver';
  readonly expect_public_key: string | null;
  readonly expected: { ok: boolean; reason: string | null } | null;
  readonly zaxy_entry_ids?: string[];
  readonly zaxy_merkle_root_if_signed?: string | null;
}

interface Sigver {
  readonly algorithm: string;
  readonly tests: readonly {
    tcId: number;
    pk: string;
    message: string;
    signature: string;
    testPassed: boolean;
    comment?: string;
  }[];
}

const cases = loadCases<Case>('zaxy');
const verdictCases = cases.filter((c) => c.shape !== 'sigver');
const sigverCases = cases.filter((c) => c.shape === 'sigver');

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));

test('the manifest has its 97 cases, sigver files included', () => {
  assert.equal(cases.length, 97);
  assert.equal(sigverCases.length, 3);
});

for (const c of verdictCases) {
  test(`CLI --compat zaxy: ${c.file}`, () => {
    const pin = c.expect_public_key === null ? [] : ['--expect-public-key', c.expect_public_key];
    const result = runCli(['--compat', 'zaxy', '--format', 'json', ...pin, fixturePath('zaxy', c.file)]);
    assert.equal(result.stderr, '');
    const printed = JSON.parse(result.stdout) as { ok: boolean; reason: string | null };
    assert.deepEqual(printed, c.expected);
    assert.equal(result.status, c.expected!.ok ? 0 : 1, 'exit code: 0 when Zaxy says OK, 1 when it fails');
  });
}

test("CLI text mode prints Zaxy's lines", () => {
  const pass = verdictCases.find((c) => c.expected!.ok)!;
  const fail = verdictCases.find((c) => c.expected!.reason === 'merkle root mismatch (entries added/removed/altered)')!;
  const ok = runCli(['--compat', 'zaxy', fixturePath('zaxy', pass.file)]);
  assert.equal(ok.stdout, 'verify: OK\n');
  assert.equal(ok.status, 0);
  const bad = runCli([
    '--compat',
    'zaxy',
    ...(fail.expect_public_key ? ['--expect-public-key', fail.expect_public_key] : []),
    fixturePath('zaxy', fail.file),
  ]);
  assert.equal(bad.stdout, 'verify: FAIL - merkle root mismatch (entries added/removed/altered)\n');
  assert.equal(bad.status, 1);
});

test('auto-detection (verify) reaches the Zaxy verifier and tells the three shapes apart', async () => {
  for (const c of verdictCases) {
    const report = await verify(readFileSync(fixturePath('zaxy', c.file)), {
      sha256: nodeSha256,
      ...(c.expect_public_key ? { expectPublicKey: c.expect_public_key } : {}),
    });
    assert.equal(report.format, 'zaxy', c.file);
    const expectedKind =
      c.shape === 'subset' ? 'zaxy.subset' : c.shape === 'unsigned' ? 'zaxy.export.unsigned.v1' : 'zaxy.portable.v1';
    assert.equal(report.kind, expectedKind, c.file);
    assert.deepEqual(toZaxyJson(report), c.expected, c.file);
  }
});

// limits.maxRetainedBytes (the edge's bounded memory): dropping entries already read must not
// change any verdict. Every fixture, in 97-byte chunks, keeping almost nothing: the report equals
// the one from the whole document, except where a second reading is needed (subsets, or a shape
// only known after the entries), which stops with limit.retained_bytes instead of guessing.
test('dropping what was read (maxRetainedBytes) gives every fixture the same report, or limit.retained_bytes', async () => {
  let dropped = 0;
  for (const c of verdictCases) {
    const bytes = readFileSync(fixturePath('zaxy', c.file));
    const options = { sha256: nodeSha256, ...(c.expect_public_key ? { expectPublicKey: c.expect_public_key } : {}) };
    const kept = await verifyZaxy(bytes, options);
    const streamed = await verifyZaxy(chunkedStream(bytes, 97), { ...options, limits: { maxRetainedBytes: 64 } });
    const strip = (report: typeof kept) => ({ ...report, stats: undefined, input: undefined });
    if (streamed.findings.some((finding) => finding.code === 'limit.retained_bytes')) {
      assert.equal(streamed.overall, 'error', c.file);
      assert.ok(c.shape === 'subset' || bytes.length > 64, c.file);
      continue;
    }
    dropped++;
    assert.deepEqual(strip(streamed), strip(kept), c.file);
  }
  // Every signed bundle and unsigned envelope: none of them needs a second reading.
  assert.equal(dropped, verdictCases.filter((c) => c.shape !== 'subset').length);
});

// Where the input can be read again (options.readInputAgain, which the CLI gives for a large
// file), the document is not kept: a second reading reads the input again, and decompresses it
// again. Every fixture, plain and gzipped, in 97-byte chunks, keeping almost nothing: the report
// equals the one from the whole document, subsets included, and the input is read again whole,
// once, exactly where a second reading is needed.
test('reading the input again (readInputAgain) instead of keeping it gives every fixture the same report, plain or gzipped', async () => {
  const readAgainBy: string[] = [];
  for (const c of verdictCases) {
    const plain = readFileSync(fixturePath('zaxy', c.file));
    const options = { sha256: nodeSha256, ...(c.expect_public_key ? { expectPublicKey: c.expect_public_key } : {}) };
    const kept = await verifyZaxy(plain, options);
    const withLimit = await verifyZaxy(chunkedStream(plain, 97), { ...options, limits: { maxRetainedBytes: 64 } });
    const needsSecondReading = withLimit.findings.some((finding) => finding.code === 'limit.retained_bytes');
    for (const bytes of [plain, gzipSync(plain)]) {
      const reads: [number, number][] = [];
      const again = await verifyZaxy(chunkedStream(bytes, 97), {
        ...options,
        limits: { maxRetainedBytes: 64 },
        readInputAgain: (start, end) => {
          reads.push([start, end]);
          return bytes.slice(start, end);
        },
      });
      const strip = (report: typeof kept) => ({ ...report, stats: undefined, input: undefined });
      assert.deepEqual(strip(again), strip(kept), c.file);
      // Gzipped, the document may come in one chunk, and be kept whole: then it is not read again.
      if (bytes === plain || reads.length > 0)
        assert.deepEqual(reads, needsSecondReading ? [[0, bytes.length]] : [], c.file);
      if (reads.length > 0) readAgainBy.push(c.shape);
    }
  }
  // Only subsets are read a second time (in this set, where the shape is never guessed wrong).
  assert.ok(readAgainBy.length > 0);
  assert.ok(readAgainBy.every((shape) => shape === 'subset'));
});

// Read again, the document is held whole: one larger than limits.maxBufferedBytes gets that limit
// before anything is read again (the first reading, keeping almost nothing, held little of it).
test('a document to read again that is larger than maxBufferedBytes gets the limit, and is not read again', async () => {
  const c = verdictCases.find((entry) => entry.shape === 'subset' && entry.expected?.ok === true)!;
  const plain = readFileSync(fixturePath('zaxy', c.file));
  const options = c.expect_public_key ? { expectPublicKey: c.expect_public_key } : {};
  for (const bytes of [plain, gzipSync(plain)]) {
    let reads = 0;
    const report = await verifyZaxy(chunkedStream(bytes, 97), {
      ...options,
      limits: { maxRetainedBytes: 64, maxBufferedBytes: plain.length - 1 },
      readInputAgain: (start, end) => {
        reads++;
        return bytes.slice(start, end);
      },
    });
    assert.equal(report.overall, 'error');
    assert.ok(
      report.findings.some((finding) => finding.code === 'limit.buffered_bytes'),
      JSON.stringify(report.findings),
    );
    assert.equal(reads, 0);
  }
});

// Where the input can be read again, the first reading does not count Python's position over the
// bytes it drops: an error past them is placed by reading the input again, a piece at a time from
// its start, decompressed again if it is a .gz. The report is the one of the whole document.
test("a syntax error past the bytes dropped is placed by reading the input again: the whole document's report", async () => {
  const signed = readFileSync(fixturePath('zaxy', 'signed-ml-dsa-65-n100.json'), 'latin1');
  const at = signed.lastIndexOf(',', signed.lastIndexOf('"id": "')); // between the last two entries
  const broken = Buffer.from(`${signed.slice(0, at)};${signed.slice(at + 1)}`, 'latin1');
  const kept = await verifyZaxy(broken);
  const message = kept.findings.map((finding) => finding.message).join('\n');
  assert.match(message, /Expecting ',' delimiter: line [1-9]\d+ column \d+ \(char \d+\)/);
  for (const bytes of [broken, gzipSync(broken)]) {
    const reads: [number, number][] = [];
    const again = await verifyZaxy(chunkedStream(bytes, 97), {
      limits: { maxRetainedBytes: 64 },
      readInputAgain: (start, end) => {
        reads.push([start, end]);
        return bytes.slice(start, end);
      },
    });
    const strip = (report: typeof kept) => ({ ...report, stats: undefined, input: undefined });
    assert.deepEqual(strip(again), strip(kept));
    assert.ok(reads.length > 0 && reads[0]![0] === 0, 'read again from the start');
    assert.ok(
      reads.every(([start], k) => k === 0 || start === reads[k - 1]![1]),
      'a piece at a time, in order',
    );
  }
  // An input that no longer reaches the error is refused, never worded from other bytes.
  const shorter = await verifyZaxy(chunkedStream(broken, 97), {
    limits: { maxRetainedBytes: 64 },
    readInputAgain: (start, end) => broken.slice(start, Math.min(end, at - 1)),
  });
  assert.equal(shorter.overall, 'error');
  assert.match(shorter.findings.map((finding) => finding.message).join('\n'), /not the one verified/);
});

// The input read again must be the one verified: another length is refused, never verified.
test('an input that reads again at another length is refused, with a finding', async () => {
  const c = verdictCases.find((entry) => entry.shape === 'subset' && entry.expected?.ok === true)!;
  const bytes = readFileSync(fixturePath('zaxy', c.file));
  const options = c.expect_public_key ? { expectPublicKey: c.expect_public_key } : {};
  const report = await verifyZaxy(chunkedStream(bytes, 97), {
    ...options,
    limits: { maxRetainedBytes: 64 },
    readInputAgain: (start, end) => bytes.slice(start, end - 1),
  });
  assert.equal(report.overall, 'error');
  assert.match(report.findings.map((finding) => finding.message).join('\n'), /not the one verified/);
  assert.equal(toZaxyJson(report).ok, false);
});

// The CLI hashes entries on a worker thread (nodeEntryHasher); everything else hashes in place.
test('hashing entries on a worker thread gives the same report as hashing in place, for every fixture and edge vector', async () => {
  const files = [
    ...verdictCases.map((c) => ({ path: fixturePath('zaxy', c.file), pin: c.expect_public_key })),
    ...readdirSync(join(PROJECT_ROOT, 'test/vectors/zaxy'))
      .filter((name) => name.endsWith('.json') && name !== 'vectors.json')
      .map((name) => ({ path: join(PROJECT_ROOT, 'test/vectors/zaxy', name), pin: null })),
  ];
  for (const { path, pin } of files) {
    const bytes = readFileSync(path);
    const options = pin ? { expectPublicKey: pin } : {};
    const strip = (report: Awaited<ReturnType<typeof verifyZaxy>>) => ({ ...report, stats: undefined });
    assert.deepEqual(
      strip(await verifyZaxy(bytes, { ...options, sha256: nodeSha256, entryHasher: nodeEntryHasher })),
      strip(await verifyZaxy(bytes, { ...options, sha256: nodeSha256 })),
      path,
    );
  }
});

// Large bundles go to the worker thread a batch at a time: every kind of entry problem, wherever
// it is, must give the report that hashing in place gives.
test('hashing entries on a worker thread gives the in-place report for bundles of many batches', async () => {
  const variants: [string, (entries: { id: unknown; content: Record<string, unknown> }[]) => void][] = [
    ['copies, untouched', () => undefined],
    ['content changed far in', (entries) => void (entries[2500]!.content['kind'] = 'changed')],
    ['uppercase id', (entries) => void (entries[100]!.id = String(entries[100]!.id).toUpperCase())],
    [
      'id not 64 characters, and an id that is a number',
      (entries) => {
        entries[3000]!.id = 'short';
        entries[3001]!.id = 7;
      },
    ],
    ['lone surrogate in a content', (entries) => void (entries[2000]!.content['kind'] = '\ud800')],
    ['no id', (entries) => void delete (entries as { id?: unknown }[])[1500]!.id],
  ];
  for (const [name, change] of variants) {
    const bytes = manyBatchBundle(120, change);
    const strip = (report: Awaited<ReturnType<typeof verifyZaxy>>) => ({ ...report, stats: undefined });
    const batched = await verifyZaxy(bytes, { sha256: nodeSha256, entryHasher: nodeEntryHasher });
    assert.deepEqual(strip(batched), strip(await verifyZaxy(bytes, { sha256: nodeSha256 })), name);
    assert.ok(batched.kind === 'zaxy.portable.v1', name);
    assert.equal(batched.details.entry_count, 120 * 33, name);
  }
});

// Batched ids are compared when their hashes come back; unusual ids (here not 64 characters) at
// once, before the batches of earlier entries. Past limits.maxFindings, the findings kept must
// still be those of the first entries, as in place.
test("hashing entries on a worker thread keeps the first entries' id findings when there are more than maxFindings", async () => {
  const bytes = manyBatchBundle(120, (entries) =>
    entries.forEach((entry, index) => {
      entry.id = index < 10 ? String(index % 10).repeat(64) : `short-${index}`;
    }),
  );
  for (const maxFindings of [1, 2, 5, 12]) {
    const batched = await verifyZaxy(bytes, {
      sha256: nodeSha256,
      entryHasher: nodeEntryHasher,
      limits: { maxFindings },
    });
    const hashedInPlace = await verifyZaxy(bytes, { sha256: nodeSha256, limits: { maxFindings } });
    assert.deepEqual(batched.findings, hashedInPlace.findings, `maxFindings ${maxFindings}`);
    assert.equal(batched.findings[0]!.path, '$.entries[0].id');
  }
});

test('an entry hasher that fails makes an internal-error report, not a crash', async () => {
  const failing = () => ({
    add: () => Promise.reject(new Error('hashing thread died')),
    root: () => Promise.resolve(undefined),
  });
  const report = await verifyZaxy(
    manyBatchBundle(120, () => undefined),
    { sha256: nodeSha256, entryHasher: failing },
  );
  assert.equal(report.overall, 'error');
  assert.ok(
    report.findings.some(
      (finding) => finding.code === 'kit.internal_error' && finding.message.includes('hashing thread died'),
    ),
  );
});

// A bundle of less than one batch is hashed in place: no thread is asked for anything.
test('a small bundle does not use the entry hasher', async () => {
  const unused = () => ({
    add: () => Promise.reject(new Error('used')),
    root: () => Promise.reject(new Error('used')),
  });
  const report = await verifyZaxy(readFileSync(fixturePath('zaxy', 'signed-ed25519-n33.json')), {
    sha256: nodeSha256,
    entryHasher: unused,
  });
  assert.equal(report.overall, 'pass');
});

for (const c of sigverCases) {
  const file = JSON.parse(readFileSync(fixturePath('zaxy', c.file), 'utf8')) as Sigver;
  test(`sigver ${c.file}: the kit's verifier gives the signing library's verdicts`, async () => {
    assert.ok(file.tests.length > 0);
    for (const vector of file.tests) {
      const verdict = await verifySignature(file.algorithm, hex(vector.pk), hex(vector.message), hex(vector.signature));
      assert.equal(verdict, vector.testPassed, `tcId ${vector.tcId} ${vector.comment ?? ''}`);
    }
  });
  if (file.algorithm === 'ed25519') {
    test(`sigver ${c.file}: node:crypto (OpenSSL) agrees on every vector`, () => {
      for (const vector of file.tests) {
        const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(vector.pk, 'hex')]);
        let verdict = false;
        try {
          verdict = nodeVerify(
            null,
            hex(vector.message),
            createPublicKey({ key: spki, format: 'der', type: 'spki' }),
            hex(vector.signature),
          );
        } catch {
          verdict = false;
        }
        assert.equal(verdict, vector.testPassed, `tcId ${vector.tcId} ${vector.comment ?? ''}`);
      }
    });
  }
}

for (const c of verdictCases.filter((item) => item.shape === 'unsigned')) {
  test(`unsigned ${c.file}: entry ids and would-be root equal Zaxy's`, async () => {
    const bytes = readFileSync(fixturePath('zaxy', c.file));
    const report = await verifyZaxy(bytes, { sha256: nodeSha256 });
    assert.ok(report.kind === 'zaxy.export.unsigned.v1', c.file);
    const entries = report.details.entries;
    assert.deepEqual(
      entries.map((entry) => entry.id),
      c.zaxy_entry_ids,
    );
    // The same ids from the value-based writer, and the root a signed export would carry.
    const read = readJson(bytes);
    assert.ok(read.ok);
    const values = (read.value as Map<string, unknown>).get('entries') as Parameters<typeof canonicalJson>[0][];
    const canonical = values.map((entry) => {
      const result = canonicalJson(entry);
      assert.ok(result.ok);
      return result.bytes;
    });
    assert.deepEqual(
      canonical.map((bytes) => toHex(nodeSha256.digest(bytes))),
      c.zaxy_entry_ids,
    );
    if (c.zaxy_merkle_root_if_signed) {
      assert.equal(
        toHex(
          merkleRoot(
            canonical.map((bytes) => leafHash(bytes, nodeSha256)),
            nodeSha256,
          ),
        ),
        c.zaxy_merkle_root_if_signed,
      );
    }
    assert.equal(report.overall, 'fail');
    assert.equal(report.verdicts.structure, 'pass', 'real envelopes pass the structural check');
    assert.equal(report.verdicts.authenticity, 'fail');
  });
}

interface Vector {
  readonly file: string;
  readonly desc: string;
  readonly source: 'zaxy' | 'kit';
  readonly expect_public_key: string | null;
  readonly expected: { ok: boolean; reason?: string | null; reason_starts_with?: string };
  readonly python?: string;
}

const vectorDir = join(PROJECT_ROOT, 'test/vectors/zaxy');
const vectors = (JSON.parse(readFileSync(join(vectorDir, 'vectors.json'), 'utf8')) as { vectors: Vector[] }).vectors;

test('kit edge vectors exist', () => {
  assert.ok(vectors.length >= 100);
});

for (const vector of vectors) {
  test(`edge vector ${vector.file}: ${vector.desc}`, async () => {
    const report = await verifyZaxy(readFileSync(join(vectorDir, vector.file)), {
      sha256: nodeSha256,
      name: vector.file,
      ...(vector.expect_public_key === null ? {} : { expectPublicKey: vector.expect_public_key }),
    });
    const answer = toZaxyJson(report);
    if (vector.source === 'zaxy') {
      assert.deepEqual(answer, { ok: vector.expected.ok, reason: vector.expected.reason });
    } else {
      assert.equal(answer.ok, false);
      assert.ok(answer.reason!.startsWith(vector.expected.reason_starts_with!), answer.reason!);
      // Where Python raised before Zaxy's verifier, the kit quotes Python's own message.
      if (vector.python !== undefined)
        assert.ok(answer.reason!.includes(vector.python.slice(vector.python.indexOf(': ') + 2)), answer.reason!);
    }
  });
}
