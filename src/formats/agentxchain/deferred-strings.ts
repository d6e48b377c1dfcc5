/**
 * Reads an export without decoding or parsing its bulk: the strings of `files.<path>.content_base64`
 * and `files.<path>.data` (in the artifact and in every nested `repos.<id>.export`), which are
 * nearly all of a large export's bytes, are left in the raw bytes and read one at a time, when a
 * check asks for them (those of 64 bytes or more, quotes included; shorter ones are parsed as usual).
 *
 * How: while the bytes arrive, a lexer finds those string tokens and records their byte spans,
 * and writes the rest of the document, the skeleton: the raw text with each such token replaced by
 * a short placeholder string. `JSON.parse(skeleton)` then gives the reference's value except at
 * those places, where `installGetters` puts getters that decode the recorded span (UTF-8, then
 * `JSON.parse` of the string token) on every read. The spans are read from the raw bytes, kept as
 * they arrived, or, when the source can read its bytes again (`ReadAgain`: the CLI's file), from
 * the source. Peak memory is about the raw bytes (or the skeleton alone) plus one entry's strings,
 * instead of the raw bytes, the decoded text and the parsed value all at once.
 *
 * Why it is exact:
 * - A span is a whole string token, found by a lexer that classifies every byte as inside or outside
 *   a string exactly as JSON does, up to the first error. Its content is validated as `JSON.parse`
 *   validates strings (no raw control characters, only valid escapes), so the skeleton is valid
 *   JSON if and only if the document is; on invalid documents the caller parses the exact text.
 * - Span boundaries are ASCII quotes, where UTF-8 decoding always resynchronises: decoding a span on
 *   its own gives the characters that decoding the whole file gives there (U+FFFD included).
 * - Placeholders carry a per-document random nonce, so an artifact cannot forge one; a getter
 *   replaces a property in place (own-key order unchanged) and yields the exact string each time.
 *   With duplicate keys, `JSON.parse` keeps the last token's placeholder, hence the last span.
 *
 * The lexer takes what a string may hold, and the fast skip over its plain bytes, from the JSON
 * grammar module (`json/_grammar.ts`).
 * @module
 */
import * as grammar from '../../json/_grammar.ts';
import { ChunkList } from '../../stream/chunk-list.ts';
import { isJsonObject, type ParsedValue } from './js-semantics.ts';

// Where a container sits on the export grammar `(repos <id> export)* files <path> (content_base64|data)`.
const EXPORT = 0; // an export object: `files` and `repos` matter
const REPOS = 1; // `repos`: any key leads to a repo entry
const REPO = 2; // a repo entry: `export` leads to a child export
const FILES = 3; // `files`: any key leads to a file entry
const ENTRY = 4; // a file entry: `content_base64` and `data` strings are deferred
const OTHER = 5; // anything else: nothing below is deferred
const DEFERRED_STRING = 6; // a value of `content_base64` or `data` in a file entry: deferred if a string

/**
 * Shorter tokens stay in the skeleton. A placeholder takes up to ~35 bytes, so deferring only
 * longer tokens keeps the skeleton no larger than the document: many tiny deferred strings
 * (`"data":""` repeated under duplicate keys) would otherwise inflate it several-fold. Short
 * strings cost nothing to parse anyway.
 */
const MIN_DEFERRED_TOKEN_BYTES = 64;
/** Containers deeper than this are all OTHER (only their nesting is counted). */
const MAX_TRACKED_DEPTH = 4096;
/** Longest raw key that can still name one of the grammar's keys (`content_base64`, escaped). */
const MAX_KEY_BYTES = 6 * 'content_base64'.length;

/**
 * Bytes that may stand outside a string somewhere in a JSON text (RFC 8259 §2): whitespace,
 * structural characters, and the characters of numbers and of `true`, `false`, `null`. Any other
 * byte there means the text cannot parse, whatever follows, so the reader stops at it.
 */
const OUTSIDE_STRING_BYTES: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(256);
  for (const c of ' \t\n\r{}[],:0123456789-+.eEtruefalsn') table[c.charCodeAt(0)] = 1;
  return table;
})();

// Lexer states.
const BETWEEN = 0; // between tokens
const IN_STRING = 1;
const AFTER_BACKSLASH = 2;
const IN_UNICODE_ESCAPE = 3; // reading the 4 hex digits of \uXXXX

/** What the lexer found: the skeleton's parts and the deferred spans. */
export interface SkimmedDocument {
  /**
   * The document with every deferred string token replaced by its placeholder; undefined when the
   * lexer already found the document invalid (a bad string or an unterminated one).
   */
  readonly skeleton: Uint8Array | undefined;
  /** Total bytes of the document. */
  readonly byteLength: number;
  /** Replaces the placeholders in `JSON.parse(skeleton)`'s value by getters (see the module doc). */
  install(value: ParsedValue): void;
  /**
   * The first `count` raw bytes (all of them when fewer), in order: to decode the exact text when
   * the skeleton does not parse.
   */
  firstBytes(count: number): readonly Uint8Array[];
}

/**
 * Reads the document's bytes [start, end) again, by absolute offset: exactly the bytes pushed there
 * (a source that cannot must throw). What it returns may be overwritten by its next call.
 */
export type ReadAgain = (start: number, end: number) => Uint8Array;

/**
 * Lexes an export as it arrives, and writes its skeleton meanwhile. The deferred strings are read
 * from the bytes it keeps, or, given `readAgain` (a source that can read its bytes again, such as
 * the CLI's file), from that source: it then keeps none of the document's bytes.
 * @example
 * const skimmer = new ExportSkimmer();
 * skimmer.push(bytes);
 * const skimmed = skimmer.finish();
 * const value = JSON.parse(new TextDecoder().decode(skimmed.skeleton));
 * skimmed.install(value); // value.files[path].content_base64 now reads the real string
 */
export class ExportSkimmer {
  /** The bytes, unless they can be read again from the source. */
  readonly #kept: ChunkList | undefined;
  readonly #readAgain: ReadAgain | undefined;
  #length = 0;
  /** Deferred spans as [start, end) pairs of absolute offsets, quotes included. */
  #spans: number[] = [];
  /** Placeholders carry it: `"\u0000<nonce>#<index>"`. */
  readonly #nonce = randomNonce();
  /** The skeleton so far: every byte before `#handledTo`, each deferred token as its placeholder. */
  readonly #skeleton = new ChunkList();
  /** Absolute offset up to which bytes are in the skeleton, or waiting in `#pending`, or deferred. */
  #handledTo = 0;
  /** The bytes of a deferred candidate from earlier chunks while it is shorter than a deferred token. */
  readonly #pending = new Uint8Array(MIN_DEFERRED_TOKEN_BYTES);
  #pendingLength = 0;
  /** The chunk being lexed, and its absolute offset. */
  #chunk: Uint8Array = new Uint8Array(0);
  #base = 0;
  #state = BETWEEN;
  #hexLeft = 0;
  /** Grammar position of each open container (tracked part), and whether an object awaits a key. */
  readonly #positions = new Uint8Array(MAX_TRACKED_DEPTH + 1);
  readonly #expectKey = new Uint8Array(MAX_TRACKED_DEPTH + 1);
  #depth = 0;
  /** The current string: a key, a deferred value, or another string. */
  #stringIsKey = false;
  #stringStart = -1;
  #deferring = false;
  /** Raw bytes of the key being read (up to MAX_KEY_BYTES), and whether it overflowed. */
  readonly #key = new Uint8Array(MAX_KEY_BYTES);
  #keyLength = 0;
  #keyEscaped = false;
  /** The grammar position a value of the last key would have. */
  #valuePosition = EXPORT;
  /** A string token had an invalid escape or a raw control character: the document is not JSON. */
  #invalid = false;
  /** The offset of the first byte that made `#invalid`, or -1. */
  #firstInvalid = -1;
  /** The current chunk four bytes at a time, for skipping string content. */
  #words: DataView | undefined;
  readonly #skipper: grammar.StringSkipper | undefined;
  /** The skipper's skip over the current chunk, when there is a skipper. */
  #skipLong: ((at: number) => number) | undefined;

  /** @param skipper skips the deferred strings' plain bytes instead of `grammar.skipLongStringBytes`. */
  constructor(readAgain?: ReadAgain, skipper?: grammar.StringSkipper) {
    this.#positions[0] = EXPORT; // the position the top-level value takes
    this.#readAgain = readAgain;
    this.#kept = readAgain ? undefined : new ChunkList();
    this.#skipper = skipper;
  }

  /**
   * The offset of the first byte that no JSON text could hold where it stands (outside a string: a
   * byte no token has; inside: a raw control character, a bad escape), or -1. The reader stops
   * reading there: the text cannot parse, and V8's message is about an error at or before it.
   */
  get firstInvalidByte(): number {
    return this.#firstInvalid;
  }

  #markInvalid(absolute: number): void {
    if (!this.#invalid) this.#firstInvalid = absolute;
    this.#invalid = true;
  }

  /** Lexes the next bytes (any split: inside strings, escapes or UTF-8 sequences). */
  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    const base = this.#length;
    this.#length += chunk.byteLength;
    this.#kept?.push(chunk);
    this.#chunk = chunk;
    this.#base = base;
    this.#words = grammar.wordView(chunk);
    this.#skipLong = this.#skipper?.over(chunk);
    let i = 0;
    const length = chunk.length;
    while (i < length) {
      if (this.#state === IN_STRING) {
        i = this.#scanString(chunk, i, length);
        if (i < length) i = this.#stringByte(chunk[i]!, base + i, i);
      } else if (this.#state === BETWEEN) {
        i = this.#between(chunk, i, length, base);
      } else {
        this.#escapeByte(chunk[i]!, base + i);
        i++;
      }
    }
    this.#endOfChunk();
  }

  /** Bytes [from, to) of the current chunk into the skeleton (absolute offsets; the list copies them). */
  #copy(from: number, to: number): void {
    if (to > from) this.#skeleton.push(this.#chunk.subarray(from - this.#base, to - this.#base));
  }

  /**
   * The chunk ends: its bytes not yet handled go into the skeleton, except a deferred candidate's.
   * While it is shorter than a deferred token, its bytes wait in `#pending` (it may still end
   * short, and stay); once it is that long, no more are kept (it is deferred if it ends).
   */
  #endOfChunk(): void {
    const end = this.#length;
    if (!this.#deferring) this.#copy(this.#handledTo, end);
    else if (end - this.#stringStart >= MIN_DEFERRED_TOKEN_BYTES) this.#copy(this.#handledTo, this.#stringStart);
    else {
      const from = Math.max(this.#handledTo, this.#stringStart);
      this.#copy(this.#handledTo, from);
      this.#pending.set(this.#chunk.subarray(from - this.#base), this.#pendingLength);
      this.#pendingLength += end - from;
    }
    this.#handledTo = end;
  }

  /** A deferred candidate [start, end) ended: its placeholder replaces it, or, when short, it stays. */
  #endCandidate(start: number, end: number): void {
    if (end - start < MIN_DEFERRED_TOKEN_BYTES) {
      if (this.#pendingLength > 0) this.#skeleton.push(this.#pending.subarray(0, this.#pendingLength));
      this.#pendingLength = 0;
      return;
    }
    this.#copy(this.#handledTo, start);
    this.#pendingLength = 0;
    this.#skeleton.push(asciiBytes(`"\\u0000${this.#nonce}#${this.#spans.length >> 1}"`));
    this.#handledTo = end;
    this.#spans.push(start, end);
  }

  /** Bytes [start, end) of the document, for a use that ends before the next read. */
  #readTransient(start: number, end: number): Uint8Array {
    if (this.#kept) return this.#kept.readTransient(start, end);
    const bytes = this.#readAgain!(start, end);
    if (bytes.byteLength !== end - start)
      throw new Error(`the input gave ${bytes.byteLength} bytes when read again at [${start}, ${end})`);
    return bytes;
  }

  /** Ends the document. */
  finish(): SkimmedDocument {
    const spans = this.#spans;
    const length = this.#length;
    // The lexer is exact up to the first error, so a bad or unterminated string means the text
    // does not parse (whether or not the string was deferred).
    const skeleton = this.#invalid || this.#state !== BETWEEN ? undefined : this.#skeleton.bytes();
    const prefix = `\u0000${this.#nonce}#`;
    return {
      skeleton,
      byteLength: length,
      // Only for a document that does not parse: one copy is no matter there.
      firstBytes: (count) => {
        const end = Math.min(count, length);
        return [this.#kept ? this.#kept.read(0, end) : this.#readTransient(0, end).slice()];
      },
      install: (value) =>
        installGetters(value, prefix, (index) => this.#readTransient(spans[2 * index]!, spans[2 * index + 1]!)),
    };
  }

  /** Skips string content that needs no attention; returns the index of the next special byte. */
  #scanString(chunk: Uint8Array, i: number, length: number): number {
    if (this.#stringIsKey) {
      // Keys are short: copy what fits for the grammar test.
      while (i < length) {
        const byte = chunk[i]!;
        if (grammar.mustEscape(byte)) return i;
        if (this.#keyLength < MAX_KEY_BYTES) this.#key[this.#keyLength] = byte;
        this.#keyLength++;
        i++;
      }
      return i;
    }
    // Value strings are most of the document, nearly all of it in the deferred ones: test several
    // bytes at a time where the chunk allows.
    if (!this.#deferring) return grammar.skipStringBytes(chunk, i, this.#words, grammar.STOP_MUST_ESCAPE);
    return this.#skipLong?.(i) ?? grammar.skipLongStringBytes(chunk, i, this.#words, grammar.STOP_MUST_ESCAPE);
  }

  /** A quote, backslash or control byte inside a string. */
  #stringByte(byte: number, absolute: number, i: number): number {
    if (byte === grammar.Byte.Quote) {
      this.#state = BETWEEN;
      if (this.#stringIsKey) this.#endKey();
      else if (this.#deferring) this.#endCandidate(this.#stringStart, absolute + 1);
      this.#deferring = false;
      return i + 1;
    }
    if (byte === grammar.Byte.Backslash) {
      this.#state = AFTER_BACKSLASH;
      if (this.#stringIsKey) {
        this.#keyEscaped = true;
        if (this.#keyLength < MAX_KEY_BYTES) this.#key[this.#keyLength] = byte;
        this.#keyLength++;
      }
      return i + 1;
    }
    this.#markInvalid(absolute); // a raw control character
    return i + 1;
  }

  #escapeByte(byte: number, absolute: number): void {
    if (this.#stringIsKey) {
      if (this.#keyLength < MAX_KEY_BYTES) this.#key[this.#keyLength] = byte;
      this.#keyLength++;
    }
    if (this.#state === AFTER_BACKSLASH) {
      if (byte === grammar.Byte.UnicodeEscape) {
        this.#state = IN_UNICODE_ESCAPE;
        this.#hexLeft = 4;
        return;
      }
      if (grammar.escapedByte(byte) === 0) this.#markInvalid(absolute);
      this.#state = IN_STRING;
      return;
    }
    if (!grammar.isHexDigit(byte)) {
      this.#markInvalid(absolute);
      this.#state = IN_STRING;
      return;
    }
    if (--this.#hexLeft === 0) this.#state = IN_STRING;
  }

  /** Structure between tokens; returns where it stopped (after a string's opening quote, or the end). */
  #between(chunk: Uint8Array, i: number, length: number, base: number): number {
    while (i < length) {
      const byte = chunk[i]!;
      i++;
      if (byte === grammar.Byte.Quote) {
        this.#openString(base + i - 1);
        return i;
      }
      if (byte === grammar.Byte.BeginObject || byte === grammar.Byte.BeginArray)
        this.#open(byte === grammar.Byte.BeginObject);
      else if (byte === grammar.Byte.EndObject || byte === grammar.Byte.EndArray) this.#close();
      else if (byte === grammar.Byte.NameSeparator) this.#setExpectKey(false);
      else if (byte === grammar.Byte.ValueSeparator) {
        if (this.#inObject()) this.#setExpectKey(true);
      } else if (OUTSIDE_STRING_BYTES[byte] === 0) this.#markInvalid(base + i - 1);
    }
    return i;
  }

  #openString(absolute: number): void {
    this.#state = IN_STRING;
    this.#stringStart = absolute;
    this.#stringIsKey = this.#inObject() && this.#expectKeyHere();
    this.#keyLength = 0;
    this.#keyEscaped = false;
    this.#deferring = !this.#stringIsKey && this.#inObject() && this.#valuePosition === DEFERRED_STRING;
  }

  /** A key ended: where does its value sit on the grammar? */
  #endKey(): void {
    const here = this.#depth <= MAX_TRACKED_DEPTH ? this.#positions[this.#depth]! : OTHER;
    this.#valuePosition = OTHER;
    if (here === OTHER) return;
    if (here === REPOS) this.#valuePosition = REPO;
    else if (here === FILES) this.#valuePosition = ENTRY;
    else {
      const key = this.#keyText();
      if (here === EXPORT) this.#valuePosition = key === 'files' ? FILES : key === 'repos' ? REPOS : OTHER;
      else if (here === REPO) this.#valuePosition = key === 'export' ? EXPORT : OTHER;
      else if (here === ENTRY)
        this.#valuePosition = key === 'content_base64' || key === 'data' ? DEFERRED_STRING : OTHER;
    }
  }

  #keyText(): string | undefined {
    if (this.#keyLength > MAX_KEY_BYTES) return undefined;
    const raw = this.#key.subarray(0, this.#keyLength);
    if (!this.#keyEscaped) return String.fromCharCode(...raw);
    try {
      return JSON.parse(`"${String.fromCharCode(...raw)}"`) as string;
    } catch {
      return undefined;
    }
  }

  #open(isObject: boolean): void {
    // The new container's grammar position: the value position of the key before it, or the
    // top-level position; arrays and anything below them are OTHER.
    const position = this.#depth === 0 ? EXPORT : this.#inObject() ? this.#valuePosition : OTHER;
    this.#depth++;
    if (this.#depth <= MAX_TRACKED_DEPTH) {
      this.#positions[this.#depth] = isObject && position <= ENTRY ? position : OTHER;
      this.#expectKey[this.#depth] = isObject ? 1 : 2; // 2: an array
    }
    this.#valuePosition = OTHER;
  }

  #close(): void {
    if (this.#depth > 0) this.#depth--;
    this.#valuePosition = OTHER;
  }

  #inObject(): boolean {
    return this.#depth > 0 && (this.#depth > MAX_TRACKED_DEPTH || this.#expectKey[this.#depth] !== 2);
  }

  #expectKeyHere(): boolean {
    return this.#depth > MAX_TRACKED_DEPTH ? false : this.#expectKey[this.#depth] === 1;
  }

  #setExpectKey(expect: boolean): void {
    if (this.#depth > 0 && this.#depth <= MAX_TRACKED_DEPTH && this.#expectKey[this.#depth] !== 2)
      this.#expectKey[this.#depth] = expect ? 1 : 0;
  }
}

/**
 * The bytes of `text`, all of whose characters are ASCII (a placeholder). A page's first
 * verification spent ~5 ms of the 54 MB export's ~200 in a `TextEncoder` call per placeholder.
 */
function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Sixteen random hex digits (at call time: workerd forbids random values at module top level). */
function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const utf8 = /* @__PURE__ */ new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The string a deferred token denotes: UTF-8 decoded like the whole file, then parsed.
 * @example
 * stringOfToken(new TextEncoder().encode('"a\\nb"')); // 'a\nb'
 */
export function stringOfToken(token: Uint8Array): string {
  return JSON.parse(utf8.decode(token)) as string;
}

/** The deferred fields of each entry object, for checks that can work on the raw token. */
const tokensOf = new WeakMap<object, Map<string, () => Uint8Array>>();

/**
 * The raw JSON string token (quotes included) behind `entry[field]` when that string was deferred,
 * else undefined. Lets a check read a large string's bytes without building the string.
 */
export function deferredToken(entry: object, field: string): Uint8Array | undefined {
  return tokensOf.get(entry)?.get(field)?.();
}

/** Walks the export grammar of `value` and turns each placeholder into a getter. */
function installGetters(value: ParsedValue, prefix: string, spanOf: (index: number) => Uint8Array): void {
  const exports: ParsedValue[] = [value];
  while (exports.length > 0) {
    const current = exports.pop();
    if (!isJsonObject(current)) continue;
    const files = Object.getOwnPropertyDescriptor(current, 'files')?.value as ParsedValue;
    if (isJsonObject(files)) {
      for (const entry of Object.values(files)) {
        if (!isJsonObject(entry)) continue;
        for (const field of ['content_base64', 'data']) {
          const placed = Object.getOwnPropertyDescriptor(entry, field)?.value as ParsedValue;
          if (typeof placed !== 'string' || !placed.startsWith(prefix)) continue;
          const index = Number(placed.slice(prefix.length));
          const token = (): Uint8Array => spanOf(index);
          Object.defineProperty(entry, field, {
            get: () => stringOfToken(token()),
            enumerable: true,
            configurable: true,
          });
          const tokens = tokensOf.get(entry) ?? new Map<string, () => Uint8Array>();
          tokens.set(field, token);
          tokensOf.set(entry, tokens);
        }
      }
    }
    const repos = Object.getOwnPropertyDescriptor(current, 'repos')?.value as ParsedValue;
    if (isJsonObject(repos)) {
      for (const repo of Object.values(repos)) {
        if (isJsonObject(repo)) exports.push(Object.getOwnPropertyDescriptor(repo, 'export')?.value as ParsedValue);
      }
    }
  }
}
