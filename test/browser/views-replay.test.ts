/// <reference types="mocha" />
// The Replay view of <verify-export> (codex-exec) in Chromium, with the real core and the real
// `inspect` job in the worker: the fixtures of test/fixtures/codex-exec (recorded from
// codex-orchestrator), streams made here for ANSI colours and a >64 KiB stdout, the XSS payloads,
// keyboard navigation, and screenshots in light and dark mode (test-results/screenshots/).
import { emulateMedia, executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import '../../components/verify-export.ts';
import type { VerifyExportElement } from '../../components/verify-export.ts';
import type { VerifyExportReplay } from '../../components/views/replay/index.ts';
import type { Report } from '../../src/report.ts';
import { fixtureBytes } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

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

async function openReplay(
  bytes: Uint8Array,
  name = 'run.jsonl',
): Promise<{ element: VerifyExportElement; view: VerifyExportReplay }> {
  const element = document.createElement('verify-export');
  mounted.push(element);
  document.body.append(element);
  const result = nextResult(element);
  element.file = new File([bytes as BlobPart], name);
  const report = await result;
  assert(report.format === 'codex-exec', `codex-exec, got ${report.format}`);
  await element.updateComplete;
  const root = element.shadowRoot!;
  await until(() => root.querySelector('#content-tab-content') !== null, 'the Replay tab');
  const tab = root.querySelector<HTMLButtonElement>('#content-tab-content')!;
  assert(tab.textContent?.trim() === 'Replay', 'the tab is named Replay');
  tab.click();
  await until(() => root.querySelector('verify-export-replay') !== null, 'the view element');
  const view = root.querySelector('verify-export-replay')!;
  await until(() => view.fetchPage !== undefined, 'fetchPage');
  await view.ready;
  await view.updateComplete;
  return { element, view };
}

function lines(view: VerifyExportReplay): HTMLElement[] {
  return [...view.shadowRoot!.querySelectorAll<HTMLElement>('.tl')];
}

function textOf(node: Node): string {
  return node.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

function outcome(view: VerifyExportReplay, label: string): string {
  const fact = [...view.shadowRoot!.querySelectorAll('.outcome > div')].find(
    (div) => div.querySelector('dt')?.textContent === label,
  );
  return fact === undefined ? '' : textOf(fact.querySelector('dd')!);
}

/** A codex-exec stream whose chunks carry `chunks` (stream, data). */
function stream(
  chunks: readonly (readonly ['stdout' | 'stderr', string])[],
  command = 'demo',
  exitCode = 0,
): Uint8Array {
  const correlationId = '00000000-0000-4000-8000-000000000001';
  const at = '2026-01-01T00:00:00.000Z';
  const encoder = new TextEncoder();
  const records: unknown[] = [
    {
      type: 'exec:begin',
      timestamp: at,
      payload: {
        attempt: 1,
        correlationId,
        command,
        args: [],
        cwd: '/work',
        sessionId: 's',
        sandboxState: 'sandboxed',
        persisted: false,
      },
    },
  ];
  const tail = { stdout: new Uint8Array(), stderr: new Uint8Array() };
  chunks.forEach(([name, data], i) => {
    const bytes = encoder.encode(data);
    const joined = new Uint8Array(tail[name].length + bytes.length);
    joined.set(tail[name]);
    joined.set(bytes, tail[name].length);
    tail[name] = joined.slice(-65536);
    records.push({
      type: 'exec:chunk',
      timestamp: at,
      payload: { attempt: 1, correlationId, stream: name, sequence: i + 1, bytes: bytes.length, data },
    });
  });
  const decoder = new TextDecoder();
  const status = exitCode === 0 ? 'succeeded' : 'failed';
  const buffers = { stdout: decoder.decode(tail.stdout), stderr: decoder.decode(tail.stderr) };
  records.push({
    type: 'exec:end',
    timestamp: at,
    payload: {
      attempt: 1,
      correlationId,
      exitCode,
      signal: null,
      durationMs: 5,
      ...buffers,
      sandboxState: 'sandboxed',
      sessionId: 's',
      status,
    },
  });
  records.push({
    type: 'run:summary',
    timestamp: at,
    payload: {
      status,
      run: { id: 'run-1', taskId: 't', pipelineId: 'exec', manifest: 'm', artifactRoot: 'a', summary: null },
      result: { exitCode, signal: null, durationMs: 5, status, sandboxState: 'sandboxed', correlationId, attempts: 1 },
      command: { argv: [], shell: command, cwd: '/work', sessionId: 's', persisted: false },
      outputs: buffers,
      logs: { runner: 'r', command: null },
      toolRun: null,
    },
  });
  return encoder.encode(records.map((record) => JSON.stringify(record)).join('\n') + '\n');
}

describe('Replay view', () => {
  it('prints the run as the tool does: $ command, chunks, [retry], run id and status; attempts on a timeline', async () => {
    const { view } = await openReplay(await fixtureBytes('codex-exec/derived-retry-2-attempts.jsonl'));
    const root = view.shadowRoot!;
    assert(textOf(root.querySelector('.note')!).startsWith('Structure checked, nothing signed.'), 'the note');
    assert(
      JSON.stringify(lines(view).map(textOf)) ===
        JSON.stringify([
          '$ echo hello',
          '[retry] attempt 1 in 250ms — spawn EPERM',
          'hello',
          '2026-11-22T01-36-37-715Z-beac1b87 SUCCEEDED',
        ]),
      `the replay: ${JSON.stringify(lines(view).map(textOf))}`,
    );
    assert(outcome(view, 'Status') === 'SUCCEEDED', 'status');
    assert(outcome(view, 'Attempts') === '2', 'two attempts');
    assert(outcome(view, 'Command') === 'echo hello', 'command');
    assert(outcome(view, 'Working directory') === '/tmp/cx-work/repo', 'cwd');
    assert(root.querySelectorAll('.timeline .attempt').length === 2, 'two attempts on the timeline');
    assert(root.querySelectorAll('.timeline .gap').length === 1, 'one retry gap');
    assert(root.querySelector('.timeline .attempt.failed') !== null, 'the failed attempt is marked');
  });

  it('reads 128+n as a signal, tints stderr, lets \\r overwrite', async () => {
    const killed = await openReplay(await fixtureBytes('codex-exec/real-signal-kill.jsonl'));
    assert(
      outcome(killed.view, 'Exit code') === '143 (128 + 15: killed by SIGTERM)',
      outcome(killed.view, 'Exit code'),
    );
    assert(outcome(killed.view, 'Status') === 'FAILED', 'failed');
    const stderrLine = lines(killed.view).find((line) => textOf(line) === 'Terminated')!;
    assert(stderrLine.querySelector('span.stderr') !== null, 'stderr is tinted');
    assert(
      lines(killed.view)
        .find((line) => textOf(line) === 'before')!
        .querySelector('span.stderr') === null,
      'stdout is not',
    );
    const cr = await openReplay(await fixtureBytes('codex-exec/real-cr-output.jsonl'));
    assert(
      lines(cr.view).some((line) => textOf(line) === 'progress 100%'),
      'the last progress overwrote the others',
    );
    const output = lines(cr.view).filter((line) => line.classList.contains('kind-output'));
    assert(output.length === 1 && !textOf(output[0]!).includes('10%'), 'no earlier progress left');
  });

  it('draws ANSI SGR colours from the structured parse', async () => {
    const { view } = await openReplay(
      stream([
        [
          'stdout',
          'plain \u001b[1;31mbold red\u001b[0m \u001b[38;5;196mpalette\u001b[0m \u001b[38;2;1;2;3mrgb\u001b[m\n',
        ],
        ['stderr', '\u001b[32mgreen on stderr\u001b[0m\n'],
      ]),
    );
    const spans = [...view.shadowRoot!.querySelectorAll<HTMLSpanElement>('.tl span[class]')];
    const span = (text: string) => spans.find((s) => textOf(s) === text)!;
    assert(span('bold red').classList.contains('b') && span('bold red').style.color === 'var(--ansi-1)', 'bold red');
    assert(span('palette').style.color === 'rgb(255, 0, 0)', `256-colour: ${span('palette').style.color}`);
    assert(span('rgb').style.color === 'rgb(1, 2, 3)', 'direct colour');
    assert(span('green on stderr').classList.contains('stderr'), 'stderr');
    assert(!textOf(view.shadowRoot!.querySelector('.term')!).includes('['), 'no escape sequence is drawn as text');
  });

  it('stdout and stderr tabs say why they differ from exec:end’s 64 KiB buffers', async () => {
    const big = 'x'.repeat(99) + '\n';
    const { view } = await openReplay(stream(Array.from({ length: 700 }, () => ['stdout', big] as const)));
    const root = view.shadowRoot!;
    root.querySelector<HTMLButtonElement>('#replay-tab-stdout')!.click();
    await view.ready;
    await view.updateComplete;
    assert(root.querySelector('#replay-tab-stdout')!.getAttribute('aria-selected') === 'true', 'the stdout tab');
    const notes = textOf(root.querySelector('[aria-label="How this stream compares with exec:end"]')!);
    assert(notes.includes('exec:end keeps only the last 65,536 bytes; the chunks carried 70,000'), notes);
    assert(textOf(root.querySelector('#replay-count')!) === '700 lines', textOf(root.querySelector('#replay-count')!));
    const split = await openReplay(await fixtureBytes('codex-exec/real-split-utf8.jsonl'));
    split.view.shadowRoot!.querySelector<HTMLButtonElement>('#replay-tab-stdout')!.click();
    await split.view.ready;
    await split.view.updateComplete;
    const splitNotes = textOf(
      split.view.shadowRoot!.querySelector('[aria-label="How this stream compares with exec:end"]')!,
    );
    assert(splitNotes.includes('split across chunks'), splitNotes);
  });

  it('windows a long replay, searches with exact counts, and the keyboard moves between lines', async () => {
    const chunks = Array.from(
      { length: 6000 },
      (_, i) => ['stdout', `line ${i}${i % 7 === 0 ? ' needle' : ''}\n`] as const,
    );
    const { view } = await openReplay(stream(chunks));
    const root = view.shadowRoot!;
    const drawn = lines(view).length;
    assert(drawn > 0 && drawn < 400, `only the lines near the view are drawn (${drawn})`);
    const input = root.querySelector<HTMLInputElement>('input[type="search"]')!;
    input.value = 'NEEDLE';
    input.dispatchEvent(new Event('input'));
    await until(() => /match/.test(root.querySelector('#replay-count')!.textContent ?? ''), 'the count');
    await view.ready;
    const expected = chunks.filter(([, data]) => data.includes('needle')).length;
    assert(
      textOf(root.querySelector('#replay-count')!).startsWith(`${expected} of 6,002 lines match`),
      textOf(root.querySelector('#replay-count')!),
    );
    root.querySelector<HTMLInputElement>('input[type="search"]')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(
      () => textOf(root.querySelector('#replay-count')!).startsWith('Match 1 of'),
      'Enter steps to the first match',
    );
    root.querySelector<HTMLButtonElement>('button[aria-label="Previous match"]')!.click();
    await until(
      () =>
        textOf(root.querySelector('#replay-count')!) === `Match ${expected} of ${expected}` &&
        textOf(root.activeElement ?? document.body) === 'line 5999 needle',
      'the last match',
    );
    await sendKeys({ press: 'Home' });
    await until(() => (root.activeElement as HTMLElement | null)?.dataset['index'] === '0', 'Home');
    await sendKeys({ press: 'ArrowDown' });
    await until(() => (root.activeElement as HTMLElement | null)?.dataset['index'] === '1', 'ArrowDown');
    await sendKeys({ press: 'End' });
    await until(() => (root.activeElement as HTMLElement | null)?.dataset['index'] === '6001', 'End');
    assert(textOf(root.activeElement!) === 'run-1 SUCCEEDED', 'the last line is the outcome');
  });

  it('a failed stream stays readable under a red bar, and its finding jumps to its line', async () => {
    const { element, view } = await openReplay(await fixtureBytes('codex-exec/interleaved-not-json.jsonl'));
    assert(element.report?.overall !== 'pass', 'it fails');
    const root = view.shadowRoot!;
    assert(textOf(root.querySelector('.failed-bar')!).startsWith('Verification failed'), 'the red bar');
    assert(lines(view).length > 2, 'the replay is still shown');
    const finding = root.querySelector<HTMLButtonElement>('.findings button.link');
    assert(finding !== null, 'the line finding is listed');
    const line = Number(textOf(finding).slice(5));
    finding.click();
    await until(() => (root.activeElement as HTMLElement | null)?.dataset['line'] !== undefined, 'the jump');
    assert(Number((root.activeElement as HTMLElement).dataset['line']) >= line, 'at or after the line');
  });

  it('a finding inside a line (`line 2 $.payload.data`) is listed and jumps to that line', async () => {
    const { element, view } = await openReplay(await fixtureBytes('codex-exec/interleaved-chunk-missing-data.jsonl'));
    const paths = element.report!.findings.map((finding) => finding.path);
    assert(paths.includes('line 2 $.payload.data'), `the fixture's finding paths: ${paths.join(', ')}`);
    const root = view.shadowRoot!;
    const listed = [...root.querySelectorAll<HTMLButtonElement>('.findings button.link')];
    assert(listed.length === paths.length, `${listed.length} of ${paths.length} findings listed`);
    listed.find((button) => textOf(button) === 'line 2 $.payload.data')!.click();
    await until(() => (root.activeElement as HTMLElement | null)?.dataset['line'] !== undefined, 'the jump');
    assert(Number((root.activeElement as HTMLElement).dataset['line']) >= 2, 'at or after line 2');
  });
});

const PAYLOADS = [
  '<img src=x onerror="window.__xss=1">',
  '</script><script>window.__xss=1</script>',
  'javascript:window.__xss=1',
  'x\u202Eexe.txt',
  '</style><style>*{display:none!important}</style>',
  '\u001b]8;;javascript:alert(1)\u0007link\u001b]8;;\u0007',
];

describe('Replay view: hostile text', () => {
  it('draws every payload as text, in the command and the output; a 1 MB line is clipped', async () => {
    (window as { __xss?: number }).__xss = 0;
    const { view } = await openReplay(
      stream(
        [...PAYLOADS.map((text) => ['stderr', `${text}\n`] as const), ['stdout', 'B'.repeat(1024 * 1024) + '\n']],
        PAYLOADS[0],
      ),
    );
    const root = view.shadowRoot!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert((window as { __xss?: number }).__xss === 0, 'no payload ran');
    assert(root.querySelector('img, script, svg, a[href], iframe') === null, 'no element from the artifact');
    const all = textOf(root);
    assert(all.includes('$ <img src=x onerror="window.__xss=1">'), 'the command is text');
    assert(all.includes('</script><script>window.__xss=1</script>'), 'script text');
    assert(
      [...root.querySelectorAll('.control')].some((mark) => mark.textContent === 'RLO'),
      'RLO is a mark',
    );
    assert(getComputedStyle(root.querySelector('.tl')!).display !== 'none', 'CSS-breaking text did not apply');
    const long = lines(view).find((line) => textOf(line).startsWith('BBBB'))!;
    assert(
      long.querySelector('span')!.textContent!.length === 100_000,
      'the 1 MB line is clipped to 100,000 characters',
    );
    assert(textOf(long).includes('more characters'), 'and says so');
  });
});

describe('Replay view: screenshots', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`in ${scheme} mode`, async () => {
      await emulateMedia({ colorScheme: scheme });
      await setViewport({ width: 1040, height: 1400 });
      try {
        const colours = stream(
          [
            ['stdout', '$ build\n\u001b[1mCompiling\u001b[0m 3 files\n'],
            ['stdout', 'progress 10%\rprogress 100%\n'],
            ['stderr', '\u001b[33mwarning:\u001b[0m unused variable\n'],
            ['stdout', '\u001b[32m✓ 12 passed\u001b[0m \u001b[31m✗ 1 failed\u001b[0m\n'],
          ],
          'npm test',
          1,
        );
        const { element } = await openReplay(colours, 'run.jsonl');
        element.style.cssText = 'display:block;max-width:1000px;padding:16px';
        await new Promise((resolve) => setTimeout(resolve, 100));
        await executeServerCommand('save-screenshot', { name: `replay-view-${scheme}.png` });
      } finally {
        await emulateMedia({ colorScheme: 'light' });
        await setViewport({ width: 800, height: 600 });
      }
    });
  }
});
