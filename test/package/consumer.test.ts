// The package as its users get it: `npm pack` (prepack builds dist/), installed once from the
// tarball into a fresh project, then driven the way each kind of user drives it, with the README's
// snippets as written (read by their markers, see consumer.ts):
// the CLI and npx; Node ESM (and require, exports boundaries); TypeScript without skipLibCheck; a
// Vite app and a page without a bundler in Chromium under the strict CSP, and the CDN build from
// another origin; Deno offline; a Cloudflare Worker bundled as wrangler does, in real workerd; publint
// and attw on the tarball.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { build, type Plugin } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { workerdConfigFor } from '../../build/worker.mjs';
import {
  cleanEnv,
  closeChromium,
  describeRun,
  devBin,
  freePort,
  packAndInstall,
  PROJECT_ROOT,
  readmeSnippet,
  run,
  SAMPLES,
  serveStatic,
  sharedChromium,
  startChild,
  STRICT_CSP,
  type InstalledPackage,
  type RunResult,
} from './consumer.ts';

let pkg: InstalledPackage;

before(
  async () => {
    pkg = await packAndInstall();
  },
  { timeout: 240_000 },
);

after(async () => {
  await closeChromium();
  pkg?.cleanUp();
});

const sample = (name: string): string => join(SAMPLES, name);
/** A folder inside the consumer project (created), so that `verify-export` resolves from its node_modules. */
function consumerDir(...parts: string[]): string {
  const dir = join(pkg.consumer, ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}

interface ReportLike {
  overall: string;
  input: string;
  format: string | null;
  findings: { code: string; message: string; severity: string }[];
}

// ---------------------------------------------------------------------------------------------
// 1. The CLI

test("CLI: the installed verify-export command and the README's npx commands give the verdict as exit code", async () => {
  const bin = join(pkg.consumer, 'node_modules/.bin/verify-export');
  const cli = (args: string[]): Promise<RunResult> => run(bin, args, { cwd: pkg.consumer });

  const passing = await cli([sample('agentxchain-pass.json')]);
  assert.equal(passing.status, 0, describeRun('pass sample', passing));
  assert.match(passing.stdout, /^PASS\b/);
  const failing = await cli([sample('agentxchain-fail.json')]);
  assert.equal(failing.status, 1, describeRun('fail sample', failing));
  assert.match(failing.stdout, /^FAIL\b/);
  writeFileSync(join(pkg.consumer, 'not-json.txt'), 'this is not an export artifact\n');
  const unreadable = await cli(['not-json.txt']);
  assert.equal(unreadable.status, 2, describeRun('non-JSON file', unreadable));

  const version = await cli(['--version']);
  assert.equal(version.status, 0, describeRun('--version', version));
  assert.equal(version.stdout.trim(), pkg.manifest.version);

  // Compat output equals the repository's own CLI on the same file.
  for (const file of ['agentxchain-pass.json', 'agentxchain-fail.json']) {
    const args = ['--compat', 'agentxchain', '--format', 'json', sample(file)];
    const installed = await cli(args);
    const repo = await run(process.execPath, [join(PROJECT_ROOT, 'bin/verify-export.js'), ...args], {
      cwd: PROJECT_ROOT,
    });
    assert.equal(
      installed.status,
      repo.status,
      `${file}: ${describeRun('installed', installed)}\n${describeRun('repo', repo)}`,
    );
    const mine = JSON.parse(installed.stdout) as { overall: string; errors: string[] };
    const theirs = JSON.parse(repo.stdout) as { overall: string; errors: string[] };
    assert.equal(mine.overall, theirs.overall, file);
    assert.deepEqual(mine.errors, theirs.errors, file);
    assert.equal(mine.overall, file.includes('pass') ? 'pass' : 'fail', file);
  }

  // The subcommands ship as their own bundles (build/build.mjs): each must run from the tarball.
  const report = await cli(['report', '--compat', 'agentxchain', '--format', 'json', sample('agentxchain-pass.json')]);
  assert.equal(report.status, 0, describeRun('report', report));
  assert.equal((JSON.parse(report.stdout) as { overall: string }).overall, 'pass');
  const diff = await cli([
    'diff',
    '--format',
    'json',
    sample('agentxchain-pass.json'),
    sample('agentxchain-pass.json'),
  ]);
  assert.equal(diff.status, 0, describeRun('diff', diff));
  assert.equal((JSON.parse(diff.stdout) as { changed: boolean }).changed, false);
  const session = join(
    PROJECT_ROOT,
    'test/fixtures/agent-history/real-impl-small-claude-20251120090628_agent-d75d6769',
  );
  const markdown = await cli(['markdown', '--level', '1', `${session}.ndjson`]);
  assert.equal(markdown.status, 0, describeRun('markdown', markdown));
  const golden = session.replace('agent-history/', 'agent-history/markdown/') + '.L1.md';
  assert.equal(markdown.stdout, readFileSync(golden, 'utf8'));
  // Many inputs on the worker-thread pool (dist/pool-worker.js).
  const many = await cli(['--jobs', '2', '--format', 'json', SAMPLES]);
  assert.equal(many.status, 1, describeRun('samples folder', many));
  const verdicts = many.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as ReportLike).overall);
  assert.ok(verdicts.length >= 10 && verdicts.includes('pass') && verdicts.includes('fail'), verdicts.join(' '));

  // The README's commands, as written, on a sample copied in as export.json. npx runs offline: it
  // must find the installed bin, never fetch one.
  copyFileSync(sample('agentxchain-pass.json'), join(pkg.consumer, 'export.json'));
  const lines = readmeSnippet('cli')
    .code.split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  assert.equal(lines.length, 3, `README cli snippet: ${lines.join(' | ')}`);
  const env = cleanEnv({ npm_config_offline: 'true', npm_config_update_notifier: 'false' });
  const results: RunResult[] = [];
  for (const line of lines) {
    const result = await run('sh', ['-c', line], { cwd: pkg.consumer, env });
    assert.equal(result.status, 0, describeRun(line, result));
    results.push(result);
  }
  assert.match(results[0]!.stdout, /^PASS: /);
  const unified = JSON.parse(readFileSync(join(pkg.consumer, 'report.json'), 'utf8')) as ReportLike;
  assert.equal(unified.overall, 'pass');
  assert.equal(unified.format, 'agentxchain');
  const compat = JSON.parse(results[2]!.stdout) as { overall: string; errors: string[]; input: string };
  assert.deepEqual([compat.overall, compat.errors, compat.input], ['pass', [], join(pkg.consumer, 'export.json')]);
});

// ---------------------------------------------------------------------------------------------
// 2. Node ESM (and CommonJS)

test("Node: the package's own imports (#sha256, #sha256-lanes) resolve inside the installed tarball and hash", async () => {
  // Only the package's own modules can import them: a module placed in the installed package, as
  // the core's are. If #sha256-lanes failed to resolve there, Zaxy entries would quietly be hashed
  // one at a time, with the same reports: only this shows the 4-lane hasher ships and loads.
  const probe = join(pkg.installed, 'imports-probe.mjs');
  writeFileSync(
    probe,
    `import { loadSha256 } from '#sha256';
import { loadSha256Many } from '#sha256-lanes';
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const abc = new TextEncoder().encode('abc');
const many = await loadSha256Many();
const out = new Uint8Array(64);
many?.digestMany(abc, Uint32Array.of(0, 0), Uint32Array.of(3, 0), out);
console.log(JSON.stringify({
  single: hex((await loadSha256()).digest(abc)),
  many: many === undefined ? null : [hex(out.subarray(0, 32)), hex(out.subarray(32))],
  lanes: import.meta.resolve('#sha256-lanes'),
}));
`,
  );
  const result = await run(process.execPath, [probe], { cwd: pkg.consumer });
  assert.equal(result.status, 0, describeRun('imports-probe.mjs', result));
  const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
  const empty = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
  assert.deepEqual(JSON.parse(result.stdout), {
    single: abc,
    many: [abc, empty],
    lanes: `file://${join(pkg.installed, 'dist/wasm/sha256-lanes.js')}`,
  });
});

test('Node: the README snippet verifies; edge and wasm import; other paths are not exported; require() as this Node does it', async () => {
  const snippet = readmeSnippet('node');
  assert.equal(snippet.lang, 'js');
  const app = consumerDir('node-app');
  writeFileSync(join(app, 'verify.mjs'), snippet.code);
  const node = (args: string[], env?: NodeJS.ProcessEnv): Promise<RunResult> =>
    run(process.execPath, args, { cwd: app, ...(env ? { env } : {}) });

  for (const file of ['agentxchain-pass.json', 'zaxy-signed-pass.json', 'codex-exec-pass.jsonl']) {
    const result = await node(['verify.mjs', sample(file)]);
    assert.equal(result.status, 0, describeRun(file, result));
    assert.match(result.stdout, /^pass \d+\n$/, file);
  }
  for (const file of ['agentxchain-fail.json', 'zaxy-signed-fail.json']) {
    const result = await node(['verify.mjs', sample(file)]);
    assert.equal(result.status, 1, describeRun(file, result));
    assert.match(result.stdout, /^fail [1-9]\d*\n$/, file);
  }

  // The other entry points, used for real: the edge handler answers a request, the wasm loader hashes.
  writeFileSync(
    join(app, 'entries.mjs'),
    `import { handleVerifyRequest, statusForReport } from 'verify-export/edge';
import { initSha256, loadSha256 } from 'verify-export/wasm';
import { readFile } from 'node:fs/promises';
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const response = await handleVerifyRequest(new Request('http://x/?name=export.json', { method: 'POST', body: await readFile(process.argv[2]) }));
const report = await response.json();
const fromDefault = hex((await loadSha256()).digest(new TextEncoder().encode('abc')));
const wasmFile = new URL(import.meta.resolve('verify-export/wasm/sha256.wasm'));
const fromModule = hex((await initSha256(await readFile(wasmFile))).digest(new TextEncoder().encode('abc')));
console.log(JSON.stringify({ status: response.status, overall: report.overall, mapped: statusForReport(report), fromDefault, fromModule, wasmFile: wasmFile.pathname }));
`,
  );
  const entries = await node(['entries.mjs', sample('agentxchain-fail.json')]);
  assert.equal(entries.status, 0, describeRun('entries.mjs', entries));
  const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
  const seen = JSON.parse(entries.stdout) as Record<string, unknown>;
  assert.deepEqual(seen, {
    status: 422,
    overall: 'fail',
    mapped: 422,
    fromDefault: abc,
    fromModule: abc,
    wasmFile: join(pkg.installed, 'dist/wasm/generated/sha256.wasm'),
  });

  // Paths the exports map does not list do not resolve.
  for (const specifier of ['verify-export/src/index.js', 'verify-export/dist/src/index.js']) {
    const result = await node(['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`]);
    assert.equal(result.status, 1, describeRun(specifier, result));
    assert.match(result.stderr, /code: 'ERR_PACKAGE_PATH_NOT_EXPORTED'/, specifier);
    assert.match(
      result.stderr,
      new RegExp(
        `Package subpath '\\./${specifier.slice('verify-export/'.length).replace(/\./g, '\\.')}' is not defined by "exports"`,
      ),
      specifier,
    );
  }

  // CommonJS: require() loads the ESM package where Node supports it (20.19+, 22.12+), else it is
  // the ES-module error; with require(esm) switched off, every such Node gives that error.
  writeFileSync(
    join(app, 'require.cjs'),
    `let verify;
try {
  ({ verify } = require('verify-export'));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
  process.exit(3);
}
verify(require('node:fs').readFileSync(process.argv[2]), { name: 'x' }).then((report) => console.log(JSON.stringify({ overall: report.overall })));
`,
  );
  const assertEsmError = (result: RunResult): void => {
    assert.equal(result.status, 3, describeRun('require.cjs', result));
    const { code, message } = JSON.parse(result.stdout) as { code: string; message: string };
    assert.equal(code, 'ERR_REQUIRE_ESM');
    assert.match(
      message,
      new RegExp(
        `^require\\(\\) of ES Module ${join(pkg.installed, 'dist/src/index.js').replace(/[.]/g, '\\.')} from ${join(app, 'require.cjs').replace(/[.]/g, '\\.')} not supported\\.`,
      ),
    );
  };
  const required = await node(['require.cjs', sample('agentxchain-pass.json')]);
  if ((process.features as unknown as Record<string, unknown>)['require_module'] === true) {
    assert.equal(required.status, 0, describeRun('require.cjs', required));
    assert.deepEqual(JSON.parse(required.stdout), { overall: 'pass' });
    assert.doesNotMatch(required.stderr, /Error/);
    assertEsmError(await node(['--no-experimental-require-module', 'require.cjs', sample('agentxchain-pass.json')]));
  } else {
    assertEsmError(required);
  }
});

// ---------------------------------------------------------------------------------------------
// 3. TypeScript

const TSC = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');

const CONSUMER_TS = `import { verify, verifyZaxy, type Report, type VerifyOptions } from 'verify-export';
import { handleVerifyRequest, statusForReport, type EdgeOptions } from 'verify-export/edge';
import { initSha256, loadSha256, type Sha256WasmSource } from 'verify-export/wasm';

export async function check(bytes: Uint8Array, controller: AbortController): Promise<Report> {
  const options: VerifyOptions = { name: 'export.json', limits: { maxFindings: 10, maxLineBytes: 8 << 20 }, signal: controller.signal };
  const report: Report = await verify(bytes, { ...options, kind: 'agentxchain', onProgress: (read: number, total?: number) => void [read, total] });
  const zaxy = await verifyZaxy(bytes, { expectPublicKey: '00'.repeat(32) });
  const overall: 'pass' | 'fail' | 'error' = zaxy.overall;
  const codes: string[] = report.findings.map((finding) => finding.code + finding.path + finding.severity);
  const status: number = statusForReport(report);
  const digest: Uint8Array = (await loadSha256()).digest(bytes);
  const edge: EdgeOptions = { maxBodyBytes: 1024 };
  const response: Response = await handleVerifyRequest(new Request('http://x/', { method: 'POST', body: 'x' }), edge);
  const source: Sha256WasmSource = new URL('https://example.test/sha256.wasm');
  void [overall, codes, status, digest, response, source, initSha256];
  return report;
}
`;

const BROWSER_TS = `import 'verify-export/component';
import type { VerifyExportElement } from 'verify-export/component';
import sha256Module from 'verify-export/wasm/sha256.wasm';
import { initSha256 } from 'verify-export/wasm';
import type { Report } from 'verify-export';

export function mount(): VerifyExportElement {
  const element = document.createElement('verify-export');
  element.setAttribute('src', 'export.json');
  element.addEventListener('verify-export:result', (event) => {
    const report = (event as CustomEvent<Report>).detail;
    void report.verdicts.integrity;
  });
  const last: Report | undefined = element.report;
  void last;
  void initSha256(sha256Module);
  return document.body.appendChild(element);
}
`;

const WRONG_TS = `import { verify } from 'verify-export';

const bytes = new Uint8Array(4);
export const wrongKind = verify(bytes, { kind: 'nope' });
export const wrongLimit = verify(bytes, { limits: { maxFindings: 'x' } });
`;

/** Runs tsc on a project; the error lines it printed (`file(line,col): error TSxxxx: …`). */
async function typeCheck(
  dir: string,
  compilerOptions: Record<string, unknown>,
  files: string[],
): Promise<{ result: RunResult; errors: string[] }> {
  const config = `tsconfig.${files.join('+').replace(/[^\w+]/g, '_')}.json`;
  writeFileSync(
    join(dir, config),
    JSON.stringify(
      { compilerOptions: { strict: true, noEmit: true, target: 'es2022', ...compilerOptions }, files },
      null,
      2,
    ),
  );
  const result = await run(process.execPath, [TSC, '-p', config, '--pretty', 'false'], { cwd: dir, timeout: 120_000 });
  return { result, errors: (result.stdout + result.stderr).split('\n').filter((line) => /error TS\d+/.test(line)) };
}

function assertClean(label: string, { result, errors }: { result: RunResult; errors: string[] }): void {
  assert.deepEqual(errors, [], `${label}: ${describeRun('tsc', result)}`);
  assert.equal(result.status, 0, `${label}: ${describeRun('tsc', result)}`);
  assert.equal(result.stdout + result.stderr, '', label);
}

/** The two misuses each give their own TS2322 in the consumer's file, and no other error in that file. */
function assertWrongOptionsCaught(label: string, { result, errors }: { result: RunResult; errors: string[] }): void {
  assert.equal(result.status, 2, `${label}: ${describeRun('tsc', result)}`);
  const inWrong = errors.filter((line) => line.startsWith('wrong.ts('));
  assert.deepEqual(
    inWrong.map((line) => /^wrong\.ts\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line)?.slice(1)),
    [
      ['4', 'TS2322', `Type '"nope"' is not assignable to type '"auto" | FormatId | undefined'.`],
      ['5', 'TS2322', "Type 'string' is not assignable to type 'number'."],
    ],
    `${label}: ${errors.join('\n')}`,
  );
}

test('TypeScript, bundler resolution (lib dom + es2022, no skipLibCheck): the package, its subpaths and the element type-check; wrong options do not', async () => {
  const dir = consumerDir('ts-bundler');
  writeFileSync(join(dir, 'consumer.ts'), CONSUMER_TS);
  writeFileSync(join(dir, 'browser.ts'), BROWSER_TS);
  writeFileSync(join(dir, 'wrong.ts'), WRONG_TS);
  const options = { module: 'esnext', moduleResolution: 'bundler', lib: ['dom', 'es2022'], types: [] };
  const [clean, wrong] = await Promise.all([
    typeCheck(dir, options, ['consumer.ts', 'browser.ts']),
    typeCheck(dir, options, ['wrong.ts']),
  ]);
  assertClean('bundler', clean);
  assertWrongOptionsCaught('bundler', wrong);
  assert.deepEqual(
    wrong.errors.filter((line) => !line.startsWith('wrong.ts(')),
    [],
    'errors outside wrong.ts',
  );
});

/** A Node consumer: node16 resolution, the consumer package being "type": "module" (ES modules). */
function nodeConsumer(name: string): string {
  const dir = consumerDir(name);
  writeFileSync(
    join(dir, 'consumer.ts'),
    `import { readFile } from 'node:fs/promises';\n${CONSUMER_TS}\nexport const fromFile = async (file: string): Promise<Report> => check(await readFile(file), new AbortController());\n`,
  );
  writeFileSync(join(dir, 'wrong.ts'), WRONG_TS);
  return dir;
}
/** The project's own @types/node (the Node 20 line the package supports) stands for the user's. */
const NODE_TYPES = { typeRoots: [join(PROJECT_ROOT, 'node_modules/@types')], types: ['node'] };

test('TypeScript, node16 resolution (lib dom + es2022, @types/node, no skipLibCheck): the package and its subpaths type-check; wrong options do not', async () => {
  const dir = nodeConsumer('ts-node16');
  const options = { module: 'node16', moduleResolution: 'node16', lib: ['dom', 'es2022'], ...NODE_TYPES };
  const [clean, wrong] = await Promise.all([
    typeCheck(dir, options, ['consumer.ts']),
    typeCheck(dir, options, ['wrong.ts']),
  ]);
  assertClean('node16', clean);
  assertWrongOptionsCaught('node16', wrong);
  assert.deepEqual(
    wrong.errors.filter((line) => !line.startsWith('wrong.ts(')),
    [],
    'errors outside wrong.ts',
  );
});

test('TypeScript, a Node-only project (node16, lib es2022 + @types/node, no DOM lib, no skipLibCheck): the package and its subpaths type-check', async () => {
  const dir = nodeConsumer('ts-node-only');
  assertClean(
    'node-only',
    await typeCheck(dir, { module: 'node16', moduleResolution: 'node16', lib: ['es2022'], ...NODE_TYPES }, [
      'consumer.ts',
    ]),
  );
});

// ---------------------------------------------------------------------------------------------
// Browser helpers (4, 5)

interface PageWatch {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Every URL requested by the page and its workers. */
  readonly requests: string[];
  /** CSP reports (securitypolicyviolation) and console messages about CSP, from page and workers. */
  readonly cspProblems: string[];
  /** Uncaught errors, console errors and failed requests. */
  readonly errors: string[];
  /** Requests the page gave up itself (not failures; kept to show in messages). */
  readonly aborted: string[];
  readonly workers: string[];
}

async function openWatched(url: string): Promise<PageWatch> {
  const context = await (await sharedChromium()).newContext();
  const watch: PageWatch = {
    page: undefined as unknown as Page,
    context,
    requests: [],
    cspProblems: [],
    errors: [],
    aborted: [],
    workers: [],
  };
  context.on('request', (request) => void watch.requests.push(request.url()));
  const page = await context.newPage();
  (watch as { page: Page }).page = page;
  const onConsole = (where: string) => (message: { type(): string; text(): string; location(): { url: string } }) => {
    const text = `${where} ${message.type()}: ${message.text()} (${message.location().url})`;
    if (/Content.Security.Policy|Refused to/i.test(message.text())) watch.cspProblems.push(text);
    else if (message.type() === 'error') watch.errors.push(text);
  };
  page.on('console', onConsole('page'));
  page.on('pageerror', (error) => void watch.errors.push(`pageerror: ${String(error)}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '?';
    // Chromium's reason for a fetch the CSP blocked (in a worker, often the only trace of it).
    if (reason === 'csp') watch.cspProblems.push(`request failed: ${request.url()} (${reason})`);
    // A request the page itself gave up (net::ERR_ABORTED; Chromium reports one at times for the
    // artifact a worker read to its end) failed nothing: the report and its single event say so.
    else if (reason !== 'net::ERR_ABORTED') watch.errors.push(`request failed: ${request.url()} (${reason})`);
    else watch.aborted.push(request.url());
  });
  page.on('worker', (worker) => {
    watch.workers.push(worker.url());
    worker.on('console', onConsole(`worker ${worker.url()}`));
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[]; __results: unknown[]; __failures: unknown[] };
    w.__csp = [];
    w.__results = [];
    w.__failures = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      w.__csp.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
    window.addEventListener('verify-export:result', (event) => w.__results.push((event as CustomEvent).detail), true);
    window.addEventListener('verify-export:error', (event) => w.__failures.push((event as CustomEvent).detail), true);
  });
  await page.goto(url);
  return watch;
}

/**
 * Waits for the element's `verify-export:result` event; returns its report, checked equal to the
 * element's `report`. A `verify-export:error` event (no report could be made) fails with its message.
 */
async function elementReport(watch: PageWatch): Promise<ReportLike> {
  const context = (): string =>
    `\nerrors: ${watch.errors.join('\n')}\ncsp: ${watch.cspProblems.join('\n')}\naborted: ${watch.aborted.join('\n')}` +
    `\nrequests: ${watch.requests.join('\n')}`;
  try {
    await watch.page.waitForFunction(
      () => {
        const w = window as unknown as { __results: unknown[]; __failures: unknown[] };
        return w.__results.length + w.__failures.length > 0;
      },
      null,
      { timeout: 60_000 },
    );
  } catch (error) {
    throw new Error(`no verify-export:result: ${String(error)}${context()}`);
  }
  const failures = await watch.page.evaluate(() => (window as unknown as { __failures: unknown[] }).__failures);
  assert.deepEqual(failures, [], `verify-export:error${context()}`);
  const [fromEvent, fromProperty, eventCount] = await watch.page.evaluate(() => [
    (window as unknown as { __results: unknown[] }).__results[0],
    (document.querySelector('verify-export') as unknown as { report?: unknown }).report,
    (window as unknown as { __results: unknown[] }).__results.length,
  ]);
  assert.equal(eventCount, 1, 'one verify-export:result');
  assert.deepEqual(fromProperty, fromEvent, 'element.report is the reported detail');
  watch.cspProblems.push(
    ...(await watch.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).map(
      (text) => `securitypolicyviolation: ${text}`,
    ),
  );
  return fromEvent as ReportLike;
}

/**
 * Network requests (http/https) whose origin is not in `allowed`; blob: URLs of an allowed origin are the page's own.
 */
function foreignRequests(requests: readonly string[], allowed: readonly string[]): string[] {
  return requests.filter((url) => {
    const parsed = new URL(url);
    if (parsed.protocol === 'blob:') return !allowed.includes(new URL(parsed.pathname).origin);
    return !allowed.includes(parsed.origin);
  });
}

// ---------------------------------------------------------------------------------------------
// 4. A Vite app

test(
  'Vite: the README bundler snippet, built by vite and served under the strict CSP, verifies in Chromium with same-origin requests only',
  { timeout: 120_000 },
  async () => {
    const snippet = readmeSnippet('bundler');
    assert.equal(snippet.lang, 'js');
    const app = consumerDir('vite-app');
    mkdirSync(join(app, 'public'));
    copyFileSync(sample('agentxchain-pass.json'), join(app, 'public/export.json'));
    writeFileSync(join(app, 'main.js'), snippet.code);
    writeFileSync(
      join(app, 'index.html'),
      '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>vite consumer</title></head>\n<body>\n<script type="module" src="./main.js"></script>\n</body>\n</html>\n',
    );
    const built = await run(devBin('vite'), ['build', '--logLevel', 'warn'], { cwd: app, timeout: 90_000 });
    assert.equal(built.status, 0, describeRun('vite build', built));
    assert.ok(
      existsSync(join(app, 'dist/index.html')) && existsSync(join(app, 'dist/export.json')),
      describeRun('vite build', built),
    );

    const server = await serveStatic({ '/': join(app, 'dist') }, { 'Content-Security-Policy': STRICT_CSP });
    let watch: PageWatch | undefined;
    try {
      watch = await openWatched(`${server.origin}/`);
      const report = await elementReport(watch);
      assert.equal(report.overall, 'pass', JSON.stringify(report.findings));
      assert.equal(report.format, 'agentxchain');
      assert.ok(watch.workers.length > 0, 'the verification ran in a worker');
      assert.ok(
        watch.requests.some((url) => url.endsWith('/export.json')),
        watch.requests.join('\n'),
      );
      assert.deepEqual(foreignRequests(watch.requests, [server.origin]), []);
      assert.deepEqual(watch.cspProblems, []);
      assert.deepEqual(watch.errors, []);
    } finally {
      await watch?.context.close();
      await server.close();
    }
  },
);

// ---------------------------------------------------------------------------------------------
// 5. A page without a bundler, and the CDN build from another origin

const htmlPage = (body: string): string =>
  `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>no bundler</title></head>\n<body>\n${body}</body>\n</html>\n`;

test(
  'page without a bundler: the README page snippet with dist/cdn served beside it verifies under the strict CSP, asking nothing of another origin',
  { timeout: 120_000 },
  async () => {
    const snippet = readmeSnippet('page');
    assert.equal(snippet.lang, 'html');
    const cdn = join(pkg.installed, 'dist/cdn');
    assert.ok(
      existsSync(join(cdn, 'verify-export.js')) && existsSync(join(cdn, 'verify-worker.js')),
      'dist/cdn in the installed package',
    );
    const site = consumerDir('plain-page');
    copyFileSync(sample('zaxy-signed-pass.json'), join(site, 'export.json'));
    writeFileSync(join(site, 'index.html'), htmlPage(snippet.code));

    // Same origin: the folder copied beside the page, as the README says.
    const server = await serveStatic({ '/': site, '/verify-export/': cdn }, { 'Content-Security-Policy': STRICT_CSP });
    let watch: PageWatch | undefined;
    try {
      watch = await openWatched(`${server.origin}/`);
      const report = await elementReport(watch);
      assert.equal(report.overall, 'pass', JSON.stringify(report.findings));
      assert.equal(report.format, 'zaxy');
      assert.ok(watch.requests.includes(`${server.origin}/verify-export/verify-worker.js`), watch.requests.join('\n'));
      assert.deepEqual(foreignRequests(watch.requests, [server.origin]), []);
      assert.deepEqual(watch.cspProblems, []);
      assert.deepEqual(watch.errors, []);
    } finally {
      await watch?.context.close();
      await server.close();
    }
  },
);

test(
  'CDN: dist/cdn from another origin, under the CSP the README gives (the CDN in script-src, blob: in worker-src), verifies through a blob: worker',
  { timeout: 120_000 },
  async () => {
    // The element starts a same-origin blob: worker that imports the CDN's worker.
    const snippet = readmeSnippet('page');
    const cdn = join(pkg.installed, 'dist/cdn');
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const cdnUrl = /https:\/\/cdn\.jsdelivr\.net\/npm\/verify-export@([^/]+)\/(dist\/cdn\/verify-export\.js)/.exec(
      readme,
    );
    assert.ok(cdnUrl, 'README names the jsdelivr URL');
    assert.equal(cdnUrl[1], pkg.manifest.version, 'the README CDN URL names the packed version');
    assert.equal(`./${cdnUrl[2]}`, pkg.manifest.jsdelivr);
    assert.equal(pkg.manifest.unpkg, pkg.manifest.jsdelivr);
    const cdnServer = await serveStatic({ '/': cdn }, { 'Access-Control-Allow-Origin': '*' }, 'localhost');
    const crossSite = consumerDir('cdn-page');
    copyFileSync(sample('agentxchain-pass.json'), join(crossSite, 'export.json'));
    const crossOriginScript = snippet.code.replace(
      'src="verify-export/verify-export.js"',
      `src="${cdnServer.origin}/verify-export.js"`,
    );
    assert.notEqual(crossOriginScript, snippet.code, 'the page snippet loads verify-export/verify-export.js');
    writeFileSync(join(crossSite, 'index.html'), htmlPage(crossOriginScript));
    const csp = `default-src 'self'; script-src 'self' ${cdnServer.origin} 'wasm-unsafe-eval'; worker-src blob:`;
    const pageServer = await serveStatic({ '/': crossSite }, { 'Content-Security-Policy': csp });
    let watch: PageWatch | undefined;
    try {
      watch = await openWatched(`${pageServer.origin}/`);
      const report = await elementReport(watch);
      assert.equal(report.overall, 'pass', JSON.stringify(report.findings));
      assert.equal(report.format, 'agentxchain');
      assert.ok(
        watch.workers.some((url) => url.startsWith(`blob:${pageServer.origin}/`)),
        `workers: ${watch.workers.join(', ')}`,
      );
      assert.ok(watch.requests.includes(`${cdnServer.origin}/verify-worker.js`), watch.requests.join('\n'));
      assert.ok(cdnServer.requested.includes('/verify-worker.js'));
      assert.deepEqual(foreignRequests(watch.requests, [pageServer.origin, cdnServer.origin]), []);
      assert.deepEqual(watch.cspProblems, []);
      assert.deepEqual(watch.errors, []);
    } finally {
      await watch?.context.close();
      await pageServer.close();
      await cdnServer.close();
    }
  },
);

// ---------------------------------------------------------------------------------------------
// 6. Deno

test('Deno: the README snippet resolves npm:verify-export from node_modules, offline, and verifies', async () => {
  const snippet = readmeSnippet('deno');
  assert.equal(snippet.lang, 'ts');
  // The consumer project itself: its package.json depends on verify-export, installed in node_modules.
  // Deno 2 sees the package.json and resolves npm: specifiers from node_modules (its "manual" mode).
  writeFileSync(join(pkg.consumer, 'verify.ts'), snippet.code);
  copyFileSync(sample('agentxchain-pass.json'), join(pkg.consumer, 'export.json'));
  copyFileSync(sample('agentxchain-fail.json'), join(pkg.consumer, 'fail.json'));
  const command = /^\/\/ verify\.ts: deno (run --allow-read verify\.ts) export\.json$/m.exec(snippet.code);
  assert.ok(command, 'the snippet says how to run it');
  // No network at all: a fresh DENO_DIR and every proxy pointing at a closed port.
  const dead = 'http://127.0.0.1:9';
  const env = cleanEnv({
    DENO_DIR: join(pkg.root, 'deno-dir'),
    DENO_NO_UPDATE_CHECK: '1',
    DENO_NO_PROMPT: '1',
    HTTP_PROXY: dead,
    HTTPS_PROXY: dead,
    ALL_PROXY: dead,
    http_proxy: dead,
    https_proxy: dead,
    NO_PROXY: '',
    no_proxy: '',
    NPM_CONFIG_REGISTRY: `${dead}/`,
  });
  const args = command[1]!.split(' ');
  for (const [file, verdict] of [
    ['export.json', 'pass'],
    ['fail.json', 'fail'],
  ] as const) {
    const result = await run(devBin('deno'), [...args, file], { cwd: pkg.consumer, env, timeout: 60_000 });
    assert.equal(result.status, 0, describeRun(`deno ${args.join(' ')} ${file}`, result));
    assert.match(result.stdout, new RegExp(`^${verdict} \\d+\\n$`), describeRun(file, result));
  }
});

// ---------------------------------------------------------------------------------------------
// 7. Cloudflare Workers

/** As wrangler bundles: `.wasm` imports stay modules, copied beside the bundle under the name imported. */
function wasmModules(outDir: string, copied: string[]): Plugin {
  return {
    name: 'wasm-modules-as-wrangler',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /\.wasm$/ }, (args) => {
        const file = resolve(args.resolveDir, args.path);
        copyFileSync(file, join(outDir, basename(file)));
        copied.push(basename(file));
        return { path: `./${basename(file)}`, external: true };
      });
    },
  };
}

async function bundleWorker(entry: string, outDir: string, outName: string, conditions: string[]): Promise<string[]> {
  const copied: string[] = [];
  await build({
    absWorkingDir: resolve(entry, '../..'),
    entryPoints: [entry],
    outfile: join(outDir, outName),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions,
    mainFields: ['browser', 'module', 'main'],
    logLevel: 'silent',
    plugins: [wasmModules(outDir, copied)],
  });
  return copied;
}

interface ServedWorker {
  readonly url: string;
  /** `.wasm` modules the bundle imports (copied beside it). */
  readonly wasm: string[];
  output(): string;
  stop(): Promise<void>;
}

/**
 * Writes the README's Workers entry as src/index.js of a project in the consumer, bundles it with
 * `conditions`, and serves the bundle in real workerd on 127.0.0.1 (config from build/worker.mjs:
 * the worker module, the `sha256.wasm` module, compatibility date 2025-09-01, no outbound network).
 */
async function serveReadmeWorker(name: string, conditions: string[]): Promise<ServedWorker> {
  const snippet = readmeSnippet('workers');
  assert.equal(snippet.lang, 'js');
  const project = consumerDir(name);
  mkdirSync(join(project, 'src'));
  const entry = join(project, 'src/index.js');
  writeFileSync(entry, snippet.code);
  const outDir = consumerDir(name, 'dist');
  const wasm = await bundleWorker(entry, outDir, 'worker.js', conditions);
  // The config always declares the module; a bundle that imports none leaves it unused.
  if (!existsSync(join(outDir, 'sha256.wasm')))
    copyFileSync(join(pkg.installed, 'dist/wasm/generated/sha256.wasm'), join(outDir, 'sha256.wasm'));
  const port = await freePort();
  writeFileSync(join(outDir, 'workerd.capnp'), workerdConfigFor([{ name: 'main', address: `127.0.0.1:${port}` }]));
  const workerd = startChild(devBin('workerd'), ['serve', 'workerd.capnp'], { cwd: outDir });
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 20_000;
  try {
    for (;;) {
      assert.ok(!workerd.exited(), `workerd exited:\n${workerd.output()}`);
      assert.ok(Date.now() < deadline, `workerd did not answer on ${url}:\n${workerd.output()}`);
      try {
        await (await fetch(url)).arrayBuffer();
        break;
      } catch {
        await new Promise((wake) => setTimeout(wake, 100));
      }
    }
  } catch (error) {
    await workerd.stop();
    throw error;
  }
  return { url, wasm, output: workerd.output, stop: workerd.stop };
}

async function postSample(base: string, file: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}?name=${file}`, { method: 'POST', body: readFileSync(sample(file)) });
  return { status: response.status, text: await response.text() };
}

test(
  'Cloudflare Workers: the README worker, bundled as wrangler does (workerd condition, .wasm kept as a module), answers in workerd',
  { timeout: 120_000 },
  async () => {
    const worker = await serveReadmeWorker('workers', ['workerd', 'worker', 'browser']);
    try {
      assert.deepEqual(worker.wasm, ['sha256.wasm'], 'the workerd condition brings SHA-256 as a .wasm module');
      const passing = await postSample(worker.url, 'agentxchain-pass.json');
      assert.equal(passing.status, 200, passing.text.slice(0, 500));
      assert.equal((JSON.parse(passing.text) as ReportLike).overall, 'pass');
      const signed = await postSample(worker.url, 'zaxy-signed-pass.json');
      assert.equal(signed.status, 200, signed.text.slice(0, 500));
      assert.equal((JSON.parse(signed.text) as ReportLike).overall, 'pass');
      const failing = await postSample(worker.url, 'agentxchain-fail.json');
      assert.equal(failing.status, 422, failing.text.slice(0, 500));
      assert.equal((JSON.parse(failing.text) as ReportLike).overall, 'fail');
    } finally {
      await worker.stop();
    }
  },
);

test(
  'Cloudflare Workers, misbundled (no workerd condition: hash-wasm compiles from bytes, which workerd refuses): every POST answers 503 kit.sha256_unavailable naming options.sha256 and initSha256',
  { timeout: 120_000 },
  async () => {
    const worker = await serveReadmeWorker('workers-misbundled', ['worker', 'browser']);
    try {
      assert.deepEqual(worker.wasm, [], 'no .wasm module without the workerd condition');
      for (const file of ['agentxchain-pass.json', 'agentxchain-fail.json', 'zaxy-signed-pass.json']) {
        const answer = await postSample(worker.url, file);
        assert.equal(
          answer.status,
          503,
          `${file}: HTTP ${answer.status} ${answer.text.slice(0, 500)}\nworkerd: ${worker.output().slice(-1500)}`,
        );
        const report = JSON.parse(answer.text) as ReportLike;
        assert.equal(report.overall, 'error', file);
        const codes = report.findings.map((finding) => finding.code);
        assert.ok(
          codes.includes('kit.sha256_unavailable') && !codes.includes('kit.internal_error'),
          `${file}: ${codes.join(', ')}`,
        );
        const message = report.findings.find((finding) => finding.code === 'kit.sha256_unavailable')!.message;
        assert.match(message, /options\.sha256/);
        assert.match(message, /initSha256/);
      }
    } finally {
      await worker.stop();
    }
  },
);

// ---------------------------------------------------------------------------------------------
// 8. publint and attw

test('publint and attw (esm-only profile) find no problem in the tarball', async () => {
  const unpacked = join(pkg.root, 'unpacked');
  mkdirSync(unpacked);
  const untar = await run('tar', ['-xzf', pkg.tarball, '-C', unpacked], { cwd: pkg.root });
  assert.equal(untar.status, 0, describeRun('tar', untar));
  const packageDir = join(unpacked, 'package');
  // The tarball holds what the exports and bin name (publint checks the files exist; this names the worst ones).
  for (const file of [
    'dist/src/index.js',
    'dist/src/index.d.ts',
    'dist/wasm/sha256.workerd.js',
    'dist/wasm/generated/sha256.wasm',
    'dist/cli.js',
    'bin/verify-export.js',
    'dist/cdn/verify-worker.js',
    'dist/custom-elements.json',
  ]) {
    assert.ok(existsSync(join(packageDir, file)), `${file} in the tarball`);
  }

  for (const tool of ['publint', 'attw'])
    assert.ok(
      existsSync(devBin(tool)),
      `${devBin(tool)} is missing: publint and @arethetypeswrong/cli are dev dependencies of the project`,
    );
  const [publint, attw] = await Promise.all([
    run(devBin('publint'), ['run', '--strict', packageDir], { cwd: pkg.root, timeout: 60_000 }),
    run(devBin('attw'), ['--profile', 'esm-only', '--format', 'json', pkg.tarball], { cwd: pkg.root, timeout: 60_000 }),
  ]);
  assert.equal(publint.status, 0, describeRun('publint', publint));
  assert.match(publint.stdout, /All good!/, describeRun('publint', publint));

  assert.equal(attw.status, 0, describeRun('attw', attw));
  const analysis = JSON.parse(attw.stdout) as {
    analysis: {
      packageName: string;
      packageVersion: string;
      problems: Record<string, { kind: string; entrypoint: string; resolutionKind?: string }[]>;
    };
  };
  assert.equal(analysis.analysis.packageName, pkg.manifest.name);
  assert.equal(analysis.analysis.packageVersion, pkg.manifest.version);
  // The esm-only profile ignores what CommonJS (node16-cjs) and node10 resolution see.
  const ignored = new Set(['node10', 'node16-cjs']);
  const problems = Object.values(analysis.analysis.problems)
    .flat()
    .filter((problem) => problem.resolutionKind === undefined || !ignored.has(problem.resolutionKind));
  assert.deepEqual(problems, []);
});
