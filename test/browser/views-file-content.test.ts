/// <reference types="mocha" />
// The Files view (<verify-export-files>) in Chromium, over the AgentXchain fixtures: the element is
// driven with a `fetchPage` built from the core's file inspector over the fixture's bytes (each
// page structured-cloned, as the worker's answers are). Checks the badges, text, JSON tree and
// JSONL rows, search counts, findings that open their file, keyboard navigation and the XSS
// payloads. Screenshots in light and dark mode go to test-results/screenshots/.
import { emulateMedia, executeServerCommand, sendKeys } from '@web/test-runner-commands';
import '../../components/views/file-content/index.ts';
import type { VerifyExportFiles } from '../../components/views/file-content/index.ts';
import type { FetchPage } from '../../components/views/common/paged-items.ts';
import { agentxchainFilesInspector } from '../../src/inspect/agentxchain-files.ts';
import { fixtureBytes } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function fetchPageOver(bytes: Uint8Array): FetchPage {
  const source = { bytes, complete: true, format: 'agentxchain' as const };
  const index = agentxchainFilesInspector.buildIndex(source);
  return (request) => Promise.resolve(structuredClone(agentxchainFilesInspector.page(source, index, request)));
}

async function mount(bytes: Uint8Array, setup?: (element: VerifyExportFiles) => void): Promise<VerifyExportFiles> {
  const element = document.createElement('verify-export-files');
  element.fetchPage = fetchPageOver(bytes);
  setup?.(element);
  document.body.append(element);
  await element.updateComplete;
  await element.ready;
  await element.updateComplete;
  return element;
}

function root(element: VerifyExportFiles): ShadowRoot {
  assert(element.shadowRoot, 'the view has a shadow root');
  return element.shadowRoot;
}

function rowOf(element: VerifyExportFiles, name: string): HTMLTableRowElement {
  const row = [...root(element).querySelectorAll<HTMLTableRowElement>('tbody tr')].find(
    (tr) => tr.querySelector('button')?.textContent?.trim() === name,
  );
  assert(row, `a row for ${name}`);
  return row;
}

async function open(element: VerifyExportFiles, name: string): Promise<HTMLElement> {
  rowOf(element, name).querySelector('button')!.click();
  await new Promise((resolve) => setTimeout(resolve, 30));
  await element.updateComplete;
  const section = root(element).querySelector<HTMLElement>('section.content');
  assert(section, 'the content opens');
  return section;
}

afterEach(() => {
  for (const element of document.querySelectorAll('verify-export-files')) element.remove();
});

describe('Files view', () => {
  it('lists the files with their badges and says what was verified', async () => {
    const element = await mount(await fixtureBytes('agentxchain/real-bounded.json'));
    const shadow = root(element);
    assert(shadow.textContent?.includes('File bytes hashed.'), 'the view says what was verified');
    assert(rowOf(element, '.agentxchain/state.json').textContent?.includes('bytes match SHA-256'), 'hashed file badge');
    assert(rowOf(element, '.planning/big.json').textContent?.includes('not verified'), 'content_base64: null badge');
    assert(shadow.querySelector('#files-status')?.textContent === '25 files', 'file count');
  });

  it('opens a text file, a JSON tree and JSONL rows from the verified bytes', async () => {
    const element = await mount(await fixtureBytes('agentxchain/real-full.json'));
    const text = await open(element, '.planning/crlf.txt');
    assert(text.querySelector('pre'), 'a text file is drawn as text');
    const json = await open(element, '.agentxchain/state.json');
    const items = json.querySelectorAll('[role="treeitem"]');
    assert(items.length > 3 && json.querySelector('.key')?.textContent, `a JSON tree (${items.length} items)`);
    const jsonl = await open(element, '.agentxchain/decision-ledger.jsonl');
    const rows = jsonl.querySelectorAll('.row-card');
    assert(rows.length === 7, `7 JSONL rows, got ${rows.length}`);
    assert(rows[0]!.textContent?.includes('DEC-001'), 'rows show their content');
    (rows[0] as HTMLElement).focus();
    await sendKeys({ press: 'ArrowDown' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert(root(element).activeElement?.getAttribute('data-index') === '1', 'ArrowDown moves to the next row');
  });

  it('searches file names and rows with exact counts', async () => {
    const element = await mount(await fixtureBytes('agentxchain/real-full.json'));
    const shadow = root(element);
    const find = shadow.querySelector<HTMLInputElement>('input[type="search"]')!;
    find.value = '.JSONL';
    find.dispatchEvent(new Event('input'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await element.ready;
    await element.updateComplete;
    const hits = shadow.querySelectorAll('tbody tr.hit').length;
    assert(
      hits === 6 && shadow.querySelector('#files-status')?.textContent?.startsWith('6 of 25 files'),
      `6 JSONL files (${hits})`,
    );
    const section = await open(element, '.agentxchain/decision-ledger.jsonl');
    const inFile = section.querySelector<HTMLInputElement>('input[type="search"]')!;
    inFile.value = 'DEC-00';
    inFile.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await element.updateComplete;
    const marked = shadow.querySelectorAll('.row-card.hit').length;
    // DEC-001, DEC-002, DEC-003 and DEC-201 (which cites DEC-002) mention "DEC-00"; three rows do not.
    assert(marked === 4, `the rows mentioning DEC-00: ${marked}`);
    assert(
      shadow.querySelector('#files-status')?.textContent === 'Row match 1 of 4',
      shadow.querySelector('#files-status')?.textContent ?? '',
    );
  });

  it('opens the file a finding names, under the red bar of a failed export', async () => {
    const element = await mount(await fixtureBytes('agentxchain/file-sha-flip.json'), (view) => {
      view.failed = true;
      view.findings = [
        {
          path: '$.files[".planning/ROADMAP.md"].sha256',
          message: 'sha256 does not match content_base64',
          severity: 'error',
        },
      ];
    });
    const shadow = root(element);
    assert(shadow.querySelector('.failed-bar[role="alert"]'), 'the red bar');
    shadow.querySelector<HTMLButtonElement>('.findings button')!.click();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await element.updateComplete;
    const heading = shadow.querySelector('section.content h3')?.textContent ?? '';
    assert(heading.includes('.planning/ROADMAP.md') && heading.includes('bytes do not match SHA-256'), heading);
  });

  it('draws the XSS payloads as text', async () => {
    (window as unknown as Record<string, unknown>).__xss = undefined;
    const hostile = [
      '<img src=x onerror="window.__xss=1">',
      '</script><script>window.__xss=1</script>',
      'javascript:window.__xss=1',
      '\u202Egnp.exe',
      '</style><style>*{display:none !important}</style>"; } * { color: red }',
      'B'.repeat(1024 * 1024),
    ].join('\n');
    const content = new TextEncoder().encode(hostile);
    const base64 = bytesToBase64(content);
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', content))]
      .map((byte) => byte.toString(16).padStart(2, '0'))
      .join('');
    const name = '<img src=x onerror="window.__xss=2">\u202Etxt.md';
    const artifact = {
      schema_version: '0.3',
      export_kind: 'agentxchain_run_export',
      files: {
        [name]: { format: 'text', bytes: content.length, sha256: digest, content_base64: base64, data: hostile },
      },
    };
    const element = await mount(new TextEncoder().encode(JSON.stringify(artifact)));
    const shadow = root(element);
    const section = await open(element, shadow.querySelector('tbody button')!.textContent!.trim());
    assert(shadow.querySelector('img, script, style, iframe, a') === null, 'no markup from the artifact');
    assert((window as unknown as Record<string, unknown>).__xss === undefined, 'nothing ran');
    assert(section.querySelector('h3 .badge')?.textContent === 'bytes match SHA-256', 'the content is hashed again');
    const marks = [...shadow.querySelectorAll('.control')].map((mark) => mark.textContent);
    assert(marks.includes('RLO'), `bidi controls are drawn visibly: ${marks.join(',')}`);
    const drawn = section.querySelector('pre')?.textContent?.length ?? 0;
    assert(
      drawn <= 200_100 && section.textContent?.includes('download the full file'),
      `at most ~200 KB drawn: ${drawn}`,
    );
  });
});

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

describe('Files view: screenshots', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`in ${scheme} mode`, async () => {
      await emulateMedia({ colorScheme: scheme });
      document.body.style.background = scheme === 'dark' ? '#0d1117' : '#ffffff';
      const element = await mount(await fixtureBytes('agentxchain/real-bounded.json'));
      await open(element, '.agentxchain/state.json');
      await executeServerCommand('save-screenshot', { name: `views-file-content-${scheme}.png` });
      await emulateMedia({ colorScheme: 'light' });
      document.body.style.background = '';
    });
  }
});
