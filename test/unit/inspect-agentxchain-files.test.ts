// The AgentXchain file inspector over the fixtures: the file table with badges recomputed from the
// verified bytes, a file's content as text, JSON tree or JSONL rows, search counts, finding
// locations (nested repository exports too) and downloads.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  agentxchainFilesInspector,
  type AgentxchainFileContent,
  type AgentxchainFileItem,
  type AgentxchainRow,
} from '../../src/inspect/agentxchain-files.ts';
import type { InspectRequest, InspectSource } from '../../src/inspect/types.ts';

function fixture(name: string): InspectSource {
  const bytes = new Uint8Array(readFileSync(new URL(`../fixtures/agentxchain/${name}`, import.meta.url)));
  return { bytes, complete: true, format: 'agentxchain' };
}
function open(
  source: InspectSource,
): (request: Partial<InspectRequest>) => ReturnType<typeof agentxchainFilesInspector.page> {
  const index = agentxchainFilesInspector.buildIndex(source);
  return (request) => agentxchainFilesInspector.page(source, index, { from: 0, count: 1000, ...request });
}
function files(page: ReturnType<ReturnType<typeof open>>): AgentxchainFileItem[] {
  return page.items as AgentxchainFileItem[];
}
function positionOf(list: AgentxchainFileItem[], name: string): string {
  const found = list.find((file) => file.name === name);
  assert.ok(found, name);
  return String(found.position);
}

describe('AgentXchain file inspector', () => {
  it('badges each file from its decoded bytes', () => {
    const page = open(fixture('real-bounded.json'));
    const list = files(page({}));
    assert.equal(list.length, 25);
    const byName = new Map(list.map((file) => [file.name, file]));
    assert.equal(byName.get('.agentxchain/state.json')?.statusText, 'bytes match SHA-256');
    assert.equal(byName.get('.planning/big.json')?.statusText, 'not verified');
    assert.equal(byName.get('.planning/big.json')?.status, 'not-verified');
    const flipped = files(open(fixture('file-sha-flip.json'))({})).filter((file) => file.status !== 'match');
    assert.deepEqual(
      flipped.map((file) => [file.name, file.statusText]),
      [['.planning/ROADMAP.md', 'bytes do not match SHA-256']],
    );
    const longer = files(open(fixture('file-bytes-plus-one.json'))({})).filter((file) => file.status !== 'match');
    assert.deepEqual(
      longer.map((file) => [file.name, file.statusText]),
      [['TALK.md', 'length does not match bytes']],
    );
  });

  it('opens text, a JSON tree and JSONL rows', () => {
    const page = open(fixture('real-full.json'));
    const list = files(page({}));
    const text = page({ filter: { view: 'content', file: positionOf(list, '.planning/crlf.txt') } })
      .items[0] as AgentxchainFileContent;
    assert.equal(text.display, 'text');
    assert.ok(text.text.includes('\r\n'));
    const json = page({ filter: { view: 'content', file: positionOf(list, '.agentxchain/state.json') } })
      .items[0] as AgentxchainFileContent;
    assert.equal(json.display, 'json');
    assert.equal(json.tree?.type, 'object');
    assert.ok(json.tree!.children.some((child) => child.key === 'run_id' && child.type === 'string'));
    const file = positionOf(list, '.agentxchain/decision-ledger.jsonl');
    const content = page({ filter: { view: 'content', file } }).items[0] as AgentxchainFileContent;
    assert.equal(content.display, 'jsonl');
    assert.equal(content.rowCount, 7);
    const rows = page({ filter: { view: 'rows', file }, search: 'dec-00' });
    assert.equal(rows.total, 7);
    assert.equal(rows.matches, 4);
    assert.deepEqual(
      (rows.items as AgentxchainRow[]).filter((row) => row.hit).map((row) => row.row),
      [1, 2, 4, 5],
    );
    const download = page({ filter: { view: 'download', file } }).items[0] as { bytes: Uint8Array; name: string };
    assert.equal(download.name, 'decision-ledger.jsonl');
    assert.equal(
      download.bytes.length,
      Number(list.find((entry) => entry.name === '.agentxchain/decision-ledger.jsonl')!.bytes),
    );
  });

  it('keeps number lexemes in the JSON tree', () => {
    const artifact = new TextEncoder().encode(
      JSON.stringify({
        files: { 'a.json': { format: 'json', content_base64: btoa('{"a":1.0,"b":18446744073709551616}') } },
      }),
    );
    const page = open({ bytes: artifact, complete: true, format: 'agentxchain' });
    const content = page({ filter: { view: 'content', file: '0' } }).items[0] as AgentxchainFileContent;
    assert.deepEqual(
      content.tree!.children.map((child) => child.value),
      ['1.0', '18446744073709551616'],
    );
  });

  it('counts search matches over file names and inside a file exactly', () => {
    const page = open(fixture('real-full.json'));
    assert.equal(page({ search: '.JSONL' }).matches, 6);
    const list = files(page({}));
    const json = page({
      filter: { view: 'content', file: positionOf(list, '.agentxchain/state.json') },
      search: 'run_',
    }).items[0] as AgentxchainFileContent;
    const decoded = Buffer.from(
      JSON.parse(readFileSync(new URL('../fixtures/agentxchain/real-full.json', import.meta.url), 'utf8')).files[
        '.agentxchain/state.json'
      ].content_base64,
      'base64',
    ).toString('utf8');
    assert.equal(json.occurrences, decoded.split('run_').length - 1);
  });

  it('locates the file of a finding, in nested repository exports too', () => {
    const page = open(fixture('real-coord-broken.json'));
    const list = files(page({}));
    const nested = list.find((file) => file.repos.length > 0)!;
    assert.ok(nested.path.startsWith('$.repos.'));
    assert.deepEqual(page({ filter: { view: 'locate', path: `${nested.path}.sha256` } }).items[0], {
      kind: 'location',
      position: nested.position,
    });
    assert.deepEqual(page({ filter: { view: 'locate', path: '$.config' } }).items[0], {
      kind: 'location',
      position: -1,
    });
  });
});
