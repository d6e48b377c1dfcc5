/// <reference types="mocha" />
// The Entries view (<verify-export-entries>) in Chromium, over the Zaxy fixtures: the element is
// driven with a `fetchPage` built from the core's Zaxy inspector over the fixture's bytes (each
// page structured-cloned, as the worker's answers are). Checks the typed cards, edges as
// sentences, number lexemes, the subset's labels, filters with counts, search with exact counts,
// findings that jump, keyboard navigation, windowing past 2,000 entries and the XSS payloads.
// Screenshots in light and dark mode go to test-results/screenshots/.
import { emulateMedia, executeServerCommand, sendKeys } from '@web/test-runner-commands';
import '../../components/views/entries/index.ts';
import type { VerifyExportEntries } from '../../components/views/entries/index.ts';
import type { FetchPage } from '../../components/views/common/paged-items.ts';
import { zaxyInspector } from '../../src/inspect/zaxy.ts';
import { fixtureBytes } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function fetchPageOver(bytes: Uint8Array): FetchPage {
  const source = { bytes, complete: true, format: 'zaxy' as const };
  const index = zaxyInspector.buildIndex(source);
  return (request) => Promise.resolve(structuredClone(zaxyInspector.page(source, index, request)));
}

async function mount(bytes: Uint8Array, setup?: (element: VerifyExportEntries) => void): Promise<VerifyExportEntries> {
  const element = document.createElement('verify-export-entries');
  element.fetchPage = fetchPageOver(bytes);
  setup?.(element);
  document.body.append(element);
  await element.updateComplete;
  await element.ready;
  await element.updateComplete;
  return element;
}

function root(element: VerifyExportEntries): ShadowRoot {
  assert(element.shadowRoot, 'the view has a shadow root');
  return element.shadowRoot;
}

function cards(element: VerifyExportEntries): HTMLElement[] {
  return [...root(element).querySelectorAll<HTMLElement>('article.card')];
}

async function settle(element: VerifyExportEntries): Promise<void> {
  await element.updateComplete;
  await element.ready;
  await element.updateComplete;
}

const encoder = new TextEncoder();

/** An unsigned envelope (the view reads any Zaxy shape; nothing here is verified). */
function envelope(entries: unknown[], extra = ''): Uint8Array {
  const text = JSON.stringify({
    version: 'zaxy.export.unsigned.v1',
    schema_version: 'zaxy.export.v1',
    session_id: 's',
    signed: false,
    entries,
  });
  return encoder.encode(extra === '' ? text : text.replace('"entries":[', `"entries":[${extra}`));
}

function eventEntry(seq: number, type: string, payload: Record<string, unknown>, actor = 'claude'): unknown {
  return {
    schema_version: 'zaxy.export.v1',
    grain: 'event',
    kind: type,
    citation: `eventloom://t/events/${seq}#${'ab'.repeat(32)}`,
    seq,
    valid_from: `2026-06-0${1 + (seq % 9)}T00:00:00+00:00`,
    valid_to: null,
    source: 'eventloom',
    content: { type, actor, thread: 't', payload },
  };
}

afterEach(() => {
  for (const element of document.querySelectorAll('verify-export-entries')) element.remove();
});

describe('Entries view: cards', () => {
  it('groups a signed bundle by seq, types its cards and writes edges as sentences', async () => {
    const element = await mount(await fixtureBytes('zaxy/signed-ml-dsa-65-semantic-unpinned.json'));
    const shadow = root(element);
    assert(cards(element).length === 12, `12 cards, got ${cards(element).length}`);
    const groups = [...shadow.querySelectorAll('h3.group')].map((heading) => heading.textContent?.trim());
    assert(groups.length >= 4 && groups[0] === 'seq 1' && groups[1] === 'seq 2', `seq groups: ${groups.join(',')}`);
    const text = shadow.textContent ?? '';
    assert(
      /claude\s*—created→\s*goal 1: ship signed export/.test(text),
      'an edge is drawn as source —relation→ target',
    );
    assert(/decision:2\s*—supports→\s*goal:export/.test(text), 'every relation is drawn from the data');
    assert(text.includes('entry #4 of the signed bundle'), 'bundle entries are numbered in the signed bundle');
    assert(text.includes('Content signed, anchor not covered.'), 'the view says what was verified');
    const decision = cards(element).find((card) => card.textContent?.includes('decision.made'));
    assert(decision, 'a decision card');
    assert(
      decision.querySelector('h4')?.textContent?.includes('use Merkle subset disclosure #2'),
      'the decision heads its card',
    );
    assert(decision.textContent?.includes('Rationale'), 'the documented layout labels the rationale');
  });

  it('labels the entries of a subset by their position in the signed bundle', async () => {
    const element = await mount(await fixtureBytes('zaxy/subset-ed25519-n5-several.json'));
    const labels = cards(element).map((card) => card.getAttribute('aria-label'));
    assert(
      labels.join('|') === 'entry #1 of the signed bundle|entry #4 of the signed bundle|entry #2 of the signed bundle',
      `labels: ${labels.join('|')}`,
    );
  });

  it('shows numbers by their lexeme: 1.0 stays 1.0, 2^64 stays exact', async () => {
    const element = await mount(await fixtureBytes('zaxy/signed-ed25519-canon-floats.json'));
    const codes = [...root(element).querySelectorAll('code')].map((code) => code.textContent);
    for (const lexeme of ['1.0', '1e+100', '-0.0', '1000000000000000.0', '5e-324'])
      assert(codes.includes(lexeme), `shows ${lexeme}: ${codes.join(' ')}`);
    const big = await mount(
      envelope(
        [],
        JSON.stringify(eventEntry(1, 'x.y', {})).replace('"payload":{}', '"payload":{"n":18446744073709551616}'),
      ),
    );
    const bigCodes = [...root(big).querySelectorAll('code')].map((code) => code.textContent);
    assert(bigCodes.includes('18446744073709551616'), `2^64 exact: ${bigCodes.join(' ')}`);
  });

  it('shows every number as the bundle writes it (1.50, 1e5, -0.0, 1E-7), in fields, lists and JSON, and finds it', async () => {
    // Zaxy's real unsigned envelope with lexemes Python would re-print otherwise in one payload.
    const text = new TextDecoder().decode(await fixtureBytes('zaxy/unsigned-event-3.json'));
    const payload =
      '"a": 1.50, "b": 1e5, "c": -0.0, "d": 1E-7, "e": 18446744073709551616, "f": 1.0, ' +
      '"nested": {"x": [2.50]}, "list": [1.50, 1e5],';
    assert(text.split('"duration_s": 12.5,').length === 2, 'the fixture holds the payload member once');
    const element = await mount(encoder.encode(text.replace('"duration_s": 12.5,', payload)));
    const shadow = root(element);
    const card = cards(element).find((article) => article.textContent?.includes('task.completed'));
    assert(card, 'the task.completed card');
    const codes = [...card.querySelectorAll('code')].map((code) => code.textContent);
    for (const lexeme of ['1.50', '1e5', '-0.0', '1E-7', '18446744073709551616', '1.0'])
      assert(codes.includes(lexeme), `shows ${lexeme}: ${codes.join(' ')}`);
    assert(!codes.includes('1.5') && !codes.includes('100000.0'), `nothing re-printed: ${codes.join(' ')}`);
    const items = [...card.querySelectorAll('li')].map((item) => item.textContent);
    assert(items.join('|') === '1.50|1e5', `a list by lexeme: ${items.join('|')}`);
    const blocks = [...card.querySelectorAll('pre')].map((pre) => pre.textContent ?? '');
    assert(
      blocks.some((block) => block.includes('"x": [\n    2.50\n  ]')),
      `nested JSON by lexeme: ${blocks.join('|')}`,
    );
    const search = shadow.querySelector<HTMLInputElement>('input[type="search"]')!;
    search.value = '1.50';
    search.dispatchEvent(new Event('input'));
    search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await settle(element);
    const hits = cards(element).filter((article) => article.classList.contains('hit'));
    assert(
      hits.length === 1 && hits[0]!.textContent?.includes('task.completed'),
      `the search for 1.50 finds the one entry, got ${hits.length}`,
    );
    const count = shadow.querySelector('#entries-count')?.textContent ?? '';
    assert(count === 'Match 1 of 1', `exact count: ${count}`);
  });
});

describe('Entries view: filters, search, findings, keyboard', () => {
  it('filters by kind with counts and searches with exact counts', async () => {
    const element = await mount(await fixtureBytes('zaxy/signed-ml-dsa-65-semantic-unpinned.json'));
    const shadow = root(element);
    const kindSelect = shadow.querySelectorAll('select')[1]!;
    const options = [...kindSelect.options].map((option) => option.textContent?.trim());
    assert(
      options.includes('decision.made (1)') && options.includes('goal.created (1)'),
      `kind counts: ${options.join(',')}`,
    );
    kindSelect.value = 'decision.made';
    kindSelect.dispatchEvent(new Event('change'));
    await settle(element);
    assert(cards(element).length === 1, `one decision.made, got ${cards(element).length}`);
    kindSelect.value = '';
    kindSelect.dispatchEvent(new Event('change'));
    await settle(element);
    const search = shadow.querySelector<HTMLInputElement>('input[type="search"]')!;
    search.value = 'GOAL';
    search.dispatchEvent(new Event('input'));
    search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await settle(element);
    const count = shadow.querySelector('#entries-count')?.textContent ?? '';
    const hits = cards(element).filter((card) => card.classList.contains('hit'));
    assert(hits.length === 4, `4 entries mention "goal", got ${hits.length}`);
    assert(count === 'Match 1 of 4', `the first match is announced with the exact count: ${count}`);
    assert(shadow.activeElement === hits[0], 'the first match is focused');
  });

  it('jumps to the entry a finding names, and moves between entries with the keyboard', async () => {
    const element = await mount(await fixtureBytes('zaxy/signed-ml-dsa-65-semantic-unpinned.json'), (view) => {
      view.findings = [
        { path: '$.entries[5].id', message: 'entry id does not match its content (tampered)', severity: 'error' },
      ];
      view.failed = true;
    });
    const shadow = root(element);
    assert(shadow.querySelector('.failed-bar[role="alert"]'), 'a failed artifact gets the red bar');
    shadow.querySelector<HTMLButtonElement>('.findings button')!.click();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await element.updateComplete;
    assert(shadow.activeElement?.getAttribute('data-index') === '5', 'the finding focuses entry 5');
    await sendKeys({ press: 'ArrowDown' });
    await element.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert(shadow.activeElement?.getAttribute('data-index') === '6', 'ArrowDown moves to the next entry');
    await sendKeys({ press: 'End' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert(shadow.activeElement?.getAttribute('data-index') === '11', 'End moves to the last entry');
  });

  it('ticks the filtered entries of a signed bundle for disclosure', async () => {
    const element = await mount(await fixtureBytes('zaxy/signed-ml-dsa-65-semantic-unpinned.json'));
    const shadow = root(element);
    const grain = shadow.querySelector('select')!;
    grain.value = 'event';
    grain.dispatchEvent(new Event('change'));
    await settle(element);
    const selected = new Promise<number[]>((resolve) =>
      element.addEventListener(
        'verify-export:entries-selection',
        (event) => resolve((event as CustomEvent).detail.positions),
        { once: true },
      ),
    );
    [...shadow.querySelectorAll('button')].find((button) => button.textContent?.includes('for disclosure'))!.click();
    const positions = await selected;
    const eventPositions = cards(element).map((card) => Number(card.parentElement!.getAttribute('data-position')));
    assert(
      positions.join(',') === eventPositions.join(','),
      `ticks ${positions.join(',')} = shown ${eventPositions.join(',')}`,
    );
  });
});

describe('Entries view: scale and hostile input', () => {
  it('windows a list of 5,000 entries and reaches the last one', async () => {
    const entries = Array.from({ length: 5000 }, (_, at) =>
      eventEntry(at + 1, 'decision.made', { decision: `d${at}` }),
    );
    const element = await mount(envelope(entries));
    const drawn = root(element).querySelectorAll('[role="listitem"]').length;
    assert(drawn > 0 && drawn < 400, `only a window is drawn: ${drawn}`);
    await element.jumpTo(4999);
    await element.updateComplete;
    assert(root(element).activeElement?.textContent?.includes('d4999'), 'the last entry is reached');
  });

  it('draws the XSS payloads as text', async () => {
    (window as unknown as Record<string, unknown>).__xss = undefined;
    const payloads = {
      decision: '<img src=x onerror="window.__xss=1">',
      summary: '</script><script>window.__xss=1</script>',
      rationale: ['javascript:window.__xss=1', 'https://example.invalid/?q=<b>'],
      alternatives_considered: ['\u202Egnp.exe', 'x\u0000y'],
      css: '</style><style>*{display:none !important}</style>"; } * { color: red }',
      huge: 'A'.repeat(1024 * 1024),
    };
    const element = await mount(envelope([eventEntry(1, 'decision.made', payloads, '<b>actor</b>')]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const shadow = root(element);
    assert(shadow.querySelector('img, script, style, iframe, a') === null, 'no markup from the artifact');
    assert((window as unknown as Record<string, unknown>).__xss === undefined, 'nothing ran');
    assert(shadow.querySelector('h4')?.textContent?.includes('<img src=x onerror='), 'markup is shown as text');
    const marks = [...shadow.querySelectorAll('.control')].map((mark) => mark.textContent);
    assert(marks.includes('RLO') && marks.includes('␀'), `controls are drawn visibly: ${marks.join(',')}`);
    assert(
      shadow.textContent!.includes('javascript:window.__xss=1') && shadow.querySelector('a') === null,
      'URLs stay text',
    );
    const longest = Math.max(...[...shadow.querySelectorAll('pre')].map((pre) => pre.textContent?.length ?? 0));
    assert(longest <= 200_001, `one body holds at most ~200 KB: ${longest}`);
    assert(shadow.textContent!.includes('more characters'), 'the rest is offered as a download');
    assert(getComputedStyle(shadow.querySelector('article')!).display !== 'none', 'CSS-breaking text changes no style');
  });
});

describe('Entries view: screenshots', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`in ${scheme} mode`, async () => {
      await emulateMedia({ colorScheme: scheme });
      const element = await mount(await fixtureBytes('zaxy/signed-ml-dsa-65-semantic-unpinned.json'), (view) => {
        view.findings = [{ path: '$.entries[1]', message: 'example finding', severity: 'error' }];
      });
      document.body.style.background = scheme === 'dark' ? '#0d1117' : '#ffffff';
      await element.updateComplete;
      await executeServerCommand('save-screenshot', { name: `views-entries-${scheme}.png` });
      await emulateMedia({ colorScheme: 'light' });
      document.body.style.background = '';
    });
  }
});
