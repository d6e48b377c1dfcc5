/// <reference types="mocha" />
// A person about to pick or drop a file (a click on the drop zone, Enter or Space on it, a file
// dragged over it) starts the verification worker, its WebAssembly and the modules a .gz or a large
// input loads first while they choose; a page nobody uses starts nothing, and the verify that
// follows runs on that same worker.
import { gzipSync } from 'fflate';
import { defineVerifyExport, type VerifyExportElement } from '../../components/verify-export.ts';
import { createVerifierClient } from '../../components/verify-client.ts';
import type { Report } from '../../src/report.ts';
import { fixtureBytes } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

defineVerifyExport();

/** Counts the verification workers started while `run` runs (module workers named `verify-export`). */
async function countingWorkers(run: (started: () => number) => Promise<void>): Promise<void> {
  const Original = globalThis.Worker;
  let count = 0;
  globalThis.Worker = class extends Original {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      if (options?.name === 'verify-export') count++;
    }
  };
  try {
    await run(() => count);
  } finally {
    globalThis.Worker = Original;
  }
}

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

async function mount(): Promise<{ element: VerifyExportElement; zone: HTMLElement }> {
  const element = document.createElement('verify-export');
  document.body.append(element);
  mounted.push(element);
  await element.updateComplete;
  const root = element.shadowRoot!;
  // No real file chooser in the test browser.
  root.querySelector('input[type="file"]')!.addEventListener('click', (event) => event.preventDefault());
  return { element, zone: root.querySelector<HTMLElement>('[part="dropzone"]')! };
}

function verdict(element: VerifyExportElement, file: File): Promise<Report> {
  return new Promise((resolve, reject) => {
    element.addEventListener('verify-export:result', (event) => resolve((event as CustomEvent<Report>).detail), {
      once: true,
    });
    element.addEventListener('verify-export:error', () => reject(new Error('verify-export:error')), { once: true });
    element.file = file;
  });
}

describe('warming on intent', () => {
  it('a click on the drop zone starts the worker before a file is chosen, and the verify uses it', async () => {
    await countingWorkers(async (started) => {
      const { element, zone } = await mount();
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert(started() === 0, `a page nobody uses starts no worker (${started()})`);
      zone.click();
      assert(started() === 1, `the click started the worker (${started()})`);
      zone.click();
      assert(started() === 1, `a second click starts no other (${started()})`);
      const bytes = await fixtureBytes('agentxchain/real-fresh.json');
      const report = await verdict(element, new File([bytes as BlobPart], 'real-fresh.json'));
      assert(report.overall === 'pass', `verdict ${report.overall}`);
      assert(started() === 1, `the verify ran on the warmed worker (${started()} started)`);
    });
  });

  it('a file dragged over the drop zone starts the worker too', async () => {
    await countingWorkers(async (started) => {
      const { zone } = await mount();
      zone.dispatchEvent(
        new DragEvent('dragenter', { dataTransfer: new DataTransfer(), bubbles: true, cancelable: true }),
      );
      assert(started() === 1, `dragenter started the worker (${started()})`);
    });
  });

  it('a warmed client answers nothing for the warm-up and verifies as a cold one does', async () => {
    const workers: Worker[] = [];
    const messages: unknown[] = [];
    const client = createVerifierClient(() => {
      const worker = new Worker(new URL('../../components/verify-worker.ts', import.meta.url), { type: 'module' });
      worker.addEventListener('message', (event) => messages.push(event.data));
      workers.push(worker);
      return worker;
    });
    try {
      client.warm();
      client.warm();
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert(
        workers.length === 1 && messages.length === 0,
        `one worker, no answer (${workers.length}, ${messages.length})`,
      );
      // The warm-up loaded the SHA-256, the decompressor and the helper module: a .gz too.
      const plain = await fixtureBytes('zaxy/signed-ed25519-n33.json');
      for (const [name, bytes] of [
        ['b.json', plain],
        ['b.json.gz', gzipSync(plain)],
      ] as const) {
        const warmed = await client.verify({ type: 'bytes', buffer: bytes.slice().buffer }, { name });
        const cold = createVerifierClient(
          () => new Worker(new URL('../../components/verify-worker.ts', import.meta.url), { type: 'module' }),
        );
        const reference = await cold.verify({ type: 'bytes', buffer: bytes.slice().buffer }, { name });
        cold.dispose();
        assert(warmed.overall === 'pass', `${name}: ${warmed.overall}`);
        assert(workers.length === 1, `${name}: the verify used the warmed worker`);
        assert(
          JSON.stringify({ ...warmed, stats: 0 }) === JSON.stringify({ ...reference, stats: 0 }),
          `${name}: same report as a cold worker`,
        );
      }
    } finally {
      client.dispose();
    }
  });
});
