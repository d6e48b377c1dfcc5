/**
 * One pass over a Zaxy document (docs/zaxy.md, 'Reading in one pass'): the root object is read as
 * values, but the two bulky arrays, `entries` (bundle) and `disclosed` (subset), are streamed
 * element by element. Each element's `content` goes from input bytes to canonical UTF-8 bytes
 * (`writeCanonicalFromTape`) and is hashed at once: the entry id SHA-256(canonical) and the Merkle
 * leaf SHA-256(0x00 ‖ canonical) over one buffer, without building values or strings.
 *
 * The scan only collects facts (hashes, Python error texts, details); `bundle.ts` and
 * `subset.ts` then replay Zaxy's order of evaluation over them.
 *
 * Everything read here is attacker-controlled; per-element facts kept for findings and details are
 * bounded by the caller's limits.
 * @module
 */
import { bytesEqual, LEAF_PREFIX, type ProofStep, rootFromInclusionProof } from '../../crypto/merkle.ts';
import type { Sha256, Sha256Many } from '../../crypto/sha256.ts';
import { toHex } from '../../encoding/hex.ts';
import { surrogateErrorMessage } from '../../json/canonical.ts';
import {
  type ByteSink,
  createByteSink,
  createCanonicalScratch,
  writeCanonicalFromTape,
} from '../../json/canonical-tape.ts';
import type { JsonReadError } from '../../json/errors.ts';
import {
  type DocumentRoot,
  type DocumentVisitor,
  materialize,
  readJsonDocument,
  type TapeNode,
} from '../../json/reader.ts';
import {
  childCount,
  firstChild,
  integerLexeme,
  isArrayNode,
  isObjectNode,
  memberValue,
  memberValues,
  nextSlot,
  plainStringStart,
  stringAt,
  valueOffset,
} from '../../json/tape-read.ts';
import type { JsonValue } from '../../json/value.ts';
import { DisclosedFolds } from './disclosed-folds.ts';
import { EntryHashBatches, type EntryHasherFactory } from './entry-hashes.ts';
import { iterate, isPyError, pythonFromHex, subscriptTypeError, unpackPair, type PyError } from './python-ops.ts';
import { pythonRepr } from '../../json/python.ts';

/** Facts of one entry for the report (and the disclosure picker). */
export interface EntryFacts {
  readonly kind: string | null;
  readonly grain: string | null;
  readonly seq: number | string | null;
  readonly valid_from: string | null;
}

/** A problem Zaxy's id loop would meet at one entry (docs/zaxy.md, 'verify_export order', step 4). */
export type IdProblem =
  | { readonly index: number; readonly kind: 'missing' }
  | { readonly index: number; readonly kind: 'unencodable'; readonly text: string }
  | { readonly index: number; readonly kind: 'mismatch'; readonly expected: string; readonly actual: string };

/** What the scan learned about the streamed `entries` array. */
export interface EntriesScan {
  count: number;
  /** The Merkle root of the leaves (of the entries whose content was canonicalised), once hashed. */
  root: Uint8Array | undefined;
  /** Entries whose leaf could not be computed (not an object, no content, unencodable). */
  leaflessCount: number;
  /**
   * `e["content"]` failures (Python text), in entry order; the first decides (docs/zaxy.md,
   * 'verify_export order', step 3). Bounded.
   */
  readonly gatherErrors: { index: number; text: string }[];
  gatherErrorCount: number;
  /** Id-loop problems in entry order, bounded. */
  readonly idProblems: IdProblem[];
  idProblemCount: number;
  /** Per-entry facts for the report, bounded. */
  readonly facts: EntryFacts[];
}

/** One step of a disclosed entry's proof, for the report. */
export interface DisclosedStep {
  readonly sibling: string;
  readonly side: string;
}

/** Report details of one disclosed element (kept for the first `maxDisclosedDetails` elements). */
export interface DisclosedDetail {
  /** The `index` member (undefined when absent). */
  readonly index: JsonValue | undefined;
  readonly facts: EntryFacts | undefined;
  readonly steps: DisclosedStep[];
  proofDepth: number;
  /** Side path for the index check: `L` for an exact "L", `R` for anything else (Zaxy's reading). */
  sides: string;
  /** Step numbers whose side is neither "L" nor "R". */
  readonly oddSides: number[];
  /** Step numbers whose sibling is not 64 lowercase hex digits. */
  readonly oddSiblings: number[];
  /** The proof led to the signed root (null: not compared). */
  included: boolean | null;
  /** The element raised a Python error (its proof was never folded). */
  failed: boolean;
}

/**
 * A disclosed element Zaxy would stop at: a Python error, or a proof that does not lead to the
 * root it was compared with.
 */
export type DisclosedProblem =
  | { readonly position: number; readonly kind: 'error'; readonly error: PyError; readonly path: (string | number)[] }
  | {
      readonly position: number;
      readonly kind: 'mismatch';
      readonly computed: Uint8Array;
      readonly indexOffset: number;
    };

/**
 * What the scan learned about the streamed `disclosed` array. The array may be long and hostile,
 * so nothing is kept per element beyond the problems (bounded) and the first elements' details:
 * each proof is compared with the signed root once its batch is folded (`DisclosedFolds`), in
 * element order, at most `MAX_WAITING` elements later. The root is the
 * `merkle_root` read before `disclosed` (Zaxy writes the header first), or one given by the
 * caller for a second pass when the document put it elsewhere.
 */
export interface DisclosedScan {
  count: number;
  /** The `merkle_root` value proofs were compared with; undefined when none was known. */
  comparedWith: JsonValue | undefined;
  /** Problems in element order (bounded; the first is always kept). */
  readonly problems: DisclosedProblem[];
  problemCount: number;
  /** Elements whose proof led to the root. */
  included: number;
  readonly details: DisclosedDetail[];
}

export interface SignedScan {
  readonly root: DocumentRoot;
  readonly entries: EntriesScan;
  readonly disclosed: DisclosedScan;
}

export interface ScanOptions {
  readonly sha256: Sha256;
  readonly maxDepth: number;
  /** Bound on problems kept per list (findings are bounded anyway). */
  readonly maxProblems: number;
  /** Bound on per-entry facts kept for details. */
  readonly maxFacts: number;
  /** Bound on disclosed elements whose details are kept. */
  readonly maxDisclosedDetails: number;
  /** Hashes entries elsewhere (the CLI's worker thread); default: here, as they are read. */
  readonly entryHasher?: EntryHasherFactory | undefined;
  /** Gives a hasher of many messages for the batches hashed here, when there is one (`EntryHashBatches`). */
  readonly sha256Many?: (() => Sha256Many | undefined) | undefined;
  /** Compare disclosed proofs with this `merkle_root` value instead of the one read before them. */
  readonly disclosedRoot?: JsonValue;
}

const CONTENT = /* @__PURE__ */ new TextEncoder().encode('content');
const ID = /* @__PURE__ */ new TextEncoder().encode('id');

/**
 * Scans a signed bundle or subset (docs/zaxy.md, 'Signed bundle' and 'Disclosed subset'), streaming
 * `entries` and `disclosed`.
 * @example
 * const scan = scanSignedDocument(bytes, { sha256, maxDepth: 990, maxProblems: 1000, maxFacts: 10000, maxDisclosed:
 * 100000 });
 */
export async function scanSignedDocument(
  bytes: Uint8Array,
  options: ScanOptions,
): Promise<{ ok: true; scan: SignedScan } | { ok: false; error: JsonReadError }> {
  const scanner = createSignedScanner(options);
  const result = readJsonDocument(bytes, scanner.visitor, { maxDepth: options.maxDepth });
  return result.ok ? { ok: true, scan: await scanner.result(result.root) } : result;
}

/** A document visitor that collects what a signed document's checks need, and its result. */
export interface Scanner<T> {
  readonly visitor: DocumentVisitor;
  /** What was collected, once the document is read (`root` from the reader) and hashed. */
  result(root: DocumentRoot): Promise<T>;
}

/**
 * The visitor behind `scanSignedDocument`, for readers that feed the document in chunks.
 * @example
 * const scanner = createSignedScanner(options);
 * const reader = createDocumentReader(scanner.visitor, { maxDepth: options.maxDepth });
 */
export function createSignedScanner(options: ScanOptions): Scanner<SignedScan> {
  const sha256 = options.sha256;
  const sink = createByteSink(1 << 16);
  /** A plain proof's siblings, decoded (`plainProof`), until they are added to their batch. */
  const siblingSink = createByteSink(32 * 64);
  const scratch = createCanonicalScratch();
  let entries = emptyEntries();
  /** Id mismatches found when a batch of hashes comes back (out of entry order with the others). */
  let lateIdProblems: IdProblem[] = [];
  let hashes = entryHashes();
  let disclosed = emptyDisclosed();

  /** Entry hashing for the current `entries` array (a duplicate key starts a new one). */
  function entryHashes(): EntryHashBatches {
    const scan = entries;
    const late = lateIdProblems;
    return new EntryHashBatches(
      sha256,
      options.entryHasher,
      (index, id, claimed) => idMismatch(scan, late, index, id, claimed),
      options.sha256Many,
    );
  }

  /** Canonicalises the tape node into the sink after the leaf prefix; returns the encode error text. */
  function canonical(element: TapeNode, node: number): string | undefined {
    sink.length = 0;
    sink.bytes[0] = LEAF_PREFIX;
    sink.length = 1;
    const fault = writeCanonicalFromTape(element.bytes, element.tape, node, sink, scratch, element.layout);
    return fault === undefined ? undefined : surrogateErrorMessage(fault);
  }

  function entry(index: number, element: TapeNode): void {
    const { bytes: input, tape } = element;
    entries.count = index + 1;
    if (!isObjectNode(tape, 0)) {
      gatherError(index, subscriptTypeError(materialize(input, tape, 0)));
      return;
    }
    const contentSlot = memberValue(input, tape, 0, CONTENT);
    const idSlot = memberValue(input, tape, 0, ID);
    if (contentSlot < 0) {
      gatherError(index, pythonRepr('content'));
      return;
    }
    if (entries.facts.length < options.maxFacts) entries.facts.push(entryFacts(input, tape, contentSlot));
    // Entries of one layout have contents of one structure: its template is found once.
    const fault = writeCanonicalFromTape(input, tape, contentSlot, hashes.begin(), scratch, element.layout);
    if (fault !== undefined) {
      hashes.abandon();
      entries.leaflessCount++;
      idProblem(
        idSlot < 0 ? { index, kind: 'missing' } : { index, kind: 'unencodable', text: surrogateErrorMessage(fault) },
      );
      return;
    }
    if (idSlot < 0) {
      hashes.commit(index);
      idProblem({ index, kind: 'missing' });
      return;
    }
    // The usual id, 64 plain bytes, is compared when its hash comes back; any other is compared now.
    const plainId = plainStringStart(tape, idSlot, 64);
    if (plainId >= 0) hashes.commit(index, input, plainId);
    else {
      const id = sha256.digest(hashes.canonical());
      if (!idMatches(input, tape, idSlot, id))
        idMismatch(entries, lateIdProblems, index, id, materialize(input, tape, idSlot));
      hashes.commit(index);
    }
  }

  /**
   * A mismatch is found out of entry order: most when their batch's hashes come back, others
   * (unusual ids) at once, before the batches of earlier entries. So `late` is not cut at the
   * first `maxProblems` found but trimmed to those of the lowest entries; `result` merges it
   * with the problems found in order.
   */
  function idMismatch(scan: EntriesScan, late: IdProblem[], index: number, id: Uint8Array, value: JsonValue): void {
    late.push({
      index,
      kind: 'mismatch',
      expected: toHex(id),
      actual: typeof value === 'string' ? value : pythonRepr(value),
    });
    if (late.length >= 2 * options.maxProblems) {
      late.sort((a, b) => a.index - b.index);
      late.length = options.maxProblems;
    }
    scan.idProblemCount++;
  }

  function gatherError(index: number, text: string): void {
    entries.leaflessCount++;
    if (entries.gatherErrors.length < options.maxProblems) entries.gatherErrors.push({ index, text });
    entries.gatherErrorCount++;
  }

  function idProblem(problem: IdProblem): void {
    if (entries.idProblems.length < options.maxProblems) entries.idProblems.push(problem);
    entries.idProblemCount++;
  }

  /**
   * The signed root proofs are compared with, decoded as Zaxy decodes it (docs/zaxy.md,
   * 'verify_subset order', step 4).
   */
  let signedRoot: Uint8Array | undefined;
  /** Disclosed elements read but not yet compared: the common proofs wait for their batch's roots. */
  const folds = new DisclosedFolds(sha256, options.sha256Many);
  const waiting: WaitingElement[] = [];

  function startDisclosed(root: ReadonlyMap<string, unknown>): void {
    settleDisclosed();
    disclosed = emptyDisclosed();
    const value =
      'disclosedRoot' in options ? options.disclosedRoot : (root.get('merkle_root') as JsonValue | undefined);
    const decoded = value === undefined ? undefined : pythonFromHex(value);
    signedRoot = decoded === undefined || isPyError(decoded) ? undefined : decoded;
    if (signedRoot !== undefined) disclosed.comparedWith = value;
  }

  function disclosedElement(position: number, element: TapeNode): void {
    const scan = disclosed;
    scan.count = position + 1;
    const { bytes: input, tape } = element;
    const indexSlot = isObjectNode(tape, 0) ? memberValue(input, tape, 0, INDEX) : -1;
    const detail: DisclosedDetail | undefined =
      scan.details.length < options.maxDisclosedDetails
        ? {
            index: indexSlot < 0 ? undefined : materialize(input, tape, indexSlot),
            facts: undefined,
            steps: [],
            proofDepth: 0,
            sides: '',
            oddSides: [],
            oddSiblings: [],
            included: null,
            failed: false,
          }
        : undefined;
    if (detail !== undefined) scan.details.push(detail);
    const outcome = foldDisclosed(element, canonical, sink, siblingSink, sha256, detail);
    const indexOffset = indexSlot < 0 ? -1 : element.base + valueOffset(tape, indexSlot);
    const folded =
      'plain' in outcome
        ? { fold: folds.add(sink.bytes.subarray(0, sink.length), outcome.plain.siblings, outcome.plain.sides) }
        : outcome;
    waiting.push({ scan, root: signedRoot, position, detail, indexOffset, outcome: folded });
    // Elements that wait without a proof to fold (Python errors) count too: memory stays bounded.
    if (folds.full || waiting.length >= MAX_WAITING) settleDisclosed();
  }

  /**
   * Compares the waiting elements' roots with the signed root, in element order, once their batch
   * is folded: problems are kept in that order, as if each was compared when read.
   */
  function settleDisclosed(): void {
    const roots = folds.take();
    for (const { scan, root: signed, position, detail, indexOffset, outcome } of waiting) {
      let problem: DisclosedProblem | undefined;
      if ('error' in outcome) {
        problem = { position, kind: 'error', error: outcome.error, path: outcome.path };
        if (detail !== undefined) detail.failed = true;
      } else if (signed !== undefined) {
        const root = 'fold' in outcome ? roots[outcome.fold]! : outcome.root;
        const included = bytesEqual(root, signed);
        if (detail !== undefined) detail.included = included;
        if (included) scan.included++;
        else problem = { position, kind: 'mismatch', computed: root, indexOffset };
      }
      if (problem === undefined) continue;
      if (scan.problems.length < options.maxProblems) scan.problems.push(problem);
      scan.problemCount++;
    }
    waiting.length = 0;
  }

  return {
    visitor: {
      streamKeys: ['entries', 'disclosed'],
      startArray(key, root) {
        if (key === 'entries') {
          entries = emptyEntries();
          lateIdProblems = [];
          hashes = entryHashes();
        } else startDisclosed(root);
      },
      element(key, index, element) {
        if (key === 'entries') entry(index, element);
        else disclosedElement(index, element);
      },
    },
    async result(root) {
      settleDisclosed();
      entries.root = await hashes.settled();
      // One id problem at most per entry: in entry order, the first maxProblems of both lists.
      const all = [...entries.idProblems, ...lateIdProblems].sort((a, b) => a.index - b.index);
      entries.idProblems.length = 0;
      for (const problem of all.slice(0, options.maxProblems)) entries.idProblems.push(problem);
      return { root, entries, disclosed };
    },
  };
}

/** Disclosed elements read before they are compared, at most (as many as a batch of folds holds). */
const MAX_WAITING = 1024;

/** A disclosed element read, waiting to be compared with the signed root (`settleDisclosed`). */
interface WaitingElement {
  /** The scan of the `disclosed` array it is in, and the root its proof is compared with. */
  readonly scan: DisclosedScan;
  readonly root: Uint8Array | undefined;
  readonly position: number;
  readonly detail: DisclosedDetail | undefined;
  /** Where its `index` value starts in the document (-1: none). */
  readonly indexOffset: number;
  /** Its Python error, its root, or its place in the batch being folded. */
  readonly outcome: { error: PyError; path: (string | number)[] } | { root: Uint8Array } | { fold: number };
}

function emptyEntries(): EntriesScan {
  return {
    count: 0,
    root: undefined,
    leaflessCount: 0,
    gatherErrors: [],
    gatherErrorCount: 0,
    idProblems: [],
    idProblemCount: 0,
    facts: [],
  };
}

function emptyDisclosed(): DisclosedScan {
  return { count: 0, comparedWith: undefined, problems: [], problemCount: 0, included: 0, details: [] };
}

/**
 * `e["id"] == sha256hex(...)`: exact string equality (an uppercase id differs), for ids other than
 * 64 plain bytes (those are compared in place when their hash comes back).
 */
function idMatches(bytes: Uint8Array, tape: Int32Array, idSlot: number, id: Uint8Array): boolean {
  return stringAt(bytes, tape, idSlot) === toHex(id);
}

const KIND = /* @__PURE__ */ new TextEncoder().encode('kind');
const GRAIN = /* @__PURE__ */ new TextEncoder().encode('grain');
const SEQ = /* @__PURE__ */ new TextEncoder().encode('seq');
const VALID_FROM = /* @__PURE__ */ new TextEncoder().encode('valid_from');

/** The members `entryFacts` reads, in the order of `factSlots`. */
const FACT_KEYS: readonly Uint8Array[] = [KIND, GRAIN, SEQ, VALID_FROM];
/** Value slots of `FACT_KEYS` in the entry being read (the last of duplicates, as Python keeps). */
const factSlots = /* @__PURE__ */ new Int32Array(FACT_KEYS.length);

/** kind, grain, seq, valid_from of an entry (only scalar values are kept), in one pass over its members. */
function entryFacts(bytes: Uint8Array, tape: Int32Array, contentSlot: number): EntryFacts {
  if (!isObjectNode(tape, contentSlot)) return { kind: null, grain: null, seq: null, valid_from: null };
  memberValues(bytes, tape, contentSlot, FACT_KEYS, factSlots);
  const lexeme = integerLexeme(bytes, tape, factSlots[2]!);
  let seq: number | string | null = null;
  if (lexeme !== undefined) {
    // Up to 15 digits is a safe integer: no BigInt needed (`+ 0`: Python's int has no -0).
    if (lexeme.length <= 15) seq = Number(lexeme) + 0;
    else {
      const value = BigInt(lexeme);
      seq = Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    }
  }
  return {
    kind: stringAt(bytes, tape, factSlots[0]!),
    grain: stringAt(bytes, tape, factSlots[1]!),
    seq,
    valid_from: stringAt(bytes, tape, factSlots[3]!),
  };
}

const PROOF = /* @__PURE__ */ new TextEncoder().encode('proof');
const INDEX = /* @__PURE__ */ new TextEncoder().encode('index');
const MAX_STEPS_SHOWN = 64;

/** One character per byte (WHATWG Encoding: 'latin1' is windows-1252), so text offsets are byte offsets. */
const SINGLE_BYTE = /* @__PURE__ */ new TextDecoder('latin1');

const HEX_VALUES: Int8Array = /* @__PURE__ */ (() => {
  const table = new Int8Array(256).fill(-1);
  for (let i = 0; i < 10; i++) table[0x30 + i] = i;
  for (let i = 0; i < 6; i++) table[0x61 + i] = 10 + i;
  return table;
})();

/** The bytes of the shortest step of the common proof shape, `["<64 hex>","L"]`. */
const PLAIN_STEP_MIN_BYTES = 72;

/**
 * A proof of the common shape: its siblings back to back (32 bytes a step; a view of the sibling
 * sink, overwritten by the next proof), and its sides ("L"/"R").
 */
interface PlainProof {
  readonly siblings: Uint8Array;
  readonly sides: string;
}

/**
 * The common proof shape, read straight from the tape: a list of `[<64 lowercase hex>, "L"|"R"]`
 * pairs (what Zaxy writes), its siblings decoded back to back (folded by `DisclosedFolds`).
 * Undefined when anything else is present (escapes, other lengths or case, other sides, other
 * types), which the general path then handles with Python's exact semantics.
 */
function plainProof(
  bytes: Uint8Array,
  tape: Int32Array,
  proofSlot: number,
  siblingSink: ByteSink,
  detail: DisclosedDetail | undefined,
): PlainProof | undefined {
  if (!isArrayNode(tape, proofSlot)) return undefined;
  const count = childCount(tape, proofSlot);
  // A step of this shape takes at least `["<64 hex>","L"]` (72 bytes): more steps than the document
  // could hold are some other shape, left to the general path before 32 bytes a step are allocated.
  if (count * PLAIN_STEP_MIN_BYTES > bytes.length) return undefined;
  if (siblingSink.bytes.length < 32 * count) siblingSink.bytes = new Uint8Array(32 * count);
  const siblings = siblingSink.bytes.subarray(0, 32 * count);
  let sides = '';
  for (let k = 0, step = firstChild(proofSlot); k < count; k++, step = nextSlot(tape, step)) {
    if (!isArrayNode(tape, step) || childCount(tape, step) !== 2) return undefined;
    const sibling = firstChild(step);
    const start = plainStringStart(tape, sibling, 64);
    const sideAt = plainStringStart(tape, nextSlot(tape, sibling), 1);
    if (start < 0 || sideAt < 0) return undefined;
    const letter = bytes[sideAt];
    if (letter !== 0x4c && letter !== 0x52) return undefined;
    for (let i = 0; i < 32; i++) {
      const high = HEX_VALUES[bytes[start + 2 * i]!]!;
      const low = HEX_VALUES[bytes[start + 2 * i + 1]!]!;
      if (high < 0 || low < 0) return undefined;
      siblings[32 * k + i] = (high << 4) | low;
    }
    sides += letter === 0x4c ? 'L' : 'R';
  }
  if (detail !== undefined) {
    // The siblings' own text (lowercase hex, checked above): the proof's bytes decoded in one call,
    // each sibling a slice of that text (one decode per sibling cost a third of a 1k subset's time).
    const starts: number[] = [];
    for (let k = 0, step = firstChild(proofSlot); k < count && k < MAX_STEPS_SHOWN; k++, step = nextSlot(tape, step))
      starts.push(plainStringStart(tape, firstChild(step), 64));
    const from = starts[0] ?? 0;
    const text = starts.length === 0 ? '' : SINGLE_BYTE.decode(bytes.subarray(from, starts[starts.length - 1]! + 64));
    for (let k = 0; k < starts.length; k++) {
      const at = starts[k]! - from;
      detail.steps.push({ sibling: text.slice(at, at + 64), side: sides[k]! });
    }
    detail.sides = sides;
    detail.proofDepth = count;
  }
  return { siblings, sides };
}

/**
 * One disclosed element, in Zaxy's order (docs/zaxy.md, 'verify_subset order', step 5):
 * `d["content"]` read and hashed, then `d["proof"]` iterated (each step unpacked, then its sibling
 * decoded), then the proof folded into the root it implies; a proof of the common shape is given
 * back unfolded, for its batch (its leaf message is in `sink`). Fills `detail` when given.
 */
function foldDisclosed(
  element: TapeNode,
  canonical: (element: TapeNode, node: number) => string | undefined,
  sink: ByteSink,
  siblingSink: ByteSink,
  sha256: Sha256,
  detail: DisclosedDetail | undefined,
): { root: Uint8Array } | { plain: PlainProof } | { error: PyError; path: (string | number)[] } {
  const { bytes, tape } = element;
  if (!isObjectNode(tape, 0))
    return { error: { pyError: 'TypeError', text: subscriptTypeError(materialize(bytes, tape, 0)) }, path: [] };
  const contentSlot = memberValue(bytes, tape, 0, CONTENT);
  if (contentSlot < 0) return { error: { pyError: 'KeyError', text: pythonRepr('content') }, path: [] };
  if (detail !== undefined) (detail as { facts: EntryFacts | undefined }).facts = entryFacts(bytes, tape, contentSlot);
  const encodeError = canonical(element, contentSlot);
  if (encodeError !== undefined) return { error: { pyError: 'ValueError', text: encodeError }, path: ['content'] };
  const proofSlot = memberValue(bytes, tape, 0, PROOF);
  if (proofSlot < 0) return { error: { pyError: 'KeyError', text: pythonRepr('proof') }, path: [] };
  // The common shape is hashed with its batch (the leaf message is still in the sink).
  const plain = plainProof(bytes, tape, proofSlot, siblingSink, detail);
  if (plain !== undefined) return { plain };
  const leaf = sha256.digest(sink.bytes.subarray(0, sink.length));
  if (detail !== undefined) {
    detail.steps.length = 0;
    detail.sides = '';
  }
  const items = iterate(materialize(bytes, tape, proofSlot));
  if (isPyError(items)) return { error: items, path: ['proof'] };
  // Every step is unpacked and decoded before any hashing, as Python's list comprehension does.
  const decoded: ProofStep[] = [];
  for (let k = 0; k < items.length; k++) {
    const pair = unpackPair(items[k]!);
    if (isPyError(pair)) return { error: pair, path: ['proof', k] };
    const sibling = pythonFromHex(pair[0]);
    if (isPyError(sibling)) return { error: sibling, path: ['proof', k, 0] };
    // A side that is not a string is never "L" (docs/zaxy.md, 'Merkle tree').
    decoded.push({ sibling, side: typeof pair[1] === 'string' ? pair[1] : '' });
    if (detail !== undefined) {
      if (detail.steps.length < MAX_STEPS_SHOWN) {
        detail.steps.push({
          sibling: typeof pair[0] === 'string' ? pair[0] : '',
          side: typeof pair[1] === 'string' ? pair[1] : pythonRepr(pair[1]),
        });
      }
      if (pair[1] !== 'L' && pair[1] !== 'R') detail.oddSides.push(k);
      if (typeof pair[0] !== 'string' || !/^[0-9a-f]{64}$/.test(pair[0])) detail.oddSiblings.push(k);
      detail.sides += pair[1] === 'L' ? 'L' : 'R';
    }
  }
  if (detail !== undefined) detail.proofDepth = decoded.length;
  return { root: rootFromInclusionProof(leaf, decoded, sha256) };
}
