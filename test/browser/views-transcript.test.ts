/// <reference types="mocha" />
// The Transcript view of <verify-export> (agent-history) in Chromium, with the real core and the
// real `inspect` job in the worker: the fixtures of test/fixtures/agent-history, the markdown
// goldens of test/fixtures/agent-history/markdown (recorded from agent-history itself), the XSS
// payloads, keyboard navigation, and screenshots in light and dark mode
// (test-results/screenshots/).
import { emulateMedia, executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import '../../components/verify-export.ts';
import type { VerifyExportElement } from '../../components/verify-export.ts';
import type { VerifyExportTranscript } from '../../components/views/transcript/index.ts';
import type { TranscriptMessage } from '../../src/inspect/agent-history.ts';
import type { MarkdownItem } from '../../components/inspect-job.ts';
import type { Report } from '../../src/report.ts';
import { fixtureBytes, fixtureManifest } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const CLAUDE = 'agent-history/real-impl-small-claude-20251120090536_6513270e-269e-0d37-f2a7-4de452e6b438.ndjson';

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

async function until(check: () => boolean, what: string, ms = 15000): Promise<void> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Verifies `bytes` in a fresh element, opens the Transcript tab and waits for its first page. */
async function openTranscript(
  bytes: Uint8Array,
  name = 'input.ndjson',
): Promise<{
  element: VerifyExportElement;
  view: VerifyExportTranscript;
}> {
  const element = document.createElement('verify-export');
  mounted.push(element);
  document.body.append(element);
  const result = nextResult(element);
  element.file = new File([bytes as BlobPart], name);
  const report = await result;
  assert(report.format === 'agent-history', `agent-history, got ${report.format}`);
  await element.updateComplete;
  const root = element.shadowRoot!;
  await until(() => root.querySelector('#content-tab-content') !== null, 'the Transcript tab');
  const tab = root.querySelector<HTMLButtonElement>('#content-tab-content')!;
  assert(tab.textContent?.trim() === 'Transcript', 'the tab is named Transcript');
  tab.click();
  await until(() => root.querySelector('verify-export-transcript') !== null, 'the view element');
  const view = root.querySelector('verify-export-transcript')!;
  await until(() => view.fetchPage !== undefined, 'fetchPage');
  await view.ready;
  await view.updateComplete;
  return { element, view };
}

/** The next `verify-export:result` of the element (its report). */
function nextResult(element: VerifyExportElement): Promise<Report> {
  return new Promise((resolve, reject) => {
    element.addEventListener('verify-export:result', (event) => resolve((event as CustomEvent<Report>).detail), {
      once: true,
    });
    element.addEventListener(
      'verify-export:error',
      (event) => reject(new Error(JSON.stringify((event as CustomEvent).detail))),
      {
        once: true,
      },
    );
  });
}

function cards(view: VerifyExportTranscript): HTMLElement[] {
  return [...view.shadowRoot!.querySelectorAll<HTMLElement>('article.card')];
}

function textOf(element: Node): string {
  return element.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

describe('Transcript view', () => {
  it('design-1.0: session list with the sub-agent under its parent, turns, role cards, what was verified', async () => {
    const { view } = await openTranscript(await fixtureBytes('agent-history/design-small.ndjson'));
    const root = view.shadowRoot!;
    assert(textOf(root.querySelector('.note')!).startsWith('Structure checked, nothing signed.'), 'the note');
    assert(root.querySelector('.failed-bar') === null, 'no red bar for a pass');
    const sessions = [...root.querySelectorAll<HTMLLIElement>('.sessions > li')];
    assert(sessions.length === 6, `All + 5 sessions, got ${sessions.length}`);
    const subAgent = sessions.find((li) => textOf(li).includes('agent-d75d6769'));
    assert(subAgent !== undefined && subAgent.textContent?.includes('sub-agent'), 'the sub-agent session is listed');
    assert(
      subAgent.style.paddingInlineStart !== '' && subAgent.style.paddingInlineStart !== '0em',
      'indented under its parent',
    );
    const parentAt = sessions.findIndex((li) => textOf(li).includes('6513270e-269e-0d37-f2a7-4de452e6b438'));
    assert(parentAt >= 0 && sessions.indexOf(subAgent) === parentAt + 1, 'right after its parent');
    assert(textOf(sessions[parentAt]!).includes('fork at'), 'the fork of the first session is listed');
    const first = cards(view)[0]!;
    assert(textOf(first).includes('Turn 0: worker index parser'), 'the first message text');
    assert(first.querySelector('time')?.textContent === '2025-11-20T09:05:36.000Z', 'its time');
    assert(root.querySelectorAll('.turn').length > 1, 'grouped by turns');
    assert(root.querySelector('.card.branch') !== null, 'a fork branch off the active path is marked');
    // Choosing the sub-agent session shows only its messages.
    subAgent.querySelector('button')!.click();
    await view.ready;
    await view.updateComplete;
    assert(cards(view).length === 3, `the sub-agent's 3 messages, got ${cards(view).length}`);
  });

  it('impl-2.0 Claude: tool panels, level filters, model and tokens at level 4', async () => {
    const { view } = await openTranscript(await fixtureBytes(CLAUDE));
    const root = view.shadowRoot!;
    const panels = [...root.querySelectorAll<HTMLDetailsElement>('details.tool')];
    assert(
      panels.some((panel) => textOf(panel).startsWith('Tool call Bash')),
      'a Bash tool call panel',
    );
    assert(
      panels.some((panel) => textOf(panel).startsWith('Tool result')),
      'a tool result panel',
    );
    for (const panel of panels) {
      const length = Number(/([\d,]+) characters/.exec(textOf(panel.querySelector('summary')!))![1]!.replace(/,/g, ''));
      if (!panel.classList.contains('error') && !panel.classList.contains('thinking'))
        assert(panel.open === length <= 3000, `a panel of ${length} characters is ${panel.open ? 'open' : 'closed'}`);
    }
    assert(textOf(root.querySelector('.meta')!).includes('Model: claude-sonnet-4-5-20250929'), 'the model');
    assert(textOf(root.querySelector('.meta')!).includes('Tokens: input 808 · output 565 · cached 2916'), 'the tokens');
    const select = root.querySelector<HTMLSelectElement>('select[aria-label^="Detail level"]')!;
    select.value = '3';
    select.dispatchEvent(new Event('change'));
    await view.ready;
    await view.updateComplete;
    assert(root.querySelector('.meta') === null, 'no metadata below level 4');
  });

  it('Download as markdown gives agent-history’s own file in every exact mode', async () => {
    const { view } = await openTranscript(await fixtureBytes(CLAUDE));
    const manifest =
      await fixtureManifest<{ fixture: string; level: number; minimal: boolean; md_file: string; parity: string }[]>(
        'agent-history/markdown',
      );
    const cases = manifest.filter((entry) => entry.fixture.endsWith(CLAUDE.split('/')[1]!));
    assert(cases.length === 8, 'eight modes recorded for the session');
    for (const entry of cases) {
      const page = await view.fetchPage!({
        from: 0,
        count: 1,
        filter: { view: 'markdown', level: String(entry.level), minimal: entry.minimal ? '1' : '0' },
      });
      const item = page.items[0] as MarkdownItem;
      const golden = new TextDecoder().decode(await fixtureBytes(`agent-history/markdown/${entry.md_file}`));
      if (entry.parity === 'exact') {
        assert(item.status === 'exact', `${entry.md_file} is exact`);
        assert(item.markdown === golden, `${entry.md_file}: byte for byte`);
      } else assert(item.status === 'reconstructed', `${entry.md_file} is marked reconstructed`);
    }
    // The button itself: it reports the mode's fidelity.
    const made: Blob[] = [];
    const original = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      made.push(blob as Blob);
      return original(blob);
    };
    try {
      view.shadowRoot!.querySelector<HTMLButtonElement>('[part="markdown-download"]')!.click();
      await until(() => made.length > 0, 'the download');
      const level4 = cases.find((entry) => entry.level === 4 && !entry.minimal)!;
      await until(
        () => /reconstructed/.test(textOf(view.shadowRoot!.querySelector('[aria-label="Download as markdown"]')!)),
        'the status',
      );
      assert(level4.parity === 'lossy', 'level 4 without --minimal is lossy for Claude');
    } finally {
      URL.createObjectURL = original;
    }
  });

  it('search counts exactly, steps through matches and errors; the keyboard moves between cards', async () => {
    const bytes = await fixtureBytes(CLAUDE);
    const { view } = await openTranscript(bytes);
    const root = view.shadowRoot!;
    // An independent count: messages whose content holds the needle (case-insensitive).
    const needle = 'Invariant';
    const expected = new TextDecoder()
      .decode(bytes)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; content?: string })
      .filter(
        (record) => record.type === 'message' && record.content!.toLowerCase().includes(needle.toLowerCase()),
      ).length;
    assert(expected > 1, 'the needle occurs');
    const input = root.querySelector<HTMLInputElement>('input[type="search"]')!;
    input.value = needle;
    input.dispatchEvent(new Event('input'));
    await until(() => /match/.test(root.querySelector('#transcript-count')!.textContent ?? ''), 'the count');
    await view.ready;
    assert(
      root.querySelector('#transcript-count')!.textContent!.startsWith(`${expected} of 16 messages match`),
      `exact count ${expected}: ${root.querySelector('#transcript-count')!.textContent}`,
    );
    root.querySelector<HTMLButtonElement>('button[aria-label="Next match"]')!.click();
    await until(
      () => (view.shadowRoot!.activeElement as HTMLElement | null)?.classList.contains('hit') === true,
      'focus on a match',
    );
    const focused = view.shadowRoot!.activeElement as HTMLElement;
    focused.focus();
    const at = Number(focused.dataset['index']);
    await sendKeys({ press: 'ArrowDown' });
    await until(
      () => (view.shadowRoot!.activeElement as HTMLElement | null)?.dataset['index'] === String(at + 1),
      'ArrowDown',
    );
    await sendKeys({ press: 'End' });
    await until(() => (view.shadowRoot!.activeElement as HTMLElement | null)?.dataset['index'] === '15', 'End');
    // This session has no tool error.
    assert(root.querySelector<HTMLButtonElement>('.toolbar button:nth-of-type(2)')!.disabled, 'no error to step to');
  });

  it('a failed file stays readable under a red bar, and its finding jumps to its line', async () => {
    const { element, view } = await openTranscript(
      await fixtureBytes('agent-history/design-small-not-json-line.ndjson'),
    );
    const root = view.shadowRoot!;
    assert(element.report?.overall !== 'pass', 'it fails');
    assert(textOf(root.querySelector('.failed-bar')!).startsWith('Verification failed'), 'the red bar');
    assert(cards(view).length > 0, 'the messages are still shown');
    assert(textOf(root).includes('Lines that could not be read are left out: 3'), 'the unreadable line is named');
    // From the Verification tab: a click on the finding's path opens the transcript at that line.
    element.shadowRoot!.querySelector<HTMLButtonElement>('#content-tab-verification')!.click();
    await element.updateComplete;
    const path = [...element.shadowRoot!.querySelectorAll<HTMLElement>('[part="findings"] code.path')].find((code) =>
      /^line \d+$/.test(code.textContent?.trim() ?? ''),
    );
    assert(path !== undefined, 'a finding on a line');
    const line = Number(path.textContent!.trim().slice(5));
    path.click();
    await until(
      () => (view.shadowRoot!.activeElement as HTMLElement | null)?.dataset['line'] !== undefined,
      'the jump',
    );
    const target = view.shadowRoot!.activeElement as HTMLElement;
    assert(Number(target.dataset['line']) >= line, `focused a message at or after line ${line}`);
    assert(element.shadowRoot!.querySelector('#content-tab-content')!.getAttribute('aria-selected') === 'true', 'tab');
  });
});

// --- Hostile text -----------------------------------------------------------------------------------

const PAYLOADS = [
  '<img src=x onerror="window.__xss=1">',
  '</script><script>window.__xss=1</script>',
  'javascript:window.__xss=1',
  '[click](javascript:window.__xss=1)',
  'x\u202Eexe.txt',
  '</style><style>*{display:none!important}</style>',
  '"><svg onload=window.__xss=1>',
  '\u0000\u001b[31mred\u001b[0m\u2028',
];

function hostileSession(): Uint8Array {
  const lines = [
    {
      type: 'header',
      schema_version: '2.0',
      agent: 'claude',
      session_file: PAYLOADS[0] + '.jsonl',
      workspace: PAYLOADS[5],
    },
    ...PAYLOADS.map((content, i) => ({
      timestamp: `2025-11-20T09:05:${String(10 + i).padStart(2, '0')}.000Z`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      content,
      ...(i % 2 === 1 ? { model: PAYLOADS[4], tokens: { input: 1, output: 2 } } : {}),
      type: 'message',
    })),
    { timestamp: '2025-11-20T09:06:00.000Z', role: 'assistant', content: 'A'.repeat(1024 * 1024), type: 'message' },
    { type: 'session', agent: 'claude', session_id: '', message_count: PAYLOADS.length + 1, workspace: '' },
  ];
  return new TextEncoder().encode(lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
}

describe('Transcript view: hostile text', () => {
  it('draws every payload as text: no element, no script, visible controls, a 1 MB body clipped', async () => {
    (window as { __xss?: number }).__xss = 0;
    const { view } = await openTranscript(hostileSession(), 'hostile.ndjson');
    const root = view.shadowRoot!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert((window as { __xss?: number }).__xss === 0, 'no payload ran');
    assert(root.querySelector('img, script, svg, a[href], iframe') === null, 'no element from the artifact');
    const all = textOf(root);
    assert(all.includes('<img src=x onerror="window.__xss=1">'), 'the img payload is text');
    assert(all.includes('javascript:window.__xss=1'), 'the URL is text');
    assert(
      all.includes('x') && [...root.querySelectorAll('.control')].some((mark) => mark.textContent === 'RLO'),
      'RLO is a mark',
    );
    assert(
      [...root.querySelectorAll('.control')].some((mark) => mark.textContent === 'LS'),
      'U+2028 is a mark',
    );
    assert(getComputedStyle(root.querySelector('article.card')!).display !== 'none', 'CSS-breaking text did not apply');
    const big = cards(view).find((card) => textOf(card).includes('AAAA'))!;
    const drawn = big.querySelector('pre')!.textContent!.length;
    assert(drawn <= 200_100 && drawn >= 199_000, `the 1 MB body is clipped (${drawn})`);
    assert(textOf(big).includes('Download full message'), 'and offered whole as a download');
    const full = (
      await view.fetchPage!({ from: cards(view).indexOf(big), count: 1, filter: { level: '4', full: '1' } })
    ).items[0] as TranscriptMessage;
    assert(full.blocks[0]!.text.length === 1024 * 1024, 'the download has the whole body');
  });
});

describe('Transcript view: screenshots', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`in ${scheme} mode`, async () => {
      await emulateMedia({ colorScheme: scheme });
      await setViewport({ width: 1040, height: 2400 });
      try {
        const { element } = await openTranscript(
          await fixtureBytes('agent-history/design-small.ndjson'),
          'design-small.ndjson',
        );
        element.style.cssText = 'display:block;max-width:1000px;padding:16px';
        await new Promise((resolve) => setTimeout(resolve, 100));
        await executeServerCommand('save-screenshot', { name: `transcript-view-${scheme}.png` });
      } finally {
        await emulateMedia({ colorScheme: 'light' });
        await setViewport({ width: 800, height: 600 });
      }
    });
  }
});

// The URL input is fetched once, by the worker: the Transcript reads the bytes that were verified.
// The URL is revoked once verified, so any second fetch would fail.
describe('Transcript view from src', () => {
  it('a src URL is fetched once; the transcript reads the verified bytes', async () => {
    const url = URL.createObjectURL(new Blob([(await fixtureBytes(CLAUDE)) as BlobPart]));
    const element = document.createElement('verify-export');
    mounted.push(element);
    document.body.append(element);
    const result = nextResult(element);
    element.src = url;
    assert((await result).overall === 'pass', 'verified');
    URL.revokeObjectURL(url);
    await element.updateComplete;
    const root = element.shadowRoot!;
    await until(() => root.querySelector('#content-tab-content') !== null, 'the tab');
    root.querySelector<HTMLButtonElement>('#content-tab-content')!.click();
    await until(() => root.querySelector('verify-export-transcript') !== null, 'the view');
    const view = root.querySelector('verify-export-transcript')!;
    await until(() => view.fetchPage !== undefined, 'fetchPage');
    await view.ready;
    await view.updateComplete;
    assert(cards(view).length === 16, `all 16 messages from the kept bytes (${cards(view).length})`);
    const page = await view.fetchPage!({ from: 0, count: 1, filter: { view: 'markdown', level: '1', minimal: '1' } });
    assert((page.items[0] as MarkdownItem).status === 'exact', 'the markdown too');
  });
});
