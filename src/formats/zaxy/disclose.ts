/**
 * Recipient-side disclosure (docs/zaxy.md, 'Selectors and disclosure'): from a signed bundle, the
 * subset Zaxy's `disclose_subset` would write for the chosen entries — same header fields, same
 * `index`, `content` and `proof` values, same key order — laid out as Zaxy writes files
 * (`json.dumps(subset, indent=2, ensure_ascii=False)`, no trailing newline). No key is needed: the
 * bundle's signature already covers the root every proof leads to.
 *
 * Entries are chosen by explicit positions, or by Zaxy's disclosure-time selector
 * (`entry_matches`): `grains`, `kinds` (matched against each entry's own `kind`), `since_seq`
 * (exclusive) and `max_seq` (inclusive) on `seq`, `since_time`/`until_time` (inclusive, compared
 * as strings by code point) on `valid_from`. An entry whose `seq` is not an integer fails any seq
 * bound; one whose `valid_from` is not a string fails any time bound.
 *
 * The bundle is read once with the streaming scanner: leaves are hashed from the input bytes and
 * only the chosen entries are materialised, so a 100k-entry bundle disclosure stays light.
 * @module
 */
import { resolveSha256 } from '../../verifier-lifecycle.ts';
import { LEAF_PREFIX, merkleLayersPacked, proofFromLayers } from '../../crypto/merkle.ts';
import type { Sha256 } from '../../crypto/sha256.ts';
import { toHex } from '../../encoding/hex.ts';
import { compareCodePoints, pythonJsonDumps, surrogateErrorMessage } from '../../json/canonical.ts';
import { createByteSink, createCanonicalScratch, writeCanonicalFromTape } from '../../json/canonical-tape.ts';
import { materialize, readJsonDocument } from '../../json/reader.ts';
import { isArrayNode, isObjectNode, memberValue } from '../../json/tape-read.ts';
import { type JsonObject, type JsonValue, pythonTypeName } from '../../json/value.ts';
import { type Limits, resolveLimits } from '../../limits.ts';
import { readAll, type VerifyInput } from '../../stream/input.ts';
import { openInput } from '../../stream/open.ts';
import { isStreamed } from './signed-document.ts';
import { PYTHON_NESTING_LIMIT } from './options.ts';
import { pythonRepr } from '../../json/python.ts';
import { subscriptTypeError } from './python-ops.ts';
import { HEADER_FIELDS } from './header.ts';

/** Zaxy's disclosure-time selector (its `ExportSelector` axes that `entry_matches` reads). */
export interface DisclosureSelector {
  /** Non-empty subset of `event`, `semantic` (default both). */
  readonly grains?: readonly ('event' | 'semantic')[];
  /** Entry kinds to keep (`goal.created`, `entity:goal`, `edge:created`); absent = all. */
  readonly kinds?: readonly string[];
  /** Keep entries with `seq` strictly greater. */
  readonly since_seq?: number | bigint;
  /** Keep entries with `seq` at most this. */
  readonly max_seq?: number | bigint;
  /** Keep entries with `valid_from` ≥ this (string comparison). */
  readonly since_time?: string;
  /** Keep entries with `valid_from` ≤ this (string comparison). */
  readonly until_time?: string;
}

export type DiscloseResult =
  | {
      readonly ok: true;
      /** The subset file's text (UTF-8 when saved), exactly as Zaxy would write it. */
      readonly json: string;
      /** Positions disclosed, in output order. */
      readonly indices: readonly number[];
      /** Entries in the bundle. */
      readonly total: number;
    }
  | { readonly ok: false; readonly reason: string };

export interface DiscloseOptions {
  readonly limits?: Partial<Limits>;
  readonly sha256?: Sha256;
  readonly signal?: AbortSignal;
}

/**
 * Header fields copied into a subset, in Zaxy's order (docs/zaxy.md, 'Disclosed subset'): the
 * signed header, then its signature.
 */
const SUBSET_FIELDS = [...HEADER_FIELDS, 'signature'] as const;

/**
 * Builds the disclosed subset of a signed bundle. Hostile or unusable bundles give
 * `{ ok: false, reason }` (never a throw); a malformed selector is API misuse.
 * @throws TypeError for a selector or index list of the wrong shape.
 * @example
 * const result = await discloseSubset(bundleBytes, { kinds: ['goal.created'] });
 * if (result.ok) download(new Blob([result.json]), 'bundle.subset.json');
 * await discloseSubset(bundleBytes, [0, 4]); // explicit positions
 */
export async function discloseSubset(
  bundle: VerifyInput,
  selection: DisclosureSelector | readonly number[],
  options: DiscloseOptions = {},
): Promise<DiscloseResult> {
  const chooser = makeChooser(selection);
  const limits = resolveLimits(options.limits);
  let bytes: Uint8Array;
  try {
    const opened = await openInput(bundle, { limits, ...(options.signal ? { signal: options.signal } : {}) });
    bytes = await readAll(opened.stream, {
      maxBytes: limits.maxBufferedBytes,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    return { ok: false, reason: `cannot read the bundle: ${error instanceof Error ? error.message : String(error)}` };
  }
  let sha256: Sha256;
  try {
    sha256 = await resolveSha256(options);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  return disclose(bytes, chooser, sha256, Math.min(limits.maxJsonDepth, PYTHON_NESTING_LIMIT));
}

type Chooser =
  | { readonly kind: 'indices'; readonly indices: readonly number[] }
  | { readonly kind: 'selector'; readonly selector: NormalisedSelector };

interface NormalisedSelector {
  readonly grains: ReadonlySet<string>;
  readonly kinds: ReadonlySet<string> | undefined;
  readonly sinceSeq: bigint | undefined;
  readonly maxSeq: bigint | undefined;
  readonly sinceTime: string | undefined;
  readonly untilTime: string | undefined;
}

function makeChooser(selection: DisclosureSelector | readonly number[]): Chooser {
  if (Array.isArray(selection)) {
    for (const index of selection)
      if (!Number.isInteger(index)) throw new TypeError('discloseSubset: indices must be integers');
    return { kind: 'indices', indices: [...(selection as readonly number[])] };
  }
  if (typeof selection !== 'object' || selection === null)
    throw new TypeError('discloseSubset: selection must be a selector object or an array of indices');
  const s = selection as DisclosureSelector;
  const grains = new Set<string>(s.grains ?? ['event', 'semantic']);
  if (grains.size === 0 || [...grains].some((grain) => grain !== 'event' && grain !== 'semantic')) {
    throw new TypeError("discloseSubset: grains must be a non-empty subset of ['event', 'semantic']");
  }
  const bound = (value: number | bigint | undefined, name: string): bigint | undefined => {
    if (value === undefined) return undefined;
    if (typeof value === 'bigint') return value;
    if (!Number.isInteger(value)) throw new TypeError(`discloseSubset: ${name} must be an integer`);
    return BigInt(value);
  };
  const time = (value: string | undefined, name: string): string | undefined => {
    if (value !== undefined && typeof value !== 'string')
      throw new TypeError(`discloseSubset: ${name} must be a string`);
    return value;
  };
  if (s.kinds !== undefined && (!Array.isArray(s.kinds) || s.kinds.some((kind) => typeof kind !== 'string'))) {
    throw new TypeError('discloseSubset: kinds must be an array of strings');
  }
  return {
    kind: 'selector',
    selector: {
      grains,
      kinds: s.kinds === undefined ? undefined : new Set(s.kinds),
      sinceSeq: bound(s.since_seq, 'since_seq'),
      maxSeq: bound(s.max_seq, 'max_seq'),
      sinceTime: time(s.since_time, 'since_time'),
      untilTime: time(s.until_time, 'until_time'),
    },
  };
}

/**
 * Zaxy's `entry_matches` over an entry's content value. Python's `isinstance(seq, int)` is true
 * for booleans too; a list or dict `grain`/`kind` is unhashable, which Python raises on.
 */
function entryMatches(entry: JsonValue, selector: NormalisedSelector): boolean | string {
  if (!(entry instanceof Map)) return `'${pythonTypeName(entry)}' object has no attribute 'get'`;
  const unhashable = (value: JsonValue | undefined): string | undefined =>
    Array.isArray(value) || value instanceof Map ? `unhashable type: '${pythonTypeName(value)}'` : undefined;
  const grain = entry.get('grain');
  const grainProblem = unhashable(grain);
  if (grainProblem !== undefined) return grainProblem;
  if (typeof grain !== 'string' || !selector.grains.has(grain)) return false;
  const kind = entry.get('kind');
  if (selector.kinds !== undefined) {
    const kindProblem = unhashable(kind);
    if (kindProblem !== undefined) return kindProblem;
    if (typeof kind !== 'string' || !selector.kinds.has(kind)) return false;
  }
  const raw = entry.get('seq');
  const seq = typeof raw === 'bigint' ? raw : typeof raw === 'boolean' ? (raw ? 1n : 0n) : undefined;
  if (selector.sinceSeq !== undefined && !(seq !== undefined && seq > selector.sinceSeq)) return false;
  if (selector.maxSeq !== undefined && !(seq !== undefined && seq <= selector.maxSeq)) return false;
  const validFrom = entry.get('valid_from');
  if (
    selector.sinceTime !== undefined &&
    !(typeof validFrom === 'string' && compareCodePoints(validFrom, selector.sinceTime) >= 0)
  )
    return false;
  return (
    selector.untilTime === undefined ||
    (typeof validFrom === 'string' && compareCodePoints(validFrom, selector.untilTime) <= 0)
  );
}

function disclose(bytes: Uint8Array, chooser: Chooser, sha256: Sha256, maxDepth: number): DiscloseResult {
  const sink = createByteSink();
  const scratch = createCanonicalScratch();
  let leaves = new Uint8Array(32 * 1024);
  let count = 0;
  let problem: string | undefined;
  let chosen: number[] = [];
  let contents = new Map<number, JsonValue>();
  const wanted = chooser.kind === 'indices' ? new Set(chooser.indices) : undefined;

  const read = readJsonDocument(
    bytes,
    {
      streamKeys: ['entries'],
      startArray() {
        leaves = new Uint8Array(32 * 1024);
        count = 0;
        problem = undefined;
        chosen = [];
        contents = new Map();
      },
      element(_key, index, { bytes: input, tape }) {
        count = index + 1;
        if (problem !== undefined) return;
        if (!isObjectNode(tape, 0)) {
          problem = `entries[${index}]: ${subscriptTypeError(materialize(input, tape, 0))}`;
          return;
        }
        const contentSlot = memberValue(input, tape, 0, CONTENT);
        if (contentSlot < 0) {
          problem = `entries[${index}]: KeyError ${pythonRepr('content')}`;
          return;
        }
        sink.length = 0;
        sink.bytes[0] = LEAF_PREFIX;
        sink.length = 1;
        const fault = writeCanonicalFromTape(input, tape, contentSlot, sink, scratch);
        if (fault !== undefined) {
          problem = `entries[${index}].content: ${surrogateErrorMessage(fault)}`;
          return;
        }
        if (leaves.length < 32 * count) {
          const grown = new Uint8Array(leaves.length * 2);
          grown.set(leaves);
          leaves = grown;
        }
        leaves.set(sha256.digest(sink.bytes.subarray(0, sink.length)), 32 * index);
        let keep = wanted?.has(index) ?? false;
        if (chooser.kind === 'selector') {
          const container = isObjectNode(tape, contentSlot) || isArrayNode(tape, contentSlot);
          const content = container
            ? materializeShallowFacts(input, tape, contentSlot)
            : materialize(input, tape, contentSlot);
          const matches = entryMatches(content, chooser.selector);
          if (typeof matches === 'string') {
            problem = `entries[${index}].content: ${matches}`;
            return;
          }
          keep = matches;
          if (keep) chosen.push(index);
        }
        if (keep) contents.set(index, materialize(input, tape, contentSlot));
      },
    },
    { maxDepth },
  );
  if (!read.ok) return { ok: false, reason: `cannot read the bundle: ${read.error.message}` };
  const root = read.root;
  if (!(root instanceof Map)) return { ok: false, reason: 'not a Zaxy bundle: the top level is not an object' };
  if (!root.has('merkle_root') || !root.has('signature'))
    return { ok: false, reason: 'disclosure requires a signed bundle (merkle_root + signature)' };
  const entries = root.get('entries');
  if (!isStreamed(entries))
    return {
      ok: false,
      reason: entries === undefined ? "malformed bundle: 'entries'" : 'malformed bundle: entries is not a list',
    };
  if (problem !== undefined) return { ok: false, reason: `malformed bundle: ${problem}` };
  const indices = chooser.kind === 'indices' ? chooser.indices : chosen;
  for (const index of indices) {
    if (index < 0 || index >= count)
      return { ok: false, reason: `index out of range: ${index} (the bundle has ${count} entries)` };
  }
  const subset: JsonObject = new Map();
  for (const field of SUBSET_FIELDS) {
    const value = root.get(field);
    if (value === undefined) return { ok: false, reason: `malformed bundle: ${pythonRepr(field)}` };
    subset.set(field, value as JsonValue);
  }
  const layers = indices.length > 0 ? merkleLayersPacked(leaves, count, sha256) : [];
  subset.set(
    'disclosed',
    indices.map((index) => {
      const proof = proofFromLayers(layers, index).map((step) => [toHex(step.sibling), step.side]);
      return new Map<string, JsonValue>([
        ['index', BigInt(index)],
        ['content', contents.get(index)!],
        ['proof', proof],
      ]);
    }),
  );
  return { ok: true, json: pythonJsonDumps(subset, { indent: 2 }), indices, total: count };
}

const CONTENT = /* @__PURE__ */ new TextEncoder().encode('content');
const FACT_KEYS: readonly [string, Uint8Array][] = /* @__PURE__ */ ['grain', 'kind', 'seq', 'valid_from'].map((key) => [
  key,
  new TextEncoder().encode(key),
]);

/** The content object with only its scalar members (what `entry_matches` reads), containers as markers. */
function materializeShallowFacts(bytes: Uint8Array, tape: Int32Array, slot: number): JsonValue {
  if (!isObjectNode(tape, slot)) return materialize(bytes, tape, slot);
  const facts: JsonObject = new Map();
  for (const [key, encoded] of FACT_KEYS) {
    const valueSlot = memberValue(bytes, tape, slot, encoded);
    if (valueSlot < 0) continue;
    // Containers only matter as "unhashable" / "not a string": an empty one says the same.
    facts.set(
      key,
      isObjectNode(tape, valueSlot)
        ? new Map()
        : isArrayNode(tape, valueSlot)
          ? []
          : materialize(bytes, tape, valueSlot),
    );
  }
  return facts;
}
