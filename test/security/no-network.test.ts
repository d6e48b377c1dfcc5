// The core makes no network request (README.md, 'Security model': "No network"). In Node every way
// out is replaced by a trap that records and throws — fetch, XMLHttpRequest, WebSocket,
// EventSource, navigator.sendBeacon, and node:http/https/net/tls/dgram/dns — then every fixture
// of every format is verified (plain and gzipped, through `verify` and the format's own entry
// point). No trap may fire. The same check in Chromium is no-network-chromium.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { verify, verifyAgentHistory, verifyAgentxchain, verifyCodexExec, verifyZaxy } from '../../src/index.ts';
import { loadCorpus } from '../fuzz/corpus.ts';
import { reportProblems } from '../fuzz/oracle/report.ts';

const attempts: string[] = [];
const require = createRequire(import.meta.url);

function trap(name: string): (...args: unknown[]) => never {
  return () => {
    attempts.push(name);
    throw new Error(`network access attempted: ${name}`);
  };
}

/** Replaces `owner[key]` with a trap for the duration of the test. */
function replace(owner: Record<string, unknown>, key: string, name: string, restore: (() => void)[]): void {
  const had = Object.getOwnPropertyDescriptor(owner, key);
  const stub = trap(name);
  Object.defineProperty(owner, key, {
    value: new Proxy(stub, { construct: () => stub() }),
    configurable: true,
    writable: true,
  });
  restore.push(() => {
    if (had) Object.defineProperty(owner, key, had);
    else Reflect.deleteProperty(owner, key);
  });
}

const ENTRY = {
  agentxchain: verifyAgentxchain,
  zaxy: verifyZaxy,
  'agent-history': verifyAgentHistory,
  'codex-exec': verifyCodexExec,
} as const;

test('verifying every fixture makes no network request', { timeout: 600_000 }, async () => {
  const restore: (() => void)[] = [];
  const globals = globalThis as unknown as Record<string, unknown>;
  for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource']) replace(globals, name, name, restore);
  if (typeof globals['navigator'] === 'object' && globals['navigator'] !== null) {
    replace(globals['navigator'] as Record<string, unknown>, 'sendBeacon', 'navigator.sendBeacon', restore);
  }
  const modules: [string, string[]][] = [
    ['node:http', ['request', 'get']],
    ['node:https', ['request', 'get']],
    ['node:net', ['connect', 'createConnection', 'Socket']],
    ['node:tls', ['connect']],
    ['node:dgram', ['createSocket']],
    ['node:dns', ['lookup', 'resolve', 'resolve4', 'resolve6']],
  ];
  for (const [id, keys] of modules) {
    const module = require(id) as Record<string, unknown>;
    for (const key of keys) replace(module, key, `${id}.${key}`, restore);
  }
  try {
    let runs = 0;
    for (const seed of loadCorpus()) {
      const name = seed.file;
      const options = { name, ...(seed.pin ? { expectPublicKey: seed.pin } : {}) };
      const inputs = [seed.bytes];
      if (!seed.gzip && seed.bytes.length < 256 * 1024) inputs.push(new Uint8Array(gzipSync(seed.bytes)));
      for (const bytes of inputs) {
        const gzName = bytes === seed.bytes ? name : `${name}.gz`;
        for (const report of [
          await verify(bytes, { ...options, name: gzName }),
          await ENTRY[seed.format](bytes, { ...options, name: gzName }),
        ]) {
          runs++;
          assert.deepEqual(
            reportProblems(report, {
              maxFindings: 1000,
              pinGiven: seed.pin !== undefined,
              strict: false,
              inputBytes: bytes.length,
            }),
            [],
            `${seed.format}/${name}`,
          );
        }
      }
      assert.deepEqual(attempts, [], `after ${seed.format}/${name}`);
    }
    assert.ok(runs > 1000, `${runs} verifications`);
  } finally {
    for (const undo of restore.reverse()) undo();
  }
  assert.deepEqual(attempts, []);
});

test('the traps work (a request would be caught)', async () => {
  const restore: (() => void)[] = [];
  replace(globalThis as unknown as Record<string, unknown>, 'fetch', 'fetch', restore);
  try {
    await assert.rejects(async () => fetch('https://example.invalid/'), /network access attempted: fetch/);
  } finally {
    for (const undo of restore) undo();
  }
  assert.deepEqual(attempts.splice(0), ['fetch']);
});
