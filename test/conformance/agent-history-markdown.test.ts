// agent-history's own markdown (docs/agent-history-markdown.md): every `exact` golden of
// test/fixtures/agent-history/markdown/ byte for byte, through the core API (plain, gzip, a stream
// of 7-byte chunks) and through the CLI process; the `lossy` goldens as reconstructions that agree
// with the tool's file up to the first difference the manifest names; then the rules of the
// contract at their boundaries and hostile inputs, with expectations written from the contract.
// The CLI runs from dist/ unless VERIFY_EXPORT_CLI_FROM_SOURCE=1 (test/helpers/cli.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { agentHistoryMarkdown, type MarkdownLevel } from '../../src/formats/agent-history/markdown/index.ts';
import { markdownFileName } from '../../src/formats/agent-history/markdown/file-name.ts';
import { runCli } from '../helpers/cli.ts';
import { fixturePath, loadCases } from '../helpers/fixtures.ts';

interface MarkdownCase {
  readonly fixture: string;
  readonly level: MarkdownLevel;
  readonly minimal: boolean;
  readonly md_file: string;
  readonly parity: 'exact' | 'lossy';
  readonly note: string;
}

const FOLDER = 'agent-history/markdown';
const cases = loadCases<MarkdownCase>(FOLDER);
const exactCases = cases.filter((c) => c.parity === 'exact');
const lossyCases = cases.filter((c) => c.parity === 'lossy');

const fixtureBytes = (c: MarkdownCase): Uint8Array => new Uint8Array(readFileSync(fixturePath(FOLDER, c.fixture)));
const golden = (c: MarkdownCase): string => readFileSync(fixturePath(FOLDER, c.md_file), 'utf8');
const modeName = (c: MarkdownCase): string => `level ${c.level}${c.minimal ? ' --minimal' : ''}`;
const cliArgs = (c: { level: number; minimal: boolean }): string[] => [
  'markdown',
  '--level',
  String(c.level),
  ...(c.minimal ? ['--minimal'] : []),
];

/** A stream handing out `bytes` seven at a time. */
function sevenByteChunks(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 7));
      offset += 7;
    },
  });
}

async function render(input: Uint8Array | string | ReadableStream<Uint8Array>, level: MarkdownLevel, minimal = false) {
  return agentHistoryMarkdown(input, { level, minimal });
}

describe('agent-history markdown goldens (core API)', () => {
  it('finds 34 exact and 6 lossy cases', () => {
    assert.equal(exactCases.length, 34);
    assert.equal(lossyCases.length, 6);
  });

  for (const c of exactCases) {
    it(`${c.md_file} (${modeName(c)}) byte for byte`, async () => {
      const bytes = fixtureBytes(c);
      const expected = golden(c);
      const result = await render(bytes, c.level, c.minimal);
      assert.equal(result.status, 'exact', result.markdown === null ? result.message : result.missing.join('; '));
      assert.equal(result.markdown, expected);
      assert.deepEqual(Buffer.from(result.markdown!, 'utf8'), readFileSync(fixturePath(FOLDER, c.md_file)));
      // The tool names the file as the NDJSON export, with .md (its fixture name has a prefix).
      const exportName = basename(c.fixture)
        .replace(/^real-impl-small-[a-z]+-/, '')
        .replace(/\.ndjson$/, '.md');
      assert.equal(result.fileName, exportName);
      const zipped = await render(new Uint8Array(gzipSync(bytes)), c.level, c.minimal);
      assert.equal(zipped.markdown, expected, 'gzip input');
      const chunked = await render(sevenByteChunks(bytes), c.level, c.minimal);
      assert.equal(chunked.markdown, expected, '7-byte chunks');
    });
  }

  for (const c of lossyCases) {
    it(`${c.md_file} (${modeName(c)}) is a reconstruction that agrees up to ${c.note.match(/line \d+/)?.[0]}`, async () => {
      const result = await render(fixtureBytes(c), c.level, c.minimal);
      assert.equal(result.status, 'reconstructed');
      assert.ok(result.missing.length > 0);
      const ours = result.markdown!.split('\n');
      const theirs = golden(c).split('\n');
      const firstDifference = Number(/first difference at line (\d+)/.exec(c.note)?.[1]);
      assert.ok(firstDifference > 1, `the note names the first difference: ${c.note}`);
      assert.deepEqual(ours.slice(0, firstDifference - 1), theirs.slice(0, firstDifference - 1));
      assert.notEqual(ours[firstDifference - 1], theirs[firstDifference - 1]);
    });
  }
});

describe('agent-history markdown goldens (CLI)', () => {
  for (const c of exactCases) {
    it(`${c.md_file} (${modeName(c)})`, () => {
      const result = runCli([...cliArgs(c), fixturePath(FOLDER, c.fixture)]);
      assert.equal(result.stderr, '');
      assert.equal(result.status, 0);
      assert.equal(result.stdout, golden(c));
    });
  }

  it('reads stdin and gzip', () => {
    const c = exactCases.find((x) => x.level === 3 && !x.minimal && x.fixture.includes('codex'))!;
    const result = runCli([...cliArgs(c), '-'], { input: gzipSync(fixtureBytes(c)) });
    assert.equal(result.status, 0);
    assert.equal(result.stdout, golden(c));
  });

  it('writes a long text whole, never splitting an emoji between two writes', () => {
    // One of the two offsets puts a surrogate pair across the CLI's 1 Mi-character write boundary.
    for (const prefix of ['', 'a']) {
      const content = `${prefix}${'😀'.repeat(600_000)}`;
      const result = runCli(['markdown', '--level', '3', '--minimal', '-'], {
        input: session('claude', [{ role: 'user', content }]),
      });
      assert.equal(result.status, 0);
      assert.equal(result.stdout, `# Claude Conversation\n\n---\n\n## Turn 1\n\n### User\n\n${content}\n`);
    }
  });

  it('prints a reconstruction with a note on stderr and exit 0', () => {
    const c = lossyCases.find((x) => x.fixture.includes('codex'))!;
    const result = runCli([...cliArgs(c), fixturePath(FOLDER, c.fixture)]);
    assert.equal(result.status, 0);
    assert.match(result.stderr, /reconstructed, not agent-history's own file: .*Session Metadata/);
    assert.match(
      result.stdout,
      /^# Codex Conversation\n\n---\n\n## User \(Message 1\)\n\*2025-11-20T09:19:21\.000Z\*\n/,
    );
  });

  it('prints no markdown for a file that fails verification (exit 1, report on stderr)', () => {
    const result = runCli([
      ...cliArgs({ level: 3, minimal: false }),
      fixturePath('agent-history', 'impl-small-truncated.ndjson'),
    ]);
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /FAIL: verification found problems/);
    assert.match(result.stderr, /no markdown: the input failed verification/);
  });

  it('refuses design-1.0, unreadable input and bad usage (exit 2)', () => {
    const design = runCli([
      ...cliArgs({ level: 1, minimal: false }),
      fixturePath('agent-history', 'design-small.ndjson'),
    ]);
    assert.equal(design.status, 2);
    assert.equal(design.stdout, '');
    assert.match(design.stderr, /design-1\.0/);
    const missing = runCli(['markdown', '--level', '1', fixturePath('agent-history', 'no-such-file.ndjson')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read .*ENOENT/);
    for (const args of [
      ['--level', '5', 'x'],
      ['--level', '1'],
      ['--level', '1', 'a', 'b'],
      ['--bogus', 'x'],
    ]) {
      const usage = runCli(['markdown', ...args]);
      assert.equal(usage.status, 2, args.join(' '));
      assert.match(usage.stderr, /Usage: verify-export markdown/);
    }
    const help = runCli(['markdown', '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: verify-export markdown/);
  });
});

// ---------------------------------------------------------------------------------------------
// Synthetic sessions: the contract's rules at their boundaries, and hostile text.

const T1 = '2025-01-01T00:00:00.000Z';
const T2 = '2025-01-01T00:00:05.000Z';

/** An impl-2.0 file: header, messages (objects, or raw message lines), summary. */
function session(agent: string, messages: readonly (Record<string, unknown> | string)[], summary = {}): string {
  const lines = [JSON.stringify({ type: 'header', schema_version: '2.0', agent, session_file: 's.jsonl' })];
  for (const message of messages) {
    lines.push(
      typeof message === 'string'
        ? message
        : JSON.stringify({ timestamp: '', role: 'user', content: '', ...message, type: 'message' }),
    );
  }
  lines.push(
    JSON.stringify({
      type: 'session',
      agent,
      session_id: '',
      message_count: messages.length,
      workspace: '',
      ...summary,
    }),
  );
  return `${lines.join('\n')}\n`;
}

describe('agent-history markdown: the contract at its boundaries', () => {
  it('passes markup, controls and bidi characters through as text, stripping Python whitespace only', async () => {
    const file = session('claude', [
      { timestamp: T1, role: 'user', content: '<img src=x onerror=alert(1)></script>[x](javascript:alert(1))' },
      { role: 'assistant', content: '\u001c line1\r\nline2\u0000\u2028\u202e rtl \u0085' },
    ]);
    const result = await render(file, 3);
    assert.equal(result.status, 'exact');
    assert.equal(
      result.markdown,
      '# Claude Conversation\n\n**File:** s.jsonl\n**Messages:** 2\n**Markdown detail level:** 3\n' +
        `**Started:** ${T1}\n\n---\n\n## Turn 1\n\n### User\n\n*${T1}*\n\n` +
        '<img src=x onerror=alert(1)></script>[x](javascript:alert(1))\n\n### Assistant\n\n' +
        'line1\r\nline2\u0000\u2028\u202e rtl\n',
    );
    const verbatim = await render(file, 4, true);
    assert.ok(verbatim.markdown!.includes('\n\n\u001c line1\r\nline2\u0000\u2028\u202e rtl \u0085\n\n---\n'));
  });

  it('numbers turns, skips tool traffic at level 1 and empty bodies, and title-cases roles (Codex)', async () => {
    const file = session('codex', [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '**[Tool: shell]**\nCall ID: `c1`\n```json\n{}\n```' },
      { role: 'system', content: '**[Tool Result]**\nCall ID: `c1`\n```\nok\n```' },
      { role: 'x-tool_2nd', content: 'note' },
      { role: 'user', content: '\u001c\u001f\u0085 ' },
      { role: 'user', content: '\ufefftext\ufeff' },
    ]);
    const level1 = await render(file, 1, true);
    assert.equal(
      level1.markdown,
      '# Codex Conversation\n\n---\n\n## Turn 1\n\n### User\n\nhi\n\n### X-Tool_2Nd\n\nnote\n\n' +
        '## Turn 2\n\n## Turn 3\n\n### User\n\n\ufefftext\ufeff\n',
    );
    const level2 = await render(file, 2, true);
    assert.equal(
      level2.markdown,
      '# Codex Conversation\n\n---\n\n## Turn 1\n\n### User\n\nhi\n\n' +
        '### Tool Call\n\n**[Tool: shell]**\nCall ID: `c1`\n```json\n{}\n```\n\n' +
        '### Tool Result\n\n**[Tool Result]**\nCall ID: `c1`\n```\nok\n```\n\n' +
        '### X-Tool_2Nd\n\nnote\n\n## Turn 2\n\n## Turn 3\n\n### User\n\n\ufefftext\ufeff\n',
    );
    const level4 = await render(file, 4, true);
    assert.match(level4.markdown!, /\n## Tool Call \(Message 2\)\n\n\*\*\[Tool: shell\]\*\*/);
    assert.match(level4.markdown!, /\n## Tool Result \(Message 3\)\n/);
    assert.match(level4.markdown!, /\n## X-Tool_2Nd \(Message 4\)\n/);
  });

  it('opens a turn at each Claude tool result (a user message)', async () => {
    const file = session('claude', [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '\n**[Tool Use: Bash]**\nTool ID: `t1`\n\nInput:\n```json\n{}\n```\n' },
      { role: 'user', content: '\n**[Tool Result: Success]**\nTool Use ID: `t1`\n\n```\nok\n```\n' },
    ]);
    const result = await render(file, 1, true);
    assert.equal(
      result.markdown,
      '# Claude Conversation\n\n---\n\n## Turn 1\n\n### User\n\ngo\n\n### Assistant\n\n' +
        '**[Tool Use: Bash]**\nTool ID: `t1`\n\nInput:\n```json\n{}\n```\n\n## Turn 2\n\n### User\n\n' +
        '**[Tool Result: Success]**\nTool Use ID: `t1`\n\n```\nok\n```\n',
    );
  });

  it('cuts levels 1 and 2 at 500 code points, never inside an emoji', async () => {
    const a499 = 'a'.repeat(499);
    const file = session('claude', [
      { role: 'user', content: `${a499}😀b` }, // 501 code points: cut
      { role: 'assistant', content: `${a499}😀` }, // 500: kept
      { role: 'assistant', content: `${'x'.repeat(499)} y` }, // cut, then the cut is right-stripped
    ]);
    const expectedBodies = [`${a499}😀\n\n... [truncated]`, `${a499}😀`, `${'x'.repeat(499)}\n\n... [truncated]`];
    const level2 = await render(file, 2, true);
    assert.equal(
      level2.markdown,
      `# Claude Conversation\n\n---\n\n## Turn 1\n\n### User\n\n${expectedBodies[0]}\n\n### Assistant\n\n` +
        `${expectedBodies[1]}\n\n### Assistant\n\n${expectedBodies[2]}\n`,
    );
    const level3 = await render(file, 3, true);
    assert.ok(level3.markdown!.includes(`${a499}😀b`));
    assert.ok(!level3.markdown!.includes('[truncated]'));
  });

  it('writes the header only without --minimal, Ended only from two messages', async () => {
    const empty = session('gemini', []);
    assert.equal(
      (await render(empty, 1)).markdown,
      '# Gemini Conversation\n\n**File:** s.jsonl\n**Messages:** 0\n**Markdown detail level:** 1\n\n---\n',
    );
    assert.equal((await render(empty, 2, true)).markdown, '# Gemini Conversation\n\n---\n');
    assert.equal((await render(session('claude', []), 4, true)).markdown, '# Claude Code Session: s.jsonl\n\n\n---\n');
    const one = session('pi', [{ timestamp: T1, role: 'user', content: 'x' }]);
    assert.match((await render(one, 2)).markdown!, new RegExp(`\\*\\*Started:\\*\\* ${T1}\n\n---\n`));
    const two = session('pi', [
      { timestamp: T1, role: 'user', content: 'x' },
      { timestamp: T2, role: 'assistant', content: 'y' },
    ]);
    assert.match((await render(two, 2)).markdown!, new RegExp(`Started:\\*\\* ${T1}\n\\*\\*Ended:\\*\\* ${T2}\n\n---`));
  });

  it('prints Pi tool arguments as Python does: key order, number lexemes, escapes, None', async () => {
    const call =
      '{"timestamp": "", "role": "assistant", "content": "", "tool_calls": [{"name": "bash", "id": null, ' +
      '"arguments": {"10": 1, "2": 30.0, "z": [], "a": {"é": "\\u2028\\"\\\\\\u0001"}, ' +
      '"big": 123456789012345678901234567890}}, {"name": "read"}], "type": "message"}';
    const file = session('pi', [
      call,
      {
        role: 'system',
        content: 'out',
        raw_role: 'toolResult',
        tool_result: { tool_call_id: 'c', tool_name: 'bash', is_error: false },
      },
      { role: 'system', content: '{}', raw_role: 'model_change' },
    ]);
    const result = await render(file, 4, true);
    assert.equal(result.status, 'exact');
    assert.equal(
      result.markdown,
      '# Pi Conversation\n\n---\n\n## Assistant (Message 1)\n\n' +
        '**[Tool: bash]**\nCall ID: `None`\n```json\n{\n  "10": 1,\n  "2": 30.0,\n  "z": [],\n  "a": {\n' +
        '    "é": "\u2028\\"\\\\\\u0001"\n  },\n  "big": 123456789012345678901234567890\n}\n```\n\n' +
        '**[Tool: read]**\nCall ID: ``\n```json\n{}\n```\n\n---\n\n' +
        '## Tool Result: bash (Message 2)\n\nout\n\n---\n\n## Context: model_change (Message 3)\n\n{}\n\n---\n',
    );
    const withCustom = session('pi', [{ role: 'system', content: 'c', raw_role: 'custom' }]);
    const custom = await render(withCustom, 4, true);
    assert.equal(custom.status, 'reconstructed');
    assert.match(custom.markdown!, /## Context: custom \(Message 1\)/);
    assert.equal((await render(withCustom, 2, true)).status, 'exact');
  });

  it('writes the Claude metadata block and fork summary in the default level 4 (reconstructed)', async () => {
    const forks = {
      fork_points: ['abcdef0123456789'],
      branches: [
        {
          fork_uuid: 'abcdef0123456789',
          fork_timestamp: T1,
          fork_type: '',
          branches: [
            { uuid: '11111111-2222', timestamp: T1, type: 'user' },
            { uuid: '33333333-4444', timestamp: T2, type: 'assistant' },
          ],
        },
      ],
    };
    const file = session(
      'claude',
      [
        { timestamp: T1, role: 'user', content: 'hi' },
        { timestamp: T2, role: 'assistant', content: 'yo', model: 'm', tokens: { input: 3, output: 4 } },
      ],
      { forks },
    );
    const result = await render(file, 4);
    assert.equal(result.status, 'reconstructed');
    assert.equal(
      result.markdown,
      `# Claude Code Session: s.jsonl\n\n**Started:** ${T1}\n**Ended:** ${T2}\n**Messages:** 2\n\n` +
        '### Conversation Structure\n\n' +
        'This conversation has **1 fork point(s)** where the conversation branched into multiple paths.\n\n' +
        `**Fork 1** at message \`abcdef01...\`\n- Fork time: ${T1}\n- Branches: 2\n` +
        `  - Branch 1: [user \`11111111...\`](#msg-11111111-2222) (${T1})\n` +
        `  - Branch 2: [assistant \`33333333...\`](#msg-33333333-4444) (${T2})\n\n\n---\n\n` +
        `## Message 1: User\n\n*${T1}*\n\nhi\n\n---\n\n` +
        `## Message 2: Assistant\n\n*${T2}*\n\nyo\n\n\n<details>\n<summary>Metadata</summary>\n\n` +
        '**Model:** m\n**Tokens:** 3 in / 4 out\n\n</details>\n---\n',
    );
    const minimal = await render(file, 4, true);
    assert.equal(minimal.status, 'exact');
    assert.ok(!minimal.markdown!.includes('Conversation Structure') && !minimal.markdown!.includes('<details>'));
  });

  it('labels Gemini system messages System and says the file is reconstructed', async () => {
    const file = session('gemini', [
      { role: 'user', content: 'q' },
      { role: 'system', content: 'quota' },
      { role: 'assistant', content: 'a', tool_calls: [{ name: 'ls', id: 'i', args: {}, status: 'success' }] },
    ]);
    const level2 = await render(file, 2, true);
    assert.equal(level2.status, 'reconstructed');
    assert.match(level2.markdown!, /### System\n\nquota/);
    const level4 = await render(file, 4, true);
    assert.equal(level4.status, 'reconstructed');
    assert.equal(level4.missing.length, 2);
    assert.match(level4.markdown!, /## Model \(Message 3\)\n\na\n\n\*\*\[Tool: ls\]\*\* \(success\)\n\n---\n$/);
  });

  it('names the file as the tool does', () => {
    assert.equal(markdownFileName('rollout-1.jsonl', '2025-11-20T09:35:38.000Z'), '20251120093538_rollout-1.md');
    assert.equal(markdownFileName('a.b.json', '2025-11-20T09:35:38+05:30'), '20251120093538_a.b.md');
    assert.equal(markdownFileName('x.jsonl', '2025-11-20 09:35'), '20251120093500_x.md');
    assert.equal(markdownFileName('x.jsonl', '2025-11-20'), '20251120000000_x.md');
    assert.equal(markdownFileName('x.jsonl', '2025-02-29T00:00:00Z'), 'x.md'); // no such day
    assert.equal(markdownFileName('x.jsonl', '2025-11-20T24:00:00Z'), 'x.md');
    assert.equal(markdownFileName('x.jsonl', ''), 'x.md');
    assert.equal(markdownFileName('.bashrc', undefined), '.bashrc.md');
  });
});

describe('agent-history markdown: hostile and refused input', () => {
  it('renders nothing for a file that fails verification, and says why', async () => {
    const bytes = readFileSync(fixturePath('agent-history', 'impl-small-message-count-mismatch.ndjson'));
    const result = await render(new Uint8Array(bytes), 3);
    assert.equal(result.status, 'not-verified');
    assert.equal(result.markdown, null);
    assert.equal(result.report.overall, 'fail');
    assert.ok(result.report.findings.some((f) => f.code === 'agent-history.message_count'));
  });

  it('refuses design-1.0 files', async () => {
    const bytes = readFileSync(fixturePath('agent-history', 'design-small.ndjson.gz'));
    const result = await render(new Uint8Array(bytes), 2);
    assert.equal(result.report.overall, 'pass');
    assert.equal(result.status, 'unsupported');
    assert.equal(result.markdown, null);
  });

  it('keeps a line longer than limits.maxLineBytes out (the file fails verification)', async () => {
    const file = session('claude', [{ role: 'user', content: 'x'.repeat(5000) }]);
    const result = await agentHistoryMarkdown(file, { level: 3, limits: { maxLineBytes: 1024 } });
    assert.equal(result.status, 'not-verified');
    assert.ok(result.report.findings.some((f) => f.code === 'limit.line_bytes'));
  });

  it('stops at maxMarkdownLength, also for deep nesting that pretty-prints huge', async () => {
    const deep = `${'['.repeat(900)}${Array(2000).fill('0').join(',')}${']'.repeat(900)}`;
    const line = `{"timestamp": "", "role": "assistant", "content": "", "tool_calls": [{"name": "t", "arguments": ${deep}}], "type": "message"}`;
    const file = session('pi', [line]);
    const capped = await agentHistoryMarkdown(file, { level: 4, minimal: true, maxMarkdownLength: 1_000_000 });
    assert.equal(capped.status, 'too-long');
    assert.equal(capped.markdown, null);
    assert.equal(capped.report.overall, 'pass');
    const plain = session('claude', [{ role: 'user', content: 'y'.repeat(300) }]);
    assert.equal((await agentHistoryMarkdown(plain, { level: 3, maxMarkdownLength: 200 })).status, 'too-long');
    assert.equal((await agentHistoryMarkdown(plain, { level: 1, maxMarkdownLength: 200 })).status, 'too-long');
    assert.equal((await agentHistoryMarkdown(plain, { level: 3, maxMarkdownLength: 1000 })).status, 'exact');
  });

  it('refuses a line Python could not read (an integer of more than 4,300 digits)', async () => {
    const line = `{"timestamp": "", "role": "assistant", "content": "", "tool_calls": [{"name": "t", "arguments": {"n": ${'9'.repeat(4301)}}}], "type": "message"}`;
    const result = await render(session('pi', [line]), 1);
    assert.equal(result.report.overall, 'pass');
    assert.equal(result.status, 'unreadable');
    assert.match((result as { message: string }).message, /^line 2: /);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const c = exactCases[0]!;
    const result = await agentHistoryMarkdown(fixtureBytes(c), { level: 1, signal: controller.signal });
    assert.equal(result.status, 'not-verified');
    assert.equal(result.report.overall, 'error');
  });

  it('rejects API misuse with TypeError', async () => {
    await assert.rejects(agentHistoryMarkdown('', { level: 5 as MarkdownLevel }), TypeError);
    await assert.rejects(agentHistoryMarkdown('', { level: 1, maxMarkdownLength: 0 }), TypeError);
  });
});
