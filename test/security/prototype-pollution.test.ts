// Prototype pollution through artifact keys is impossible (README.md, 'Security model'):
// every fixture of every format is verified again with `__proto__`, `constructor` and `prototype`
// keys added to every JSON object (and with every first key renamed to `__proto__`), through
// `verify` and the format's own entry point. After each run no built-in prototype may have
// changed, the report must be well-formed, and what must fail still fails. Then three exact
// cases: a `__proto__` key is an ordinary key for AgentXchain's data comparison and for Zaxy's
// canonical JSON (it is hashed and signed like any other key).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { verify, verifyAgentHistory, verifyAgentxchain, verifyCodexExec, verifyZaxy } from '../../src/index.ts';
import { loadCorpus, type Seed } from '../fuzz/corpus.ts';
import { checkGzip } from '../fuzz/gzip-tools.ts';
import { member, parseTree, walk, type JsonObject } from '../fuzz/json-tree.ts';
import { fixIds, fixRoot, resign } from '../fuzz/mutate/zaxy.ts';
import { agentxchainMustFail } from '../fuzz/oracle/agentxchain.ts';
import { ndjsonMustFail } from '../fuzz/oracle/ndjson.ts';
import { reportProblems } from '../fuzz/oracle/report.ts';
import { zaxyBaseline, zaxyMustFail } from '../fuzz/oracle/zaxy.ts';
import type { Report } from '../../src/report.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const POLLUTED = '{"polluted":true,"prototype":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';

/** Own property names (and their descriptors' values) of the built-in prototypes. */
function prototypeSnapshot(): string {
  const describe = (target: object): string[] =>
    Reflect.ownKeys(target).map((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
      return `${String(key)}:${typeof descriptor.value}:${typeof descriptor.get}`;
    });
  return JSON.stringify(
    [
      Object.prototype,
      Array.prototype,
      Function.prototype,
      String.prototype,
      Number.prototype,
      Promise.prototype,
      Uint8Array.prototype,
      Error.prototype,
    ].map(describe),
  );
}
const BEFORE = prototypeSnapshot();

function assertUnpolluted(where: string): void {
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined, `${where}: ({}).polluted is set`);
  assert.equal(([] as unknown as Record<string, unknown>)['polluted'], undefined, `${where}: [].polluted is set`);
  assert.equal(Object.prototype.toString.call(null), '[object Null]', where);
  assert.equal(prototypeSnapshot(), BEFORE, `${where}: a built-in prototype changed`);
}

/** Adds `key: POLLUTED` to every object of a JSON text, or renames every first key to `key`. */
function pollute(text: string, key: string, mode: 'add' | 'rename'): string | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  const edits: { start: number; end: number; insert: string }[] = [];
  for (const { node } of walk(root)) {
    if (node.t !== 'obj') continue;
    const obj = node as JsonObject;
    if (mode === 'add')
      edits.push({
        start: obj.start + 1,
        end: obj.start + 1,
        insert: `${JSON.stringify(key)}:${POLLUTED}${obj.members.length > 0 ? ',' : ''}`,
      });
    else if (obj.members.length > 0)
      edits.push({ start: obj.members[0]!.keyStart, end: obj.members[0]!.keyEnd, insert: JSON.stringify(key) });
  }
  edits.sort((a, b) => b.start - a.start);
  let out = text;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.insert + out.slice(edit.end);
  return out;
}

function plainOf(seed: Seed): Uint8Array | undefined {
  if (!seed.gzip) return seed.bytes;
  const verdict = checkGzip(seed.bytes);
  return verdict.ok === true ? verdict.data : undefined;
}

function pollutedVariants(seed: Seed): { label: string; bytes: Uint8Array }[] {
  const plain = plainOf(seed);
  if (!plain) return [];
  const text = decoder.decode(plain);
  const ndjson = seed.format === 'agent-history' || seed.format === 'codex-exec';
  const variants: { label: string; bytes: Uint8Array }[] = [];
  // The six 1.4 MiB AgentXchain exports get one variant (each grows to several MiB), the rest all four.
  const kinds = [
    ['__proto__', 'add'],
    ['constructor', 'add'],
    ['prototype', 'add'],
    ['__proto__', 'rename'],
  ] as const;
  for (const [key, mode] of plain.length > 256 * 1024 ? kinds.slice(0, 1) : kinds) {
    const out = ndjson
      ? text
          .split('\n')
          .map((line) => pollute(line, key, mode) ?? line)
          .join('\n')
      : pollute(text, key, mode);
    if (out !== undefined && out !== text) variants.push({ label: `${key} ${mode}`, bytes: encoder.encode(out) });
  }
  return variants;
}

const ENTRY = {
  agentxchain: verifyAgentxchain,
  zaxy: verifyZaxy,
  'agent-history': verifyAgentHistory,
  'codex-exec': verifyCodexExec,
} as const;

test(
  '__proto__, constructor and prototype keys in every object of every fixture pollute nothing',
  { timeout: 600_000 },
  async () => {
    let runs = 0;
    let mustFail = 0;
    for (const seed of loadCorpus()) {
      const baseline =
        seed.format === 'zaxy' && seed.expectedPass && (seed.shape === 'signed' || seed.shape === 'subset')
          ? zaxyBaseline(seed.bytes)
          : undefined;
      for (const variant of pollutedVariants(seed)) {
        const where = `${seed.format}/${seed.file} (${variant.label})`;
        const options = { name: seed.file.replace(/\.gz$/, ''), ...(seed.pin ? { expectPublicKey: seed.pin } : {}) };
        for (const run of [() => verify(variant.bytes, options), () => ENTRY[seed.format](variant.bytes, options)]) {
          const report: Report = await run();
          runs++;
          assertUnpolluted(where);
          assert.deepEqual(
            reportProblems(report, {
              maxFindings: 1000,
              pinGiven: seed.pin !== undefined,
              strict: false,
              inputBytes: variant.bytes.length,
            }),
            [],
            where,
          );
          assert.ok(
            !report.findings.some((f) => f.code === 'kit.internal_error'),
            `${where}: ${JSON.stringify(report.findings.find((f) => f.code === 'kit.internal_error'))}`,
          );
          const claim =
            seed.format === 'agentxchain'
              ? agentxchainMustFail(variant.bytes)
              : baseline
                ? zaxyMustFail(variant.bytes, baseline, seed.pin)
                : report.format === 'agent-history' || report.format === 'codex-exec'
                  ? ndjsonMustFail(variant.bytes)
                  : undefined;
          if (claim) {
            mustFail++;
            assert.notEqual(report.overall, 'pass', `${where}: passed although ${claim}`);
          }
        }
      }
    }
    assert.ok(runs > 2000, `${runs} runs`);
    assert.ok(mustFail > 300, `${mustFail} runs had to fail`);
  },
);

/** A passing AgentXchain export and one of its `.planning/*.json` entries (not cross-checked by summaries). */
function planningJsonEntry(): { text: string; entry: JsonObject; content: unknown } {
  for (const seed of loadCorpus().filter(
    (s) => s.format === 'agentxchain' && s.expectedPass && s.bytes.length < 200_000,
  )) {
    const text = decoder.decode(seed.bytes);
    const files = member(parseTree(text), 'files');
    if (files?.t !== 'obj') continue;
    for (const m of files.members) {
      const format = member(m.value, 'format');
      const content = member(m.value, 'content_base64');
      if (m.key.startsWith('.planning/') && format?.t === 'str' && format.value === 'json' && content?.t === 'str') {
        const parsed: unknown = JSON.parse(Buffer.from(content.value, 'base64').toString('utf8'));
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
          return { text, entry: m.value as JsonObject, content: parsed };
      }
    }
  }
  throw new Error('no passing export with a .planning/*.json object entry');
}

/** Re-seals one entry with `contentJson` as its file and `dataJson` as its `data`. */
function reseal(text: string, entry: JsonObject, contentJson: string, dataJson: string): Uint8Array {
  const raw = Buffer.from(contentJson, 'utf8');
  const values: Record<string, string> = {
    content_base64: JSON.stringify(raw.toString('base64')),
    sha256: JSON.stringify(createHash('sha256').update(raw).digest('hex')),
    bytes: String(raw.length),
    data: dataJson,
  };
  const edits = Object.entries(values)
    .map(([key, json]) => ({ node: member(entry, key)!, json }))
    .sort((a, b) => b.node.start - a.node.start);
  let out = text;
  for (const { node, json } of edits) out = out.slice(0, node.start) + json + out.slice(node.end);
  return encoder.encode(out);
}

test('AgentXchain compares a __proto__ key in data like any key (docs/agentxchain.md §4 deep-strict equality)', async () => {
  const { text, entry, content } = planningJsonEntry();
  const plain = `{"wrapped":${JSON.stringify(content)}}`;
  const withProto = `{"__proto__":{"polluted":true},"wrapped":${JSON.stringify(content)}}`;
  // Both the file and its data carry the key: the reference passes it.
  const both = reseal(text, entry, withProto, withProto);
  assert.equal(agentxchainMustFail(both), undefined);
  const same = await verify(both);
  assertUnpolluted('same __proto__ in content and data');
  assert.equal(same.overall, 'pass', JSON.stringify(same.findings.slice(0, 3)));
  // Only the file carries it: the data no longer equals the content.
  const onlyContent = reseal(text, entry, withProto, plain);
  assert.ok(agentxchainMustFail(onlyContent));
  const differs = await verify(onlyContent);
  assertUnpolluted('__proto__ only in content');
  assert.notEqual(differs.overall, 'pass');
  // Only the data carries it (a parser that drops or applies __proto__ would see equal values).
  const onlyData = reseal(text, entry, plain, withProto);
  assert.ok(agentxchainMustFail(onlyData));
  const differsToo = await verify(onlyData);
  assertUnpolluted('__proto__ only in data');
  assert.notEqual(differsToo.overall, 'pass');
});

test('Zaxy hashes and signs a __proto__ key like any key (docs/zaxy.md, "Canonical JSON")', async () => {
  const seed = loadCorpus().find(
    (s) => s.format === 'zaxy' && s.shape === 'signed' && s.expectedPass && s.file.includes('ed25519'),
  )!;
  const text = decoder.decode(seed.bytes);
  const entries = member(parseTree(text), 'entries');
  assert.ok(entries?.t === 'arr');
  const content = member(entries.items[0], 'content')!;
  const at = content.start + 1;
  const edited = `${text.slice(0, at)}"__proto__":${POLLUTED},${text.slice(at)}`;
  // Ids, root and signature made consistent again, signed by another key.
  const resigned = resign(fixRoot(fixIds(edited)))!;
  const original = member(parseTree(text), 'public_key');
  assert.ok(original?.t === 'str');
  const unpinned = await verify(encoder.encode(resigned));
  assertUnpolluted('zaxy __proto__ content');
  assert.equal(
    unpinned.overall,
    'pass',
    `a consistent bundle signed by another key verifies without a pin: ${JSON.stringify(unpinned.findings.slice(0, 3))}`,
  );
  const pinned = await verify(encoder.encode(resigned), { expectPublicKey: original.value });
  assert.notEqual(pinned.overall, 'pass');
  // Left unsigned after the edit: the entry id no longer matches.
  const tampered = await verify(encoder.encode(edited));
  assertUnpolluted('zaxy __proto__ tampered');
  assert.notEqual(tampered.overall, 'pass');
});
