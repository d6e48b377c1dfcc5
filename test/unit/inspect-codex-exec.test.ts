// The codex-exec inspector (src/inspect/codex-exec.ts): the outcome and attempts, the terminal
// replay as codex-orchestrator prints it, pages that start from checkpoints (checked against one
// page of everything), the stream tabs' comparison with exec:end's 64 KiB buffers (spec, 'Doc vs
// code differences' 3–5), exact search counts, and broken streams.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  codexExecInspector,
  END_BUFFER_BYTES,
  type CodexExecItem,
  type ExecMarks,
  type ExecSummary,
  type ExecTerminalLine,
  type ExecText,
} from '../../src/inspect/codex-exec.ts';
import type { InspectRequest, InspectSource } from '../../src/inspect/types.ts';

const DIR = 'test/fixtures/codex-exec/';

function open(
  bytes: Uint8Array,
  complete = true,
): (request: InspectRequest) => {
  items: readonly CodexExecItem[];
  total: number;
  matches: number;
  firstIndex: number;
  notViewable?: string;
} {
  const src: InspectSource = { bytes, complete, format: 'codex-exec' };
  const index = codexExecInspector.buildIndex(src);
  return (request) => codexExecInspector.page(src, index, request);
}

const file = (name: string) => new Uint8Array(readFileSync(DIR + name));
const text = (line: CodexExecItem) => (line as ExecTerminalLine).spans.map((span) => span.text).join('');
const summaryOf = (page: ReturnType<typeof open>) =>
  page({ from: 0, count: 1, filter: { view: 'summary' } }).items[0] as ExecSummary;
const replay = (page: ReturnType<typeof open>, filter: Record<string, string> = {}) =>
  page({ from: 0, count: 10_000, filter: { view: 'terminal', ...filter } }).items.map(text);

function stream(chunks: readonly (readonly ['stdout' | 'stderr', string])[]): Uint8Array {
  const correlationId = 'c';
  const records: unknown[] = [
    { type: 'exec:begin', timestamp: 't', payload: { attempt: 1, correlationId, command: 'cmd', args: [], cwd: '/w' } },
    ...chunks.map(([name, data], i) => ({
      type: 'exec:chunk',
      timestamp: 't',
      payload: {
        attempt: 1,
        correlationId,
        stream: name,
        sequence: i + 1,
        bytes: new TextEncoder().encode(data).length,
        data,
      },
    })),
  ];
  const tail = (name: string) => {
    const bytes = new TextEncoder().encode(
      chunks
        .filter(([n]) => n === name)
        .map(([, d]) => d)
        .join(''),
    );
    return new TextDecoder().decode(bytes.slice(-END_BUFFER_BYTES));
  };
  records.push({
    type: 'exec:end',
    timestamp: 't',
    payload: {
      attempt: 1,
      correlationId,
      exitCode: 0,
      signal: null,
      durationMs: 1,
      stdout: tail('stdout'),
      stderr: tail('stderr'),
      status: 'succeeded',
    },
  });
  records.push({
    type: 'run:summary',
    timestamp: 't',
    payload: { status: 'succeeded', run: { id: 'r1' }, result: { exitCode: 0 } },
  });
  return new TextEncoder().encode(records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

test('the replay is what the tool prints; the summary has the outcome, attempts and retry gap', () => {
  const page = open(file('derived-retry-2-attempts.jsonl'));
  assert.deepEqual(replay(page), [
    '$ echo hello',
    '[retry] attempt 1 in 250ms — spawn EPERM',
    'hello',
    '2026-11-22T01-36-37-715Z-beac1b87 SUCCEEDED',
  ]);
  const summary = summaryOf(page);
  assert.equal(summary.status, 'succeeded');
  assert.equal(summary.exitCode, '0');
  assert.equal(summary.attempts.length, 2);
  assert.deepEqual(
    summary.attempts.map((a) => [a.attempt, a.status, a.exitCode, a.durationMs, a.retry?.delayMs ?? '']),
    [
      ['1', 'failed', '', '3', '250'],
      ['2', 'succeeded', '0', '10', ''],
    ],
  );
  assert.equal(summary.command, 'echo hello');
  assert.equal(summary.cwd, '/tmp/cx-work/repo');
});

test('an exit code of 128+n is read as signal n; stderr lines keep their stream', () => {
  const page = open(file('real-signal-kill.jsonl'));
  const summary = summaryOf(page);
  assert.equal(summary.exitCode, '143');
  assert.equal(summary.signalFromExit, 'SIGTERM');
  assert.equal(summary.signal, '', 'the signal field itself is null');
  const lines = page({ from: 0, count: 100, filter: { view: 'terminal' } }).items as ExecTerminalLine[];
  assert.deepEqual(
    lines.map((line) => line.spans.map((span) => span.stream ?? '-')),
    [['-'], ['stdout'], ['stderr'], ['-']],
  );
  assert.deepEqual(replay(page, { stream: 'stderr' }), ['Terminated']);
  assert.equal(summaryOf(open(file('real-exit-code-3.jsonl'))).signalFromExit, '');
});

test('pages start from checkpoints and equal the same lines of one whole page, in every replay', () => {
  const chunks: ['stdout' | 'stderr', string][] = [];
  for (let i = 0; i < 1500; i++) {
    const colour = `\u001b[3${i % 8}m`;
    chunks.push([i % 3 === 0 ? 'stderr' : 'stdout', `${colour}row ${i}${i % 5 === 0 ? '\r' : '\n'}`]);
    if (i % 97 === 0) chunks.push(['stdout', 'partial ']);
  }
  const page = open(stream(chunks));
  for (const filter of [{}, { stream: 'stdout' }, { stream: 'stderr' }]) {
    const whole = page({ from: 0, count: 10_000, filter: { view: 'terminal', ...filter } });
    assert.ok(whole.total > 300, `${JSON.stringify(filter)}: ${whole.total} lines`);
    for (const from of [0, 1, 255, 256, 257, whole.total - 60, whole.total - 3]) {
      const part = page({ from, count: 40, filter: { view: 'terminal', ...filter } });
      assert.equal(part.firstIndex, from);
      assert.deepEqual(part.items, whole.items.slice(from, from + 40), `${JSON.stringify(filter)} from ${from}`);
    }
  }
});

test('the stream tabs say why exec:end differs: the 64 KiB tail, and characters split across chunks', () => {
  const big = open(stream(Array.from({ length: 800 }, () => ['stdout', `${'y'.repeat(99)}\n`] as const)));
  const [stdout, stderr] = summaryOf(big).attempts[0]!.streams;
  assert.equal(stdout!.chunkBytes, 80_000);
  assert.equal(stdout!.endBytes, END_BUFFER_BYTES);
  assert.equal(stdout!.same, false);
  assert.deepEqual(stdout!.why, ['exec:end keeps only the last 65,536 bytes; the chunks carried 80,000']);
  assert.equal(stderr!.same, true);
  const split = summaryOf(open(file('real-split-utf8.jsonl'))).attempts[0]!.streams[0]!;
  assert.equal(split.same, false);
  assert.match(split.why.join(' '), /split across chunks/);
  const small = summaryOf(open(file('real-success.jsonl'))).attempts[0]!.streams;
  assert.ok(small.every((s) => s.same && s.why.length === 0));
  // The texts for the downloads: all chunks, and the exec:end buffer.
  const chunksText = (big({ from: 0, count: 1, filter: { view: 'text', stream: 'stdout' } }).items[0] as ExecText).text;
  assert.equal(chunksText.length, 80_000);
  const endText = (
    big({ from: 0, count: 1, filter: { view: 'text', stream: 'stdout', of: 'end' } }).items[0] as ExecText
  ).text;
  assert.equal(endText, chunksText.slice(-END_BUFFER_BYTES));
});

test('search counts the matching terminal lines exactly; marks list them; locate finds a record’s line', () => {
  const chunks = Array.from({ length: 700 }, (_, i) => ['stdout', `n${i}${i % 9 === 0 ? ' Hit' : ''}\n`] as const);
  const page = open(stream(chunks));
  const expected = chunks.map(([, d], i) => (d.includes('Hit') ? i + 1 : -1)).filter((i) => i >= 0);
  const result = page({ from: 0, count: 5, search: 'hIT', filter: { view: 'terminal' } });
  assert.equal(result.total, 702);
  assert.equal(result.matches, expected.length);
  const marks = page({ from: 0, count: 1, search: 'hIT', filter: { view: 'marks' } }).items[0] as ExecMarks;
  assert.deepEqual(marks.matches, expected);
  // Record line 302 is the chunk of `n300`: terminal line 301 (after `$ cmd`).
  const found = page({ from: 0, count: 1, filter: { view: 'locate', line: '302' } }).items[0] as { position: number };
  assert.equal(found.position, 301);
});

test('broken streams: unreadable lines are listed, a missing begin or summary still replays, nothing throws', () => {
  const bytes = new TextEncoder().encode(
    [
      'garbage',
      '{"type":"exec:chunk","timestamp":"t","payload":{"attempt":1,"stream":"stdout","data":"a\\u001b[31"}}',
      '{"type":"exec:chunk","timestamp":"t","payload":{"attempt":1,"stream":"stdout","data":"mred\\n"}}',
      '{"type":"exec:chunk","payload":{"data":7}}',
      '[]',
      '{"type":"exec:end","payload":null}',
    ].join('\n'),
  );
  const page = open(bytes, false);
  const summary = summaryOf(page);
  assert.deepEqual(summary.unreadableLines, [1]);
  assert.equal(summary.status, '');
  const lines = page({ from: 0, count: 10, filter: { view: 'terminal' } });
  assert.deepEqual(lines.items.map(text), ['ared']);
  assert.deepEqual(
    (lines.items[0] as ExecTerminalLine).spans.map((s) => s.style),
    [{}, { fg: 1 }],
  );
  assert.match(lines.notViewable!, /maxInspectBytes/);
  const empty = open(new Uint8Array());
  assert.equal(empty({ from: 0, count: 10, filter: { view: 'terminal' } }).total, 0);
  assert.equal(summaryOf(empty).attempts.length, 0);
});
