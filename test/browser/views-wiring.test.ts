/// <reference types="mocha" />
// The content views as <verify-export> shows them, with the real core in its worker (Chromium):
// Zaxy's "Entries" tab (a subset's entries labelled by their place in the signed bundle; the
// view's filters tick the entries to disclose, and the subset made of them verifies) and
// AgentXchain's "Files" tab (beside Run and Compare for an export that passes, alone beside
// Verification under a red bar for one that fails). A click on a finding's path opens its entry or
// file; the tabs follow the keyboard. Screenshots in light and dark mode go to
// test-results/screenshots/.
import { emulateMedia, executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import '../../components/verify-export.ts';
import type { VerifyExportElement } from '../../components/verify-export.ts';
import { fixtureBytes } from './fixtures.ts';
import type { Report } from '../../src/report.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

function mountElement(): VerifyExportElement {
  const element = document.createElement('verify-export');
  document.body.append(element);
  mounted.push(element);
  return element;
}

async function verified(element: VerifyExportElement, file: File): Promise<Report> {
  const done = new Promise<Report>((resolve, reject) => {
    element.addEventListener('verify-export:result', (event) => resolve((event as CustomEvent<Report>).detail), {
      once: true,
    });
    element.addEventListener('verify-export:error', () => reject(new Error('verify-export:error')), { once: true });
  });
  element.file = file;
  const report = await done;
  await element.updateComplete;
  return report;
}

async function fixtureFile(path: string): Promise<File> {
  return new File([(await fixtureBytes(path)) as BlobPart], path.split('/').pop()!);
}

async function until<T>(what: string, probe: () => T | null | undefined | false, ms = 60_000): Promise<T> {
  const started = performance.now();
  for (;;) {
    const found = probe();
    if (found) return found;
    if (performance.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function textOf(node: ParentNode | null | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function tabLabels(root: ShadowRoot): string[] {
  return [...root.querySelectorAll('[role="tab"]')].map((tab) => textOf(tab));
}

function selectedTab(root: ShadowRoot): string {
  return textOf(root.querySelector('[role="tab"][aria-selected="true"]'));
}

/** The entry cards the Entries view draws, once it has drawn some. */
async function entryCards(root: ShadowRoot): Promise<HTMLElement[]> {
  const view = await until('the Entries view', () => root.querySelector('verify-export-entries'));
  return until('entry cards', () => {
    const cards = [...(view.shadowRoot?.querySelectorAll<HTMLElement>('article.card') ?? [])];
    return cards.length > 0 && cards;
  });
}

/** The Files view's table row for `name`. */
async function fileRow(root: ShadowRoot, name: string): Promise<HTMLTableRowElement> {
  const view = await until('the Files view', () => root.querySelector('verify-export-files'));
  return until(`the row of ${name}`, () =>
    [...(view.shadowRoot?.querySelectorAll<HTMLTableRowElement>('tbody tr') ?? [])].find(
      (row) => textOf(row.querySelector('button')) === name,
    ),
  );
}

/** Opens a file of the Files view and returns its content's heading. */
async function openFile(root: ShadowRoot, name: string): Promise<HTMLElement> {
  (await fileRow(root, name)).querySelector('button')!.click();
  const view = root.querySelector('verify-export-files')!;
  return until(`the content of ${name}`, () => {
    const heading = view.shadowRoot?.querySelector<HTMLElement>('section.content h3');
    return heading && textOf(heading).startsWith(name) && heading;
  });
}

function findingPath(root: ShadowRoot, path: string): HTMLElement {
  const found = [...root.querySelectorAll<HTMLElement>('[part="findings"] code.path')].find(
    (code) => textOf(code) === path,
  );
  assert(found, `a finding at ${path}`);
  return found;
}

describe('<verify-export> Entries tab (Zaxy)', () => {
  it('a subset: its entries are labelled by their place in the signed bundle', async () => {
    const element = mountElement();
    const report = await verified(element, await fixtureFile('zaxy/subset-ed25519-n5-several.json'));
    assert(report.overall === 'pass' && report.kind === 'zaxy.subset', 'the subset verifies');
    const root = element.shadowRoot!;
    assert(tabLabels(root).join() === 'Verification,Entries', `tabs: ${tabLabels(root).join()}`);
    root.querySelector<HTMLElement>('#content-tab-content')!.click();
    const labels = (await entryCards(root)).map((card) => card.getAttribute('aria-label'));
    assert(
      labels.join('|') === 'entry #1 of the signed bundle|entry #4 of the signed bundle|entry #2 of the signed bundle',
      `labels: ${labels.join('|')}`,
    );
    const view = root.querySelector('verify-export-entries')!;
    assert(textOf(view.shadowRoot!.querySelector('.note')).startsWith('Content signed'), 'what is verified is said');
    assert(!view.hasAttribute('failed'), 'no red bar for a subset that verifies');
  });

  it('the filtered entries become the disclosure ticks, and the subset made of them verifies', async () => {
    const element = mountElement();
    const bundle = await verified(element, await fixtureFile('zaxy/signed-ml-dsa-65-semantic-unpinned.json'));
    assert(bundle.overall === 'pass' && bundle.kind === 'zaxy.portable.v1', 'the bundle verifies');
    const root = element.shadowRoot!;
    root.querySelector<HTMLElement>('#content-tab-content')!.click();
    const all = await entryCards(root);
    const view = root.querySelector('verify-export-entries')!;
    const grain = view.shadowRoot!.querySelector('select')!;
    grain.value = 'event';
    grain.dispatchEvent(new Event('change'));
    const events = await until('the event entries', () => {
      const cards = [...view.shadowRoot!.querySelectorAll<HTMLElement>('article.card')];
      return cards.length > 0 && cards.length < all.length && cards;
    });
    const shown = events.map((card) => Number(card.parentElement!.getAttribute('data-position')));
    const ticked = new Promise<number[]>((resolve) =>
      element.addEventListener(
        'verify-export:entries-selection',
        (event) => resolve([...(event as CustomEvent<{ positions: number[] }>).detail.positions]),
        { once: true },
      ),
    );
    const tick = [...view.shadowRoot!.querySelectorAll('button')].find((button) =>
      textOf(button).includes('for disclosure'),
    );
    assert(tick, 'the view offers to tick its entries');
    tick.click();
    const positions = await ticked;
    assert(positions.join() === shown.join(), `ticked ${positions.join()}, shown ${shown.join()}`);
    const discloseButton = await until('the disclosure panel', () =>
      selectedTab(root) === 'Verification' ? root.querySelector<HTMLButtonElement>('[part="disclose-button"]') : null,
    );
    await until('focus on the disclose button', () => root.activeElement === discloseButton);
    assert(
      textOf(discloseButton).startsWith(`Download subset (${positions.length} of`),
      `the ticks: ${textOf(discloseButton)}`,
    );
    const boxes = [...root.querySelectorAll<HTMLInputElement>('[part="entry-table"] input[type="checkbox"]')];
    const checked = boxes.flatMap((box, i) => (box.checked ? [i] : []));
    assert(checked.join() === positions.join(), `checked boxes ${checked.join()}`);

    discloseButton.click();
    const link = await until('the subset', () => root.querySelector<HTMLAnchorElement>('[part="download-link"]'));
    const subset = JSON.parse(await (await fetch(link.href)).text()) as { disclosed: { index: number }[] };
    assert(
      subset.disclosed.map((entry) => entry.index).join() === positions.join(),
      `the subset discloses exactly the ticked entries: ${subset.disclosed.map((entry) => entry.index).join()}`,
    );
    const result = new Promise<Report>((resolve) =>
      element.addEventListener('verify-export:result', (event) => resolve((event as CustomEvent<Report>).detail), {
        once: true,
      }),
    );
    [...root.querySelectorAll('button')].find((button) => textOf(button) === 'Verify this subset')!.click();
    const again = await result;
    assert(again.overall === 'pass' && again.kind === 'zaxy.subset', `the subset verifies: ${again.overall}`);
  });

  it('a failed bundle stays readable under a red bar; a finding opens its entry', async () => {
    const element = mountElement();
    const report = await verified(element, await fixtureFile('zaxy/signed-ed25519-n5-tamper-content.json'));
    assert(report.overall === 'fail', 'the tampered bundle fails');
    const root = element.shadowRoot!;
    findingPath(root, '$.entries[1].id').click();
    await until('the Entries tab', () => selectedTab(root) === 'Entries');
    const view = await until('the Entries view', () => root.querySelector('verify-export-entries'));
    const focused = await until('the entry of the finding', () => {
      const active = view.shadowRoot?.activeElement;
      return active?.matches('article.card') && active;
    });
    assert(focused.parentElement?.getAttribute('data-position') === '1', 'entry 1 is focused');
    assert(view.shadowRoot!.querySelector('.failed-bar[role="alert"]'), 'the red bar');
    assert(
      ![...view.shadowRoot!.querySelectorAll('button')].some((button) => textOf(button).includes('for disclosure')),
      'a failed bundle offers no disclosure ticks',
    );
  });
});

describe('<verify-export> Files tab (AgentXchain)', () => {
  it('beside Verification, Run and Compare: hashed files are badged, content_base64: null is not verified', async () => {
    const element = mountElement();
    const report = await verified(element, await fixtureFile('agentxchain/real-bounded.json'));
    assert(report.overall === 'pass', 'the export verifies');
    const root = element.shadowRoot!;
    assert(tabLabels(root).join() === 'Verification,Files,Run,Compare', `tabs: ${tabLabels(root).join()}`);
    root.querySelector<HTMLElement>('#tab-files')!.click();
    const hashed = await openFile(root, '.agentxchain/state.json');
    assert(textOf(hashed.querySelector('.badge')) === 'bytes match SHA-256', `badge: ${textOf(hashed)}`);
    const unhashed = await openFile(root, '.planning/big.json');
    assert(textOf(unhashed.querySelector('.badge')) === 'not verified', `badge: ${textOf(unhashed)}`);
    const view = root.querySelector('verify-export-files')!;
    assert(!view.hasAttribute('failed'), 'no red bar for an export that verifies');
    assert(
      textOf(view.shadowRoot!.querySelector('.note')).startsWith('File bytes hashed.'),
      'what is verified is said',
    );
  });

  it('a finding opens its file (an export that passes)', async () => {
    const element = mountElement();
    await verified(element, await fixtureFile('agentxchain/real-bounded.json'));
    const root = element.shadowRoot!;
    findingPath(root, '$.files[".planning/big.json"].content_base64').click();
    await until('the Files tab', () => selectedTab(root) === 'Files');
    const view = await until('the Files view', () => root.querySelector('verify-export-files'));
    const heading = await until('the file of the finding', () =>
      view.shadowRoot?.querySelector<HTMLElement>('section.content h3'),
    );
    assert(textOf(heading).startsWith('.planning/big.json'), `opened ${textOf(heading)}`);
  });

  it('an export that fails: Files (no Run, no Compare) under a red bar; a finding opens its file', async () => {
    const element = mountElement();
    const report = await verified(element, await fixtureFile('agentxchain/file-sha-flip.json'));
    assert(report.overall === 'fail', 'the export fails');
    const root = element.shadowRoot!;
    assert(tabLabels(root).join() === 'Verification,Files', `tabs: ${tabLabels(root).join()}`);
    findingPath(root, '$.files[".planning/ROADMAP.md"].sha256').click();
    await until('the Files tab', () => selectedTab(root) === 'Files');
    const view = await until('the Files view', () => root.querySelector('verify-export-files'));
    const heading = await until('the file of the finding', () =>
      view.shadowRoot?.querySelector<HTMLElement>('section.content h3'),
    );
    assert(textOf(heading).startsWith('.planning/ROADMAP.md'), `opened ${textOf(heading)}`);
    assert(view.shadowRoot!.querySelector('.failed-bar[role="alert"]'), 'the red bar');
    // A path the view cannot show leaves the Verification tab alone.
    root.querySelector<HTMLElement>('#content-tab-verification')!.click();
    await until('the Verification tab', () => selectedTab(root) === 'Verification');
    findingPath(root, '$').click();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert(selectedTab(root) === 'Verification', 'a click on "$" stays on Verification');
  });
});

describe('<verify-export> view tabs: keyboard', () => {
  it('arrows, Home and End move between Verification, Files, Run and Compare; focus follows', async () => {
    const element = mountElement();
    await verified(element, await fixtureFile('agentxchain/real-bounded.json'));
    const root = element.shadowRoot!;
    const tabs = [...root.querySelectorAll<HTMLElement>('[role="tab"]')];
    assert(tabs.filter((tab) => tab.tabIndex === 0).length === 1, 'one tab stop');
    tabs[0]!.focus();
    await sendKeys({ press: 'ArrowRight' });
    await until('Files', () => selectedTab(root) === 'Files' && root.activeElement?.id === 'tab-files');
    const panel = root.querySelector('#panel-files')!;
    assert(panel.getAttribute('aria-labelledby') === 'tab-files' && !panel.hasAttribute('hidden'), 'its panel shows');
    await until('the Files view', () => panel.querySelector('verify-export-files'));
    await sendKeys({ press: 'End' });
    await until('Compare', () => selectedTab(root) === 'Compare' && root.activeElement?.id === 'tab-compare');
    await sendKeys({ press: 'ArrowRight' });
    await until('wraps to Verification', () => selectedTab(root) === 'Verification');
    await sendKeys({ press: 'ArrowLeft' });
    await until('wraps back to Compare', () => selectedTab(root) === 'Compare');
    await sendKeys({ press: 'Home' });
    await until('Verification', () => root.activeElement?.id === 'tab-verification');
  });

  it('Verification and Entries: arrows switch, focus follows', async () => {
    const element = mountElement();
    await verified(element, await fixtureFile('zaxy/signed-ed25519-n8.json'));
    const root = element.shadowRoot!;
    root.querySelector<HTMLElement>('#content-tab-verification')!.focus();
    await sendKeys({ press: 'ArrowRight' });
    await until('Entries', () => selectedTab(root) === 'Entries' && root.activeElement?.id === 'content-tab-content');
    await entryCards(root);
    await sendKeys({ press: 'Home' });
    await until('Verification', () => root.activeElement?.id === 'content-tab-verification');
  });
});

describe('Screenshots', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`Entries and Files tabs in ${scheme} mode`, async () => {
      await emulateMedia({ colorScheme: scheme });
      await setViewport({ width: 1040, height: 1600 });
      try {
        const zaxy = mountElement();
        zaxy.style.cssText = 'display:block;max-width:1000px;padding:16px';
        await verified(zaxy, await fixtureFile('zaxy/signed-ml-dsa-65-semantic-unpinned.json'));
        zaxy.shadowRoot!.querySelector<HTMLElement>('#content-tab-content')!.click();
        await entryCards(zaxy.shadowRoot!);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        await executeServerCommand('save-screenshot', { name: `views-entries-tab-${scheme}.png` });
        for (const element of mounted.splice(0)) element.remove();
        const agentxchain = mountElement();
        agentxchain.style.cssText = 'display:block;max-width:1000px;padding:16px';
        await verified(agentxchain, await fixtureFile('agentxchain/file-sha-flip.json'));
        agentxchain.shadowRoot!.querySelector<HTMLElement>('#content-tab-content')!.click();
        await openFile(agentxchain.shadowRoot!, '.planning/ROADMAP.md');
        await new Promise((resolve) => requestAnimationFrame(resolve));
        await executeServerCommand('save-screenshot', { name: `views-files-tab-${scheme}.png` });
      } finally {
        await emulateMedia({ colorScheme: 'light' });
        await setViewport({ width: 800, height: 600 });
      }
    });
  }
});
