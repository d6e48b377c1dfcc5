// Resource limits, end to end through the public API (docs/architecture.md, 'Limits'):
// each limit has a default in src/limits.ts and a `limit.*` code, and exceeding it in each format
// where it applies yields that finding and an `error` report, never a crash or a pass. Time is
// bounded by the caller's AbortSignal (`input.aborted`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import {
  CODES,
  DEFAULT_LIMITS,
  verify,
  verifyAgentHistory,
  verifyAgentxchain,
  verifyCodexExec,
  verifyZaxy,
  type Limits,
  type Report,
} from '../../src/index.ts';
import { loadCorpus, type Seed } from '../fuzz/corpus.ts';
import { reportProblems } from '../fuzz/oracle/report.ts';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/** Each limit and the code that reports it (ratioGraceBytes only parameterises the ratio limit). */
const LIMIT_CODES: Record<keyof Limits, string | null> = {
  maxInputBytes: 'limit.input_bytes',
  maxBufferedBytes: 'limit.buffered_bytes',
  maxRetainedBytes: 'limit.retained_bytes',
  maxDecompressedBytes: 'limit.decompressed_bytes',
  maxCompressionRatio: 'limit.compression_ratio',
  ratioGraceBytes: null,
  maxLineBytes: 'limit.line_bytes',
  maxJsonDepth: 'limit.json_depth',
  maxFindings: 'limit.findings',
  maxInspectBytes: null,
};

function passingSeed(format: Seed['format'], file?: string): Seed {
  const seed = loadCorpus().find(
    (s) => s.format === format && s.expectedPass === true && !s.gzip && (file === undefined || s.file === file),
  );
  if (!seed) throw new Error(`no passing ${format} fixture ${file ?? ''}`);
  return seed;
}

const SEEDS = {
  agentxchain: passingSeed('agentxchain', 'real-fresh.json'),
  zaxy: passingSeed('zaxy', 'signed-ed25519-n33.json'),
  'agent-history': passingSeed('agent-history'),
  'codex-exec': passingSeed('codex-exec', 'real-success.jsonl'),
} as const;
const ENTRY = {
  agentxchain: verifyAgentxchain,
  zaxy: verifyZaxy,
  'agent-history': verifyAgentHistory,
  'codex-exec': verifyCodexExec,
} as const;
const FORMATS = Object.keys(SEEDS) as (keyof typeof SEEDS)[];

function pinOf(seed: Seed): { expectPublicKey?: string } {
  return seed.pin ? { expectPublicKey: seed.pin } : {};
}

function codes(report: Report): string[] {
  return report.findings.map((f) => f.code);
}

function assertLimit(report: Report, code: string, where: string, limits: Partial<Limits> = {}): void {
  assert.equal(report.overall, 'error', `${where}: ${JSON.stringify(report.findings.slice(0, 4))}`);
  assert.ok(codes(report).includes(code), `${where}: expected ${code}, got ${codes(report).join(', ')}`);
  assert.deepEqual(
    reportProblems(report, {
      maxFindings: limits.maxFindings ?? DEFAULT_LIMITS.maxFindings,
      pinGiven: false,
      strict: false,
      inputBytes: Number.MAX_SAFE_INTEGER,
    }),
    [],
    where,
  );
}

test('every limit has its documented default and a limit.* code of the input dimension', () => {
  assert.deepEqual(
    { ...DEFAULT_LIMITS },
    {
      maxInputBytes: 64 * GiB,
      maxBufferedBytes: 512 * MiB,
      maxRetainedBytes: 512 * MiB,
      maxDecompressedBytes: 16 * GiB,
      maxCompressionRatio: 200,
      ratioGraceBytes: 16 * MiB,
      maxLineBytes: 64 * MiB,
      maxJsonDepth: 1000,
      maxFindings: 1000,
      maxInspectBytes: 256 * MiB,
    },
  );
  assert.ok(Object.isFrozen(DEFAULT_LIMITS));
  assert.deepEqual(
    Object.keys(LIMIT_CODES).sort(),
    Object.keys(DEFAULT_LIMITS).sort(),
    'a new limit needs a row here and a code',
  );
  for (const code of Object.values(LIMIT_CODES)) {
    if (code === null) continue;
    const row = (CODES as Record<string, { dimension: string }>)[code];
    assert.ok(row, `${code} is not in CODES`);
    assert.equal(row.dimension, 'input', code);
  }
  assert.ok((CODES as Record<string, unknown>)['input.aborted'], 'the time bound (AbortSignal) has input.aborted');
});

test('limits given wrongly are API misuse: TypeError', async () => {
  for (const limits of [
    { maxLineBytes: 0 },
    { maxInputBytes: -1 },
    { maxFindings: Number.NaN },
    { maxJsonDepth: '5' },
    { notALimit: 1 },
  ]) {
    await assert.rejects(
      verify('{}', { limits: limits as unknown as Partial<Limits> }),
      TypeError,
      JSON.stringify(limits),
    );
  }
});

test('maxInputBytes: every format, bytes of known size and streams of unknown size', async () => {
  for (const format of FORMATS) {
    const seed = SEEDS[format];
    const limits = { maxInputBytes: seed.bytes.length - 1 };
    assertLimit(await verify(seed.bytes, { limits, ...pinOf(seed) }), 'limit.input_bytes', `${format} verify`);
    assertLimit(
      await ENTRY[format](seed.bytes, { limits, ...pinOf(seed) }),
      'limit.input_bytes',
      `${format} own entry`,
    );
    const stream = new Blob([seed.bytes.slice().buffer]).stream();
    assertLimit(
      await verify(stream, { limits: { maxInputBytes: 100 }, ...pinOf(seed) }),
      'limit.input_bytes',
      `${format} stream`,
    );
    // Exactly at the limit is fine.
    assert.equal(
      (await verify(seed.bytes, { limits: { maxInputBytes: seed.bytes.length }, ...pinOf(seed) })).overall,
      'pass',
      format,
    );
  }
});

test('maxBufferedBytes: the whole-document formats stop; the streaming formats never buffer the input', async () => {
  for (const format of ['agentxchain', 'zaxy'] as const) {
    const seed = SEEDS[format];
    assertLimit(
      await verify(seed.bytes, { limits: { maxBufferedBytes: seed.bytes.length - 1 }, ...pinOf(seed) }),
      'limit.buffered_bytes',
      format,
    );
  }
  for (const format of ['agent-history', 'codex-exec'] as const) {
    const seed = SEEDS[format];
    const report = await verify(seed.bytes, { limits: { maxBufferedBytes: 64 } });
    assert.equal(report.overall, 'pass', `${format}: ${codes(report).join(', ')}`);
  }
});

test('maxDecompressedBytes and maxCompressionRatio: every format, gzipped', async () => {
  for (const format of FORMATS) {
    const seed = SEEDS[format];
    const gz = new Uint8Array(gzipSync(seed.bytes));
    assert.equal((await verify(gz, pinOf(seed))).overall, 'pass', `${format} gzipped`);
    assertLimit(
      await verify(gz, { limits: { maxDecompressedBytes: seed.bytes.length - 1 }, ...pinOf(seed) }),
      'limit.decompressed_bytes',
      `${format} size`,
    );
    assertLimit(
      await verify(gz, { limits: { maxCompressionRatio: 1.5, ratioGraceBytes: 1 }, ...pinOf(seed) }),
      'limit.compression_ratio',
      `${format} ratio`,
    );
  }
});

test('a gzip bomb stops at the default ratio limit with bounded memory', async () => {
  // 256 MiB of newlines gzip to ~250 KiB (about 1000:1); the default ratio (200) trips after the 16 MiB grace.
  const bomb = new Uint8Array(gzipSync(Buffer.alloc(256 * MiB, 0x0a), { level: 9 }));
  const before = process.memoryUsage().rss;
  for (const kind of ['codex-exec', 'agent-history', 'agentxchain'] as const) {
    const report = await verify(bomb, { kind });
    assertLimit(report, 'limit.compression_ratio', `bomb as ${kind}`);
  }
  const grown = process.memoryUsage().rss - before;
  assert.ok(grown < 512 * MiB, `RSS grew by ${Math.round(grown / MiB)} MiB`);
});

test('maxLineBytes: the NDJSON formats report the line; a line at the limit is fine', async () => {
  for (const format of ['agent-history', 'codex-exec'] as const) {
    const seed = SEEDS[format];
    const text = new TextDecoder().decode(seed.bytes);
    const longest = Math.max(...text.split('\n').map((line) => new TextEncoder().encode(line).length));
    assert.equal((await verify(seed.bytes, { limits: { maxLineBytes: longest } })).overall, 'pass', format);
    const report = await verify(seed.bytes, { limits: { maxLineBytes: longest - 1 } });
    assertLimit(report, 'limit.line_bytes', format);
    assert.ok(
      report.findings.some((f) => f.code === 'limit.line_bytes' && /^line [1-9][0-9]*$/.test(f.path)),
      `${format}: the finding names the line`,
    );
  }
});

test('maxJsonDepth: Zaxy bounds its reader, AgentXchain bounds nested child exports', async () => {
  const zaxy = SEEDS.zaxy;
  assertLimit(await verify(zaxy.bytes, { limits: { maxJsonDepth: 4 }, ...pinOf(zaxy) }), 'limit.json_depth', 'zaxy');
  const deep = new TextEncoder().encode(`{"version":"zaxy.portable.v1","x":${'['.repeat(5000)}${']'.repeat(5000)}}`);
  const deepReport = await verify(deep, { kind: 'zaxy' });
  assert.notEqual(deepReport.overall, 'pass');
  assert.deepEqual(
    reportProblems(deepReport, { maxFindings: 1000, pinGiven: false, strict: false, inputBytes: deep.length }),
    [],
  );

  // A coordinator whose child claims to be a coordinator whose child … 40 levels down.
  const coordinator = loadCorpus().find((s) => s.format === 'agentxchain' && s.file === 'raw-pretty-printed.json')!;
  const parent = JSON.parse(new TextDecoder().decode(coordinator.bytes)) as {
    repos: Record<string, { ok: boolean; export: unknown }>;
  };
  let nested: unknown = JSON.parse(new TextDecoder().decode(SEEDS.agentxchain.bytes));
  for (let level = 0; level < 40; level++) {
    const copy = structuredClone(parent);
    const first = Object.keys(copy.repos)[0]!;
    copy.repos[first] = { ...copy.repos[first]!, ok: true, export: nested };
    nested = copy;
  }
  const report = await verify(new TextEncoder().encode(JSON.stringify(nested)), { limits: { maxJsonDepth: 64 } });
  assert.notEqual(report.overall, 'pass');
  assert.ok(codes(report).includes('limit.json_depth'), codes(report).slice(0, 5).join(', '));
});

test('maxFindings: findings are cut at the limit and marked once; the verdict still counts every error', async () => {
  // 400 lines that are not JSON.
  const lines = new TextEncoder().encode(
    '{"type":"exec:begin","timestamp":"2025-01-01T00:00:00.000Z","payload":{}}\n' + 'not json\n'.repeat(400),
  );
  for (const maxFindings of [1, 10, 100]) {
    const report = await verifyCodexExec(lines, { limits: { maxFindings } });
    assert.equal(report.overall, 'fail');
    assert.equal(report.findings.at(-1)?.code, 'limit.findings');
    assert.equal(report.findings.filter((f) => f.code === 'limit.findings').length, 1);
    assert.ok(
      report.findings.length <= maxFindings + 1 + 16,
      `${report.findings.length} findings for maxFindings ${maxFindings}`,
    );
    assert.deepEqual(
      reportProblems(report, { maxFindings, pinGiven: false, strict: false, inputBytes: lines.length }),
      [],
    );
  }
});

test('time: an aborted signal stops every format with input.aborted, also on a stream that never ends', async () => {
  for (const format of FORMATS) {
    const seed = SEEDS[format];
    const controller = new AbortController();
    controller.abort();
    const report = await ENTRY[format](seed.bytes, { signal: controller.signal, ...pinOf(seed) });
    assert.equal(report.overall, 'error', format);
    assert.ok(codes(report).includes('input.aborted'), `${format}: ${codes(report).join(', ')}`);

    // A source that keeps sending (the seed's first line, then blank lines) until the signal fires.
    const endless = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(seed.bytes.subarray(0, Math.max(1, seed.bytes.indexOf(0x0a))));
      },
      pull(c) {
        return new Promise((resolve) =>
          setTimeout(() => {
            try {
              c.enqueue(new Uint8Array(4096).fill(0x20));
            } catch {
              // cancelled by the verifier meanwhile
            }
            resolve();
          }, 1),
        );
      },
    });
    const midway = new AbortController();
    const timer = setTimeout(() => midway.abort(), 200);
    const started = performance.now();
    const stopped = await ENTRY[format](endless, { signal: midway.signal, ...pinOf(seed) });
    clearTimeout(timer);
    assert.notEqual(stopped.overall, 'pass', format);
    assert.ok(codes(stopped).includes('input.aborted'), `${format}: ${codes(stopped).join(', ')}`);
    assert.ok(
      performance.now() - started < 10_000,
      `${format}: took ${Math.round(performance.now() - started)} ms to stop`,
    );
  }
});

test(
  'time: an abort takes effect within seconds on an input that is already in memory',
  { timeout: 120_000 },
  async () => {
    // 4 MiB of empty lines after a valid first record: several seconds of line handling. The abort
    // comes from a timer, like a "cancel" click: verification must yield to the event loop now and
    // then and look at the signal inside a chunk, or the abort lands only when everything is done.
    const late: string[] = [];
    for (const format of ['agent-history', 'codex-exec'] as const) {
      const first = SEEDS[format].bytes.subarray(0, SEEDS[format].bytes.indexOf(0x0a) + 1);
      const bytes = new Uint8Array(first.length + (4 << 20));
      bytes.set(first);
      bytes.fill(0x0a, first.length);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 200);
      const started = performance.now();
      const report = await ENTRY[format](bytes, { signal: controller.signal });
      const took = performance.now() - started;
      clearTimeout(timer);
      if (took > 3_000) late.push(`${format}: ${Math.round(took)} ms, findings ${codes(report).slice(-3).join(', ')}`);
      else if (took > 200)
        assert.ok(codes(report).includes('input.aborted'), `${format}: ${codes(report).slice(-3).join(', ')}`);
    }
    assert.deepEqual(late, [], 'runs that ignored an abort sent 200 ms after the start');
  },
);
