// Shared pieces of the runtime matrix (Node, workerd, Deno): the fixture cases of every format,
// Node's reference report for each, how reports are compared across runtimes, and a real
// workerd process serving the built worker on 127.0.0.1.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { verify } from '../../src/verify.ts';
import { chunkedStream } from './chunked.ts';
import { fixturePath, loadCases, PROJECT_ROOT } from '../helpers/fixtures.ts';
import { buildWorker, COMPATIBILITY_DATE, workerdConfigFor } from '../../build/worker.mjs';
import type { Finding, Report } from '../../src/report.ts';

export const FORMATS = ['agentxchain', 'zaxy', 'agent-history', 'codex-exec'] as const;

/** One fixture file, with what the runtime must be told about it. */
export interface FixtureCase {
  readonly format: (typeof FORMATS)[number];
  readonly file: string;
  readonly path: string;
  /** Zaxy: the pinned key the manifest gives for this case. */
  readonly expectPublicKey?: string;
}

interface ManifestEntry {
  readonly file: string;
  readonly expect_public_key?: string | null;
}

/** Every case of every format's manifest (throws when a manifest has none). */
export function allFixtureCases(): FixtureCase[] {
  return FORMATS.flatMap((format) =>
    loadCases<ManifestEntry>(format, (manifest) =>
      Array.isArray(manifest) ? manifest : (manifest as { cases: ManifestEntry[] }).cases,
    ).map((entry) => ({
      format,
      file: entry.file,
      path: fixturePath(format, entry.file),
      ...(typeof entry.expect_public_key === 'string' ? { expectPublicKey: entry.expect_public_key } : {}),
    })),
  );
}

/**
 * What Node's core reports for a case: the reference every other runtime must equal. The bytes
 * arrive as a stream of small chunks of unknown total size, as an HTTP body does.
 */
export function nodeReport(fixture: FixtureCase): Promise<Report> {
  return verify(chunkedStream(new Uint8Array(readFileSync(fixture.path))), {
    name: fixture.file,
    ...(fixture.expectPublicKey === undefined ? {} : { expectPublicKey: fixture.expectPublicKey }),
  });
}

/** The query string the edge worker gets for a case. */
export function caseQuery(fixture: FixtureCase): string {
  const query = new URLSearchParams({ name: fixture.file });
  if (fixture.expectPublicKey !== undefined) query.set('expect_public_key', fixture.expectPublicKey);
  return `?${query}`;
}

/**
 * A report as compared across runtimes: everything (verdicts, findings and their messages,
 * details) except `stats`. Wall time differs on every run, and `bytes_read` depends on how the
 * transport chunked the input when a verifier stops early (a limit, a gzip error, an unknown
 * format): `assertSameBytesRead` checks it instead.
 *
 * One V8 difference is allowed (docs/agentxchain.md §11: the wording of quoted `JSON.parse` errors
 * depends on the engine): newer V8 (workerd, Deno) appends ` (line N column M)` to Node 20's
 * `… in JSON at position P`, e.g. `Unterminated string in JSON at position 5000 (line 167 column
 * 18)`. Only that suffix is removed, in any finding's message and compat text; the rest must match
 * exactly.
 */
export function comparable(report: Report): unknown {
  const { stats: _stats, ...rest } = report;
  return { ...rest, findings: report.findings.map(withoutV8LineColumn) };
}

const V8_LINE_COLUMN = /( in JSON at position \d+) \(line \d+ column \d+\)/g;

function withoutV8LineColumn(finding: Finding): Finding {
  return {
    ...finding,
    message: finding.message.replace(V8_LINE_COLUMN, '$1'),
    ...(finding.compat === undefined ? {} : { compat: finding.compat.replace(V8_LINE_COLUMN, '$1') }),
  };
}

/**
 * `bytes_read` across runtimes: when Node's core read the whole input, the other runtime must
 * have read exactly the whole input too; when Node stopped early, the other must not have read
 * more than the input.
 */
export function assertSameBytesRead(actual: Report, expected: Report, inputBytes: number): void {
  if (expected.stats.bytes_read === inputBytes) {
    assert.equal(actual.stats.bytes_read, inputBytes, 'bytes_read: the whole input, as in Node');
  } else {
    assert.ok(
      actual.stats.bytes_read <= inputBytes,
      `bytes_read ${actual.stats.bytes_read} is at most the input's ${inputBytes}`,
    );
  }
}

/** A free TCP port on 127.0.0.1 (asked from the OS, then released for the child to bind). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface WorkerSpec {
  readonly name: string;
  readonly vars?: Record<string, string>;
  /** Output file of the entry (default worker.js, the real Workers module). */
  readonly entry?: string;
}

export interface RunningWorkerd {
  readonly pid: number;
  /** Base URL per worker name, e.g. `http://127.0.0.1:41234/`. */
  readonly urls: Record<string, string>;
  /** Peak resident memory of the workerd process so far (VmHWM), in bytes. */
  peakBytes(): number;
  /** Current resident memory (VmRSS), in bytes. */
  residentBytes(): number;
  /** True while the process has not exited. */
  alive(): boolean;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Builds the worker (plus `extraEntries`, e.g. a probe module) into a fresh temporary folder and
 * serves each spec on its own 127.0.0.1 port in one real workerd process. Resolves once every
 * worker answers `GET /`; the process is killed when the test process exits, whatever happens.
 */
export async function startWorkerd(
  specs: readonly WorkerSpec[],
  extraEntries: Record<string, string> = {},
  options: { v8Flags?: string[] } = {},
): Promise<RunningWorkerd> {
  const outDir = mkdtempSync(join(tmpdir(), 'verify-export-workerd-'));
  await buildWorker({ outDir, entries: { 'worker.js': 'src/edge/worker.ts', ...extraEntries } });
  const ports = await Promise.all(specs.map(() => freePort()));
  const workers = specs.map((spec, index) => ({ ...spec, address: `127.0.0.1:${ports[index]}` }));
  const config = join(outDir, 'workerd.capnp');
  writeFileSync(config, workerdConfigFor(workers, options));
  const urls = Object.fromEntries(workers.map((worker) => [worker.name, `http://${worker.address}/`]));
  return serveWorkerd([config], urls, () => rmSync(outDir, { recursive: true, force: true }));
}

/**
 * Serves a wrangler config as `wrangler deploy` builds it: its `main` bundled with wrangler's
 * conditions and `.wasm` imports kept as compiled modules (against the compiled dist/, as from a
 * published package), its `vars` as text bindings, at its `compatibility_date`; on a free
 * 127.0.0.1 port, as the worker named `main`.
 */
export async function startWorkerdFromWrangler(wranglerConfig: string): Promise<RunningWorkerd> {
  // JSONC: whole-line comments only (what deploy/wrangler.jsonc holds).
  const config = JSON.parse(readFileSync(wranglerConfig, 'utf8').replace(/^\s*\/\/.*$/gm, '')) as {
    main: string;
    compatibility_date: string;
    vars?: Record<string, string>;
  };
  assert.equal(
    config.compatibility_date,
    COMPATIBILITY_DATE,
    'the wrangler config is deployed at the date the worker is tested for',
  );
  const outDir = mkdtempSync(join(tmpdir(), 'verify-export-wrangler-'));
  await buildWorker({
    outDir,
    entries: { 'worker.js': relative(PROJECT_ROOT, resolve(dirname(wranglerConfig), config.main)) },
    fromSources: false,
  });
  const port = await freePort();
  const configFile = join(outDir, 'workerd.capnp');
  writeFileSync(
    configFile,
    workerdConfigFor([{ name: 'main', address: `127.0.0.1:${port}`, vars: config.vars ?? {} }]),
  );
  return serveWorkerd([configFile], { main: `http://127.0.0.1:${port}/` }, () =>
    rmSync(outDir, { recursive: true, force: true }),
  );
}

async function serveWorkerd(
  args: readonly string[],
  urls: Record<string, string>,
  cleanUp: () => void,
): Promise<RunningWorkerd> {
  // WORKERD_STDOUT=1 shows workerd's output (e.g. V8's --trace-gc lines when diagnosing memory).
  const child = spawn(join(PROJECT_ROOT, 'node_modules/.bin/workerd'), ['serve', ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', process.env['WORKERD_STDOUT'] ? 'inherit' : 'ignore', 'pipe'],
  });
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-8000);
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', () => ((exited = true), running.delete(child), resolve())),
  );
  const status = (field: 'VmHWM' | 'VmRSS'): number => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  };
  const stop = async (): Promise<void> => {
    if (!exited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exit;
      clearTimeout(timer);
    }
    cleanUp();
  };
  const deadline = Date.now() + 20_000;
  for (const url of Object.values(urls)) {
    for (;;) {
      if (exited) {
        cleanUp();
        throw new Error(`workerd exited while starting:\n${stderr}`);
      }
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`workerd did not answer on ${url} within 20 s:\n${stderr}`);
      }
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  return {
    pid: child.pid!,
    urls,
    peakBytes: () => status('VmHWM'),
    residentBytes: () => status('VmRSS'),
    alive: () => !exited,
    stop,
  };
}
