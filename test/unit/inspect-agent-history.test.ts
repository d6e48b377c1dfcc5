// The agent-history inspector (src/inspect/agent-history.ts): pages of transcript view models read
// again from the verified bytes, checked against the fixtures parsed independently here
// (JSON.parse), the tool's turn rule and levels (docs/agent-history-markdown.md), exact search
// counts, and hostile or broken files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  agentHistoryInspector,
  MAX_BODY_CHARS,
  type AgentHistoryItem,
  type TranscriptMarks,
  type TranscriptMessage,
  type TranscriptOverview,
} from '../../src/inspect/agent-history.ts';
import type { InspectRequest, InspectSource } from '../../src/inspect/types.ts';

const DIR = 'test/fixtures/agent-history/';
const CLAUDE = `${DIR}real-impl-small-claude-20251120090536_6513270e-269e-0d37-f2a7-4de452e6b438.ndjson`;
const CODEX = `${DIR}real-impl-small-codex-20251120091921_rollout-2025-11-20T09-19-18-9eb4e92e-b5af-4c8a-989d-181ca33066bd.ndjson`;

function source(bytes: Uint8Array, complete = true): InspectSource {
  return { bytes, complete, format: 'agent-history' };
}

function open(path: string): {
  src: InspectSource;
  page: (request: InspectRequest) => ReturnType<typeof agentHistoryInspector.page>;
} {
  const src = source(new Uint8Array(readFileSync(path)));
  const index = agentHistoryInspector.buildIndex(src);
  return { src, page: (request) => agentHistoryInspector.page(src, index, request) };
}

function all(
  page: (request: InspectRequest) => { items: readonly AgentHistoryItem[] },
  filter: Record<string, string> = {},
): TranscriptMessage[] {
  return page({ from: 0, count: 10_000, filter }).items as TranscriptMessage[];
}

function records(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test('design-1.0: sessions in tree order, sub-agent under its parent, forks, every message once', () => {
  const { page } = open(`${DIR}design-small.ndjson`);
  const overview = page({ from: 0, count: 1, filter: { view: 'overview' } }).items[0] as TranscriptOverview;
  const sessions = records(`${DIR}design-small.ndjson`).filter((r) => r['type'] === 'session');
  assert.equal(overview.shape, 'design-1.0');
  assert.equal(overview.sessions.length, sessions.length);
  const expectedCount = sessions.reduce((n, s) => n + (s['messages'] as unknown[]).length, 0);
  assert.equal(overview.messageCount, expectedCount);
  const sub = overview.sessions.findIndex((s) => s.isAgentSession);
  const parent = overview.sessions.findIndex((s) => s.id === overview.sessions[sub]!.parentId);
  assert.equal(sub, parent + 1);
  assert.equal(overview.sessions[sub]!.depth, 1);
  assert.equal(overview.sessions[parent]!.forks.length, 1);
  assert.deepEqual(
    overview.header.find(([key]) => key === 'session_count'),
    ['session_count', '5'],
  );
  // Every message, in order, with the text of its text blocks and the tool's turn rule.
  const messages = all(page);
  assert.equal(messages.length, expectedCount);
  let at = 0;
  sessions.forEach((record, s) => {
    let turn = 0;
    let empty = true;
    for (const raw of record['messages'] as Record<string, unknown>[]) {
      const blocks = raw['content'] as { type: string; text?: string }[];
      const opens = raw['role'] === 'user' && !blocks.some((b) => b.type === 'tool_result');
      if (turn === 0 || (opens && !empty)) turn++;
      empty = false;
      const message = messages[at++]!;
      assert.equal(message.session, s);
      assert.equal(message.turn, turn, `turn of message ${at}`);
      assert.equal(message.role, raw['role']);
      assert.deepEqual(
        message.blocks.filter((b) => b.kind === 'text').map((b) => b.text),
        blocks.filter((b) => b.type === 'text').map((b) => b.text),
      );
      assert.equal(message.uuid, raw['uuid']);
    }
  });
  assert.ok(
    messages.some((m) => m.offPath),
    'a branch off the active path',
  );
  assert.ok(
    messages.some((m) => m.forkPoint),
    'the fork point',
  );
});

test('paging: windows, firstIndex, totals, session filter', () => {
  const { page } = open(`${DIR}design-small.ndjson`);
  const whole = all(page);
  const middle = page({ from: 10, count: 5 });
  assert.equal(middle.firstIndex, 10);
  assert.equal(middle.total, whole.length);
  assert.deepEqual(middle.items, whole.slice(10, 15));
  assert.deepEqual(page({ from: whole.length + 5, count: 5 }).items, []);
  assert.deepEqual(page({ from: -3, count: 2 }).items, whole.slice(0, 2));
  const second = all(page, { session: '1' });
  assert.deepEqual(
    second,
    whole.filter((m) => m.session === 1),
  );
});

test('impl-2.0 Codex: level 1 leaves out the tool-flagged messages, levels 1 and 2 cut at 500 code points', () => {
  const { page } = open(CODEX);
  const raw = records(CODEX).filter((r) => r['type'] === 'message');
  const flagged = raw.filter(
    (r) =>
      (r['role'] === 'assistant' && String(r['content']).startsWith('**[Tool: ')) ||
      (r['role'] === 'system' && String(r['content']).startsWith('**[Tool Result]**\nCall ID: `')),
  );
  assert.ok(flagged.length > 0);
  assert.equal(all(page, { level: '1' }).length, raw.length - flagged.length);
  assert.equal(all(page, { level: '2' }).length, raw.length);
  const calls = all(page, { level: '4' }).filter((m) => m.tool);
  assert.ok(calls.every((m) => m.blocks[0]!.kind === 'tool-use' || m.blocks[0]!.kind === 'tool-result'));
  // A long body: cut at 500 code points at level 2, whole at level 3.
  const long = all(page, { level: '3' }).find((m) => [...m.blocks[0]!.text].length > 500);
  if (long !== undefined) {
    const cut = all(page, { level: '2' }).find((m) => m.id === long.id)!;
    assert.ok(cut.blocks[0]!.levelCut);
    assert.ok([...cut.blocks[0]!.text].length <= 500);
  }
  assert.deepEqual(all(page, { level: '3' })[0]!.meta, [], 'no metadata below level 4');
});

test('search counts exactly, case-insensitively, and marks list the matching positions', () => {
  const { page } = open(CLAUDE);
  const raw = records(CLAUDE).filter((r) => r['type'] === 'message');
  for (const needle of ['invariant', 'BASH', 'no such text']) {
    const expected = raw
      .map((r, position) => ({ position, hit: String(r['content']).toLowerCase().includes(needle.toLowerCase()) }))
      .filter((entry) => entry.hit)
      .map((entry) => entry.position);
    const result = page({ from: 0, count: 3, search: needle, filter: { level: '3' } });
    assert.equal(result.total, raw.length);
    assert.equal(result.matches, expected.length, needle);
    const marks = page({ from: 0, count: 1, search: needle, filter: { level: '3', view: 'marks' } })
      .items[0] as TranscriptMarks;
    assert.deepEqual(marks.matches, expected);
  }
  assert.equal(page({ from: 0, count: 1, search: '   ' }).matches, raw.length, 'a blank search is no search');
});

function ndjson(lines: readonly unknown[]): Uint8Array {
  return new TextEncoder().encode(
    lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n',
  );
}

const HEADER = { type: 'header', schema_version: '2.0', agent: 'claude', session_file: 's.jsonl', workspace: '/w' };
const message = (role: string, content: string, extra: object = {}) => ({
  timestamp: '2025-01-01T00:00:00.000Z',
  role,
  content,
  ...extra,
  type: 'message',
});

test('errors: a Claude tool result with ERROR opens its panel as an error, and marks list it', () => {
  const bytes = ndjson([
    HEADER,
    message('user', 'go'),
    JSON.stringify(
      message(
        'assistant',
        'I will.\n\n**[Tool Use: Bash]**\nTool ID: `t1`\n\nInput:\n```json\n{\n  "command": "false"\n}\n```\n',
        {
          model: 'm',
          tokens: 'TOKENS',
        },
      ),
    ).replace('"TOKENS"', '{"input": 18446744073709551616, "output": 2, "cached": 1.0}'),
    message('user', '\n**[Tool Result: ERROR]**\nTool Use ID: `t1`\n\n```\nexit 1\n```\n'),
    { type: 'session', agent: 'claude', session_id: '', message_count: 3, workspace: '' },
  ]);
  const src = source(bytes);
  const index = agentHistoryInspector.buildIndex(src);
  const messages = agentHistoryInspector.page(src, index, { from: 0, count: 10 }).items as TranscriptMessage[];
  assert.deepEqual(
    messages[1]!.blocks.map((b) => [b.kind, b.name, b.ref]),
    [
      ['text', '', ''],
      ['tool-use', 'Bash', 't1'],
    ],
  );
  assert.equal(messages[1]!.blocks[1]!.text, '{\n  "command": "false"\n}');
  // Numbers by lexeme: 2^64 stays exact, 1.0 stays 1.0.
  assert.deepEqual(
    messages[1]!.meta.find(([label]) => label === 'Tokens'),
    ['Tokens', 'input 18446744073709551616 · output 2 · cached 1.0'],
  );
  assert.equal(messages[2]!.isError, true);
  assert.deepEqual(
    messages[2]!.blocks.map((b) => [b.kind, b.name, b.ref, b.isError]),
    [['tool-result', 'ERROR', 't1', true]],
  );
  const marks = agentHistoryInspector.page(src, index, { from: 0, count: 1, filter: { view: 'marks' } })
    .items[0] as TranscriptMarks;
  assert.deepEqual(marks.errors, [2]);
  assert.equal(agentHistoryInspector.page(src, index, { from: 0, count: 10, filter: { errors: 'only' } }).total, 1);
});

test('hostile and broken files: unreadable lines are listed and skipped, huge bodies clipped, nothing throws', () => {
  const huge = 'x'.repeat(MAX_BODY_CHARS + 10);
  const bytes = ndjson([
    HEADER,
    'not json',
    '[1, 2]',
    message('user', huge),
    '{"timestamp": "t", "role": 5, "content": {"a": [1]}, "type": "message"}',
    '{"type": "message", "role": "user", "content": "cut',
  ]);
  const src = source(bytes, false);
  const index = agentHistoryInspector.buildIndex(src);
  const overview = agentHistoryInspector.page(src, index, { from: 0, count: 1, filter: { view: 'overview' } })
    .items[0] as TranscriptOverview;
  assert.deepEqual(overview.unreadableLines, [2, 3, 6]);
  const result = agentHistoryInspector.page(src, index, { from: 0, count: 10 });
  assert.match(result.notViewable!, /maxInspectBytes/);
  const [big, odd] = result.items as TranscriptMessage[];
  assert.equal(big!.blocks[0]!.text.length, MAX_BODY_CHARS);
  assert.equal(big!.blocks[0]!.fullLength, huge.length);
  const full = agentHistoryInspector.page(src, index, { from: 0, count: 1, filter: { full: '1' } })
    .items[0] as TranscriptMessage;
  assert.equal(full.blocks[0]!.text, huge);
  assert.equal(odd!.role, '5', 'a number role is shown by its lexeme');
  assert.equal(odd!.blocks[0]!.text, '{\n  "a": [\n    1\n  ]\n}');
  // Nothing at all, and only blank lines.
  for (const empty of [new Uint8Array(), new TextEncoder().encode('\n\n')]) {
    const s = source(empty);
    const i = agentHistoryInspector.buildIndex(s);
    assert.equal(agentHistoryInspector.page(s, i, { from: 0, count: 5 }).total, 0);
  }
});

test('locate: a finding’s line gives the position of the first message at or after it', () => {
  const { page } = open(`${DIR}design-small.ndjson`);
  const whole = all(page);
  for (const line of [1, 2, 3, 4, 6]) {
    const found = page({ from: 0, count: 1, filter: { view: 'locate', line: String(line) } }).items[0] as {
      position: number;
    };
    const expected = whole.findIndex((m) => m.line >= line);
    assert.equal(found.position, expected < 0 ? whole.length - 1 : expected, `line ${line}`);
  }
});
