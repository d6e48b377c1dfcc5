/**
 * Builds fuzz case `index` of run `seed`: picks a format (round robin), a fixture, a strategy
 * (semantic, JSON-aware, line-aware, byte-level, gzip), stacks one to three mutations, wraps or
 * damages a gzip container, and chooses how the public API is called (entry point, input type and
 * chunking, name, pin, limits). Everything is drawn from `createRng(seed, index)`, so a case is
 * rebuilt exactly from its two numbers.
 * @module
 */
import type { Limits } from '../../src/limits.ts';
import type { FormatId } from '../../src/report/types.ts';
import { FORMATS, loadCorpus, type Seed } from './corpus.ts';
import { minChunk } from './execute.ts';
import { checkGzip } from './gzip-tools.ts';
import { mutateAgentxchain } from './mutate/agentxchain.ts';
import { mutateBytes } from './mutate/bytes.ts';
import { damageGzip, wrapGzip } from './mutate/gzip.ts';
import { mutateJson } from './mutate/json.ts';
import { mutateLines } from './mutate/lines.ts';
import { mutateZaxy, type SemanticMutation } from './mutate/zaxy.ts';
import { createRng, type Rng } from './rng.ts';

export type Delivery = 'bytes' | 'arraybuffer' | 'string' | 'blob' | 'stream' | 'response';

/** How the public API is called for a case (stored in each crasher's sidecar). */
export interface CallPlan {
  /** `verify` (auto-detect, or `kind` forced) or one format's own entry point. */
  readonly entry: 'verify' | FormatId;
  readonly kind?: FormatId;
  readonly delivery: Delivery;
  /** Stream chunk sizes, cycled (delivery `stream`). */
  readonly chunks?: readonly number[];
  readonly name?: string;
  readonly pin?: string;
  readonly limits?: Partial<Limits>;
  readonly strict?: boolean;
}

export interface FuzzCase {
  readonly seed: number;
  readonly index: number;
  /** The fixture the case grew from. */
  readonly format: FormatId;
  readonly file: string;
  readonly bytes: Uint8Array;
  /** Mutations applied, in order. */
  readonly steps: readonly string[];
  readonly call: CallPlan;
  /** Every step was a control (meant to keep a pass) on a fixture that passes. */
  readonly control: boolean;
}

export interface CaseOptions {
  /** Only this format's fixtures. */
  readonly format?: FormatId;
  /** Skip fixtures larger than this (the CI smoke uses it to stay fast). */
  readonly maxSeedBytes?: number;
}

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Big fixtures are drawn less often: weight ∝ min(1, 128 KiB / size). */
function pickSeed(rng: Rng, seeds: readonly Seed[]): Seed {
  return rng.weighted(
    seeds,
    seeds.map((seed) => Math.min(1, (128 * 1024) / Math.max(1, seed.bytes.length))),
  );
}

const NDJSON = new Set<FormatId>(['agent-history', 'codex-exec']);

/** One text/byte mutation of the plain (decompressed) bytes. */
function mutatePlain(
  plain: Uint8Array,
  seed: Seed,
  rng: Rng,
  allowSemantic: boolean,
): { bytes: Uint8Array; step: string; semantic?: SemanticMutation } | undefined {
  const text = decodeUtf8(plain);
  const strategy = rng.weighted(['semantic', 'json', 'lines', 'bytes'] as const, [
    allowSemantic ? 4 : 0,
    text !== undefined && !NDJSON.has(seed.format) ? 3 : 0,
    text !== undefined && NDJSON.has(seed.format) ? 4 : 0,
    2,
  ]);
  if (strategy === 'semantic' && text !== undefined) {
    const m = seed.format === 'zaxy' ? mutateZaxy(text, rng) : mutateAgentxchain(text, rng);
    if (m) return { bytes: encoder.encode(m.text), step: `semantic ${m.note}`, semantic: m };
  }
  if (strategy === 'json' && text !== undefined) {
    const m = mutateJson(text, rng);
    if (m) return { bytes: encoder.encode(m.text), step: `json ${m.note}` };
  }
  if (strategy === 'lines' && text !== undefined) {
    const m = mutateLines(text, rng);
    if (m) return { bytes: encoder.encode(m.text), step: `lines ${m.note}` };
  }
  const m = mutateBytes(plain, rng);
  return { bytes: m.bytes, step: `bytes ${m.note}` };
}

function smallLimits(rng: Rng, size: number): Partial<Limits> {
  const limits: Record<string, number> = {};
  const pool: [keyof Limits, () => number][] = [
    ['maxFindings', () => rng.pick([1, 2, 5, 20])],
    ['maxJsonDepth', () => rng.pick([2, 8, 64])],
    ['maxLineBytes', () => rng.pick([64, 1024, 65_536])],
    ['maxInputBytes', () => Math.max(1, rng.pick([Math.floor(size / 2), size - 1, size, 1024]))],
    ['maxBufferedBytes', () => Math.max(1, rng.pick([Math.floor(size / 2), 4096]))],
    ['maxDecompressedBytes', () => Math.max(1, rng.pick([Math.floor(size / 2), 1024]))],
    ['maxCompressionRatio', () => rng.pick([1.5, 3, 10])],
    ['ratioGraceBytes', () => rng.pick([1, 1024])],
  ];
  const count = rng.range(1, 3);
  for (let i = 0; i < count; i++) {
    const [key, value] = rng.pick(pool);
    limits[key] = value();
  }
  return limits as Partial<Limits>;
}

function planCall(
  rng: Rng,
  seed: Seed,
  bytes: Uint8Array,
  gzip: boolean,
  semantic: SemanticMutation | undefined,
): CallPlan {
  const roll = rng.next();
  const entry: CallPlan['entry'] = roll < 0.6 ? 'verify' : roll < 0.7 ? 'verify' : seed.format;
  const kind = roll >= 0.6 && roll < 0.7 ? seed.format : undefined;
  const canString = decodeUtf8(bytes) !== undefined;
  const delivery = rng.weighted<Delivery>(
    ['bytes', 'arraybuffer', 'string', 'blob', 'stream', 'response'],
    [55, 5, canString ? 10 : 0, 10, 15, 5],
  );
  const chunks =
    delivery === 'stream'
      ? Array.from({ length: rng.range(1, 4) }, () =>
          Math.max(minChunk(bytes.length), rng.size(rng.pick([16, 4096, 65_536, 1 << 20]))),
        )
      : undefined;
  const base = seed.file.replace(/\.gz$/, '');
  const nameRoll = rng.next();
  const name = nameRoll < 0.4 ? undefined : nameRoll < 0.95 ? (gzip ? `${base}.gz` : base) : gzip ? base : `${base}.gz`;
  let pin = semantic?.pin ?? seed.pin;
  if (seed.format === 'zaxy' && rng.chance(0.05)) pin = rng.pick(['', '00'.repeat(32), (pin ?? 'ab').toUpperCase()]);
  const limits = rng.chance(0.15) ? smallLimits(rng, bytes.length) : undefined;
  return {
    entry,
    ...(kind ? { kind } : {}),
    delivery,
    ...(chunks ? { chunks } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(pin !== undefined ? { pin } : {}),
    ...(limits ? { limits } : {}),
    ...(rng.chance(0.05) ? { strict: true } : {}),
  };
}

/**
 * Rebuilds case `index` of run `seed`.
 * @example
 * const c = generateCase(1, 0); // c.format === 'agentxchain' (round robin over FORMATS)
 */
export function generateCase(seed: number, index: number, options: CaseOptions = {}): FuzzCase {
  const rng = createRng(seed, index);
  const format = options.format ?? FORMATS[index % FORMATS.length]!;
  const seeds = loadCorpus().filter(
    (s) => s.format === format && (options.maxSeedBytes === undefined || s.bytes.length <= options.maxSeedBytes),
  );
  if (seeds.length === 0) throw new Error(`no seeds for ${format}`);
  const fixture = pickSeed(rng, seeds);
  const steps: string[] = [];

  // The plain bytes to mutate: a gzip fixture is opened first (broken ones stay raw).
  let plain: Uint8Array | undefined = fixture.bytes;
  if (fixture.gzip) {
    const verdict = checkGzip(fixture.bytes);
    plain = verdict.ok === true ? verdict.data : undefined;
  }
  const semanticAllowed =
    fixture.format === 'agentxchain' ||
    (fixture.format === 'zaxy' &&
      fixture.expectedPass === true &&
      (fixture.shape === 'signed' || fixture.shape === 'subset'));

  let bytes: Uint8Array;
  let gzip = false;
  let semantic: SemanticMutation | undefined;
  let allControls = true;
  if (plain === undefined) {
    // A deliberately broken container: only byte-level damage on top.
    const m = mutateBytes(fixture.bytes, rng);
    bytes = m.bytes;
    gzip = true;
    steps.push(`bytes ${m.note}`);
    allControls = false;
  } else {
    bytes = plain;
    const count = rng.chance(0.12) ? 0 : rng.chance(0.75) ? 1 : rng.range(2, 3);
    for (let i = 0; i < count; i++) {
      const m = mutatePlain(bytes, fixture, rng, semanticAllowed && i === 0);
      if (!m) continue;
      bytes = m.bytes;
      steps.push(m.step);
      if (m.semantic) semantic = m.semantic;
      if (!m.semantic?.control) allControls = false;
    }
    // Container: keep gzip fixtures gzipped; sometimes gzip a plain one; then maybe damage it.
    if (fixture.gzip ? rng.chance(0.85) : rng.chance(0.15)) {
      const wrapped = wrapGzip(bytes, rng);
      bytes = wrapped.bytes;
      gzip = true;
      steps.push(`gzip ${wrapped.note}`);
      if (rng.chance(0.5)) {
        const damaged = damageGzip(bytes, rng);
        bytes = damaged.bytes;
        if (damaged.note !== '') {
          steps.push(`gzip-damage ${damaged.note}`);
          allControls = false;
        }
      }
    }
  }
  const call = planCall(rng, fixture, bytes, gzip, semantic);
  const honestCall =
    (call.name === undefined || call.name.endsWith('.gz') === gzip) && call.pin === (semantic?.pin ?? fixture.pin);
  return {
    seed,
    index,
    format,
    file: fixture.file,
    bytes,
    steps,
    call,
    control:
      allControls &&
      honestCall &&
      fixture.expectedPass === true &&
      steps.length > 0 &&
      call.limits === undefined &&
      call.strict !== true,
  };
}
