// Numbers shown by their lexeme (issue 17): the Zaxy Entries view's cards (scalar fields, lists,
// key/value rows of entities and edges, pretty JSON blocks, the whole-entry download) and its
// search show the characters the bundle holds (`1.50`, `1e5`, `-0.0`, `1E-7`, 2^64, `1.0`), as do
// the AgentXchain file view's JSON tree and JSONL rows. The display reader accepts and refuses
// exactly what the lossless reader does, and the printer (canonical.ts's) writes a lexeme where
// Python writes its number.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { pythonJsonDumps } from '../../src/json/canonical.ts';
import { readJson, readJsonAt } from '../../src/json/reader.ts';
import {
  isNumberLexeme,
  lexeme,
  numberValue,
  prettyJson,
  readDisplayJson,
  readDisplayJsonAt,
  type DisplayValue,
} from '../../src/inspect/json-text.ts';
import {
  agentxchainFilesInspector,
  type AgentxchainFileContent,
  type AgentxchainFileItem,
  type AgentxchainRow,
} from '../../src/inspect/agentxchain-files.ts';
import { zaxyInspector, type ZaxyEntryItem, type ZaxyItem, type ZaxyMarks } from '../../src/inspect/zaxy.ts';
import type { InspectRequest, InspectSource } from '../../src/inspect/types.ts';

const encoder = new TextEncoder();

function fixtureText(name: string): string {
  return readFileSync(new URL(`../fixtures/zaxy/${name}`, import.meta.url), 'utf8');
}

/** `text` with `from` replaced by `to`, `from` occurring exactly once. */
function replaceOnce(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `exactly one ${from}`);
  return text.replace(from, () => to);
}

function zaxyPages(bytes: Uint8Array): (request: Partial<InspectRequest>) => ReturnType<typeof zaxyInspector.page> {
  const source: InspectSource = { bytes, complete: true, format: 'zaxy' };
  const index = zaxyInspector.buildIndex(source);
  return (request) => zaxyInspector.page(source, index, { from: 0, count: 1000, ...request });
}

function entries(items: readonly ZaxyItem[]): ZaxyEntryItem[] {
  return items.filter((item): item is ZaxyEntryItem => item.kind === 'entry');
}

/** `key=text` (lists: items joined by `,`) for every field of a card. */
function fieldTexts(item: ZaxyEntryItem): string[] {
  return item.fields.map((field) => `${field.key}=${field.shape === 'list' ? field.items.join(',') : field.text}`);
}

/** The payload lexemes written into the real envelope's `task.completed` entry. */
const PAYLOAD =
  '"a": 1.50, "b": 1e5, "c": -0.0, "d": 1E-7, "e": 18446744073709551616, "f": 1.0, "g": -0, ' +
  '"nested": {"x": [2.50]}, "list": [1.50, 1e5, 1E-7],';

/**
 * Zaxy's real unsigned envelope (test/fixtures/zaxy/unsigned-both-5.json) with number lexemes
 * Python would re-print differently written into an event's payload, an entity's properties and
 * an edge's confidence and evidence (the inspector reads any Zaxy shape; nothing is verified here).
 */
function lexemeEnvelope(): Uint8Array {
  let text = fixtureText('unsigned-both-5.json');
  text = replaceOnce(text, '"duration_s": 12.5,', PAYLOAD);
  text = replaceOnce(text, '"status": "active"', '"status": "active", "weight": 0.50, "rank": 1E2');
  text = replaceOnce(text, '"confidence": 0.75,', '"confidence": 0.750,');
  text = replaceOnce(text, '"score": 0.75', '"score": 7.5e-1');
  assert.ok(readJson(encoder.encode(text)).ok, 'the edited envelope is JSON');
  return encoder.encode(text);
}

describe('Zaxy entries: numbers by their lexeme', () => {
  it('shows scalar fields, lists and nested JSON exactly as the bundle writes them', () => {
    const page = zaxyPages(lexemeEnvelope());
    const task = entries(page({}).items).find((item) => item.entryKind === 'task.completed')!;
    const texts = fieldTexts(task);
    for (const expected of [
      'a=1.50',
      'b=1e5',
      'c=-0.0',
      'd=1E-7',
      'e=18446744073709551616',
      'f=1.0',
      'g=-0',
      'nested={\n  "x": [\n    2.50\n  ]\n}',
      'list=1.50,1e5,1E-7',
      'attempts=2',
    ])
      assert.ok(texts.includes(expected), `${JSON.stringify(expected)} in ${JSON.stringify(texts)}`);
    assert.deepEqual(
      task.fields.filter((field) => field.key === 'nested' || field.key === 'list').map((field) => field.shape),
      ['json', 'list'],
    );
    assert.equal(task.seq, '3');
  });

  it('shows the key/value rows of entities and edges by lexeme', () => {
    const all = entries(zaxyPages(lexemeEnvelope())({}).items);
    const goal = all.find((item) => item.entryKind === 'entity:goal')!;
    assert.deepEqual(fieldTexts(goal), [
      'summary=portable, verifiable memory',
      'status=active',
      'weight=0.50',
      'rank=1E2',
    ]);
    const supports = all.find((item) => item.entryKind === 'edge:supports')!;
    assert.equal(supports.edge?.confidence, '0.750');
    assert.deepEqual(fieldTexts(supports), ['matched=export', 'score=7.5e-1']);
    const created = all.find((item) => item.entryKind === 'edge:created')!;
    assert.equal(created.edge?.confidence, '1.0');
  });

  it('finds an entry by a lexeme only the bytes hold, and no longer by the re-printed float', () => {
    const page = zaxyPages(lexemeEnvelope());
    const all = entries(page({}).items);
    const taskAt = all.findIndex((item) => item.entryKind === 'task.completed');
    const goalAt = all.findIndex((item) => item.entryKind === 'entity:goal');
    const marks = (search: string) => (page({ search, filter: { view: 'marks' } }).items[0] as ZaxyMarks).matches;
    assert.deepEqual(marks('1.50'), [taskAt]);
    assert.deepEqual(marks('1E-7'), [taskAt]);
    assert.deepEqual(marks('0.50'), [goalAt]);
    assert.deepEqual(marks('2.50'), [taskAt], 'inside a nested JSON block');
    assert.deepEqual(marks('100000.0'), [], 'Python would print 1e5 as 100000.0; the bundle does not say that');
    assert.deepEqual(marks('1e-07'), []);
    const searched = page({ search: '1.50' });
    assert.equal(searched.matches, 1);
    assert.deepEqual(
      entries(searched.items)
        .filter((item) => item.hit)
        .map((item) => item.entryKind),
      ['task.completed'],
    );
  });

  it('downloads the whole entry with its lexemes', () => {
    const page = zaxyPages(lexemeEnvelope());
    const task = entries(page({}).items).find((item) => item.entryKind === 'task.completed')!;
    const download = page({ filter: { view: 'entry-json', position: String(task.position) } }).items[0] as {
      text: string;
    };
    for (const expected of ['"a": 1.50', '"b": 1e5', '"c": -0.0', '"d": 1E-7', '"e": 18446744073709551616', '"g": -0'])
      assert.ok(download.text.includes(expected), `${expected} in the download`);
    assert.ok(download.text.includes('"x": [\n'), 'pretty-printed');
    assert.ok(readJson(encoder.encode(download.text)).ok, 'the download is JSON');
  });

  it('shows a real signed bundle (Zaxy verifies it) exactly as signed: 1.50 and 2E0, not 1.5 and 2.0', () => {
    const page = zaxyPages(encoder.encode(fixtureText('signed-ed25519-rawtext-numlexemes.json')));
    const [entry] = entries(page({}).items);
    assert.deepEqual(fieldTexts(entry!), ['a=1.50', 'b=2E0', 'c=10']);
    assert.equal(page({ search: '1.50' }).matches, 1);
    assert.equal(page({ search: '2.0' }).matches, 0);
  });
});

describe('AgentXchain files: numbers by their lexeme', () => {
  function agentxchainPages(
    files: Record<string, unknown>,
  ): (request: Partial<InspectRequest>) => ReturnType<typeof agentxchainFilesInspector.page> {
    const source: InspectSource = {
      bytes: encoder.encode(JSON.stringify({ files })),
      complete: true,
      format: 'agentxchain',
    };
    const index = agentxchainFilesInspector.buildIndex(source);
    return (request) => agentxchainFilesInspector.page(source, index, { from: 0, count: 1000, ...request });
  }

  it('keeps lexemes in the JSON tree and the JSONL rows', () => {
    const json = '{"a": 1.50, "b": [1e5, -0.0], "c": {"d": 18446744073709551616}}';
    const jsonl = '{"n": 1E-7}\n{"n": 2.50}\n';
    const page = agentxchainPages({
      'a.json': { format: 'json', content_base64: btoa(json) },
      'b.jsonl': { format: 'jsonl', content_base64: btoa(jsonl) },
    });
    const content = page({ filter: { view: 'content', file: '0' } }).items[0] as AgentxchainFileContent;
    const tree = content.tree!;
    assert.deepEqual(
      [tree.children[0]!.value, ...tree.children[1]!.children.map((child) => child.value)],
      ['1.50', '1e5', '-0.0'],
    );
    assert.equal(tree.children[2]!.children[0]!.value, '18446744073709551616');
    assert.equal(tree.children[0]!.type, 'number');
    const rows = page({ filter: { view: 'rows', file: '1' } }).items as AgentxchainRow[];
    assert.deepEqual(
      rows.map((row) => row.tree!.children[0]!.value),
      ['1E-7', '2.50'],
    );
  });

  it('shows the declared byte count by lexeme, and still badges it by value', () => {
    const bytes = encoder.encode(
      JSON.stringify({ files: { 'a.txt': { format: 'text', bytes: 0, content_base64: btoa('abc') } } }).replace(
        '"bytes":0',
        '"bytes":3.00',
      ),
    );
    const source: InspectSource = { bytes, complete: true, format: 'agentxchain' };
    const index = agentxchainFilesInspector.buildIndex(source);
    const [file] = agentxchainFilesInspector.page(source, index, { from: 0, count: 10 }).items as AgentxchainFileItem[];
    assert.equal(file!.bytes, '3.00');
    assert.notEqual(file!.statusText, 'length does not match bytes', '3.00 counts three bytes');
  });

  it('prints an entry without content from its data, lexemes kept', () => {
    const bytes = encoder.encode(
      JSON.stringify({ files: { 'a.json': { format: 'json', content_base64: null, data: { x: 0 } } } }).replace(
        '"x":0',
        '"x":1.50',
      ),
    );
    const source: InspectSource = { bytes, complete: true, format: 'agentxchain' };
    const index = agentxchainFilesInspector.buildIndex(source);
    const content = agentxchainFilesInspector.page(source, index, {
      from: 0,
      count: 1,
      filter: { view: 'content', file: '0' },
    }).items[0] as AgentxchainFileContent;
    assert.equal(content.tree!.children[0]!.value, '1.50');
  });
});

/** `value` with every number lexeme replaced by Python's text for its number (`1.50` → `1.5`). */
function withPythonLexemes(value: DisplayValue): DisplayValue {
  if (value instanceof Map) return new Map([...value].map(([key, inner]) => [key, withPythonLexemes(inner)]));
  if (Array.isArray(value)) return value.map(withPythonLexemes);
  if (!isNumberLexeme(value)) return value;
  return { lexeme: pythonJsonDumps(numberValue(value)), integer: value.integer };
}

describe('The display reader and printer', () => {
  it('reads numbers as lexemes with their value, other scalars as the lossless reader does', () => {
    const read = readDisplayJson(
      encoder.encode(' [1.50, -0, 1E-7, 18446744073709551616, NaN, -Infinity, "s", true, null] '),
    );
    assert.ok(read.ok);
    const values = read.value as unknown[];
    assert.deepEqual(values.slice(0, 4), [
      { lexeme: '1.50', integer: false },
      { lexeme: '-0', integer: true },
      { lexeme: '1E-7', integer: false },
      { lexeme: '18446744073709551616', integer: true },
    ]);
    assert.deepEqual(values.slice(4), [NaN, -Infinity, 's', true, null]);
    assert.deepEqual(
      values.slice(0, 4).map((value) => (isNumberLexeme(value as never) ? numberValue(value as never) : undefined)),
      [1.5, 0n, 1e-7, 18446744073709551616n],
    );
    assert.deepEqual(
      values.map((value) => lexeme(value as never)),
      ['1.50', '-0', '1E-7', '18446744073709551616', 'NaN', '-Infinity', 's', 'true', 'null'],
    );
  });

  it('keeps a repeated key at its first position with its last value, as a Python dict', () => {
    const read = readDisplayJson(encoder.encode('{"a": 1.0, "b": 2, "a": 3.50}'));
    assert.ok(read.ok);
    assert.equal(prettyJson(read.value), '{\n  "a": 3.50,\n  "b": 2\n}');
  });

  it('reads a value at an offset as readJsonAt does', () => {
    const bytes = encoder.encode('{"k": {"x": [2.50, {}]}, "z": 1}');
    const at = readDisplayJsonAt(bytes, 6);
    assert.ok(at.ok);
    assert.equal(prettyJson(at.value), '{\n  "x": [\n    2.50,\n    {}\n  ]\n}');
    const bad = readDisplayJsonAt(bytes, 2);
    const expected = readJsonAt(bytes, 2);
    assert.ok(!bad.ok && !expected.ok);
    assert.deepEqual(bad.error, expected.error);
  });

  it('accepts and refuses exactly what the lossless reader does, with the same errors', () => {
    const texts = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc.json({ maxDepth: 3 }).map((text) => text.slice(0, Math.max(0, text.length - 1))),
      fc
        .tuple(fc.json({ maxDepth: 2 }), fc.constantFrom('\ufeff', ' x', ',', '\u0000', ' 1.', '  '))
        .map(([text, noise]) => (noise === '\ufeff' ? noise + text : text + noise)),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const bytes = encoder.encode(text);
        const display = readDisplayJson(bytes);
        const lossless = readJson(bytes);
        assert.equal(display.ok, lossless.ok);
        if (!display.ok && !lossless.ok) assert.deepEqual(display.error, lossless.error);
        if (display.ok && lossless.ok) {
          // Same value: printing the display value and reading it back gives the lossless one.
          const again = readJson(encoder.encode(prettyJson(display.value)));
          assert.ok(again.ok);
          assert.equal(
            pythonJsonDumps(again.value, { sortKeys: true }),
            pythonJsonDumps(lossless.value, { sortKeys: true }),
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('prints a lexeme exactly where Python prints its number, and lossless values as Python does', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 5 }), (text) => {
        const bytes = encoder.encode(text);
        const display = readDisplayJson(bytes);
        const lossless = readJson(bytes);
        assert.ok(display.ok && lossless.ok);
        assert.equal(prettyJson(lossless.value), pythonJsonDumps(lossless.value, { indent: 2 }));
        // Each lexeme swapped for the text Python prints for its number: the same document.
        assert.equal(prettyJson(withPythonLexemes(display.value)), pythonJsonDumps(lossless.value, { indent: 2 }));
      }),
      { numRuns: 300 },
    );
    const floats = readJson(encoder.encode(fixtureText('signed-ed25519-canon-floats.json')));
    assert.ok(floats.ok);
    assert.equal(prettyJson(floats.value), pythonJsonDumps(floats.value, { indent: 2 }));
  });

  it('prints a Python-written document the same from lexemes as from values', () => {
    // Zaxy wrote this file with Python's json.dumps: its lexemes are Python's own float repr.
    const bytes = encoder.encode(fixtureText('signed-ed25519-canon-floats.json'));
    const display = readDisplayJson(bytes);
    const lossless = readJson(bytes);
    assert.ok(display.ok && lossless.ok);
    assert.equal(prettyJson(display.value), pythonJsonDumps(lossless.value, { indent: 2 }));
  });

  it('drops the pretty layout for the compact one past 4 MiB, as before', () => {
    const text = `[1.50,"${'x'.repeat(4 * 1024 * 1024)}"]`;
    const read = readDisplayJson(encoder.encode(text));
    assert.ok(read.ok);
    assert.equal(prettyJson(read.value), text);
    const small = readDisplayJson(encoder.encode('[[1.50]]'));
    assert.ok(small.ok);
    assert.equal(prettyJson(small.value), '[\n  [\n    1.50\n  ]\n]');
  });
});
