/**
 * Runs one fuzz case through the public API and applies every oracle: no exception escapes, the
 * run ends within its time budget (AbortSignal + wall clock), heap growth stays bounded, the
 * report is well-formed, nothing that must fail passes, and equivalent deliveries (other stream
 * chunking, the same bytes gzipped) give the same report.
 * @module
 */
import { getHeapStatistics } from 'node:v8';
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { verify, verifyAgentHistory, verifyAgentxchain, verifyCodexExec, verifyZaxy } from '../../src/index.ts';
import { DEFAULT_LIMITS, type Limits } from '../../src/limits.ts';
import type { VerifyInput } from '../../src/stream/input.ts';
import type { CallPlan, FuzzCase } from './case.ts';
import { loadCorpus } from './corpus.ts';
import { checkGzip, concatBytes, gzipMember } from './gzip-tools.ts';
import { agentxchainMustFail } from './oracle/agentxchain.ts';
import { ndjsonMustFail } from './oracle/ndjson.ts';
import { reportProblems, reportSummary } from './oracle/report.ts';
import { zaxyBaseline, zaxyMustFail, type ZaxyBaseline } from './oracle/zaxy.ts';
import { createRng } from './rng.ts';
import type { Report } from '../../src/report.ts';

export type OracleName =
  'escape' | 'hang' | 'heap' | 'internal-error' | 'report-shape' | 'false-pass' | 'chunking' | 'gzip-transparency';

export interface Failure {
  readonly oracle: OracleName;
  readonly detail: string;
}

export interface CaseResult {
  readonly failures: Failure[];
  readonly overall?: Report['overall'];
  readonly durationMs: number;
  readonly heapDeltaBytes: number;
  /** Why the report had to fail (the no-false-pass claim), when there was one. */
  readonly claim?: string;
  /** A control case (meant to keep a pass) that did not pass: a possible false failure, not an oracle breach. */
  readonly controlMismatch?: string;
  /** The case was a positive control. */
  readonly control?: boolean;
}

/** Turns bytes into the input type the plan asks for. */
export function toInput(bytes: Uint8Array, call: CallPlan): VerifyInput {
  switch (call.delivery) {
    case 'bytes':
      return bytes;
    case 'arraybuffer':
      return bytes.slice().buffer;
    case 'string':
      return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    case 'blob':
      return new Blob([bytes.slice().buffer]);
    case 'response':
      return new Response(bytes.slice().buffer);
    case 'stream': {
      const sizes = call.chunks && call.chunks.length > 0 ? call.chunks : [4096];
      let offset = 0;
      let turn = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.length) {
            controller.close();
            return;
          }
          const size = Math.max(1, sizes[turn++ % sizes.length]!);
          controller.enqueue(bytes.slice(offset, offset + size));
          offset += size;
        },
      });
    }
  }
}

/** Calls the entry point of the plan. */
export function callApi(bytes: Uint8Array, call: CallPlan, signal?: AbortSignal): Promise<Report> {
  const options = {
    ...(call.name !== undefined ? { name: call.name } : {}),
    ...(call.limits ? { limits: call.limits } : {}),
    ...(call.strict ? { strict: true } : {}),
    ...(call.pin !== undefined ? { expectPublicKey: call.pin } : {}),
    ...(call.kind ? { kind: call.kind } : {}),
    ...(signal ? { signal } : {}),
  };
  const input = toInput(bytes, call);
  switch (call.entry) {
    case 'verify':
      return verify(input, options);
    case 'agentxchain':
      return verifyAgentxchain(input, options);
    case 'zaxy':
      return verifyZaxy(input, options);
    case 'agent-history':
      return verifyAgentHistory(input, options);
    case 'codex-exec':
      return verifyCodexExec(input, options);
  }
}

const baselines = new Map<string, ZaxyBaseline | undefined>();
function baselineOf(file: string): ZaxyBaseline | undefined {
  if (!baselines.has(file)) {
    const seed = loadCorpus().find((s) => s.format === 'zaxy' && s.file === file);
    const usable = seed && seed.expectedPass === true && (seed.shape === 'signed' || seed.shape === 'subset');
    baselines.set(file, usable ? zaxyBaseline(seed.bytes) : undefined);
  }
  return baselines.get(file);
}

/** Limits in force for a plan. */
function limitsOf(call: CallPlan): Limits {
  return { ...DEFAULT_LIMITS, ...(call.limits ?? {}) };
}

const JSON_FORMATS = new Set(['agentxchain', 'zaxy']);
const NDJSON_FORMATS = new Set(['agent-history', 'codex-exec']);

/**
 * Reasons the report for this case must not pass. Computed from the bytes, the fixture and the
 * call alone; `report` is consulted only for checks that depend on the format the kit chose.
 */
export function mustFailReasons(c: Pick<FuzzCase, 'bytes' | 'format' | 'file' | 'call'>, report?: Report): string[] {
  const reasons: string[] = [];
  const limits = limitsOf(c.call);
  const isGzip = c.bytes.length >= 2 && c.bytes[0] === 0x1f && c.bytes[1] === 0x8b;
  let plain: Uint8Array | undefined = c.bytes;
  if (isGzip) {
    const verdict = checkGzip(c.bytes);
    if (verdict.ok === false) reasons.push(`gzip container damaged: ${verdict.problem}`);
    plain = verdict.ok === true ? verdict.data : undefined;
  }
  // docs/agent-history.md §5 (and docs/codex-exec.md, 'Lines and gzip'): a `.gz` name without the
  // gzip magic is invalid.
  const gzNameWithoutMagic = !isGzip && c.call.name !== undefined && /\.gz$/i.test(c.call.name);
  if (c.bytes.length > limits.maxInputBytes) reasons.push('input over limits.maxInputBytes');
  if (isGzip && plain) {
    if (plain.length > limits.maxDecompressedBytes) reasons.push('decompressed size over limits.maxDecompressedBytes');
    if (plain.length > limits.ratioGraceBytes && plain.length > c.bytes.length * limits.maxCompressionRatio)
      reasons.push('compression ratio over limits.maxCompressionRatio');
  }
  if (plain) {
    if (c.format === 'agentxchain') {
      const why = agentxchainMustFail(plain);
      if (why) reasons.push(`agentxchain: ${why}`);
    }
    if (c.format === 'zaxy') {
      const baseline = baselineOf(c.file);
      const why = baseline ? zaxyMustFail(plain, baseline, c.call.pin) : undefined;
      if (why) reasons.push(`zaxy: ${why}`);
    }
    if (report && JSON_FORMATS.has(report.format ?? '') && plain.length > limits.maxBufferedBytes)
      reasons.push('document over limits.maxBufferedBytes');
    if (report && NDJSON_FORMATS.has(report.format ?? '')) {
      if (gzNameWithoutMagic) reasons.push('named .gz but not gzip');
      const why = ndjsonMustFail(plain);
      if (why) reasons.push(`ndjson: ${why}`);
      if (longestLine(plain) > limits.maxLineBytes + 1) reasons.push('a line over limits.maxLineBytes');
    }
  }
  return reasons;
}

function longestLine(bytes: Uint8Array): number {
  let longest = 0;
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) {
    longest = Math.max(longest, i - start);
    start = i + 1;
  }
  return Math.max(longest, bytes.length - start);
}

/**
 * Wall-clock budget of one run: generous, scaled by size (2 shared cores, noisy neighbours):
 * 10 s plus 20 ms per KiB, i.e. it assumes at least ~50 KB/s even for pathological inputs
 * (millions of empty lines).
 */
export function budgetMs(byteLength: number): number {
  return 10_000 + Math.ceil(byteLength / 1024) * 20;
}

/**
 * How many bytes a run really has to process: the decompressed size of a gzip input (a few KiB of
 * gzip can be megabytes of lines), else the input size. Damaged gzip is decoded as far as it goes.
 */
export function workSize(bytes: Uint8Array): number {
  if (!(bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b)) return bytes.length;
  const verdict = checkGzip(bytes);
  if (verdict.ok === true) return Math.max(bytes.length, verdict.data.length);
  // Damaged: what decoded before the damage, or (deflate data cut short) what a lenient inflate gets.
  let partial = 0;
  try {
    partial = gunzipSync(bytes, { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: 96 * 1024 * 1024 }).length;
  } catch {
    // CRC/ISIZE damage or corrupt data: the walker's count stands
  }
  return Math.max(bytes.length, verdict.decoded, partial);
}

/** Heap growth allowed for one run. */
function heapBound(bytes: Uint8Array): number {
  return 512 * 1024 * 1024 + 32 * bytes.length;
}

interface RunOutcome {
  readonly report?: Report;
  readonly thrown?: unknown;
  readonly durationMs: number;
  readonly heapDeltaBytes: number;
  readonly aborted: boolean;
}

async function timedRun(bytes: Uint8Array, call: CallPlan, size: number): Promise<RunOutcome> {
  const budget = budgetMs(size);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('fuzz time budget')), budget);
  const before = getHeapStatistics().used_heap_size;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, getHeapStatistics().used_heap_size);
  }, 5);
  const started = performance.now();
  try {
    const report = await callApi(bytes, call, controller.signal);
    return {
      report,
      durationMs: performance.now() - started,
      heapDeltaBytes: Math.max(peak, getHeapStatistics().used_heap_size) - before,
      aborted: controller.signal.aborted,
    };
  } catch (thrown) {
    return {
      thrown,
      durationMs: performance.now() - started,
      heapDeltaBytes: Math.max(peak, getHeapStatistics().used_heap_size) - before,
      aborted: controller.signal.aborted,
    };
  } finally {
    clearTimeout(timer);
    clearInterval(sampler);
  }
}

/**
 * Two deliveries of the same bytes agree exactly (damaged gzip included: the gunzip slices its
 * input independently of chunking). Where a limit cut the run short, the cut point still depends
 * on chunk sizes (a chunk that crosses maxInputBytes is dropped whole), so then only pass / not
 * pass must agree.
 */
function sameVerdict(a: Report, b: Report): boolean {
  const cut = (r: Report): boolean =>
    r.findings.some((f) => f.code.startsWith('limit.') && f.code !== 'limit.findings');
  if (cut(a) || cut(b)) return (a.overall === 'pass') === (b.overall === 'pass');
  return reportSummary(a) === reportSummary(b);
}

/** Smallest stream chunk used for an input: at most ~64 Ki chunks (Web Streams cost ~10 µs per chunk). */
export function minChunk(byteLength: number): number {
  return Math.max(1, Math.ceil(byteLength / 65_536));
}

function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error)
    return `${thrown.name}: ${thrown.message}\n${(thrown.stack ?? '').split('\n').slice(1, 6).join('\n')}`;
  return `non-Error thrown: ${String(thrown)}`;
}

/**
 * Runs a case and every oracle.
 * @example
 * const result = await checkCase(generateCase(1, 0)); // result.failures.length === 0
 */
export async function checkCase(c: FuzzCase, options: { differentials?: boolean } = {}): Promise<CaseResult> {
  const failures: Failure[] = [];
  const size = workSize(c.bytes);
  const outcome = await timedRun(c.bytes, c.call, size);
  const budget = budgetMs(size);
  if (outcome.durationMs > budget + 5_000) {
    failures.push({
      oracle: 'hang',
      detail: `took ${Math.round(outcome.durationMs)} ms (budget ${budget} ms for ${size} bytes of work; the AbortSignal fired at the budget)`,
    });
  }
  if (outcome.heapDeltaBytes > heapBound(c.bytes)) {
    failures.push({
      oracle: 'heap',
      detail: `heap grew by ${Math.round(outcome.heapDeltaBytes / 2 ** 20)} MiB for a ${c.bytes.length}-byte input`,
    });
  }
  const base = { durationMs: outcome.durationMs, heapDeltaBytes: outcome.heapDeltaBytes };
  if (!outcome.report) {
    failures.push({ oracle: 'escape', detail: describeThrown(outcome.thrown) });
    return { failures, ...base };
  }
  const report = outcome.report;
  const limits = limitsOf(c.call);
  for (const problem of reportProblems(report, {
    maxFindings: limits.maxFindings,
    pinGiven: c.call.pin !== undefined,
    strict: c.call.strict === true,
    inputBytes: c.bytes.length,
  })) {
    failures.push({ oracle: 'report-shape', detail: problem });
  }
  const internal = report.findings.find((f) => f.code === 'kit.internal_error');
  if (internal) failures.push({ oracle: 'internal-error', detail: `${internal.path}: ${internal.message}` });
  const reasons = mustFailReasons(c, report);
  if (report.overall === 'pass' && reasons.length > 0) {
    failures.push({ oracle: 'false-pass', detail: `passed although: ${reasons.join('; ')}` });
  }
  if (outcome.aborted && !report.findings.some((f) => f.code === 'input.aborted') && report.overall === 'pass') {
    failures.push({ oracle: 'hang', detail: 'aborted at the time budget but reported pass without input.aborted' });
  }

  // Differentials on a sample: other chunking, and the same bytes gzipped, must not change the verdict.
  if (options.differentials !== false && !outcome.aborted) {
    const rng = createRng(c.seed ^ 0x5bd1e995, c.index);
    if (rng.chance(0.1)) {
      const chunks = Array.from({ length: rng.range(1, 3) }, () =>
        Math.max(minChunk(c.bytes.length), rng.range(1, rng.pick([7, 600, 70_000]))),
      );
      const again = await timedRun(c.bytes, { ...c.call, delivery: 'stream', chunks }, size);
      if (!again.report)
        failures.push({
          oracle: 'escape',
          detail: `stream delivery (chunks ${chunks.join(',')}): ${describeThrown(again.thrown)}`,
        });
      else if (!again.aborted && !sameVerdict(report, again.report)) {
        failures.push({
          oracle: 'chunking',
          detail: `stream delivery with chunks ${chunks.join(',')} changed the report:\n  ${reportSummary(report)}\n  ${reportSummary(again.report)}`,
        });
      }
    }
    const plainInput = !(c.bytes[0] === 0x1f && c.bytes[1] === 0x8b);
    if (
      plainInput &&
      !c.call.limits &&
      (c.call.name === undefined || !/\.gz$/i.test(c.call.name)) &&
      rng.chance(0.08)
    ) {
      const cut = rng.int(c.bytes.length + 1);
      const gz = concatBytes([gzipMember(c.bytes.subarray(0, cut)), gzipMember(c.bytes.subarray(cut))]);
      const again = await timedRun(gz, { ...c.call, delivery: 'bytes' }, size);
      if (!again.report)
        failures.push({ oracle: 'escape', detail: `gzipped delivery: ${describeThrown(again.thrown)}` });
      else if (!again.aborted && !sameVerdict(report, again.report)) {
        failures.push({
          oracle: 'gzip-transparency',
          detail: `the same bytes as two gzip members (cut at ${cut}) changed the report:\n  ${reportSummary(report)}\n  ${reportSummary(again.report)}`,
        });
      }
    }
  }
  const controlMismatch =
    c.control && report.overall !== 'pass' && reasons.length === 0
      ? `${report.overall}: ${report.findings
          .slice(0, 3)
          .map((f) => `${f.code} ${f.path}`)
          .join('; ')}`
      : undefined;
  return {
    failures,
    overall: report.overall,
    ...base,
    ...(c.control ? { control: true } : {}),
    ...(reasons.length > 0 ? { claim: reasons[0]! } : {}),
    ...(controlMismatch ? { controlMismatch } : {}),
  };
}
