// Self-test of the fuzz harness (test/fuzz/): its oracles must be exact before their verdicts
// mean anything. An oracle that claims "must fail" for an artifact the reference tool passes
// would report false alarms; one that misses a tampered fixture would hide false passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCorpus } from '../fuzz/corpus.ts';
import { generateCase } from '../fuzz/case.ts';
import { checkGzip } from '../fuzz/gzip-tools.ts';
import { member, parseTree } from '../fuzz/json-tree.ts';
import { mutateAgentxchain } from '../fuzz/mutate/agentxchain.ts';
import { mutateZaxy } from '../fuzz/mutate/zaxy.ts';
import { agentxchainMustFail } from '../fuzz/oracle/agentxchain.ts';
import { ndjsonMustFail } from '../fuzz/oracle/ndjson.ts';
import { zaxyBaseline, zaxyMustFail } from '../fuzz/oracle/zaxy.ts';
import { pythonFloatRepr } from '../fuzz/python-canonical.ts';
import { createRng } from '../fuzz/rng.ts';
import { entryId, leafHash, merkleRoot } from '../fuzz/zaxy-model.ts';
import { loadCases } from '../helpers/fixtures.ts';

const corpus = loadCorpus();
const decoder = new TextDecoder();

test('the corpus holds every fixture of every format', () => {
  const count = (format: string): number => corpus.filter((seed) => seed.format === format).length;
  assert.equal(count('agentxchain'), 136);
  assert.equal(count('zaxy'), 97);
  assert.equal(count('agent-history'), 59);
  assert.equal(count('codex-exec'), 48);
});

test('the test-side Python canonical JSON reproduces every entry id and Merkle root Zaxy computed', () => {
  interface ZaxyCase {
    file: string;
    shape: string;
    expected: { ok: boolean } | null;
    zaxy_entry_ids?: string[];
    zaxy_merkle_root_if_signed?: string;
  }
  let ids = 0;
  let roots = 0;
  for (const c of loadCases<ZaxyCase>('zaxy')) {
    const seed = corpus.find((s) => s.format === 'zaxy' && s.file === c.file)!;
    const root = parseTree(decoder.decode(seed.bytes));
    if (c.shape === 'unsigned' && c.zaxy_entry_ids) {
      const entries = member(root, 'entries');
      assert.ok(entries?.t === 'arr');
      assert.deepEqual(entries.items.map(entryId), c.zaxy_entry_ids, c.file);
      ids += c.zaxy_entry_ids.length;
      if (c.zaxy_merkle_root_if_signed) {
        assert.equal(
          Buffer.from(merkleRoot(entries.items.map(leafHash))).toString('hex'),
          c.zaxy_merkle_root_if_signed,
          c.file,
        );
        roots++;
      }
    }
    if (c.shape === 'signed' && c.expected?.ok) {
      const entries = member(root, 'entries');
      assert.ok(entries?.t === 'arr');
      for (const entry of entries.items) {
        const id = member(entry, 'id');
        assert.ok(id?.t === 'str');
        assert.equal(entryId(member(entry, 'content')!), id.value, c.file);
        ids++;
      }
      const contents = entries.items.map((entry) => member(entry, 'content')!);
      const stated = member(root, 'merkle_root');
      assert.ok(stated?.t === 'str');
      assert.equal(Buffer.from(merkleRoot(contents.map(leafHash))).toString('hex'), stated.value, c.file);
      roots++;
    }
  }
  assert.ok(ids > 200, `${ids} ids checked`);
  assert.ok(roots > 15, `${roots} roots checked`);
});

test('Python float repr follows docs/zaxy.md, "Canonical JSON"', () => {
  const table: [number, string][] = [
    [1, '1.0'],
    [2.5, '2.5'],
    [100, '100.0'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [1.2345678901234568e20, '1.2345678901234568e+20'],
    [1e21, '1e+21'],
    [1e100, '1e+100'],
    [1e-5, '1e-05'],
    [1e-7, '1e-07'],
    [0.0001, '0.0001'],
    [5e-324, '5e-324'],
    [-0, '-0.0'],
    [0.1 + 0.2, '0.30000000000000004'],
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
  ];
  for (const [value, text] of table) assert.equal(pythonFloatRepr(value), text, String(value));
});

test('the AgentXchain oracle claims nothing for the 34 exports the reference passes, and flags the integrity failures', () => {
  interface Case {
    file: string;
    expected: { overall: string; errors?: string[] } | null;
  }
  let passes = 0;
  let flagged = 0;
  for (const c of loadCases<Case>('agentxchain', (m) => (m as { cases: Case[] }).cases)) {
    const seed = corpus.find((s) => s.format === 'agentxchain' && s.file === c.file)!;
    const claim = agentxchainMustFail(seed.bytes);
    if (c.expected?.overall === 'pass') {
      assert.equal(claim, undefined, `${c.file} passes in the reference but the oracle says: ${claim}`);
      passes++;
    }
    const integrity = (c.expected?.errors ?? []).some((e) =>
      /sha256 does not match|bytes mismatch|data does not match|invalid JSONL/.test(e),
    );
    if (integrity) {
      assert.ok(claim, `${c.file}: the reference reports an integrity error, the oracle does not`);
      flagged++;
    }
    // A command error (not JSON) must also be claimed.
    if (c.expected?.overall === 'error') assert.ok(claim, c.file);
  }
  assert.equal(passes, 34);
  assert.ok(flagged >= 15, `${flagged} integrity failures flagged`);
});

test('the Zaxy oracle claims nothing for a fixture that verifies OK against itself, with or without its pin', () => {
  let checked = 0;
  for (const seed of corpus.filter((s) => s.format === 'zaxy' && s.expectedPass === true)) {
    const baseline = zaxyBaseline(seed.bytes);
    assert.ok(baseline, seed.file);
    assert.equal(zaxyMustFail(seed.bytes, baseline, seed.pin), undefined, seed.file);
    if (seed.pin === undefined) assert.equal(zaxyMustFail(seed.bytes, baseline, undefined), undefined, seed.file);
    assert.ok(zaxyMustFail(seed.bytes, baseline, '00'.repeat(32)), `${seed.file}: a wrong pin must be claimed`);
    checked++;
  }
  assert.equal(checked, 38);
});

test('the NDJSON oracle claims nothing for a valid fixture; the gzip walker accepts exactly the intact containers', () => {
  for (const seed of corpus.filter((s) => s.format === 'agent-history' || s.format === 'codex-exec')) {
    let plain = seed.bytes;
    if (seed.gzip) {
      const verdict = checkGzip(seed.bytes);
      const intact = !/bad-crc|bad-isize|truncated|trailing-garbage|not-gzip/.test(seed.file);
      assert.equal(verdict.ok, intact, `${seed.file}: ${verdict.ok === true ? 'intact' : verdict.problem}`);
      if (verdict.ok !== true) continue;
      plain = verdict.data;
    }
    if (seed.expectedPass) assert.equal(ndjsonMustFail(plain), undefined, seed.file);
  }
});

test('cases are reproducible from (seed, index)', () => {
  for (let index = 0; index < 40; index++) {
    const a = generateCase(77, index);
    const b = generateCase(77, index);
    assert.deepEqual(a.call, b.call);
    assert.deepEqual(a.steps, b.steps);
    assert.ok(Buffer.from(a.bytes).equals(Buffer.from(b.bytes)), `case ${index}`);
  }
});

test('semantic mutations of signed content are claimed; controls are not', () => {
  const signed = corpus.filter(
    (s) =>
      s.format === 'zaxy' &&
      s.expectedPass === true &&
      (s.shape === 'signed' || s.shape === 'subset') &&
      s.bytes.length < 40_000,
  );
  let content = 0;
  let contentClaimed = 0;
  let controls = 0;
  for (let i = 0; i < 240; i++) {
    const rng = createRng(5, i);
    const seed = rng.pick(signed);
    const baseline = zaxyBaseline(seed.bytes)!;
    const op = i % 3 === 0 ? 'control' : 'content';
    const mutated = mutateZaxy(decoder.decode(seed.bytes), rng, op);
    if (!mutated) continue;
    const claim = zaxyMustFail(new TextEncoder().encode(mutated.text), baseline, mutated.pin ?? seed.pin);
    if (mutated.control) {
      assert.equal(claim, undefined, `${seed.file}: control "${mutated.note}" was claimed: ${claim}`);
      controls++;
    } else if (op === 'content') {
      content++;
      if (claim) contentClaimed++;
    }
  }
  assert.ok(controls > 40, `${controls} controls`);
  // Content edits that leave the canonical bytes alone (e.g. re-escaping a string) are legitimately unclaimed.
  assert.ok(contentClaimed / content > 0.85, `${contentClaimed}/${content} content mutations claimed`);

  const exports = corpus.filter(
    (s) => s.format === 'agentxchain' && s.expectedPass === true && s.bytes.length < 200_000,
  );
  let claimed = 0;
  let total = 0;
  for (let i = 0; i < 120; i++) {
    const rng = createRng(6, i);
    const seed = rng.pick(exports);
    const mutated = mutateAgentxchain(decoder.decode(seed.bytes), rng, i % 4 === 0 ? 'control' : 'content');
    if (!mutated) continue;
    const claim = agentxchainMustFail(new TextEncoder().encode(mutated.text));
    if (mutated.control)
      assert.equal(claim, undefined, `${seed.file}: control "${mutated.note}" was claimed: ${claim}`);
    else if (!mutated.note.endsWith('(reseal)')) {
      total++;
      if (claim) claimed++;
    }
  }
  assert.ok(claimed / total > 0.95, `${claimed}/${total} AgentXchain content mutations claimed`);
});
