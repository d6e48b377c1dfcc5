// The Zaxy inspector over the fixtures: entries paged from the bytes, typed cards, edges as their
// own relation, numbers by lexeme, subsets numbered in the signed bundle, Zaxy's selector axes as
// filters, exact search counts, finding locations and a document that does not read.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { zaxyInspector, type ZaxyEntryItem, type ZaxyItem, type ZaxyOverview } from '../../src/inspect/zaxy.ts';
import type { InspectRequest, InspectSource } from '../../src/inspect/types.ts';

function sourceOf(bytes: Uint8Array, complete = true): InspectSource {
  return { bytes, complete, format: 'zaxy' };
}
function fixture(name: string): InspectSource {
  return sourceOf(new Uint8Array(readFileSync(new URL(`../fixtures/zaxy/${name}`, import.meta.url))));
}
function open(source: InspectSource): (request: Partial<InspectRequest>) => ReturnType<typeof zaxyInspector.page> {
  const index = zaxyInspector.buildIndex(source);
  return (request) => zaxyInspector.page(source, index, { from: 0, count: 1000, ...request });
}
function entries(items: readonly ZaxyItem[]): ZaxyEntryItem[] {
  return items.filter((item): item is ZaxyEntryItem => item.kind === 'entry');
}

describe('Zaxy inspector', () => {
  it('pages the entries of a signed bundle with typed cards and edges drawn from their own relation', () => {
    const page = open(fixture('signed-ml-dsa-65-semantic-unpinned.json'));
    const all = entries(page({}).items);
    assert.equal(all.length, 12);
    assert.deepEqual(all.map((item) => item.seq).slice(0, 5), ['1', '1', '1', '1', '2']);
    const decision = all.find((item) => item.entryKind === 'decision.made')!;
    assert.equal(decision.headline, 'use Merkle subset disclosure #2');
    assert.equal(decision.typed, true);
    assert.deepEqual(
      decision.fields.map((field) => field.label),
      ['Rationale', 'confidence'],
    );
    const edges = all.filter((item) => item.shape === 'edge').map((item) => item.edge);
    assert.deepEqual(edges[0], {
      source: 'claude',
      relation: 'created',
      target: 'goal 1: ship signed export',
      confidence: '1.0',
      inferred: 'false',
      inferenceMethod: 'null',
    });
    assert.ok(edges.some((edge) => edge?.relation === 'supports'));
    assert.equal(all[3]!.path, '$.entries[3]');
    assert.equal(all[3]!.bundleIndex, '3');
  });

  it('shows numbers by their lexeme as Python prints them, integers exact', () => {
    const page = open(fixture('signed-ed25519-canon-floats.json'));
    const texts = entries(page({}).items)[0]!.fields.map(
      (field) => `${field.key}=${field.text || field.items.join(',')}`,
    );
    for (const expected of [
      'f1=1.0',
      'f3=1e+100',
      'f5=-0.0',
      'f7=1000000000000000.0',
      'f12=1e-05',
      'conf=0.9,1.0,0.75',
    ])
      assert.ok(texts.includes(expected), `${expected} in ${texts.join(' ')}`);
    const big = new TextEncoder().encode(
      '{"version":"zaxy.export.unsigned.v1","entries":[{"grain":"event","kind":"x","seq":18446744073709551616,' +
        '"content":{"type":"x","actor":"a","thread":"t","payload":{"n":18446744073709551616,"f":1.0}}}]}',
    );
    const item = entries(open(sourceOf(big))({}).items)[0]!;
    assert.equal(item.seq, '18446744073709551616');
    assert.deepEqual(
      item.fields.map((field) => field.text),
      ['18446744073709551616', '1.0'],
    );
  });

  it('numbers the entries of a subset by their index in the signed bundle', () => {
    const page = open(fixture('subset-ed25519-n5-several.json'));
    const items = entries(page({}).items);
    assert.deepEqual(
      items.map((item) => item.bundleIndex),
      ['1', '4', '2'],
    );
    assert.deepEqual(
      items.map((item) => item.path),
      ['$.disclosed[0]', '$.disclosed[1]', '$.disclosed[2]'],
    );
    const overview = page({ filter: { view: 'overview' } }).items[0] as ZaxyOverview;
    assert.equal(overview.shape, 'subset');
    assert.equal(overview.anchor, '');
  });

  it('shows header fields and the anchor with their numbers as written, the last of a repeated key', () => {
    const text = new TextDecoder()
      .decode(readFileSync(new URL('../fixtures/zaxy/signed-ed25519-n5-tamper-unknown-fields.json', import.meta.url)))
      .replace(
        '"anchor": null,',
        '"rate": 1, "rate": 1.50, "limits": {"max": 2E0, "big": 18446744073709551616}, "anchor": {"height": 7.0, "at": 1e5},',
      );
    const page = open(sourceOf(new TextEncoder().encode(text)));
    const overview = page({ filter: { view: 'overview' } }).items[0] as ZaxyOverview;
    const header = new Map(overview.header);
    assert.equal(header.get('rate'), '1.50');
    assert.equal(header.get('limits'), '{\n  "max": 2E0,\n  "big": 18446744073709551616\n}');
    assert.equal(header.get('session_id'), 'agent-5');
    assert.equal(overview.anchor, '{\n  "height": 7.0,\n  "at": 1e5\n}');
  });

  it('filters by the selector axes, counts kinds, searches with exact counts and locates entries', () => {
    const page = open(fixture('signed-ml-dsa-65-semantic-unpinned.json'));
    const overview = page({ filter: { view: 'overview' } }).items[0] as ZaxyOverview;
    assert.equal(overview.shape, 'bundle');
    assert.equal(
      overview.kinds.reduce((sum, [, count]) => sum + count, 0),
      12,
    );
    assert.deepEqual(
      overview.kinds.find(([kind]) => kind === 'decision.made'),
      ['decision.made', 1],
    );
    const events = page({ filter: { grain: 'event' } });
    assert.equal(events.total, entries(events.items).length);
    assert.ok(entries(events.items).every((item) => item.grain === 'event'));
    const kinds = page({ filter: { kind: 'entity:goal, edge:created' } });
    assert.deepEqual(
      entries(kinds.items)
        .map((item) => item.entryKind)
        .sort(),
      ['edge:created', 'entity:goal'],
    );
    const timed = page({ filter: { since: '2026-06-03', until: '2026-06-04T99' } });
    assert.ok(
      entries(timed.items).every((item) => item.validFrom >= '2026-06-03' && item.validFrom <= '2026-06-04T99'),
    );
    assert.ok(timed.total > 0 && timed.total < 12);
    const searched = page({ search: 'GOAL' });
    assert.equal(searched.total, 12);
    assert.equal(searched.matches, entries(searched.items).filter((item) => item.hit).length);
    assert.equal(searched.matches, 4);
    const marks = page({ search: 'goal', filter: { view: 'marks' } }).items[0] as unknown as { matches: number[] };
    assert.equal(marks.matches.length, 4);
    assert.deepEqual(page({ filter: { view: 'locate', position: '5' } }).items[0], { kind: 'location', position: 5 });
    assert.deepEqual(page({ filter: { view: 'locate', position: '5', grain: 'nothing' } }).items[0], {
      kind: 'location',
      position: -1,
    });
    const positions = page({ filter: { view: 'positions', grain: 'event' } }).items[0] as unknown as {
      positions: number[];
    };
    assert.deepEqual(
      positions.positions,
      entries(events.items).map((item) => item.position),
    );
  });

  it('keeps what it read of a document that does not read to the end', () => {
    const bytes = readFileSync(new URL('../fixtures/zaxy/signed-ed25519-n8.json', import.meta.url));
    const cut = new Uint8Array(bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const page = open(sourceOf(cut, false))({});
    assert.ok(page.notViewable?.includes('maxInspectBytes'));
    assert.ok(entries(page.items).length > 0 && entries(page.items).length < 8);
    const garbage = open(sourceOf(new TextEncoder().encode('[1, 2')))({});
    assert.equal(page.total > 0, true);
    assert.equal(garbage.total, 0);
    assert.ok(garbage.notViewable !== undefined);
  });
});
