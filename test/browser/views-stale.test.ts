/// <reference types="mocha" />
// Every worker job after a verification names the verification it belongs to: the worker holds
// only the last verification's bytes, so a view (or a Run/Compare tab) left from an earlier report
// gets a clear failure, never pages of a newer verification (e.g. right after "Verify this
// subset"). Checked on the real worker through its client, and on <verify-export>'s own views.
import '../../components/verify-export.ts';
import type { VerifyExportElement } from '../../components/verify-export.ts';
import { createVerifierClient, type VerifierClient } from '../../components/verify-client.ts';
import { STALE_VERIFICATION } from '../../components/worker-jobs.ts';
import type { Report } from '../../src/report.ts';
import { fixtureBytes } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function rejection(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('the job answered instead of failing');
}

async function until<T>(what: string, probe: () => T | null | undefined | false, ms = 60_000): Promise<T> {
  const start = performance.now();
  for (;;) {
    const value = probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function blobOf(path: string): Promise<{ type: 'blob'; blob: Blob }> {
  return { type: 'blob', blob: new Blob([(await fixtureBytes(path)) as BlobPart]) };
}

const clients: VerifierClient[] = [];
const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
  for (const element of mounted.splice(0)) element.remove();
});

describe('worker jobs name their verification', () => {
  it('inspect: pages of an earlier report fail as stale; the newer report reads its own bytes', async () => {
    const client = createVerifierClient();
    clients.push(client);
    const summary = { from: 0, count: 1, filter: { view: 'summary' } };
    const first = await client.verify(await blobOf('codex-exec/derived-retry-2-attempts.jsonl'), {});
    assert(first.format === 'codex-exec', `codex-exec, got ${first.format}`);
    const own = await client.inspect(first, summary);
    assert(own.items.length === 1, 'the first report reads its own bytes');

    const second = await client.verify(await blobOf('agent-history/design-small.ndjson'), {});
    assert(second.format === 'agent-history', `agent-history, got ${second.format}`);
    const stale = await rejection(client.inspect(first, summary));
    assert(stale === STALE_VERIFICATION, `the earlier report's page is refused as stale: ${stale}`);
    const overview = await client.inspect(second, { from: 0, count: 1, filter: { view: 'overview' } });
    assert((overview.items[0] as { kind?: string }).kind === 'overview', 'the newer report reads its own bytes');
    const foreign = await rejection(client.inspect({ ...second } as Report, summary));
    assert(foreign === STALE_VERIFICATION, `a report this client did not make is refused: ${foreign}`);
  });

  it('report and diff: an earlier AgentXchain export is refused once another verification ran', async () => {
    const client = createVerifierClient();
    clients.push(client);
    const exported = await client.verify(await blobOf('agentxchain/real-fresh.json'), {});
    assert(exported.overall === 'pass' && exported.format === 'agentxchain', 'the export verifies');
    const run = await client.runReport(exported, 0);
    assert(run !== undefined, 'the governance report of the held export');

    await client.verify(await blobOf('codex-exec/derived-retry-2-attempts.jsonl'), {});
    const report = await rejection(client.runReport(exported, 0));
    assert(report === STALE_VERIFICATION, `report: ${report}`);
    const right = await blobOf('agentxchain/real-fresh.json');
    const diff = await rejection(client.compare(exported, right, 'right.json'));
    assert(diff === STALE_VERIFICATION, `diff: ${diff}`);
  });

  it('<verify-export>: a view left from the previous report says its verification is gone, and shows no newer pages', async () => {
    const element = document.createElement('verify-export') as VerifyExportElement;
    mounted.push(element);
    document.body.append(element);
    const verified = (file: File) =>
      new Promise<Report>((resolve) => {
        element.addEventListener('verify-export:result', (event) => resolve((event as CustomEvent<Report>).detail), {
          once: true,
        });
        element.file = file;
      });
    const bundleBytes = await fixtureBytes('zaxy/signed-ed25519-n3.json');
    const first = await verified(new File([bundleBytes as BlobPart], 'first.json'));
    assert(first.format === 'zaxy', `zaxy, got ${first.format}`);
    const root = element.shadowRoot!;
    await until('the Entries tab', () => root.querySelector<HTMLElement>('#content-tab-content')).then((tab) =>
      tab.click(),
    );
    const old = await until('the Entries view', () => root.querySelector('verify-export-entries'));
    await until('its 3 cards', () => old.shadowRoot!.querySelectorAll('article.card').length === 3);

    const second = await verified(
      new File([(await fixtureBytes('zaxy/signed-ed25519-n1.json')) as BlobPart], 'second.json'),
    );
    assert(second.format === 'zaxy', `zaxy, got ${second.format}`);
    // The old view asks for pages again (a filter change): the worker refuses, the view says so.
    const grain = old.shadowRoot!.querySelector('select')!;
    grain.value = 'event';
    grain.dispatchEvent(new Event('change'));
    await old.ready;
    await old.updateComplete;
    const status = old.shadowRoot!.querySelector('#entries-count')?.textContent ?? '';
    assert(status.includes(STALE_VERIFICATION), `the old view says why: ${status}`);

    // The newer report's own view reads its own bytes.
    await until('the Entries tab', () => root.querySelector<HTMLElement>('#content-tab-content')).then((tab) =>
      tab.click(),
    );
    const fresh = await until('the new Entries view', () => {
      const view = root.querySelector('verify-export-entries');
      return view !== old && view;
    });
    await until('its card', () => fresh.shadowRoot!.querySelectorAll('article.card').length === 1);
  });
});
