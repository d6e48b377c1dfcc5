// Shared setup of the consumer tests (test/package/): the package packed once with `npm pack`
// (which runs prepack, the full build, in a copy of the project) and installed once from that tarball into a fresh
// temporary
// project, as a user gets it; the README's snippets, read by their markers so that README and tests
// cannot drift; child processes run asynchronously and killed if the test process exits; a small
// static server on 127.0.0.1 with the headers a test asks for; Debian's Chromium through
// playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const PROJECT_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const SAMPLES = join(PROJECT_ROOT, 'demo/samples');
/** A tool from the project's own dev dependencies. */
export const devBin = (name: string): string => join(PROJECT_ROOT, 'node_modules/.bin', name);
/** The policy the README promises the element works under (a page without a bundler, and Vite). */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

// ---------------------------------------------------------------------------------------------
// README snippets

/**
 * The fenced block right after `<!-- snippet: NAME -->` in README.md (only blank space between
 * them), with its language tag. Throws when the marker is missing, repeated, or not followed by a
 * fenced block, so a renamed snippet fails the test instead of testing nothing.
 */
export function readmeSnippet(name: string): { lang: string; code: string } {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const marker = `<!-- snippet: ${name} -->`;
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no ${marker}`);
  if (readme.indexOf(marker, at + marker.length) >= 0) throw new Error(`README.md has ${marker} twice`);
  const block = /^[ \t]*\r?\n(?:[ \t]*\r?\n)*```([\w-]*)\r?\n([\s\S]*?)\r?\n```[ \t]*(?:\r?\n|$)/.exec(
    readme.slice(at + marker.length),
  );
  if (block === null) throw new Error(`README.md: no fenced block right after ${marker}`);
  return { lang: block[1]!, code: `${block[2]!}\n` };
}

// ---------------------------------------------------------------------------------------------
// Child processes

export interface RunResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly input?: string | Uint8Array;
  /** Killed (SIGKILL) past this many milliseconds; the result then has `signal`. */
  readonly timeout?: number;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * The environment for a child tool: this process's, without the `npm_*` variables an enclosing
 * `npm run` exports (npm_config_local_prefix and the like would point a nested npm at the project),
 * and without colour (FORCE_COLOR, which the test runner may set, colours Deno's output).
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^npm_/i.test(key) && key !== 'FORCE_COLOR') env[key] = value;
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs a command to completion without blocking the event loop (servers in this process keep answering). */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolvePromise({ status, signal, stdout, stderr });
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(options.input);
  });
}

/** Describes a finished command for assertion messages. */
export function describeRun(label: string, result: RunResult): string {
  return `${label}: exit ${result.status ?? result.signal}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`;
}

/** Starts a long-running child (workerd); `stop()` ends it and waits for its exit. */
export function startChild(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): { child: ChildProcess; output: () => string; exited: () => boolean; stop: () => Promise<void> } {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-16_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  let exited = false;
  const exit = new Promise<void>((resolvePromise) =>
    child.on('exit', () => {
      exited = true;
      children.delete(child);
      resolvePromise();
    }),
  );
  return {
    child,
    output: () => output,
    exited: () => exited,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exit;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The packed and installed package

export interface InstalledPackage {
  /** Temporary folder holding everything (tarball, consumer project); removed by `cleanUp`. */
  readonly root: string;
  /** The tarball `npm pack` wrote. */
  readonly tarball: string;
  /** The consumer project: package.json depending on the tarball, node_modules installed. */
  readonly consumer: string;
  /** node_modules/verify-export inside the consumer. */
  readonly installed: string;
  /** The project's package.json, as packed. */
  readonly manifest: { name: string; version: string; unpkg?: string; jsdelivr?: string };
  cleanUp(): void;
}

/** What the copy packed by `packAndInstall` leaves out: installed, generated or bulky, and never shipped. */
const COPY_EXCLUDED = new Set(['node_modules', '.git', 'dist', 'demo/dist', 'test/fixtures', 'test-results']);

/**
 * `npm pack` in a copy of the project (prepack builds dist/), then `npm install <tarball>` into a fresh
 * project with a package.json of its own, as a user's `npm install verify-export` does.
 */
export async function packAndInstall(): Promise<InstalledPackage> {
  const root = mkdtempSync(join(tmpdir(), 'verify-export-consumer-'));
  try {
    const packDir = join(root, 'pack');
    const consumer = join(root, 'consumer');
    mkdirSync(packDir);
    mkdirSync(consumer);
    // Packed from a copy of the project, so that prepack's build never rewrites the dist/ that
    // other tests may be reading at the same time.
    const project = join(root, 'project');
    cpSync(PROJECT_ROOT, project, {
      recursive: true,
      filter: (source) => !COPY_EXCLUDED.has(relative(PROJECT_ROOT, source)),
    });
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
    const packed = await run('npm', ['pack', '--pack-destination', packDir], { cwd: project, timeout: 150_000 });
    if (packed.status !== 0) throw new Error(describeRun('npm pack', packed));
    const tarballs = readdirSync(packDir).filter((file) => file.endsWith('.tgz'));
    if (tarballs.length !== 1)
      throw new Error(
        `npm pack wrote ${tarballs.length} tarballs: ${tarballs.join(', ')}\n${describeRun('npm pack', packed)}`,
      );
    const tarball = join(packDir, tarballs[0]!);
    writeFileSync(
      join(consumer, 'package.json'),
      `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--no-update-notifier', tarball], {
      cwd: consumer,
      timeout: 120_000,
    });
    if (installed.status !== 0) throw new Error(describeRun('npm install', installed));
    const manifest = JSON.parse(
      readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'),
    ) as InstalledPackage['manifest'];
    return {
      root,
      tarball,
      consumer,
      installed: join(consumer, 'node_modules/verify-export'),
      manifest,
      cleanUp: () => rmSync(root, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Static server

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  /** The origin pages use, e.g. `http://127.0.0.1:40123` (or `http://localhost:…` when asked). */
  readonly origin: string;
  readonly port: number;
  /** Every path requested, in order. */
  readonly requested: string[];
  close(): Promise<void>;
}

/**
 * Serves folders on 127.0.0.1: `mounts` maps URL prefixes (`/`, `/verify-export/`) to folders, the
 * longest prefix winning; a folder answers its index.html. `headers` go on every answer (CSP, CORS).
 * `hostname` only changes the origin reported (`localhost` makes a second origin on the same
 * loopback address); the socket is always bound to 127.0.0.1.
 */
export async function serveStatic(
  mounts: Record<string, string>,
  headers: Record<string, string> = {},
  hostname = '127.0.0.1',
): Promise<StaticServer> {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const requested: string[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
      requested.push(pathname);
      // Browsers ask every site for one; these sites have none, and a 404 would be logged as an error.
      if (pathname === '/favicon.ico') return void response.writeHead(204, headers).end();
      const prefix = prefixes.find((candidate) => pathname.startsWith(candidate) || `${pathname}/` === candidate);
      if (prefix === undefined) return void response.writeHead(404, headers).end('not found');
      const root = resolve(mounts[prefix]!);
      let file = resolve(root, normalize(pathname.slice(prefix.length)).replace(/^([/\\])+/, ''));
      if (file !== root && !file.startsWith(root + sep)) return void response.writeHead(403, headers).end();
      try {
        if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
        const body = await readFile(file);
        response.writeHead(200, {
          ...headers,
          'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
          'Content-Length': body.byteLength,
          'Cache-Control': 'no-store',
        });
        response.end(body);
      } catch {
        response.writeHead(404, headers).end('not found');
      }
    })();
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolvePromise);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    origin: `http://${hostname}:${address.port}`,
    port: address.port,
    requested,
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      }),
  };
}

/** A free TCP port on 127.0.0.1 (asked from the OS, then released for a child to bind). */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePromise(address.port) : reject(new Error('no port')),
      );
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Chromium

/** Debian's Chromium, driven by playwright-core (no browser download), as the project's other browser tests. */
export const CHROMIUM = {
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ],
};

let browser: Promise<Browser> | undefined;

/** One headless Chromium for the whole file (launched on first use); `closeChromium` ends it. */
export function sharedChromium(): Promise<Browser> {
  browser ??= chromium.launch({ ...CHROMIUM, headless: true });
  return browser;
}

export async function closeChromium(): Promise<void> {
  const launched = browser;
  browser = undefined;
  await (await launched?.catch(() => undefined))?.close();
}
