/// <reference types="mocha" />
// <verify-export> in Chromium: verdicts per format (shared fixtures, expected verdicts from their
// manifests), events, progress on a multi-MB input, cancel, hostile strings rendered as text,
// keyboard operation, theming. The element runs the real core in its real module worker.
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import { defineVerifyExport, VerifyExportElement } from '../../components/verify-export.ts';
import type { VerifyExportFailure, VerifyExportProgress } from '../../components/verify-export.ts';
import { INITIAL_ROWS } from '../../components/format-views.ts';
import { fixtureBytes, fixtureManifest, fixtureUrl } from './fixtures.ts';
import type { Report } from '../../src/report.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const mounted: HTMLElement[] = [];

function mount(): VerifyExportElement {
  const element = document.createElement('verify-export');
  document.body.append(element);
  mounted.push(element);
  return element;
}

afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

/** Resolves with the next event of `type` on `target` (fails after `ms`). */
function next<T>(target: EventTarget, type: string, ms = 60_000): Promise<CustomEvent<T>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} event within ${ms} ms`)), ms);
    target.addEventListener(
      type,
      (event) => {
        clearTimeout(timer);
        resolve(event as CustomEvent<T>);
      },
      { once: true },
    );
  });
}

function shadow(element: VerifyExportElement): ShadowRoot {
  assert(element.shadowRoot, 'element has an open shadow root');
  return element.shadowRoot;
}

function verdictOf(element: VerifyExportElement): { overall: string; text: string } {
  const verdict = shadow(element).querySelector<HTMLElement>('[part="verdict"]');
  assert(verdict, 'verdict part is rendered');
  return { overall: verdict.dataset['overall'] ?? '', text: verdict.textContent?.replace(/\s+/g, ' ').trim() ?? '' };
}

/** Verifies `bytes` as a picked file; rejects at once if the element reports an error instead. */
async function verifyFile(element: VerifyExportElement, bytes: Uint8Array, name: string): Promise<Report> {
  const outcome = new Promise<Report>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no report within 60 s`)), 60_000);
    const onResult = (event: Event) => settle(() => resolve((event as CustomEvent<Report>).detail));
    const onError = (event: Event) =>
      settle(() =>
        reject(new Error(`${name}: verify-export:error ${(event as CustomEvent<VerifyExportFailure>).detail.message}`)),
      );
    function settle(then: () => void): void {
      clearTimeout(timer);
      element.removeEventListener('verify-export:result', onResult);
      element.removeEventListener('verify-export:error', onError);
      then();
    }
    element.addEventListener('verify-export:result', onResult);
    element.addEventListener('verify-export:error', onError);
  });
  element.file = new File([bytes as BlobPart], name);
  return outcome;
}

/** Expected overall verdicts, straight from the fixture manifests (test/fixtures/<format>/manifest.json). */
interface Case {
  readonly format: string;
  readonly file: string;
  readonly expected: 'pass' | 'fail' | 'error';
  readonly pin?: string;
  /** Forces the format (a file that is not JSON at all cannot be detected). */
  readonly kind?: 'agentxchain';
}

async function casesFor(
  format: 'agentxchain' | 'zaxy' | 'agent-history' | 'codex-exec',
  files: readonly string[],
): Promise<Case[]> {
  const cases: Case[] = [];
  if (format === 'agentxchain') {
    const manifest = await fixtureManifest<{
      cases: { file: string; expected: { overall: 'pass' | 'fail' | 'error' } | null }[];
    }>(format);
    for (const file of files) {
      const entry = manifest.cases.find((c) => c.file === file);
      assert(entry, `agentxchain manifest lists ${file}`);
      cases.push({
        format,
        file,
        expected: entry.expected?.overall ?? 'fail',
        ...(file.startsWith('raw-') ? { kind: 'agentxchain' as const } : {}),
      });
    }
  } else if (format === 'zaxy') {
    const manifest =
      await fixtureManifest<{ file: string; expected: { ok: boolean } | null; expect_public_key: string | null }[]>(
        format,
      );
    for (const file of files) {
      const entry = manifest.find((c) => c.file === file);
      assert(entry?.expected, `zaxy manifest lists ${file} with a verdict`);
      cases.push({
        format,
        file,
        expected: entry.expected.ok ? 'pass' : 'fail',
        ...(entry.expect_public_key ? { pin: entry.expect_public_key } : {}),
      });
    }
  } else {
    const manifest = await fixtureManifest<{ file: string; expected: { valid: boolean } }[]>(format);
    for (const file of files) {
      const entry = manifest.find((c) => c.file === file);
      assert(entry, `${format} manifest lists ${file}`);
      cases.push({ format, file, expected: entry.expected.valid ? 'pass' : 'fail' });
    }
  }
  assert(cases.length > 0, `${format}: zero cases`);
  return cases;
}

const WORDS = { pass: 'Pass:', fail: 'Fail:', error: 'Error:' } as const;

async function expectVerdicts(cases: readonly Case[]): Promise<void> {
  for (const testCase of cases) {
    const element = mount();
    if (testCase.pin) element.expectPublicKey = testCase.pin;
    if (testCase.kind) element.kind = testCase.kind;
    const report = await verifyFile(element, await fixtureBytes(`${testCase.format}/${testCase.file}`), testCase.file);
    const shown = verdictOf(element);
    assert(report.format === testCase.format, `${testCase.file}: detected as ${report.format}`);
    assert(
      report.overall === testCase.expected,
      `${testCase.file}: overall ${report.overall}, expected ${testCase.expected}`,
    );
    assert(shown.overall === testCase.expected, `${testCase.file}: shown data-overall ${shown.overall}`);
    assert(shown.text.includes(WORDS[testCase.expected]), `${testCase.file}: verdict in words: "${shown.text}"`);
    element.remove();
  }
}

describe('<verify-export> verdicts', () => {
  it('AgentXchain: run and coordinator exports, passing and tampered', async () => {
    await expectVerdicts(
      await casesFor('agentxchain', [
        'real-full.json',
        'file-sha-flip.json',
        'real-coord-broken.json',
        'raw-not-json.json',
      ]),
    );
  });

  it('AgentXchain: shows the file table with short hashes and nested repos', async () => {
    const element = mount();
    const report = await verifyFile(
      element,
      await fixtureBytes('agentxchain/real-coord-broken.json'),
      'real-coord-broken.json',
    );
    await element.updateComplete;
    const root = shadow(element);
    const files = root.querySelector('[part="file-table"]');
    assert(files, 'file table rendered');
    const rows = files.querySelectorAll('tbody tr');
    assert(
      report.format === 'agentxchain' && report.details.files !== undefined && report.details.repos !== undefined,
      'an AgentXchain report with files and repos',
    );
    const expectedRows = report.details.files.length;
    assert(
      rows.length === Math.min(expectedRows, INITIAL_ROWS) && rows.length > 0,
      `file table has ${rows.length} rows for ${expectedRows} files`,
    );
    const firstHash = rows[0]!.querySelectorAll('td')[3]!.textContent!.trim();
    assert(/^[0-9a-f]{12}$/.test(firstHash), `short sha256 shown: ${firstHash}`);
    const repos = root.querySelector('[part="repo-table"]');
    assert(
      repos && repos.querySelectorAll('tbody tr').length === report.details.repos.length,
      'one repo row per nested repo',
    );
    const dims = root.querySelectorAll('[part="dimensions"] .dimension');
    assert(dims.length === 4, 'four dimensions shown');
    assert(
      root.querySelector('[part="dimensions"]')!.textContent!.includes('no key pinned'),
      'trust says no key pinned',
    );
  });

  it('AgentXchain: a long file table starts short, puts problems first, and expands on request', async () => {
    const element = mount();
    const report = await verifyFile(
      element,
      await fixtureBytes('agentxchain/real-badstate-manyfiles.json'),
      'real-badstate-manyfiles.json',
    );
    await element.updateComplete;
    const table = () => shadow(element).querySelectorAll('[part="file-table"] tbody tr');
    assert(report.format === 'agentxchain' && report.details.files !== undefined, 'an AgentXchain report with files');
    const total = report.details.files.length;
    assert(total > INITIAL_ROWS, `fixture has ${total} files`);
    assert(table().length === INITIAL_ROWS, `first ${INITIAL_ROWS} rows drawn, not ${table().length}`);
    const statuses = report.details.files.map((file) => file.status);
    const problems = statuses.filter((status) => status === 'mismatch' || status === 'invalid').length;
    const shownStatuses = [...table()].map((row) => row.getAttribute('data-status'));
    assert(
      shownStatuses.slice(0, problems).every((status) => status === 'mismatch' || status === 'invalid'),
      'problem rows come first',
    );
    const more = shadow(element).querySelector<HTMLButtonElement>('.more button');
    assert(more, 'a button offers the remaining rows');
    more.click();
    await element.updateComplete;
    assert(table().length === total, `all ${total} rows after expanding, got ${table().length}`);
  });

  it('NDJSON: shows line, session and record counts', async () => {
    const element = mount();
    const report = await verifyFile(
      element,
      await fixtureBytes('agent-history/design-small.ndjson.gz'),
      'design-small.ndjson.gz',
    );
    await element.updateComplete;
    const fact = (label: string) =>
      [...shadow(element).querySelectorAll('[part="details"] dt')]
        .find((dt) => dt.textContent === label)
        ?.nextElementSibling?.textContent?.trim();
    assert(report.format === 'agent-history', 'an agent-history report');
    assert(fact('Lines') === String(report.details.line_count), `line count shown: ${fact('Lines')}`);
    assert(fact('Sessions') === String(report.details.session_count), 'session count shown');
    assert(fact('Compressed') === 'yes (gzip)', 'gzip input is said to be compressed');
    const types = Object.keys(report.details.records_by_type);
    assert(
      shadow(element).querySelectorAll('[part="record-table"] tbody tr').length === types.length,
      'one row per record type',
    );
  });

  it('AgentXchain: findings are grouped by path, each with its code', async () => {
    const element = mount();
    const report = await verifyFile(
      element,
      await fixtureBytes('agentxchain/file-sha-flip.json'),
      'file-sha-flip.json',
    );
    await element.updateComplete;
    const groups = shadow(element).querySelectorAll('[part="findings"] .group');
    const paths = new Set(report.findings.map((finding) => finding.path));
    assert(groups.length === paths.size && groups.length > 0, `${groups.length} groups for ${paths.size} paths`);
    const shownCodes = [...shadow(element).querySelectorAll('[part="findings"] .code')].map((node) => node.textContent);
    for (const finding of report.findings) assert(shownCodes.includes(finding.code), `code ${finding.code} shown`);
  });

  it('Zaxy: signed bundles and disclosed subsets, with and without a pinned key', async () => {
    await expectVerdicts(
      await casesFor('zaxy', [
        'signed-ed25519-n8.json',
        'signed-ed25519-n5-tamper-content.json',
        'signed-ed25519-n5-tamper-pinned-wrong.json',
        'subset-ed25519-n5-several.json',
        'subset-ed25519-n5-unpinned.json',
        'subset-ed25519-n5-tamper-sibling-flipped.json',
        'signed-ml-dsa-65-n5.json',
        'unsigned-both-5.json',
      ]),
    );
  });

  it('Zaxy: shows the signer, whether the key is pinned, and the entries', async () => {
    const [bundle] = await casesFor('zaxy', ['signed-ed25519-n8.json']);
    const element = mount();
    element.expectPublicKey = bundle!.pin!;
    const report = await verifyFile(
      element,
      await fixtureBytes('zaxy/signed-ed25519-n8.json'),
      'signed-ed25519-n8.json',
    );
    await element.updateComplete;
    const signer = shadow(element).querySelector('[part="signer"]')?.textContent ?? '';
    assert(signer.includes('ed25519'), 'algorithm shown');
    assert(
      report.format === 'zaxy' && report.kind === 'zaxy.portable.v1' && report.details.fingerprint !== null,
      'a signed bundle with a key fingerprint',
    );
    assert(signer.includes(report.details.fingerprint), 'key fingerprint shown');
    assert(signer.includes('yes: matches the pinned key'), 'pinned key stated');
    const rows = shadow(element).querySelectorAll('[part="entry-table"] tbody tr');
    assert(rows.length === report.details.entry_count, `${rows.length} entry rows`);
    element.expectPublicKey = null; // changing the pin verifies again
    const unpinned = await next<Report>(element, 'verify-export:result');
    await element.updateComplete;
    assert(unpinned.detail.verdicts.trust === 'not-checked', 'no pin: trust not checked');
    assert(
      (shadow(element).querySelector('[part="signer"]')?.textContent ?? '').includes('not pinned'),
      'signer says not pinned',
    );
  });

  it('Zaxy: disclosed entries show their proof depth and a drawing of the proof path', async () => {
    const [subset] = await casesFor('zaxy', ['subset-ed25519-n5-tamper-sibling-flipped.json']);
    const element = mount();
    element.expectPublicKey = subset!.pin!;
    const report = await verifyFile(
      element,
      await fixtureBytes('zaxy/subset-ed25519-n5-tamper-sibling-flipped.json'),
      'subset.json',
    );
    await element.updateComplete;
    assert(report.format === 'zaxy' && report.kind === 'zaxy.subset', 'a disclosed subset');
    const disclosed = report.details.disclosed;
    const rows = [...shadow(element).querySelectorAll('[part="entry-table"] tbody tr')];
    assert(rows.length === disclosed.length && rows.length > 0, 'one row per disclosed entry');
    rows.forEach((row, k) =>
      assert(
        row.querySelectorAll('td')[4]!.textContent!.trim() === String(disclosed[k]!.proof_depth),
        `proof depth of row ${k}`,
      ),
    );
    const failing = disclosed.findIndex((entry) => entry.included === false);
    assert(failing >= 0, 'the tampered proof does not reach the root');
    rows[failing]!.querySelector('button')!.click();
    await element.updateComplete;
    const svg = shadow(element).querySelector('svg[part="proof"]');
    assert(svg, 'proof drawing shown');
    assert(
      svg.querySelectorAll('rect.sibling').length === disclosed[failing]!.proof_depth,
      'one sibling box per proof step',
    );
    assert(
      svg.querySelector('rect.root')?.getAttribute('data-included') === 'false',
      'the drawing marks the root as not reached',
    );
    assert((svg.getAttribute('aria-label') ?? '').includes('does not reach'), 'the drawing says so in words');
  });

  it('Zaxy: a person ticks entries and downloads the subset the core discloses, which verifies', async () => {
    const [bundle] = await casesFor('zaxy', ['signed-ed25519-n8.json']);
    const element = mount();
    element.expectPublicKey = bundle!.pin!;
    await verifyFile(element, await fixtureBytes('zaxy/signed-ed25519-n8.json'), 'bundle.json');
    await element.updateComplete;
    const root = shadow(element);
    let downloadHref = '';
    let downloadName = '';
    root.addEventListener(
      'click',
      (event) => {
        const link = event.target as HTMLAnchorElement;
        if (link.getAttribute?.('part') === 'download-link') {
          event.preventDefault(); // keep the test browser from saving a file
          downloadHref = link.href;
          downloadName = link.download;
        }
      },
      true,
    );
    const boxes = root.querySelectorAll<HTMLInputElement>('[part="entry-table"] input[type="checkbox"]');
    assert(boxes.length > 3, 'entries can be ticked');
    boxes[1]!.click();
    boxes[3]!.click();
    await element.updateComplete;
    const button = root.querySelector<HTMLButtonElement>('[part="disclose-button"]')!;
    assert(button.textContent!.includes('2 of'), `button counts the ticks: ${button.textContent}`);
    button.click();
    const deadline = performance.now() + 30_000;
    while (downloadHref === '' && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert(downloadHref.startsWith('blob:'), 'the subset is offered as a download');
    assert(downloadName === 'bundle.subset.json', `file name ${downloadName}`);
    const subset = (await (await fetch(downloadHref)).json()) as { disclosed: { index: number }[] };
    assert(
      JSON.stringify(subset.disclosed.map((entry) => entry.index)) === '[1,3]',
      'the ticked entries are disclosed',
    );
    const again = next<Report>(element, 'verify-export:result');
    root.querySelector<HTMLButtonElement>('.actions button:not([part])')!.click(); // "Verify this subset"
    const verified = (await again).detail;
    assert(
      verified.kind === 'zaxy.subset' && verified.overall === 'pass',
      `the subset verifies: ${verified.kind} ${verified.overall}`,
    );
    assert(verified.verdicts.trust === 'pass', 'against the same pinned key');
  });

  it('Zaxy: "tick matching" selects entries by grain, kind and seq', async () => {
    const element = mount();
    const report = await verifyFile(element, await fixtureBytes('zaxy/signed-ed25519-n8.json'), 'bundle.json');
    await element.updateComplete;
    const root = shadow(element);
    assert(report.format === 'zaxy' && report.kind === 'zaxy.portable.v1', 'a signed bundle');
    const entries = report.details.entries;
    const grain = root.querySelector<HTMLSelectElement>('[part="disclosure"] select')!;
    grain.value = 'event';
    grain.dispatchEvent(new Event('change'));
    await element.updateComplete;
    [...root.querySelectorAll<HTMLButtonElement>('[part="disclosure"] button')]
      .find((b) => b.textContent === 'Tick matching')!
      .click();
    await element.updateComplete;
    const ticked = [...root.querySelectorAll<HTMLInputElement>('[part="entry-table"] input[type="checkbox"]')].map(
      (box) => box.checked,
    );
    const expected = entries.map((entry) => entry.grain === 'event');
    assert(JSON.stringify(ticked) === JSON.stringify(expected), `ticked ${JSON.stringify(ticked)}`);
  });

  it('agent-history: NDJSON and gzipped NDJSON', async () => {
    await expectVerdicts(
      await casesFor('agent-history', [
        'design-small.ndjson.gz',
        'impl-small-message-count-mismatch.ndjson',
        'real-impl-small-codex-20251120091921_rollout-2025-11-20T09-19-18-9eb4e92e-b5af-4c8a-989d-181ca33066bd.ndjson',
      ]),
    );
  });

  it('codex-exec: JSONL event streams', async () => {
    await expectVerdicts(await casesFor('codex-exec', ['real-interleaved.jsonl', 'interleaved-sequence-gap.jsonl']));
  });

  it('fetches and verifies the src attribute in the worker', async () => {
    const element = mount();
    const result = next<Report>(element, 'verify-export:result');
    element.setAttribute('src', fixtureUrl('agentxchain/real-fresh.json'));
    const report = (await result).detail;
    assert(report.overall === 'pass', `src verified: ${report.overall}`);
    assert(report.input === fixtureUrl('agentxchain/real-fresh.json'), `report.input is the src: ${report.input}`);
  });

  it('verifies the bytes property without detaching the caller’s buffer', async () => {
    const element = mount();
    const bytes = await fixtureBytes('agentxchain/real-fresh.json');
    const result = next<Report>(element, 'verify-export:result');
    element.bytes = bytes;
    assert((await result).detail.overall === 'pass', 'bytes verified');
    assert(bytes.byteLength > 0, 'the caller’s array still holds its bytes');
  });

  it('reports an unreadable file as an error, in words', async () => {
    const element = mount();
    const report = await verifyFile(element, new TextEncoder().encode('hello, not an export'), 'notes.txt');
    assert(report.overall === 'error', `overall ${report.overall}`);
    assert(verdictOf(element).text.startsWith('ERROR Error:'), `verdict: ${verdictOf(element).text}`);
  });
});

declare global {
  interface Window {
    __xss?: number;
  }
}

describe('<verify-export> events', () => {
  it('fires verify-export:result with the Report, bubbling and composed out of a shadow root', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    mounted.push(host);
    const inner = host.attachShadow({ mode: 'open' });
    const element = document.createElement('verify-export');
    inner.append(element);
    const seen = next<Report>(document, 'verify-export:result');
    element.file = new File([(await fixtureBytes('agentxchain/real-fresh.json')) as BlobPart], 'real-fresh.json');
    const event = await seen;
    assert(event.bubbles && event.composed, 'bubbles and composed');
    assert(event.detail.overall === 'pass' && event.detail.format === 'agentxchain', 'detail is the report');
    assert(event.detail.input === 'real-fresh.json', 'report names the file');
    assert(element.report?.overall === 'pass', 'the report property holds the same report');
    assert(verdictOf(element).text.includes('Pass:'), 'verdict is rendered when the event fires');
  });

  it('sends progress events with bytes for a multi-MB input, before the result', async () => {
    const element = mount();
    const base = await fixtureBytes('agentxchain/real-fresh.json');
    // Trailing whitespace keeps the JSON valid while making the input ~24 MB.
    const padding = new Uint8Array(24 * 1024 * 1024).fill(0x20);
    const file = new File([base as BlobPart, padding], 'padded.json');
    const events: VerifyExportProgress[] = [];
    element.addEventListener('verify-export:progress', (event) =>
      events.push((event as CustomEvent<VerifyExportProgress>).detail),
    );
    const result = next<Report>(element, 'verify-export:result');
    element.file = file;
    const report = (await result).detail;
    assert(events.length >= 2, `${events.length} progress events`);
    for (let i = 1; i < events.length; i++)
      assert(events[i]!.bytesRead >= events[i - 1]!.bytesRead, 'bytesRead never goes back');
    assert(events[0]!.totalBytes === file.size, `totalBytes ${events[0]!.totalBytes} = ${file.size}`);
    assert(events.at(-1)!.bytesRead === file.size, `last progress covers the file: ${events.at(-1)!.bytesRead}`);
    assert(
      events.every((event) => event.bytesPerSecond >= 0),
      'throughput is reported',
    );
    assert(report.stats.bytes_read === file.size, 'report read everything');
  });

  it('Cancel aborts the worker: error event with cancelled, no result, progress stops', async () => {
    const element = mount();
    // 96 MB of whitespace inside a JSON document, gzipped: decompressing it in the worker takes a
    // while, and its 1000:1 ratio needs a raised limit.
    const json = new Blob([
      '{"export_kind":"agentxchain_run_export",',
      new Uint8Array(96 * 1024 * 1024).fill(0x20),
      '"x":1}',
    ]);
    const gzip = await new Response(json.stream().pipeThrough(new CompressionStream('gzip'))).blob();
    element.limits = { maxCompressionRatio: 1e6 };
    let results = 0;
    element.addEventListener('verify-export:result', () => results++);
    const firstProgress = next(element, 'verify-export:progress');
    const failed = next<VerifyExportFailure>(element, 'verify-export:error');
    element.file = new File([gzip], 'big.json.gz');
    await firstProgress;
    await element.updateComplete;
    const cancel = shadow(element).querySelector<HTMLButtonElement>('[part="cancel-button"]');
    assert(cancel, 'Cancel button shown while verifying');
    const cancelledAt = performance.now();
    cancel.click();
    const failure = (await failed).detail;
    assert(failure.cancelled, 'error detail says cancelled');
    assert(performance.now() - cancelledAt < 1000, 'cancel takes effect at once');
    let progressAfter = 0;
    element.addEventListener('verify-export:progress', () => progressAfter++);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert(results === 0, 'no result after cancel');
    assert(progressAfter === 0, 'no progress after cancel');
    assert(verdictOf(element).text.includes('Cancelled'), `verdict says cancelled: ${verdictOf(element).text}`);
    assert(shadow(element).activeElement?.getAttribute('part') === 'dropzone', 'focus returns to the drop zone');
    // The element (and a fresh or acknowledged worker) still verifies afterwards.
    element.limits = undefined;
    const report = await verifyFile(element, await fixtureBytes('agentxchain/real-fresh.json'), 'real-fresh.json');
    assert(report.overall === 'pass', 'verifies again after a cancel');
  });

  it('fires verify-export:error when the src cannot be fetched', async () => {
    const element = mount();
    const failed = next<VerifyExportFailure>(element, 'verify-export:error');
    element.src = fixtureUrl('no-such-file.json');
    const failure = (await failed).detail;
    assert(!failure.cancelled && failure.message.includes('404'), `message: ${failure.message}`);
  });
});

describe('<verify-export> safety and accessibility', () => {
  it('renders hostile file names, paths and data as text and runs nothing', async () => {
    const hostile = '<img src=x onerror="window.__xss=1">';
    const artifact = JSON.parse(new TextDecoder().decode(await fixtureBytes('agentxchain/real-fresh.json'))) as {
      files: Record<string, unknown>;
    };
    artifact.files[hostile] = { format: 'text', bytes: 3, sha256: hostile, content_base64: 'PGI+', data: hostile };
    const element = mount();
    const report = await verifyFile(element, new TextEncoder().encode(JSON.stringify(artifact)), `${hostile}.json`);
    await element.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const root = shadow(element);
    assert(report.overall === 'fail', `tampered artifact fails: ${report.overall}`);
    assert(
      root.querySelector('img') === null && document.querySelector('img') === null,
      'no <img> element was created',
    );
    assert(window.__xss === undefined, 'no handler ran');
    const shown = root.textContent ?? '';
    assert(shown.includes(`${hostile}.json`), 'the file name is shown as text');
    const tableText = root.querySelector('[part="file-table"]')?.textContent ?? '';
    assert(tableText.includes(hostile), 'the hostile path is shown as text in the file table');
  });

  it('renders hostile NDJSON record types and Zaxy entry kinds as text', async () => {
    const hostile = '<img src=x onerror="window.__xss=3">';
    const stream = new TextDecoder()
      .decode(await fixtureBytes('codex-exec/real-success.jsonl'))
      .trimEnd()
      .split('\n');
    stream.splice(1, 0, JSON.stringify({ type: hostile, timestamp: hostile, payload: { data: hostile } }));
    const element = mount();
    await verifyFile(element, new TextEncoder().encode(`${stream.join('\n')}\n`), 'stream.jsonl');
    await element.updateComplete;
    const bundle = JSON.parse(new TextDecoder().decode(await fixtureBytes('zaxy/signed-ed25519-n8.json'))) as {
      entries: { content: { kind: string } }[];
    };
    bundle.entries[0]!.content.kind = hostile;
    const second = mount();
    await verifyFile(second, new TextEncoder().encode(JSON.stringify(bundle)), 'bundle.json');
    await second.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const target of [element, second]) {
      assert(shadow(target).querySelector('img') === null, 'no <img> element was created');
    }
    assert(window.__xss === undefined, 'no handler ran');
    assert(
      (shadow(second).querySelector('[part="entry-table"]')?.textContent ?? '').includes(hostile),
      'the hostile kind is shown as text',
    );
  });

  it('the drop zone is one tab stop and opens the file picker with Enter or Space', async () => {
    const before = document.createElement('button');
    before.textContent = 'before';
    document.body.append(before);
    mounted.push(before);
    const element = mount();
    await element.updateComplete;
    const root = shadow(element);
    const input = root.querySelector<HTMLInputElement>('input[type="file"]');
    assert(input && input.tabIndex === -1, 'the native input is out of the tab order');
    let clicks = 0;
    input.addEventListener('click', (event) => {
      clicks++;
      event.preventDefault(); // no real file chooser in the test browser
    });
    before.focus();
    await sendKeys({ press: 'Tab' });
    const zone = root.querySelector<HTMLElement>('[part="dropzone"]');
    assert(root.activeElement === zone, 'Tab moves focus to the drop zone');
    assert(
      zone!.getAttribute('role') === 'button' && zone!.getAttribute('aria-label'),
      'drop zone is a labelled button',
    );
    await sendKeys({ press: 'Enter' });
    await sendKeys({ press: 'Space' });
    assert(clicks === 2, `picker opened ${clicks} times`);
  });

  it('a dropped file is verified', async () => {
    const element = mount();
    await element.updateComplete;
    const zone = shadow(element).querySelector<HTMLElement>('[part="dropzone"]')!;
    const transfer = new DataTransfer();
    transfer.items.add(new File([(await fixtureBytes('agentxchain/real-fresh.json')) as BlobPart], 'dropped.json'));
    const result = next<Report>(element, 'verify-export:result');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    await element.updateComplete;
    assert(zone.classList.contains('dragging'), 'drop zone highlights while dragging');
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    const report = (await result).detail;
    assert(report.input === 'dropped.json' && report.overall === 'pass', 'dropped file verified');
  });

  it('the verdict is an aria-live status and follows the colour scheme', async () => {
    const element = mount();
    await verifyFile(element, await fixtureBytes('agentxchain/real-fresh.json'), 'real-fresh.json');
    const verdict = shadow(element).querySelector<HTMLElement>('[part="verdict"]')!;
    assert(verdict.getAttribute('aria-live') === 'polite' && verdict.getAttribute('role') === 'status', 'live region');
    await emulateMedia({ colorScheme: 'light' });
    const light = getComputedStyle(element).backgroundColor;
    await emulateMedia({ colorScheme: 'dark' });
    const dark = getComputedStyle(element).backgroundColor;
    await emulateMedia({ colorScheme: 'light' });
    assert(light !== dark, `background differs between light (${light}) and dark (${dark})`);
    element.style.setProperty('--verify-export-bg', 'rgb(1, 2, 3)');
    assert(getComputedStyle(element).backgroundColor === 'rgb(1, 2, 3)', 'custom property themes the element');
  });

  it('defineVerifyExport tolerates double loading and defines other tags', async () => {
    assert(defineVerifyExport() === VerifyExportElement, 'second define of verify-export returns the registered class');
    const Other = defineVerifyExport('my-verifier-test');
    assert(defineVerifyExport('my-verifier-test') === Other, 'idempotent for a custom tag');
    const element = document.createElement('my-verifier-test') as VerifyExportElement;
    document.body.append(element);
    mounted.push(element);
    assert(element instanceof VerifyExportElement, 'custom tag is a VerifyExportElement');
    await element.updateComplete;
    assert(element.shadowRoot?.querySelector('[part="dropzone"]'), 'custom tag renders');
  });
});
