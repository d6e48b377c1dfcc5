/// <reference types="mocha" />
// The verification worker's helper worker (components/helper-threads.ts): a Zaxy bundle's entries
// hashed on the entry-hashing worker. Whatever the thread layout, the report is the one the
// verification worker gives on its own (the real worker, driven through its protocol, which also
// says whether the helper did work); and when the helper cannot start, the entries are hashed in
// place with the same report.
import { gzipSync } from 'fflate';
import { entryHashHelper } from '../../components/entry-hash-client.ts';
import { startHelpers } from '../../components/helper-threads.ts';
import type { FromWorker, HelperChoice, ToWorker, WorkerVerifyOptions } from '../../components/worker-protocol.ts';
import { verifyZaxy } from '../../src/formats/zaxy/index.ts';
import type { EntryHasherFactory } from '../../src/formats/zaxy/entry-hashes.ts';
import type { Report } from '../../src/report.ts';
import { fixtureBytes } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** A report without its timing (the only part that differs from run to run). */
const comparable = (report: Report): string => JSON.stringify({ ...report, stats: undefined });

let worker: Worker | undefined;
let nextId = 1;
afterEach(() => {
  worker?.terminate();
  worker = undefined;
});

/** Verifies `bytes` in the real verification worker; the report and the helpers that did work. */
async function inWorker(
  bytes: Uint8Array,
  name: string,
  helpers: HelperChoice | undefined,
  options: WorkerVerifyOptions = {},
): Promise<{ report: Report; used: { readonly entryHashes?: boolean } }> {
  worker ??= new Worker(new URL('../../components/verify-worker.ts', import.meta.url), { type: 'module' });
  const id = nextId++;
  const running = worker;
  const answer = await new Promise<FromWorker>((resolve) => {
    const listen = (event: MessageEvent<FromWorker>): void => {
      if (event.data.id !== id || event.data.type === 'progress') return;
      running.removeEventListener('message', listen);
      resolve(event.data);
    };
    running.addEventListener('message', listen);
    const blob = new Blob([bytes as BlobPart]);
    const request: ToWorker = {
      type: 'verify',
      id,
      source: { type: 'blob', blob },
      options: { ...options, name, ...(helpers === undefined ? {} : { helpers }) },
    };
    running.postMessage(request);
  });
  if (answer.type !== 'result') throw new Error(`${name}: ${answer.type === 'failure' ? answer.message : answer.type}`);
  return { report: answer.report, used: answer.helpers ?? {} };
}

interface Entry {
  id: unknown;
  content: Record<string, unknown>;
}

/**
 * A signed bundle of many batches for the entry hasher (a fixture is smaller than one batch, which
 * the core hashes in place): the fixture's 33 entries `copies` times over, changed by `change`.
 */
async function manyBatchBundle(copies: number, change: (entries: Entry[]) => void = () => undefined, twice = false) {
  const bundle = JSON.parse(new TextDecoder().decode(await fixtureBytes('zaxy/signed-ed25519-n33.json'))) as {
    entries: Entry[];
  };
  bundle.entries = Array.from({ length: copies }, () => structuredClone(bundle.entries)).flat();
  change(bundle.entries);
  const text = JSON.stringify(bundle);
  // A second `entries` key: its array replaces the first (a second hashing session).
  return new TextEncoder().encode(twice ? `${text.slice(0, -1)},"entries":${JSON.stringify(bundle.entries)}}` : text);
}

const variants: [string, (entries: Entry[]) => void, boolean?][] = [
  ['copies, untouched', () => undefined],
  ['content changed far in', (entries) => void (entries[5000]!.content['kind'] = 'changed')],
  ['uppercase id', (entries) => void (entries[100]!.id = String(entries[100]!.id).toUpperCase())],
  ['id of another entry', (entries) => void (entries[4000]!.id = entries[3]!.id)],
  ['no id', (entries) => void delete (entries as { id?: unknown }[])[2500]!.id],
  ['duplicate entries key', (entries) => void (entries[10]!.content['kind'] = 'changed'), true],
];

describe('helper workers give the report of one thread', () => {
  it('a Zaxy bundle of many batches: entry hashes on the entry-hashing worker and in place', async () => {
    for (const [name, change, twice] of variants) {
      const bytes = await manyBatchBundle(200, change, twice);
      assert(bytes.byteLength > 2 << 20, `${name}: several batches (${bytes.byteLength} bytes)`);
      const alone = await inWorker(bytes, `${name}.json`, {});
      const helped = await inWorker(bytes, `${name}.json`, { entryHashes: true });
      assert(!alone.used.entryHashes, `${name}: no helper when none is asked for`);
      assert(helped.used.entryHashes === true, `${name}: the entry-hashing worker did work`);
      assert(helped.report.format === 'zaxy' && 'entry_count' in helped.report.details, name);
      assert(comparable(helped.report) === comparable(alone.report), `${name}: same report`);
    }
  });

  it('the untouched copies pass only where the fixture does, and the Merkle root is the one computed in place', async () => {
    const bytes = await manyBatchBundle(200);
    const inPage = await verifyZaxy(bytes);
    const helped = await inWorker(bytes, 'copies.json', { entryHashes: true });
    assert(
      comparable(helped.report) === comparable({ ...inPage, input: 'copies.json' }),
      'the page gives the same report',
    );
  });

  it('.gz, damaged, limited and other inputs: the same report with the entry-hashing worker as without', async () => {
    const bundle = await manyBatchBundle(200, (entries) => void (entries[3000]!.id = entries[7]!.id));
    const gz = gzipSync(bundle);
    // Whether the helper does work (undefined: as the core decides, for a document cut short).
    const cases: [string, Uint8Array, WorkerVerifyOptions, boolean | undefined][] = [
      ['bundle.json.gz', gz, {}, true],
      ['bundle cut short.json.gz', gz.subarray(0, gz.byteLength >> 1), {}, undefined],
      ['bundle cut short.json', bundle.subarray(0, bundle.byteLength >> 1), {}, undefined],
      ['one finding kept', bundle, { limits: { maxFindings: 1 } }, true],
      // The limit is met while reading: batches before it may already be with the helper.
      ['over maxBufferedBytes', bundle, { limits: { maxBufferedBytes: bundle.byteLength >> 1 } }, undefined],
      ['pinned to another key', bundle, { expectPublicKey: '00'.repeat(32) }, true],
      ['an AgentXchain export', await fixtureBytes('agentxchain/real-fresh.json'), {}, false],
      ['agent-history .ndjson.gz', await fixtureBytes('agent-history/design-small.ndjson.gz'), {}, false],
    ];
    for (const [name, bytes, options, hashesEntries] of cases) {
      const alone = await inWorker(bytes, name, {}, options);
      const helped = await inWorker(bytes, name, { entryHashes: true }, options);
      if (hashesEntries !== undefined)
        assert(helped.used.entryHashes === hashesEntries, `${name}: the helper did ${hashesEntries ? '' : 'no '}work`);
      const [mine, theirs] = [comparable(helped.report), comparable(alone.report)];
      assert(mine === theirs, `${name}: same report\n${mine.slice(0, 2000)}\n${theirs.slice(0, 2000)}`);
    }
  });

  it('a cancelled verification stops; the next, started at once, shares the helper and gets its own report', async () => {
    const bytes = gzipSync(await manyBatchBundle(600));
    worker ??= new Worker(new URL('../../components/verify-worker.ts', import.meta.url), { type: 'module' });
    const running = worker;
    const id = nextId++;
    const answer = new Promise<FromWorker>((resolve) => {
      running.addEventListener('message', (event: MessageEvent<FromWorker>) => {
        if (event.data.id === id && event.data.type !== 'progress') resolve(event.data);
      });
    });
    const blob = new Blob([bytes as BlobPart]);
    running.postMessage({
      type: 'verify',
      id,
      source: { type: 'blob', blob },
      options: { name: 'cancelled.json.gz', helpers: { entryHashes: true } },
    } satisfies ToWorker);
    await new Promise((resolve) => setTimeout(resolve, 40));
    running.postMessage({ type: 'cancel', id } satisfies ToWorker);
    // The next one starts before the cancelled one has stopped (as when a new file is picked).
    const after = await manyBatchBundle(200, (entries) => void (entries[10]!.content['kind'] = 'changed'));
    const next = inWorker(after, 'after.json', { entryHashes: true });
    const stopped = await answer;
    assert(stopped.type === 'failure' && stopped.aborted, `the job was cancelled: ${JSON.stringify(stopped)}`);
    const helped = await next;
    assert(helped.used.entryHashes === true, 'the next verification ran with the helper');
    assert(
      comparable(helped.report) === comparable({ ...(await verifyZaxy(after)), input: 'after.json' }),
      'its own report',
    );
    const again = await inWorker(after, 'after.json', { entryHashes: true });
    assert(comparable(again.report) === comparable(helped.report), 'and the one after that too');
  });

  it('chooses the helper by itself: for a large bundle, then (warm) for a smaller one, never for a small one', async () => {
    const mid = await manyBatchBundle(300);
    assert(mid.byteLength > 4 << 20 && mid.byteLength < 16 << 20, `a bundle of ${mid.byteLength} bytes`);
    const cold = await inWorker(mid, 'mid.json', undefined);
    assert(cold.used.entryHashes !== true, 'no cold helper for a bundle under 16 MB');
    const large = await manyBatchBundle(1200);
    assert(large.byteLength > 16 << 20, `a bundle of ${large.byteLength} bytes`);
    assert(
      (await inWorker(large, 'large.json', undefined)).used.entryHashes === true,
      'the helper, for a large bundle',
    );
    const warm = await inWorker(mid, 'mid.json', undefined);
    assert(warm.used.entryHashes === true, 'the warm helper, for a bundle over 4 MB');
    assert(comparable(warm.report) === comparable(cold.report), 'the same report, warm helper or none');
    const small = await inWorker(await fixtureBytes('zaxy/signed-ed25519-n33.json'), 'small.json', undefined);
    assert(!small.used.entryHashes, 'no helper for a small input');
  });
});

describe('the entry-hashing client', () => {
  it('moves only its own copies: the buffers the core passes stay whole, batches kept or sent at once', async () => {
    const bytes = await manyBatchBundle(200, (entries) => void (entries[4000]!.id = entries[3]!.id));
    const inPlace = comparable(await verifyZaxy(bytes));
    const helper = entryHashHelper(
      () => new Worker(new URL('../../components/entry-hash-worker.ts', import.meta.url), { type: 'module' }),
    );
    const passed: Uint8Array[] = [];
    // The core's hasher, watched: what the core passes must be whole when add returns, and after.
    const watching: EntryHasherFactory = () => {
      const inner = helper.factory();
      return {
        add(data, starts, ends, claims, claimed) {
          passed.push(data);
          const answer = inner.add(data, starts, ends, claims, claimed);
          assert(data.buffer.byteLength > 0 && claims.buffer.byteLength > 0, "the core's buffers were moved");
          return answer;
        },
        root: () => inner.root(),
      };
    };
    // The first verification's first batches wait for the helper to start; the second's go at once.
    for (const run of ['first', 'second']) {
      const report = await verifyZaxy(bytes, { entryHasher: watching });
      assert(comparable(report) === inPlace, `${run}: the report of one thread`);
    }
    helper.close();
    assert(helper.hashed() > 0, 'the helper hashed batches');
    assert(passed.length > 10 && passed.every((data) => data.buffer.byteLength > 0), "the core's buffers stay whole");
  });

  it('copies a batch into a buffer the helper moved back, when one is large enough', async () => {
    // A helper that answers each batch with no mismatch and moves its buffer back; its answer also
    // tells the test (the client reads only what it knows) the buffer's size and the batch's bytes.
    const seen: { size: number; bytes: number[] }[] = [];
    const helper = entryHashHelper(() => {
      const started = scriptWorker(`postMessage({ kind: 'ready' });
        addEventListener('message', ({ data: request }) => {
          if (request.kind !== 'add') return postMessage({ kind: 'root', root: undefined });
          const spare = request.data.buffer;
          const told = { size: spare.byteLength, bytes: Array.from(request.data) };
          postMessage({ kind: 'added', mismatched: new Uint32Array(0), ids: new Uint8Array(0), spare, ...told }, [spare]);
        });`)();
      started.addEventListener('message', (event: MessageEvent<{ kind: string; size: number; bytes: number[] }>) => {
        if (event.data.kind === 'added') seen.push({ size: event.data.size, bytes: event.data.bytes });
      });
      return started;
    });
    const hasher = helper.factory();
    const batch = (size: number, fill: number): Promise<unknown> =>
      hasher.add(
        new Uint8Array(size).fill(fill),
        Uint32Array.of(0),
        Uint32Array.of(size),
        new Uint8Array(64),
        Uint8Array.of(0),
      );
    await batch(800, 1); // kept until the helper is ready, then sent in a copy of its own
    await batch(1000, 2); // larger than the buffer moved back: a new one, with room to spare
    await batch(600, 3); // fits in the first batch's buffer, moved back
    await batch(1100, 4); // fits in the second batch's buffer, with its room to spare
    helper.close();
    const sizes = seen.map((answer) => answer.size);
    assert(
      sizes.length === 4 && sizes[0] === 800 && sizes[1]! > 1100,
      `new buffers for the first two (${sizes.join(', ')})`,
    );
    assert(sizes[2] === 800 && sizes[3] === sizes[1], `the later batches in a buffer moved back (${sizes.join(', ')})`);
    const whole = [800, 1000, 600, 1100].every(
      (size, k) => seen[k]!.bytes.length === size && seen[k]!.bytes.every((byte) => byte === k + 1),
    );
    assert(whole, 'each batch arrived whole, whatever buffer it came in');
  });
});

/** A worker running `source` (a classic script). */
const scriptWorker = (source: string) => (): Worker =>
  new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
/** A worker that says it is ready, then fails at its first job. */
const failingWorker = scriptWorker(
  "postMessage({ kind: 'ready' }); addEventListener('message', () => { throw new Error('broken'); });",
);

describe('a helper worker that cannot start', () => {
  it('entries hashed in place, same report, when the worker does not load, cannot be made or has no SHA-256', async () => {
    const bytes = await manyBatchBundle(200, (entries) => void (entries[4000]!.id = entries[3]!.id));
    const inPlace = comparable(await verifyZaxy(bytes));
    const starts: [string, () => Worker][] = [
      ['no such script', () => new Worker('/test/browser/no-such-worker.js', { type: 'module' })],
      [
        'no workers here',
        () => {
          throw new DOMException('no workers here', 'SecurityError');
        },
      ],
      ['no SHA-256 there', scriptWorker("postMessage({ kind: 'unavailable', reason: 'no WebAssembly' });")],
    ];
    for (const [why, start] of starts) {
      const helper = entryHashHelper(start);
      const report = await verifyZaxy(bytes, { entryHasher: helper.factory });
      helper.close();
      assert(helper.hashed() === 0, `${why}: no batch was hashed on a helper`);
      assert(comparable(report) === inPlace, `${why}: same report as in place`);
    }
  });

  it('entries hashed in place, same report, when the worker never says it is ready', async () => {
    const bytes = await manyBatchBundle(200, (entries) => void (entries[4000]!.id = entries[3]!.id));
    const inPlace = comparable(await verifyZaxy(bytes));
    // A worker that runs but never answers (as one whose script never finishes loading).
    const helper = entryHashHelper(scriptWorker(''), { readyTimeoutMs: 300 });
    const report = await verifyZaxy(bytes, { entryHasher: helper.factory });
    const again = await verifyZaxy(bytes, { entryHasher: helper.factory });
    helper.close();
    assert(helper.hashed() === 0, 'no batch was hashed on a helper');
    assert(comparable(report) === inPlace, 'same report as in place');
    assert(comparable(again) === inPlace, 'and for the next verification on the same helper');
  });

  it('a worker that fails after it started gives a kit error, never a verdict', async () => {
    const bytes = await manyBatchBundle(200);
    const helper = entryHashHelper(failingWorker);
    const report = await verifyZaxy(bytes, { entryHasher: helper.factory });
    helper.close();
    assert(report.overall === 'error', `overall ${report.overall}`);
    assert(
      report.findings.some((finding) => finding.code === 'kit.internal_error'),
      'a kit error is reported',
    );
  });

  it("the verification worker's own helper: entries hashed in place when its worker does not load, then and after", async () => {
    const bytes = await manyBatchBundle(200);
    const inPlace = comparable(await verifyZaxy(bytes));
    const real = globalThis.Worker;
    // Every worker this page starts from now on is one whose script is not there.
    globalThis.Worker = class extends real {
      constructor() {
        super('/test/browser/no-such-worker.js', { type: 'module' });
      }
    };
    try {
      for (const attempt of ['first', 'second']) {
        const helpers = await startHelpers(bytes, { entryHashes: true });
        const report = await verifyZaxy(bytes, helpers.options);
        helpers.close();
        assert(!helpers.used().entryHashes, `${attempt}: no batch was hashed on a helper`);
        assert(comparable(report) === inPlace, `${attempt}: same report as in place`);
      }
    } finally {
      globalThis.Worker = real;
    }
  });
});

// Last: the page's shared helper it leaves behind would change the tests above that start one.
describe("the verification worker's entry hasher, before the first batch", () => {
  it('detaches a buffer of 8 bytes of its own as the entries begin; without ArrayBuffer.prototype.transfer, none and the same report', async () => {
    const bytes = await manyBatchBundle(200, (entries) => void (entries[10]!.content['kind'] = 'changed'));
    const expected = comparable(await verifyZaxy(bytes));
    const transfer = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'transfer');
    assert(transfer !== undefined, 'Chromium has ArrayBuffer.prototype.transfer');
    const detached: number[] = [];
    const helpers = await startHelpers(bytes, { entryHashes: true });
    try {
      Object.defineProperty(ArrayBuffer.prototype, 'transfer', {
        ...transfer,
        value(this: ArrayBuffer, ...rest: unknown[]) {
          detached.push(this.byteLength);
          return (transfer.value as (...args: unknown[]) => ArrayBuffer).apply(this, rest);
        },
      });
      const helped = await verifyZaxy(bytes, helpers.options);
      // A hasher is made as the scan starts and again for each array of entries.
      assert(
        detached.length >= 1 && detached.every((size) => size === 8),
        `only buffers of 8 bytes detached (${detached.join(', ')})`,
      );
      assert(comparable(helped) === expected, 'the same report');
      const count = detached.length;
      delete (ArrayBuffer.prototype as { transfer?: unknown }).transfer;
      assert(comparable(await verifyZaxy(bytes, helpers.options)) === expected, 'the same report without transfer');
      assert(detached.length === count, 'nothing detached without transfer');
    } finally {
      Object.defineProperty(ArrayBuffer.prototype, 'transfer', transfer);
      helpers.close();
    }
  });
});
