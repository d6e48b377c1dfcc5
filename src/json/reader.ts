/**
 * The lossless JSON reader: Python's `json.loads` semantics (`_grammar.ts` holds the grammar, `tape.ts`
 * scans it, `value.ts` is the value model), errors as data with CPython's wording and a byte offset.
 *
 * Two entry points:
 * - `readJson(bytes)`: the whole value, materialised.
 * - `readJsonDocument(bytes, visitor)`: for large documents whose bulk sits in a few top-level
 *   arrays (Zaxy's `entries`, an export's file list): those arrays are handed to the visitor one
 *   element at a time, as a tape, and never materialised; the rest of the root object is.
 *
 * The root object of a document is read by one machine (`walkRoot`), over all the bytes at once or
 * over chunks as they arrive (`createDocumentReader`); every value is scanned by `tape.ts`.
 *
 * Input bytes are attacker-controlled: nothing here recurses on the data, nesting is bounded by
 * `maxDepth`, and no input makes these functions throw.
 * @module
 */
import { DEFAULT_LIMITS } from '../limits.ts';
import {
  advancePosition,
  firstUtf8Error,
  formatPosition,
  type JsonReadError,
  type TextPosition,
  TEXT_START,
  utf8ErrorMessage,
} from './errors.ts';
import * as grammar from './_grammar.ts';
import { ChunkList } from '../stream/chunk-list.ts';
import { createJsonPrefixChecker, firstImpossibleByte } from './prefix.ts';
import { createUtf8StreamChecker, type Utf8StreamChecker } from './utf8-check.ts';
import { createScanTemplate, learnScanTemplate, scanByTemplate, type ScanTemplate } from './scan-template.ts';
import {
  createScanContext,
  ESCAPED,
  NON_ASCII,
  readError,
  type ScanContext,
  type ScanError,
  scanFail,
  scanString,
  scanValue,
  SLOTS,
  TAG_ARRAY,
  TAG_FALSE,
  TAG_FLOAT,
  TAG_INFINITY,
  TAG_INT,
  TAG_NAN,
  TAG_NEG_INFINITY,
  TAG_NULL,
  TAG_OBJECT,
  TAG_STRING,
  TAG_TRUE,
  type Tape,
} from './tape.ts';
import type { JsonArray, JsonObject, JsonValue } from './value.ts';

export type { JsonReadError, JsonReadErrorKind } from './errors.ts';

export interface ReadJsonOptions {
  /** Deepest nesting accepted (the root container is depth 1). Default `DEFAULT_LIMITS.maxJsonDepth`. */
  readonly maxDepth?: number;
}

export type ReadJsonResult =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: JsonReadError };

/** A node of a scanned tape, as handed to a `DocumentVisitor`. Valid only during the call. */
export interface TapeNode {
  readonly bytes: Uint8Array;
  readonly tape: Int32Array;
  /** Slot index of the node. */
  readonly node: number;
  /** The document offset of `bytes[0]` (tape offsets are in `bytes`; add this for the document's). */
  readonly base: number;
  /**
   * A streamed element read by an earlier element's layout (`scan-template.ts`): that layout's
   * number, the same for every element read by it (and for no other); else 0.
   */
  readonly layout: number;
}

/** Stands in the root object for a top-level array that was streamed to the visitor. */
export interface StreamedArray {
  readonly streamed: true;
  readonly length: number;
}

/** The root of a document read with `readJsonDocument`. */
export type DocumentRoot = JsonValue | Map<string, JsonValue | StreamedArray>;

export interface DocumentVisitor {
  /** Top-level keys whose array values are streamed instead of materialised. */
  readonly streamKeys: readonly string[];
  /**
   * A streamed array begins (a duplicate key starts again: the last one wins, as in Python).
   * `root` holds the root members read so far (earlier keys only).
   */
  startArray(key: string, root: ReadonlyMap<string, JsonValue | StreamedArray>): void;
  /** One element of a streamed array. */
  element(key: string, index: number, element: TapeNode): void;
  /** Every other root member, as read (before it is materialised into `root`). */
  member?(key: string, value: TapeNode): void;
}

export type ReadDocumentResult =
  { readonly ok: true; readonly root: DocumentRoot } | { readonly ok: false; readonly error: JsonReadError };

/**
 * Reads a JSON document as Python's `json.loads` would (after decoding the bytes as UTF-8).
 * Never throws for any input.
 * @example
 * const result = readJson(new TextEncoder().encode('{"a": [1, 1.0, NaN, 12345678901234567890]}'));
 * if (result.ok) (result.value as Map<string, unknown>).get('a'); // [1n, 1, NaN, 12345678901234567890n]
 */
export function readJson(bytes: Uint8Array, options: ReadJsonOptions = {}): ReadJsonResult {
  const result = readJsonDocument(bytes, undefined, options);
  return result.ok ? { ok: true, value: result.root as JsonValue } : result;
}

/**
 * Reads a JSON document, streaming the top-level arrays named by `visitor.streamKeys` (when the
 * root is an object) element by element. Errors come back as data: a visitor that throws is a
 * bug of the visitor and is not caught here.
 * @example
 * let count = 0;
 * readJsonDocument(bytes, { streamKeys: ['entries'], startArray() { count = 0; }, element() { count++; } });
 */
export function readJsonDocument(
  bytes: Uint8Array,
  visitor: DocumentVisitor | undefined,
  options: ReadJsonOptions = {},
): ReadDocumentResult {
  const maxDepth = options.maxDepth ?? DEFAULT_LIMITS.maxJsonDepth;
  if (visitor !== undefined) {
    const walk = createRootWalk(visitor, maxDepth, 0);
    walkRoot(walk, bytes, 0, true);
    if (walk.state === 'trailing') return { ok: true, root: walk.root };
    if (walk.failure !== undefined) return { ok: false, error: fileLevelError(bytes, readError(bytes, walk.failure)) };
    // The root is not an object: read it whole.
  }
  const context = createScanContext(bytes, maxDepth);
  const end = scanValue(context, 0, 0);
  if (end >= 0) {
    const after = grammar.skipWhitespace(bytes, end);
    if (after === bytes.length) return { ok: true, root: materialize(bytes, context.tape.data, 0) };
    scanFail(context, 'syntax', 'Extra data', after);
  }
  return { ok: false, error: fileLevelError(bytes, readError(bytes, context.error!)) };
}

/** A document fed in chunks (see `createDocumentReader`). */
export interface DocumentReader {
  /** Appends bytes and reads as far as they allow. */
  push(chunk: Uint8Array): void;
  /** Ends the input. The result is exactly what `readJsonDocument` gives for all the bytes pushed. */
  finish(): ReadDocumentResult;
  /**
   * All bytes pushed so far (a view, valid until the next push), or undefined once some were
   * dropped (`maxRetainedBytes`): then the document cannot be read a second time.
   */
  bytes(): Uint8Array | undefined;
  /** Whether `bytes()` would give the whole document (no byte was dropped), without making it. */
  keptAll(): boolean;
  /**
   * Bytes held now (all pushed, until some are dropped): what a memory limit should count (a
   * reading window of up to 256 KiB aside, like the tape).
   */
  heldBytes(): number;
  /** Bytes pushed in all. */
  pushedBytes(): number;
}

export interface DocumentReaderOptions extends ReadJsonOptions {
  /** The reading window's first size (default 256 KiB); tests make it tiny, so that it moves often. */
  readonly windowBytes?: number;
  /**
   * Once more than this many bytes are read, bytes already read are dropped instead of kept:
   * memory then stays about one element of a streamed array (plus one chunk), whatever the
   * document's size, but `bytes()` is gone. Default: keep everything.
   */
  readonly maxRetainedBytes?: number;
  /**
   * Counts, over the bytes dropped past `maxRetainedBytes`, the position Python's error messages
   * give (line, column, char), so that an error after them is worded whole (default true). That is
   * a pass over every dropped byte: without it the CLI verifies the 100k-entry Zaxy bundle .gz in
   * 518 ms instead of 546 (paired). A caller that can read the document again passes false and
   * adds the position to such an error itself: the error then says `positionPending`.
   */
  readonly countDroppedPositions?: boolean;
}

/**
 * `readJsonDocument` for input that arrives in chunks: the root object and its streamed arrays are
 * read while later bytes are still coming (e.g. while gzip decompresses on another thread), so
 * the visitor sees elements early. A value is taken only once the byte after it has arrived (a
 * number could go on). Anything that does not read cleanly is left for `finish`, which then reads
 * the whole document again with `readJsonDocument`: errors keep their exact file-level semantics
 * (UTF-8 first, then BOM, then the first syntax error), and the visitor starts over (each streamed
 * array begins with `startArray`). A step that fails mid-input is retried only after the input
 * past it has doubled, so a hostile document cannot make it rescan quadratically.
 *
 * The walk reads a window of the bytes (what it has not read yet, and the chunk just pushed); the
 * document is kept apart, as pushed (`ChunkList`), and made one buffer only when asked for.
 *
 * With `maxRetainedBytes`, a long document is not kept: once inside the root object and past that
 * many bytes, what was read is dropped. There is then no second reading, so the reader words
 * errors itself, with the same file-level semantics: everything before the first error was read
 * cleanly (so it is valid UTF-8 and holds no BOM), the bytes from the error on are still held for
 * the UTF-8 check, and the position of the error counts the dropped bytes as Python would (or is
 * left to the caller, `countDroppedPositions`).
 * @example
 * const reader = createDocumentReader(visitor);
 * for await (const chunk of stream) reader.push(chunk);
 * const result = reader.finish();
 */
export function createDocumentReader(visitor: DocumentVisitor, options: DocumentReaderOptions = {}): DocumentReader {
  const maxDepth = options.maxDepth ?? DEFAULT_LIMITS.maxJsonDepth;
  const maxRetained = options.maxRetainedBytes ?? Infinity;
  /** Read-ahead is a small part of what may be retained, so a bound on held bytes stays one. */
  const walk = createRootWalk(visitor, maxDepth, Math.min(SCAN_AHEAD_BYTES, Math.floor(maxRetained / 16)));
  /** The window the walk reads: `length` bytes from document offset `base` (those before were read). */
  const windowBytes = options.windowBytes ?? WINDOW_BYTES;
  let buffer = new Uint8Array(windowBytes);
  let length = 0;
  /** Offset in the document of `buffer[0]`. */
  let base = 0;
  /** Every byte pushed, while the document is kept; undefined once bytes were dropped (or held in `buffer`). */
  let kept: ChunkList | undefined = new ChunkList();
  /**
   * Where `buffer[0]` is, as Python counts positions (kept up to date once the document is not
   * kept, unless `countDroppedPositions` is false).
   */
  let basePosition: TextPosition = TEXT_START;
  const countPositions = options.countDroppedPositions ?? true;

  /**
   * Before `more` bytes are added to the window: moves what the walk has not read to its start when
   * they would not fit (only inside the root object, and never after an error); past
   * `maxRetainedBytes`, the document stops being kept and what was read is dropped before each chunk.
   */
  function dropRead(more: number): void {
    const pos = walk.pos;
    if (pos === 0 || walk.state === 'start' || walk.state === 'whole') return;
    if (keep !== Infinity) return; // not JSON: the bytes that word the error are held from the start
    const past = base + pos > maxRetained;
    if (!past && (kept === undefined || length + more <= buffer.length)) return;
    if (past && kept !== undefined) {
      // The position of `base`, counted over the kept bytes before it, then the document is let go.
      if (countPositions) basePosition = positionOver(kept, base);
      kept = undefined;
    }
    if (kept === undefined && countPositions) basePosition = advancePosition(basePosition, buffer, 0, pos);
    buffer.copyWithin(0, pos, length);
    base += pos;
    length -= pos;
    walk.retryAt = Math.max(0, walk.retryAt - pos);
    walk.pos = 0;
  }

  /** The whole document so far, in one buffer, when no byte was dropped. */
  function wholeDocument(): Uint8Array | undefined {
    if (kept !== undefined) return kept.bytes();
    return base === 0 ? buffer.subarray(0, length) : undefined;
  }

  /** The first error of a document whose start was dropped, worded as `readJsonDocument` would. */
  function droppedDocumentError(): JsonReadError {
    const error = walk.failure!;
    const held = buffer.subarray(0, length);
    // Python decodes the whole file first: invalid UTF-8 anywhere outranks a syntax error. All
    // bytes before the error were read cleanly, so only those from the error on need a look.
    const utf8 = firstUtf8Error(held, error.offset - base);
    if (utf8 !== undefined)
      return { kind: 'utf8', message: utf8ErrorMessage(held, utf8, base), offset: base + utf8.start };
    if (error.kind !== 'syntax') return { kind: error.kind, message: error.text, offset: error.offset };
    if (!countPositions) return { kind: 'syntax', message: error.text, offset: error.offset, positionPending: true };
    const position = formatPosition(advancePosition(basePosition, held, 0, error.offset - base));
    return { kind: 'syntax', message: `${error.text}: ${position}`, offset: error.offset };
  }

  // A document seen not to parse before its end (600 MB of zeros) is not held: the bytes up to a
  // little past its first bad byte word the error; from that byte on, everything is checked as
  // UTF-8 without being held, since Python decodes the whole file before it parses, and an invalid
  // byte anywhere is then its error. The bad byte always starts a character (a lead byte before it
  // would have been refused itself, or is inside a string, where only ASCII bytes are refused).
  // Inside the root object the walk finds that byte itself (`RootWalk.refusedAt`); before it, and
  // for a root that is not an object, a prefix check looks at every byte.
  const prefix = createJsonPrefixChecker({ python: true });
  let prefixChecked = true; // every byte so far went through `prefix`
  let refusedAt = -1; // offset of the first byte that cannot continue the document
  let keep = Infinity; // bytes held once the document is known not to parse
  let fromRefused: Utf8StreamChecker | undefined; // UTF-8 from `refusedAt` on
  let pushedPast = 0; // bytes past `keep`, checked and not held

  /** From now on, holds no more than a little past the byte at `at`, which cannot continue the document. */
  function refuseFrom(at: number, rest: Uint8Array): void {
    kept = undefined; // `buffer` holds the document from its start from now on
    refusedAt = at;
    keep = refusedAt + NOT_JSON_CONTEXT_BYTES;
    fromRefused = createUtf8StreamChecker(refusedAt);
    fromRefused.push(rest);
  }

  /** Takes the part of `chunk` still to hold; checks what follows the refused byte as UTF-8. */
  function notJsonPart(chunk: Uint8Array): Uint8Array {
    if (keep === Infinity) {
      if (!prefixChecked) return chunk;
      // A root object from the first byte on (past whitespace): the walk checks every byte itself.
      if (length === 0 && opensRootObject(chunk)) {
        prefixChecked = false;
        return chunk;
      }
      const bad = prefix.push(chunk);
      if (bad < 0) return chunk;
      refuseFrom(length + bad, chunk.subarray(bad));
    } else fromRefused!.push(chunk);
    if (length + chunk.byteLength <= keep) return chunk;
    const held = chunk.subarray(0, Math.max(0, keep - length));
    pushedPast += chunk.byteLength - held.byteLength;
    return held;
  }

  /** Whether the document's first bytes, `chunk`, open the root object the walk reads (see `walkRoot`, 'start'). */
  function opensRootObject(chunk: Uint8Array): boolean {
    const first = grammar.skipWhitespace(chunk, 0);
    return maxDepth >= 1 && first < chunk.length && chunk[first] === grammar.Byte.BeginObject;
  }

  /** After a walk: stops the prefix check inside the root object, and holds little once the walk refused a byte. */
  function afterWalk(): void {
    if (walk.state !== 'start' && walk.state !== 'whole') prefixChecked = false;
    if (keep !== Infinity || walk.refusedAt < 0) return;
    if (kept !== undefined) {
      // From here the document is held from its start in `buffer` (what follows is held only up to
      // a little past the refused byte).
      if (base !== 0) {
        buffer = kept.bytes().slice();
        length = buffer.length;
        base = 0;
      }
      kept = undefined;
    }
    if (base !== 0) return;
    refuseFrom(walk.refusedAt, buffer.subarray(walk.refusedAt, length));
    pushedPast = Math.max(0, length - keep);
    length = Math.min(length, keep);
  }

  /** The answer for a document known not to parse (see `notJsonPart`), as reading it whole would give. */
  function notJsonResult(): ReadDocumentResult {
    const held = buffer.subarray(0, length);
    // Python: invalid UTF-8 anywhere first (before the refused byte, else from it on), then the
    // first syntax error, which is at or before the refused byte. The reading also makes the visits.
    const early = firstUtf8Error(held.subarray(0, Math.min(length, refusedAt + 1)));
    if (early !== undefined && early.start < refusedAt) return readJsonDocument(held, visitor, { maxDepth });
    const late = fromRefused!.finish();
    const result = readJsonDocument(held.subarray(0, characterBoundary(held)), visitor, { maxDepth });
    if (late !== undefined) return { ok: false, error: { kind: 'utf8', message: late.message, offset: late.offset } };
    if (result.ok) throw new Error('a document refused as not JSON was read (json/prefix.ts is wrong)');
    return result;
  }

  return {
    push(chunk) {
      if (chunk.byteLength === 0) return;
      chunk = notJsonPart(chunk);
      if (chunk.byteLength === 0) return;
      kept?.push(chunk);
      dropRead(chunk.byteLength);
      if (length + chunk.byteLength > buffer.length) {
        const needed = length + chunk.byteLength;
        let size = buffer.length * 2;
        while (size < needed) size *= 2;
        // Past `maxRetainedBytes`, what was read is dropped before each chunk: room for that much
        // and the chunk is enough, not the next power of two (at the edge: 4 MiB, not 8).
        const retainedRoom = maxRetained + chunk.byteLength;
        if (needed <= retainedRoom && size > retainedRoom) size = retainedRoom;
        const grown = new Uint8Array(size);
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(chunk, length);
      length += chunk.byteLength;
      if (keep !== Infinity) return;
      walkRoot(walk, buffer.subarray(0, length), base, false);
      afterWalk();
      // The root is not an object: `buffer`, never moved, holds the document; nothing else need.
      if (walk.state === 'whole' && base === 0) kept = undefined;
    },
    finish() {
      if (keep !== Infinity) return notJsonResult();
      walkRoot(walk, buffer.subarray(0, length), base, true);
      if (walk.state === 'trailing') return { ok: true, root: walk.root };
      const whole = wholeDocument();
      if (whole === undefined) return { ok: false, error: droppedDocumentError() };
      return readJsonDocument(whole, visitor, { maxDepth });
    },
    bytes: () => (pushedPast === 0 ? wholeDocument() : undefined),
    keptAll: () => pushedPast === 0 && (kept !== undefined || base === 0),
    // The document's bytes; the window's first `windowBytes` are working memory (as the tape is),
    // but a value that grew it past them is held twice, and counts so.
    heldBytes: () => (kept !== undefined ? kept.length + Math.max(0, length - windowBytes) : length),
    pushedBytes: () => base + length + pushedPast,
  };
}

/** Python's position of byte `offset` of the bytes kept in `chunks`. */
function positionOver(chunks: ChunkList, offset: number): TextPosition {
  let position = TEXT_START;
  let at = 0;
  for (const piece of chunks.chunks) {
    if (at >= offset) break;
    position = advancePosition(position, piece, 0, Math.min(piece.length, offset - at));
    at += piece.length;
  }
  return position;
}

/** `bytes.length`, or where the last character starts when the bytes end inside it. */
function characterBoundary(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= 4 && back <= n; back++) {
    const c = bytes[n - back]!;
    if (c < 0x80) return n;
    if (c >= 0xc0) return back <= grammar.utf8ContinuationCount(c) ? n - back : n;
  }
  return n;
}

/**
 * Bytes held past the first byte that cannot continue a document: the error is worded from the
 * bytes up to it (Python's messages give its position), and a UTF-8 sequence cut by this end is
 * completed from the rest.
 */
const NOT_JSON_CONTEXT_BYTES = 64;

/**
 * A value is scanned only once this many bytes follow its start (or the input has ended). A value
 * cut short by the end of the bytes so far fails and is scanned again later; worse, each place in
 * the scanner where such a failure first happens makes V8 throw away the scanner's optimised code
 * (no type feedback there yet) and compile it again, 20–50 ms of CPU each time. Values shorter
 * than this (a bundle's entries) are never cut. With `maxRetainedBytes`, the margin is at most a
 * sixteenth of it, so that bound on held bytes still holds.
 */
const SCAN_AHEAD_BYTES = 64 * 1024;

/** The window's first size (it grows for a value that does not fit, as the whole document did before). */
const WINDOW_BYTES = 256 << 10;

/**
 * Where the root walk is in the root object; `trailing`: after it (only whitespace may follow);
 * `whole`: stopped, the document is left for a reading as a whole value (the root is not an
 * object, or the walk failed).
 */
type RootState =
  | 'start'
  | 'first-member'
  | 'member'
  | 'colon'
  | 'value'
  | 'first-element'
  | 'element'
  | 'after-element'
  | 'after-member'
  | 'trailing'
  | 'whole';

/**
 * The root object of a document, read member by member (streaming the visitor's arrays, scanning
 * every other value with `scanValue`) by `walkRoot`, which resumes where it stopped when more
 * bytes come. Offsets in it are relative to the bytes of the last call; `failure`'s is absolute.
 */
interface RootWalk {
  readonly visitor: DocumentVisitor;
  readonly maxDepth: number;
  /** Bytes a value needs after its start before it is scanned while input may still come. */
  readonly scanAhead: number;
  readonly tape: Tape;
  readonly stack: number[];
  readonly root: Map<string, JsonValue | StreamedArray>;
  /** The node handed to the visitor (one object, refilled for each element). */
  readonly element: { bytes: Uint8Array; tape: Int32Array; node: number; base: number; layout: number };
  state: RootState;
  /** Where reading goes on. */
  pos: number;
  /** The member being read. */
  key: string;
  /** The next element's index in the streamed array being read. */
  index: number;
  /** While input may still come, nothing is read before the bytes reach this length. */
  retryAt: number;
  /** The first error, once the walk stopped on one (offset from the document's start). */
  failure: ScanError | undefined;
  /** The layout of earlier elements (`scan-template.ts`), learnt at the second of a size. */
  readonly template: ScanTemplate;
  /** Slots of the last element the general scanner read. */
  lastScannedSlots: number;
  /**
   * Once the walk stopped before the input's end, the offset of the first byte that no
   * continuation could make JSON (the failure may be worded at the start of its token); else -1.
   */
  refusedAt: number;
}

function createRootWalk(visitor: DocumentVisitor, maxDepth: number, scanAhead: number): RootWalk {
  const tape = { data: new Int32Array(SLOTS * 256), length: 0 };
  const element = { bytes: EMPTY_BYTES, tape: tape.data, node: 0, base: 0, layout: 0 };
  return {
    visitor,
    maxDepth,
    scanAhead,
    tape,
    stack: [],
    root: new Map(),
    element,
    state: 'start',
    pos: 0,
    key: '',
    index: 0,
    retryAt: 0,
    failure: undefined,
    refusedAt: -1,
    template: createScanTemplate(),
    lastScannedSlots: -1,
  };
}

const EMPTY_BYTES = new Uint8Array(0);

/** The error when the input ends in each state of the root walk: what CPython expects next there. */
const END_OF_INPUT_ERRORS: Record<Exclude<RootState, 'trailing' | 'whole'>, string> = {
  start: 'Expecting value',
  'first-member': 'Expecting property name enclosed in double quotes',
  member: 'Expecting property name enclosed in double quotes',
  colon: "Expecting ':' delimiter",
  value: 'Expecting value',
  'first-element': 'Expecting value',
  element: 'Expecting value',
  'after-element': "Expecting ',' delimiter",
  'after-member': "Expecting ',' delimiter",
};

/**
 * Reads the root object on from `walk.pos` as far as `bytes` allow (`bytes` start at offset `base`
 * of the document); `final` once no more will come.
 */
function walkRoot(walk: RootWalk, bytes: Uint8Array, base: number, final: boolean): void {
  const length = bytes.length;
  if (walk.state === 'whole' || (!final && length < walk.retryAt)) return;
  const { visitor, maxDepth, tape, root } = walk;
  const context: ScanContext = {
    bytes,
    maxDepth,
    tape,
    error: undefined,
    stack: walk.stack,
    words: grammar.wordView(bytes),
  };
  /** Reading stops here; the error matters only once bytes were dropped (else `finish` reads again). */
  const stop = (text: string, at: number): void => {
    walk.state = 'whole';
    walk.failure = { kind: 'syntax', text, offset: base + at };
    if (!final) walk.refusedAt = base + at;
  };
  const failed = (at: number): void => {
    const fail = (): void => {
      walk.state = 'whole';
      walk.failure = { ...context.error!, offset: base + context.error!.offset };
    };
    if (final) return fail();
    // Maybe cut short by the end of the input so far, unless a byte of the value cannot be JSON
    // whatever follows. Else retry once the input past `at` has doubled (linear work in all).
    const refused = firstImpossibleByte(bytes, at, { python: true });
    if (refused < 0) walk.retryAt = at + 2 * (length - at) + 4096;
    else {
      fail();
      walk.refusedAt = base + refused;
    }
  };
  /**
   * Whether the value scanned from `at` to `end` waits for more bytes: it failed (see `failed`),
   * or, while input may still come, it ends within two bytes of the bytes so far, where a number
   * may still go on (`2.` then `5`, `1e+` then `9`: the scanner reads `2` and stops at `.`).
   */
  const waits = (at: number, end: number): boolean => {
    if (end < 0) failed(at);
    else if (final || end + 2 < length) return false;
    else walk.retryAt = at + 2 * (length - at) + 4096;
    return true;
  };
  for (;;) {
    const at = grammar.skipWhitespace(bytes, walk.pos);
    if (at >= length) {
      // Whitespace is never part of a token: do not scan it again on the next push (a long run
      // arriving in small chunks was quadratic, 30 s for 1 MB of newlines in 17-byte chunks).
      walk.pos = at;
      if (final && walk.state !== 'trailing') stop(END_OF_INPUT_ERRORS[walk.state], at);
      return;
    }
    const c = bytes[at]!;
    switch (walk.state) {
      case 'start':
        if (c !== grammar.Byte.BeginObject || maxDepth < 1) return void (walk.state = 'whole');
        walk.pos = at + 1;
        walk.state = 'first-member';
        continue;
      case 'first-member':
        if (c === grammar.Byte.EndObject) {
          walk.pos = at + 1;
          walk.state = 'trailing';
        } else walk.state = 'member';
        continue;
      case 'member': {
        if (c !== grammar.Byte.Quote) return stop('Expecting property name enclosed in double quotes', at);
        tape.length = 0;
        const end = scanString(context, at, 0);
        if (end < 0) return failed(at);
        walk.key = decodeString(bytes, tape.data, 0);
        walk.pos = end;
        walk.state = 'colon';
        continue;
      }
      case 'colon':
        if (c !== grammar.Byte.NameSeparator) return stop("Expecting ':' delimiter", at);
        walk.pos = at + 1;
        walk.state = 'value';
        continue;
      case 'value': {
        if (c === grammar.Byte.BeginArray && maxDepth >= 2 && visitor.streamKeys.includes(walk.key)) {
          visitor.startArray(walk.key, root);
          walk.index = 0;
          walk.pos = at + 1;
          walk.state = 'first-element';
          continue;
        }
        if (!final && length - at < walk.scanAhead) return;
        tape.length = 0;
        const end = scanValue(context, at, 1);
        if (waits(at, end)) return;
        if (visitor.member !== undefined) {
          const value = walk.element;
          value.bytes = bytes;
          value.tape = tape.data;
          value.node = 0;
          value.base = base;
          value.layout = 0;
          visitor.member(walk.key, value);
        }
        root.set(walk.key, materialize(bytes, tape.data, 0));
        walk.pos = end;
        walk.state = 'after-member';
        continue;
      }
      case 'first-element':
        if (c === grammar.Byte.EndArray) {
          root.set(walk.key, { streamed: true, length: 0 });
          walk.pos = at + 1;
          walk.state = 'after-member';
        } else walk.state = 'element';
        continue;
      case 'element': {
        if (!final && length - at < walk.scanAhead) return;
        tape.length = 0;
        let end = walk.template.nodes === 0 ? -1 : scanByTemplate(context, at, walk.template);
        let layout = walk.template.layout;
        if (end >= 0 && waits(at, end)) return;
        if (end < 0) {
          layout = 0;
          // Not the remembered layout (or cut short): the general scan decides, and learns.
          tape.length = 0;
          context.error = undefined;
          end = scanValue(context, at, 2);
          if (waits(at, end)) return;
          const nodes = tape.length;
          if (nodes === walk.lastScannedSlots) learnScanTemplate(walk.template, context, at, end);
          walk.lastScannedSlots = nodes;
        }
        const element = walk.element;
        element.bytes = bytes;
        element.tape = tape.data;
        element.base = base;
        element.layout = layout;
        visitor.element(walk.key, walk.index++, element);
        walk.pos = end;
        walk.state = 'after-element';
        continue;
      }
      case 'after-element':
      case 'after-member': {
        // A member or an element ended: a comma, or the end of its container.
        const inArray: boolean = walk.state === 'after-element';
        if (c === grammar.Byte.ValueSeparator) walk.state = inArray ? 'element' : 'member';
        else if (c !== (inArray ? grammar.Byte.EndArray : grammar.Byte.EndObject))
          return stop("Expecting ',' delimiter", at);
        else if (inArray) {
          root.set(walk.key, { streamed: true, length: walk.index });
          walk.state = 'after-member';
        } else walk.state = 'trailing';
        walk.pos = at + 1;
        continue;
      }
      case 'trailing':
        return stop('Extra data', at); // extra data after the root
    }
  }
}

/**
 * Reads the one value starting at byte `offset` of a document (e.g. an offset kept from an
 * earlier scan, to read a value again without having kept it). Never throws.
 * @example
 * readJsonAt(new TextEncoder().encode('{"a": [1]}'), 6); // { ok: true, value: [1n] }
 */
export function readJsonAt(bytes: Uint8Array, offset: number, options: ReadJsonOptions = {}): ReadJsonResult {
  const context = createScanContext(bytes, options.maxDepth ?? DEFAULT_LIMITS.maxJsonDepth);
  const end = scanValue(context, offset, 0);
  if (end < 0) return { ok: false, error: readError(bytes, context.error!) };
  return { ok: true, value: materialize(bytes, context.tape.data, 0) };
}

/**
 * Python decodes the whole file before parsing, so invalid UTF-8 anywhere outranks a syntax error
 * found earlier, and a byte-order mark outranks everything else.
 */
function fileLevelError(bytes: Uint8Array, error: JsonReadError): JsonReadError {
  const utf8 = firstUtf8Error(bytes);
  if (utf8 !== undefined) return { kind: 'utf8', message: utf8ErrorMessage(bytes, utf8), offset: utf8.start };
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return {
      kind: 'bom',
      message: 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)',
      offset: 0,
    };
  }
  return error;
}

/** One open container while materialising. */
interface Frame {
  readonly container: JsonArray | JsonObject;
  remaining: number;
  key: string | undefined;
}

/**
 * Builds the value of the tape node at `node` (iteratively; the tape is already validated).
 * @example
 * const context = createScanContext(bytes, 1000);
 * if (scanValue(context, 0, 0) >= 0) materialize(bytes, context.tape.data, 0);
 */
export function materialize(bytes: Uint8Array, tape: Int32Array, node: number): JsonValue {
  const frames: Frame[] = [];
  let slot = node;
  let root: JsonValue = null;
  for (;;) {
    const parent = frames.length > 0 ? frames[frames.length - 1]! : undefined;
    if (parent !== undefined && parent.key === undefined && parent.container instanceof Map) {
      parent.key = decodeString(bytes, tape, slot);
      slot += SLOTS;
      continue;
    }
    const tag = tape[slot]!;
    let value: JsonValue;
    let opened: Frame | undefined;
    if (tag === TAG_OBJECT || tag === TAG_ARRAY) {
      const container: JsonArray | JsonObject = tag === TAG_OBJECT ? new Map<string, JsonValue>() : [];
      value = container;
      const count = tape[slot + 1]!;
      if (count > 0) opened = { container, remaining: count, key: undefined };
    } else {
      value = scalarValue(bytes, tape, slot);
    }
    slot += SLOTS;
    if (parent === undefined) root = value;
    else {
      if (parent.container instanceof Map) {
        parent.container.set(parent.key!, value);
        parent.key = undefined;
      } else parent.container.push(value);
      parent.remaining--;
    }
    if (opened !== undefined) frames.push(opened);
    while (frames.length > 0 && frames[frames.length - 1]!.remaining === 0) frames.pop();
    if (frames.length === 0) return root;
  }
}

/** The value of a scalar node (string, number or literal). */
export function scalarValue(bytes: Uint8Array, tape: Int32Array, slot: number): JsonValue {
  switch (tape[slot]) {
    case TAG_STRING:
      return decodeString(bytes, tape, slot);
    case TAG_INT:
      return BigInt(latin1(bytes, tape[slot + 1]!, tape[slot + 2]!));
    case TAG_FLOAT:
      return Number(latin1(bytes, tape[slot + 1]!, tape[slot + 2]!));
    case TAG_TRUE:
      return true;
    case TAG_FALSE:
      return false;
    case TAG_NAN:
      return NaN;
    case TAG_INFINITY:
      return Infinity;
    case TAG_NEG_INFINITY:
      return -Infinity;
    case TAG_NULL:
      return null;
    default:
      throw new Error(`bad tape: tag ${tape[slot]} at slot ${slot}`);
  }
}

/** ASCII bytes as a string (number lexemes, plain keys). */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  const length = end - start;
  // A long lexeme (a hostile number of a million digits) at once; ASCII reads the same as UTF-8.
  if (length > LATIN1_SHORT) return utf8Decoder.decode(bytes.subarray(start, end));
  // One flat string from a reused list of codes of that length (setting an array's length is a
  // slow runtime call): a third faster than adding one character at a time, and no intermediate
  // strings (this runs for every number lexeme that is re-printed).
  const codes = (latin1Codes[length] ??= new Array<number>(length).fill(0));
  for (let i = 0; i < length; i++) codes[i] = bytes[start + i]!;
  return String.fromCharCode.apply(null, codes);
}

/** Longer texts go through the decoder (one call, no list). */
const LATIN1_SHORT = 64;
/** `latin1Codes[n]`: a list of n codes, reused. */
const latin1Codes: number[][] = [];

const utf8Decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Decodes a string node to a JavaScript string. Escaped surrogates become the same UTF-16 code
 * units (a high escape followed by a low escape forms the pair Python would join; lone ones stay).
 */
export function decodeString(bytes: Uint8Array, tape: Int32Array, slot: number): string {
  const start = tape[slot + 1]!;
  const end = tape[slot + 2]!;
  const flags = tape[slot + 3]!;
  if ((flags & ESCAPED) === 0) {
    return (flags & NON_ASCII) === 0 && end - start < 64
      ? latin1(bytes, start, end)
      : utf8Decoder.decode(bytes.subarray(start, end));
  }
  let text = '';
  let run = start;
  let i = start;
  while (i < end) {
    if (bytes[i] !== grammar.Byte.Backslash) {
      i++;
      continue;
    }
    if (i > run) text += utf8Decoder.decode(bytes.subarray(run, i));
    // A surrogate escape is one UTF-16 code unit, as in Python: a pair forms its character again.
    const e = bytes[i + 1]!;
    if (e === grammar.Byte.UnicodeEscape) {
      text += String.fromCharCode(grammar.hexCodeUnit(bytes, i + 2));
      i += 6;
    } else {
      text += String.fromCharCode(grammar.escapedByte(e));
      i += 2;
    }
    run = i;
  }
  if (end > run) text += utf8Decoder.decode(bytes.subarray(run, end));
  return text;
}
