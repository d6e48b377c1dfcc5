/// <reference types="mocha" />
// The content views under a strict Content Security Policy (the demo's `default-src 'self'`, so
// `style-src 'self'`: no `style` attribute may apply). The test server sends no CSP, so this page
// gets one from a `<meta http-equiv="Content-Security-Policy">` added before any view renders
// (CSP Level 3, "Enforce the policy of a meta element"; it holds for the rest of the page, and
// web-test-runner gives each test file its own page). A control checks that the policy truly
// blocks a style attribute here; then each view (Replay, Transcript, Entries, Files) is drawn
// windowed (spacers) and styled (ANSI colours, the attempt timeline, the session tree) and must
// cause no `securitypolicyviolation`, with its styles applied (computed, not just set).
// Each view is fed by its format's inspector over the bytes, as views-entries.test.ts does.
import '../../components/views/replay/index.ts';
import '../../components/views/transcript/index.ts';
import '../../components/views/entries/index.ts';
import '../../components/views/file-content/index.ts';
import type { FetchPage } from '../../components/views/common/paged-items.ts';
import type { InspectSource, Inspector } from '../../src/inspect/types.ts';
import { codexExecInspector } from '../../src/inspect/codex-exec.ts';
import { agentHistoryInspector } from '../../src/inspect/agent-history.ts';
import { zaxyInspector } from '../../src/inspect/zaxy.ts';
import { agentxchainFilesInspector } from '../../src/inspect/agentxchain-files.ts';
import { fixtureBytes } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const STRICT_CSP = "style-src 'self'";

/** Every violation the page reported, as `directive: sample`. */
const violations: string[] = [];

/** The violations, briefly (a broken view reports hundreds). */
function reported(): string {
  return `${violations.length}: ${violations.slice(0, 3).join(' | ')}`;
}

before(() => {
  document.addEventListener(
    'securitypolicyviolation',
    (event) => violations.push(`${event.effectiveDirective}: ${event.sample || event.blockedURI}`),
    true,
  );
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = STRICT_CSP;
  document.head.append(meta);
});

afterEach(() => {
  for (const element of document.querySelectorAll('[data-csp-test]')) element.remove();
});

/** Violation reports are queued as tasks: give them time to arrive. */
async function reportsSettled(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 100));
}

function fetchPageOver(bytes: Uint8Array, format: InspectSource['format'], inspector: Inspector<unknown, unknown>) {
  const source = { bytes, complete: true, format };
  const index = inspector.buildIndex(source);
  const fetchPage: FetchPage = (request) => Promise.resolve(structuredClone(inspector.page(source, index, request)));
  return fetchPage;
}

interface View extends HTMLElement {
  fetchPage: FetchPage | undefined;
  ready: Promise<void>;
  readonly updateComplete: Promise<boolean>;
}

async function mount<T extends View>(tag: string, fetchPage: FetchPage): Promise<T> {
  const element = document.createElement(tag) as T;
  element.dataset['cspTest'] = '';
  element.fetchPage = fetchPage;
  document.body.append(element);
  await element.updateComplete;
  await element.ready;
  await element.updateComplete;
  return element;
}

/** The two spacers of a windowed list: each must be as tall as the rows it stands for (> 0). */
function spacerHeights(root: ParentNode, selector: string): number[] {
  return [...root.querySelectorAll<HTMLElement>(selector)].map((spacer) => spacer.getBoundingClientRect().height);
}

const encoder = new TextEncoder();

/** A codex-exec stream: one attempt, a retry, and the chunks' data on stdout. */
function execStream(lines: readonly string[]): Uint8Array {
  const correlationId = '00000000-0000-4000-8000-000000000001';
  const at = '2026-01-01T00:00:00.000Z';
  const begin = (attempt: number) => ({
    type: 'exec:begin',
    timestamp: at,
    payload: {
      attempt,
      correlationId,
      command: 'demo',
      args: [],
      cwd: '/w',
      sessionId: 's',
      sandboxState: 'sandboxed',
    },
  });
  const end = (attempt: number, exitCode: number) => ({
    type: 'exec:end',
    timestamp: at,
    payload: {
      attempt,
      correlationId,
      exitCode,
      signal: null,
      durationMs: 5,
      stdout: '',
      stderr: '',
      sandboxState: 'sandboxed',
      sessionId: 's',
      status: exitCode === 0 ? 'succeeded' : 'failed',
    },
  });
  const records: unknown[] = [
    begin(1),
    end(1, 1),
    {
      type: 'exec:retry',
      timestamp: at,
      payload: { attempt: 1, correlationId, delayMs: 10, reason: 'exit code 1', errorMessage: 'failed' },
    },
    begin(2),
    ...lines.map((data, i) => ({
      type: 'exec:chunk',
      timestamp: at,
      payload: {
        attempt: 2,
        correlationId,
        stream: 'stdout',
        sequence: i + 1,
        bytes: encoder.encode(data).length,
        data,
      },
    })),
    end(2, 0),
  ];
  return encoder.encode(records.map((record) => JSON.stringify(record)).join('\n') + '\n');
}

describe('views under a strict CSP (style-src without unsafe-inline)', () => {
  it('the policy is enforced on this page: a style attribute is blocked and reported', async () => {
    const probe = document.createElement('div');
    probe.dataset['cspTest'] = '';
    document.body.append(probe);
    probe.setAttribute('style', 'height: 77px');
    await reportsSettled();
    assert(probe.getBoundingClientRect().height !== 77, 'the style attribute did not apply');
    assert(
      violations.some((violation) => violation.startsWith('style-src')),
      `a violation was reported, got ${reported()}`,
    );
    violations.length = 0;
  });

  it('Replay: spacers, ANSI colours and the attempt timeline apply with no violation', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i === 0
        ? 'plain \u001b[31mred\u001b[0m \u001b[38;5;196mpalette\u001b[0m \u001b[38;2;1;2;3mrgb\u001b[m\n'
        : `line ${i}\n`,
    );
    const view = await mount(
      'verify-export-replay',
      fetchPageOver(execStream(lines), 'codex-exec', codexExecInspector),
    );
    const root = view.shadowRoot!;
    await reportsSettled();
    assert(violations.length === 0, `no CSP violation, got ${reported()}`);
    const spacers = spacerHeights(root, '.scroller .spacer');
    assert(spacers.length >= 1 && spacers.every((height) => height > 1000), `spacer heights: ${spacers.join(', ')}`);
    const span = (text: string) =>
      [...root.querySelectorAll<HTMLSpanElement>('.tl span')].find((s) => s.textContent?.trim() === text)!;
    assert(getComputedStyle(span('palette')).color === 'rgb(255, 0, 0)', getComputedStyle(span('palette')).color);
    assert(getComputedStyle(span('rgb')).color === 'rgb(1, 2, 3)', getComputedStyle(span('rgb')).color);
    assert(
      getComputedStyle(span('red')).color !== getComputedStyle(span('plain')).color,
      'a palette colour (var(--ansi-1)) differs from the default',
    );
    const parts = [...root.querySelectorAll<HTMLElement>('.timeline > div')];
    assert(parts.length === 3, `two attempts and a gap: ${parts.length}`);
    assert(
      parts.every((part) => Number(getComputedStyle(part).flexGrow) > 0),
      `flex-grow: ${parts.map((part) => getComputedStyle(part).flexGrow).join(', ')}`,
    );
  });

  it('Transcript: spacers and the session tree’s indents apply with no violation', async () => {
    const header = { type: 'header', schema_version: '2.0', agent: 'gemini-cli', session_file: 's.json' };
    const messages = Array.from({ length: 2500 }, (_, i) => ({
      timestamp: '2025-11-20T09:24:38.000Z',
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `message ${i}`,
      type: 'message',
    }));
    const session = { type: 'session', agent: 'gemini-cli', session_id: '', message_count: messages.length };
    const bytes = encoder.encode([header, ...messages, session].map((record) => JSON.stringify(record)).join('\n'));
    const long = await mount('verify-export-transcript', fetchPageOver(bytes, 'agent-history', agentHistoryInspector));
    const spacers = spacerHeights(long.shadowRoot!, '.spacer');
    assert(spacers.length >= 1 && spacers.every((height) => height > 1000), `spacer heights: ${spacers.join(', ')}`);

    const tree = await mount(
      'verify-export-transcript',
      fetchPageOver(await fixtureBytes('agent-history/design-small.ndjson'), 'agent-history', agentHistoryInspector),
    );
    const subAgent = [...tree.shadowRoot!.querySelectorAll<HTMLLIElement>('li')].find((li) =>
      li.textContent?.includes('sub-agent'),
    );
    assert(subAgent !== undefined, 'the sub-agent session is listed');
    assert(parseFloat(getComputedStyle(subAgent).paddingInlineStart) > 0, 'the sub-agent is indented');
    await reportsSettled();
    assert(violations.length === 0, `no CSP violation, got ${reported()}`);
  });

  it('Entries: spacers apply with no violation', async () => {
    const entries = Array.from({ length: 5000 }, (_, seq) => ({
      schema_version: 'zaxy.export.v1',
      grain: 'event',
      kind: 'decision.made',
      seq,
      source: 'eventloom',
      content: { type: 'decision.made', actor: 'claude', payload: { decision: `d${seq}` } },
    }));
    const text = JSON.stringify({ version: 'zaxy.export.unsigned.v1', session_id: 's', signed: false, entries });
    const view = await mount('verify-export-entries', fetchPageOver(encoder.encode(text), 'zaxy', zaxyInspector));
    await reportsSettled();
    assert(violations.length === 0, `no CSP violation, got ${reported()}`);
    const spacers = spacerHeights(view.shadowRoot!, '.spacer');
    assert(spacers.length >= 1 && spacers.every((height) => height > 1000), `spacer heights: ${spacers.join(', ')}`);
  });

  it('Files: the file table’s and the JSONL rows’ spacers apply with no violation', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => ({ decision: `d${i}` }));
    const files: Record<string, unknown> = {
      'a/ledger.jsonl': { format: 'jsonl', bytes: 0, sha256: '', content_base64: null, data: rows },
    };
    for (let i = 0; i < 2500; i++)
      files[`notes/${String(i).padStart(4, '0')}.md`] = { format: 'text', bytes: 0, sha256: '', content_base64: null };
    const artifact = { schema_version: '0.3', export_kind: 'agentxchain_run_export', files };
    const bytes = encoder.encode(JSON.stringify(artifact));
    const view = await mount('verify-export-files', fetchPageOver(bytes, 'agentxchain', agentxchainFilesInspector));
    const root = view.shadowRoot!;
    const tableSpacers = [...root.querySelectorAll<HTMLElement>('tbody tr[aria-hidden="true"] td')].map(
      (cell) => cell.getBoundingClientRect().height,
    );
    assert(
      tableSpacers.length >= 1 && tableSpacers.every((height) => height > 1000),
      `table spacer heights: ${tableSpacers.join(', ')}`,
    );
    const ledger = [...root.querySelectorAll<HTMLButtonElement>('tbody button')].find(
      (button) => button.textContent?.trim() === 'a/ledger.jsonl',
    );
    assert(ledger !== undefined, 'the JSONL file is in the table');
    ledger.click();
    await view.updateComplete;
    await view.ready;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await view.updateComplete;
    const rowSpacers = spacerHeights(root, '.rows .spacer');
    assert(
      rowSpacers.length >= 1 && rowSpacers.every((height) => height > 1000),
      `row spacer heights: ${rowSpacers.join(', ')}`,
    );
    await reportsSettled();
    assert(violations.length === 0, `no CSP violation, got ${reported()}`);
  });
});
