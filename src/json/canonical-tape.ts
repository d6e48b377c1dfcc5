/**
 * Python's canonical JSON bytes (`json.dumps(sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False)` as UTF-8, docs/zaxy.md, 'Canonical JSON') written straight from the input
 * bytes and their tape (`tape.ts`): no values, no intermediate strings. Plain strings and integers
 * are copied as they are; escaped strings are decoded and re-escaped the way Python does; floats
 * are re-printed as Python's repr; object members are put in code-point order (the byte order of
 * UTF-8) with the last of duplicate keys kept.
 *
 * This is the fast path for hashing many entries (docs/zaxy.md, 'Reading in one pass');
 * `canonical.ts` is the value-based twin and both must agree byte for byte (property-tested).
 *
 * A value whose structure (node tags, container sizes, keys) was seen before is written from a
 * remembered template instead of by the general walk (docs/zaxy.md, 'Reading in one pass').
 *
 * Plain functions over one reusable state object keep the hot path free of closures.
 * @module
 */
import * as grammar from './_grammar.ts';
import type { SurrogateFault } from './canonical.ts';
import { pythonJsonFloat } from './python-float.ts';
import { latin1 } from './reader.ts';
import {
  ESCAPED,
  LITERAL_NAMES,
  packWords,
  SLOTS,
  TAG_ARRAY,
  TAG_FLOAT,
  TAG_INT,
  TAG_NEG_INFINITY,
  TAG_OBJECT,
  TAG_STRING,
} from './tape.ts';

/** A growable output buffer. */
export interface ByteSink {
  bytes: Uint8Array;
  length: number;
}

/**
 * Creates an empty sink.
 * @example
 * const sink = createByteSink(); // sink.length === 0
 */
export function createByteSink(capacity = 1 << 16): ByteSink {
  return { bytes: new Uint8Array(capacity), length: 0 };
}

/** Makes room for `extra` more bytes; returns the (possibly new) buffer. */
export function ensureCapacity(sink: ByteSink, extra: number): Uint8Array {
  const needed = sink.length + extra;
  if (needed <= sink.bytes.length) return sink.bytes;
  let size = sink.bytes.length * 2;
  while (size < needed) size *= 2;
  const bytes = new Uint8Array(size);
  bytes.set(sink.bytes.subarray(0, sink.length));
  sink.bytes = bytes;
  return bytes;
}

/** Reusable working memory and state for `writeCanonicalFromTape` (one per loop). */
export interface CanonicalScratch {
  /** Members of open objects, four ints each: key slot, value slot, key start, key end. */
  members: Int32Array;
  /** Decoded escaped keys, for comparing. */
  readonly keys: ByteSink;
  /** Open containers, four ints each (`frameTop` is the first free slot). */
  frames: Int32Array;
  frameTop: number;
  /** The call in progress. */
  bytes: Uint8Array;
  tape: Int32Array;
  sink: ByteSink;
  faultBase: number;
  faultStart: number;
  faultEnd: number;
  faultFirst: number;
  faultRunEnd: number;
  /** Key orders of recently seen object shapes (see `orderMembers`). */
  readonly shapes: ObjectShape[];
  shapeNext: number;
  /** Output programs of recently seen whole values (see `CanonicalTemplate`). */
  readonly templates: CanonicalTemplate[];
  templateNext: number;
  /** Nodes of the last value written without a template (a template is made on the second of a size). */
  lastMissNodes: number;
  /** The template the last value given with a layout (`writeCanonicalFromTape`) matched, and where. */
  layoutTemplate: CanonicalTemplate | undefined;
  layout: number;
  layoutNode: number;
  /** `layoutTemplate.made` when it matched (a template made again since must be matched again). */
  layoutMade: number;
  /** Templates made so far, with this scratch. */
  made: number;
  /** Word views of the last input read and the last sink buffer written (`wordsOf`). */
  readonly inputWords: WordView;
  readonly sinkWords: WordView;
}

/**
 * A `DataView` of `of`, read or written four bytes a step. Kept until another buffer is asked for
 * (`wordsOf`), so it holds the last input chunk until then.
 */
interface WordView {
  of: Uint8Array;
  view: DataView;
}

/** The word view of `bytes`, made again only when `bytes` is not the one `cache` views. */
function wordsOf(cache: WordView, bytes: Uint8Array): DataView {
  if (cache.of !== bytes) {
    cache.of = bytes;
    cache.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return cache.view;
}

/**
 * The canonical output of a whole value's structure: its nodes' tags (and containers' sizes) in
 * tape order, its keys' bytes, and the output as fixed pieces (punctuation, keys, literals) between
 * the scalars that vary. Documents repeat whole structures (every entry of a bundle has the same
 * content shape), and a value of a remembered structure is written piece by piece, with no member
 * sorting and no container bookkeeping.
 */
interface CanonicalTemplate {
  nodes: number;
  /** When it was made (`CanonicalScratch.made`). */
  made: number;
  readonly tags: Int32Array;
  /** Per node: the container's size, or for a key its bytes' end in `keys` (start: the previous key's end). */
  readonly sizes: Int32Array;
  readonly keyStarts: Int32Array;
  readonly keys: Uint8Array;
  /** Fixed output pieces, back to back; piece p ends at `pieceEnds[p]`. */
  readonly pieces: Uint8Array;
  /** `pieceWords[i]`: the four piece bytes from `i` on, as a little-endian int (written a word at a time). */
  readonly pieceWords: Int32Array;
  readonly pieceEnds: Int32Array;
  /** Node (index in tape order) of the scalar after piece p. */
  readonly values: Int32Array;
  valueCount: number;
}

/** Templates remembered, replaced in turn. */
const TEMPLATES = 4;
/** Larger values are never templated: what is remembered stays small. */
const MAX_TEMPLATE_NODES = 256;
const MAX_TEMPLATE_BYTES = 4096;
const NOT_KEY = -1;

/**
 * The member order of an object shape: its keys in input order and where each goes when sorted.
 * Documents repeat shapes (every entry of a bundle has the same keys in the same order), and
 * recognising one costs a byte comparison of its keys instead of a sort.
 */
interface ObjectShape {
  count: number;
  /** The keys' bytes, back to back, in input order. */
  readonly keys: Uint8Array;
  /** End of each key in `keys`. */
  readonly keyEnds: Int32Array;
  /** For each sorted position, the input position of its member. */
  readonly order: Int32Array;
}

/** Shapes remembered, replaced in turn. */
const SHAPES = 8;
/**
 * Objects with more members, or longer keys in all, are always sorted: what is remembered stays
 * small (a hostile document's giant keys are not copied), and such objects are not worth it.
 */
const MAX_SHAPE_MEMBERS = 32;
const MAX_SHAPE_KEY_BYTES = 1024;

const EMPTY_BYTES = new Uint8Array(0);
const EMPTY_TAPE = new Int32Array(0);

/**
 * Creates scratch memory for `writeCanonicalFromTape`.
 * @example
 * const scratch = createCanonicalScratch();
 */
export function createCanonicalScratch(): CanonicalScratch {
  return {
    members: new Int32Array(1024),
    keys: createByteSink(256),
    frames: new Int32Array(256),
    frameTop: 0,
    bytes: EMPTY_BYTES,
    tape: EMPTY_TAPE,
    sink: { bytes: EMPTY_BYTES, length: 0 },
    faultBase: 0,
    faultStart: -1,
    faultEnd: -1,
    faultFirst: 0,
    faultRunEnd: -1,
    shapes: Array.from({ length: SHAPES }, () => ({
      count: 0,
      keys: new Uint8Array(MAX_SHAPE_KEY_BYTES),
      keyEnds: new Int32Array(MAX_SHAPE_MEMBERS),
      order: new Int32Array(MAX_SHAPE_MEMBERS),
    })),
    shapeNext: 0,
    templates: Array.from({ length: TEMPLATES }, () => ({
      nodes: 0,
      made: 0,
      tags: new Int32Array(MAX_TEMPLATE_NODES),
      sizes: new Int32Array(MAX_TEMPLATE_NODES),
      keyStarts: new Int32Array(MAX_TEMPLATE_NODES),
      keys: new Uint8Array(MAX_TEMPLATE_BYTES),
      pieces: new Uint8Array(MAX_TEMPLATE_BYTES + 3),
      pieceWords: new Int32Array(MAX_TEMPLATE_BYTES),
      pieceEnds: new Int32Array(MAX_TEMPLATE_NODES + 1),
      values: new Int32Array(MAX_TEMPLATE_NODES),
      valueCount: 0,
    })),
    templateNext: 0,
    lastMissNodes: -1,
    layoutTemplate: undefined,
    layout: 0,
    layoutNode: -1,
    layoutMade: 0,
    made: 0,
    inputWords: { of: EMPTY_BYTES, view: new DataView(EMPTY_BYTES.buffer) },
    sinkWords: { of: EMPTY_BYTES, view: new DataView(EMPTY_BYTES.buffer) },
  };
}

const HEX = /* @__PURE__ */ new TextEncoder().encode('0123456789abcdef');
/** `LITERAL_BYTES[tag]`: a literal node's name, which Python writes as it reads it. */
const LITERAL_BYTES: readonly (Uint8Array | undefined)[] = /* @__PURE__ */ LITERAL_NAMES.map((name) =>
  name === undefined ? undefined : new TextEncoder().encode(name),
);

/**
 * Appends the canonical bytes of the tape node `node` to `sink`.
 * `layout`, when not 0, says the value has the same structure as every other value given with it
 * at the same `node`: the same nodes, container sizes, keys and literals, numbers of any kind (a
 * streamed element's `TapeNode.layout`, `scan-template.ts`). The template one of them matched is
 * then taken without comparing again.
 * @returns the first run of lone surrogates (positions in code points counted from the sink's
 *   length at the call), which Python could not encode; the bytes are then not canonical JSON.
 * @example
 * const context = createScanContext(bytes, 1000);
 * scanValue(context, 0, 0);
 * const sink = createByteSink();
 * writeCanonicalFromTape(bytes, context.tape.data, 0, sink, createCanonicalScratch()); // undefined
 */
export function writeCanonicalFromTape(
  bytes: Uint8Array,
  tape: Int32Array,
  node: number,
  sink: ByteSink,
  scratch: CanonicalScratch,
  layout = 0,
): SurrogateFault | undefined {
  const s = scratch;
  s.bytes = bytes;
  s.tape = tape;
  s.sink = sink;
  s.faultBase = sink.length;
  s.faultStart = -1;
  s.faultEnd = -1;
  s.faultRunEnd = -1;
  const rootTag = tape[node]!;
  const nodes = rootTag === TAG_OBJECT || rootTag === TAG_ARRAY ? (tape[node + 2]! - node) / SLOTS : 0;
  if (nodes > 1 && nodes <= MAX_TEMPLATE_NODES) {
    const template =
      layout !== 0 && layout === s.layout && node === s.layoutNode && s.layoutTemplate!.made === s.layoutMade
        ? s.layoutTemplate
        : matchTemplate(s, node, nodes);
    if (template !== undefined && layout !== 0 && template !== s.layoutTemplate) {
      s.layoutTemplate = template;
      s.layout = layout;
      s.layoutNode = node;
      s.layoutMade = template.made;
    }
    if (template !== undefined) {
      writeFromTemplate(s, template, node);
      return finish(s);
    }
  }
  if (writeTree(s, node) === undefined && nodes > 1 && nodes <= MAX_TEMPLATE_NODES) {
    if (s.lastMissNodes === nodes) makeTemplate(s, node, nodes);
    s.lastMissNodes = nodes;
  }
  return finish(s);
}

function finish(s: CanonicalScratch): SurrogateFault | undefined {
  s.bytes = EMPTY_BYTES;
  s.tape = EMPTY_TAPE;
  return s.faultStart < 0 ? undefined : { start: s.faultStart, end: s.faultEnd, first: s.faultFirst };
}

/** A remembered template of the value at `node`, if any: the same nodes, sizes and keys. */
function matchTemplate(s: CanonicalScratch, node: number, nodes: number): CanonicalTemplate | undefined {
  const tape = s.tape;
  const bytes = s.bytes;
  search: for (const template of s.templates) {
    if (template.nodes !== nodes) continue;
    const tags = template.tags;
    const sizes = template.sizes;
    const keyStarts = template.keyStarts;
    const keys = template.keys;
    for (let i = 0, at = node; i < nodes; i++, at += SLOTS) {
      const tag = tape[at]!;
      if (tag !== tags[i]) continue search;
      const from = keyStarts[i]!;
      if (from !== NOT_KEY) {
        // Remembered keys are plain: an escaped key (a backslash in its bytes) never equals one.
        const start = tape[at + 1]!;
        const length = tape[at + 2]! - start;
        if (sizes[i]! - from !== length) continue search;
        for (let k = 0; k < length; k++) if (bytes[start + k] !== keys[from + k]) continue search;
      } else if ((tag === TAG_OBJECT || tag === TAG_ARRAY) && tape[at + 1] !== sizes[i]) continue search;
    }
    return template;
  }
  return undefined;
}

/** Writes the value at `node` by `template` (which it matches). */
function writeFromTemplate(s: CanonicalScratch, template: CanonicalTemplate, node: number): void {
  const tape = s.tape;
  const bytes = s.bytes;
  const sink = s.sink;
  const pieceWords = template.pieceWords;
  const pieceEnds = template.pieceEnds;
  const values = template.values;
  let from = 0;
  for (let p = 0; p <= template.valueCount; p++) {
    const to = pieceEnds[p]!;
    let out = sink.bytes;
    let o = sink.length;
    // A word at a time: the last one may write up to three bytes past the piece, which the sink
    // has room for and the next bytes written replace.
    if (o + (to - from) + 3 > out.length) out = ensureCapacity(sink, to - from + 3);
    const words = wordsOf(s.sinkWords, out);
    for (let i = from, w = o; i < to; i += 4, w += 4) words.setInt32(w, pieceWords[i]!, true);
    o += to - from;
    sink.length = o;
    from = to;
    if (p === template.valueCount) break;
    const slot = node + SLOTS * values[p]!;
    const tag = tape[slot]!;
    const start = tape[slot + 1]!;
    const end = tape[slot + 2]!;
    if (tag === TAG_STRING || tag === TAG_INT) {
      if (o + (end - start) + 3 > out.length) out = ensureCapacity(sink, end - start + 3);
      sink.length =
        tag === TAG_STRING
          ? writeStringBody(s, tape[slot + 3]!, start, end, out, o)
          : writeIntLexeme(bytes, start, end, out, o);
    } else writeOtherScalar(s, slot);
  }
}

/**
 * Remembers the structure of the value at `node` (just written without error) as a template, in
 * place of the oldest, unless it is too large or has an escaped or a repeated key.
 */
function makeTemplate(s: CanonicalScratch, node: number, nodes: number): void {
  const template = s.templates[s.templateNext]!;
  template.nodes = 0;
  template.made = ++s.made;
  const builder = { template, node, pieceLength: 0, keyLength: 0, values: 0 };
  const tape = s.tape;
  for (let i = 0, at = node; i < nodes; i++, at += SLOTS) {
    const tag = tape[at]!;
    template.tags[i] = tag;
    template.keyStarts[i] = NOT_KEY;
    template.sizes[i] = tag === TAG_OBJECT || tag === TAG_ARRAY ? tape[at + 1]! : 0;
  }
  if (!addPieces(s, builder, node, 0)) return;
  template.pieceEnds[builder.values] = builder.pieceLength;
  packWords(template.pieces, builder.pieceLength, template.pieceWords);
  template.valueCount = builder.values;
  template.nodes = nodes;
  s.templateNext = (s.templateNext + 1) % TEMPLATES;
}

interface TemplateBuilder {
  readonly template: CanonicalTemplate;
  readonly node: number;
  pieceLength: number;
  keyLength: number;
  values: number;
}

function addPiece(b: TemplateBuilder, source: Uint8Array, start: number, end: number): boolean {
  if (b.pieceLength + end - start > MAX_TEMPLATE_BYTES) return false;
  b.template.pieces.set(source.subarray(start, end), b.pieceLength);
  b.pieceLength += end - start;
  return true;
}

function addByte(b: TemplateBuilder, byte: number): boolean {
  if (b.pieceLength + 1 > MAX_TEMPLATE_BYTES) return false;
  b.template.pieces[b.pieceLength++] = byte;
  return true;
}

function addValue(b: TemplateBuilder, slot: number): void {
  b.template.pieceEnds[b.values] = b.pieceLength;
  b.template.values[b.values++] = (slot - b.node) / SLOTS;
}

/** Adds the pieces of the node at `slot` (members ordered at `s.members[base..]`); false: not templated. */
function addPieces(s: CanonicalScratch, b: TemplateBuilder, slot: number, base: number): boolean {
  const tape = s.tape;
  const tag = tape[slot]!;
  if (tag === TAG_OBJECT) {
    const count = tape[slot + 1]!;
    if (!addByte(b, grammar.Byte.BeginObject)) return false;
    if (count > 0) {
      if (orderMembers(s, slot, count, base) !== count) return false; // a repeated key
      for (let j = 0; j < count; j++) {
        const at = base + 4 * j;
        const key = s.members[at]!;
        if ((tape[key + 3]! & ESCAPED) !== 0) return false;
        const start = tape[key + 1]!;
        const end = tape[key + 2]!;
        if (b.keyLength + end - start > MAX_TEMPLATE_BYTES) return false;
        const index = (key - b.node) / SLOTS;
        b.template.keyStarts[index] = b.keyLength;
        b.template.keys.set(s.bytes.subarray(start, end), b.keyLength);
        b.keyLength += end - start;
        b.template.sizes[index] = b.keyLength;
        if (j > 0 && !addByte(b, grammar.Byte.ValueSeparator)) return false;
        if (!addByte(b, grammar.Byte.Quote) || !addPiece(b, s.bytes, start, end)) return false;
        if (!addByte(b, grammar.Byte.Quote) || !addByte(b, grammar.Byte.NameSeparator)) return false;
        if (!addPieces(s, b, s.members[at + 1]!, base + 8 * count)) return false;
      }
    }
    return addByte(b, grammar.Byte.EndObject);
  }
  if (tag === TAG_ARRAY) {
    const count = tape[slot + 1]!;
    if (!addByte(b, grammar.Byte.BeginArray)) return false;
    let child = slot + SLOTS;
    for (let j = 0; j < count; j++) {
      if (j > 0 && !addByte(b, grammar.Byte.ValueSeparator)) return false;
      if (!addPieces(s, b, child, base)) return false;
      child = nextSlot(tape, child);
    }
    return addByte(b, grammar.Byte.EndArray);
  }
  if (tag === TAG_STRING) {
    if (!addByte(b, grammar.Byte.Quote)) return false;
    addValue(b, slot);
    return addByte(b, grammar.Byte.Quote);
  }
  // -Infinity is read as a number: where a layout has a number, it may be one (see `layout`).
  if (tag === TAG_INT || tag === TAG_FLOAT || tag === TAG_NEG_INFINITY) {
    addValue(b, slot);
    return true;
  }
  const name = LITERAL_BYTES[tag]!;
  return addPiece(b, name, 0, name.length);
}

/** The generic walk of `writeCanonicalFromTape`. */
function writeTree(s: CanonicalScratch, node: number): SurrogateFault | undefined {
  const bytes = s.bytes;
  const tape = s.tape;
  const sink = s.sink;
  const frameBase = s.frameTop;
  let frames = s.frames;
  let top = frameBase; // first free frame slot
  let membersTop = 0;
  // The hot loop keeps the output buffer and offset in locals; `sink.length` is synced around calls.
  let out = sink.bytes;
  let o = sink.length;
  let slot = node;
  let isKey = false;
  for (;;) {
    // Emit the node at `slot` (a key string when isKey).
    const tag = tape[slot]!;
    if (tag === TAG_STRING) {
      const start = tape[slot + 1]!;
      const end = tape[slot + 2]!;
      const n = end - start;
      if (o + n + 8 > out.length) {
        sink.length = o;
        out = ensureCapacity(sink, n + 8);
      }
      out[o++] = grammar.Byte.Quote;
      o = writeStringBody(s, tape[slot + 3]!, start, end, out, o);
      out[o++] = grammar.Byte.Quote;
      if (isKey) {
        out[o++] = grammar.Byte.NameSeparator;
        isKey = false;
        slot = s.members[frames[top - 3]! - 3]!; // the value of the member just started
        continue;
      }
    } else if (tag === TAG_INT) {
      const start = tape[slot + 1]!;
      const end = tape[slot + 2]!;
      if (o + end - start + 8 > out.length) {
        sink.length = o;
        out = ensureCapacity(sink, end - start + 8);
      }
      o = writeIntLexeme(bytes, start, end, out, o);
    } else if (tag === TAG_OBJECT || tag === TAG_ARRAY) {
      const count = tape[slot + 1]!;
      if (o + 8 > out.length) {
        sink.length = o;
        out = ensureCapacity(sink, 8);
      }
      if (top + 4 > frames.length) {
        const grown = new Int32Array(frames.length * 2);
        grown.set(frames);
        frames = s.frames = grown;
      }
      if (tag === TAG_ARRAY) {
        out[o++] = grammar.Byte.BeginArray;
        if (count === 0) out[o++] = grammar.Byte.EndArray;
        else {
          frames[top] = TAG_ARRAY;
          frames[top + 1] = slot + SLOTS;
          frames[top + 2] = count;
          frames[top + 3] = 1;
          top += 4;
        }
      } else {
        out[o++] = grammar.Byte.BeginObject;
        if (count === 0) out[o++] = grammar.Byte.EndObject;
        else {
          const kept = orderMembers(s, slot, count, membersTop);
          frames[top] = TAG_OBJECT;
          frames[top + 1] = membersTop;
          frames[top + 2] = membersTop + 4 * kept;
          frames[top + 3] = membersTop;
          top += 4;
          membersTop += 4 * count;
        }
      }
    } else {
      sink.length = o;
      writeOtherScalar(s, slot);
      out = sink.bytes;
      o = sink.length;
    }

    // Find the next node to emit: the next member / element of the innermost open container.
    let next = -1;
    while (top > frameBase) {
      const frame = top - 4;
      if (o + 2 > out.length) {
        sink.length = o;
        out = ensureCapacity(sink, 2);
      }
      if (frames[frame] === TAG_OBJECT) {
        const cursor = frames[frame + 1]!;
        const base = frames[frame + 3]!;
        if (cursor === frames[frame + 2]) {
          out[o++] = grammar.Byte.EndObject;
          membersTop = base;
          top = frame;
          continue;
        }
        if (cursor > base) out[o++] = grammar.Byte.ValueSeparator;
        frames[frame + 1] = cursor + 4;
        next = s.members[cursor]!;
        isKey = true;
        break;
      }
      const remaining = frames[frame + 2]!;
      if (remaining === 0) {
        out[o++] = grammar.Byte.EndArray;
        top = frame;
        continue;
      }
      const child = frames[frame + 1]!;
      if (frames[frame + 3] === 1) frames[frame + 3] = 0;
      else out[o++] = grammar.Byte.ValueSeparator;
      const childTag = tape[child]!;
      frames[frame + 1] = childTag === TAG_OBJECT || childTag === TAG_ARRAY ? tape[child + 2]! : child + SLOTS;
      frames[frame + 2] = remaining - 1;
      next = child;
      break;
    }
    if (next < 0) break;
    slot = next;
  }
  sink.length = o;
  s.frameTop = frameBase;
  return s.faultStart < 0 ? undefined : { start: s.faultStart, end: s.faultEnd, first: s.faultFirst };
}

/**
 * Writes a string's body (without quotes) the canonical way: plain bytes as they are, escapes
 * re-escaped (`writeUnescaped`); returns the new offset. Room for end - start bytes must be made.
 */
function writeStringBody(
  s: CanonicalScratch,
  flags: number,
  start: number,
  end: number,
  out: Uint8Array,
  o: number,
): number {
  const bytes = s.bytes;
  if ((flags & ESCAPED) !== 0) return writeUnescaped(bytes, start, end, out, o, s);
  if (end - start > 32) {
    out.set(bytes.subarray(start, end), o);
    return o + end - start;
  }
  return copyShort(s, start, end, out, o);
}

/**
 * Copies the input's bytes [start, end) to `out` at `o`, a word at a time where the input has
 * three bytes after `end` and `out` room for three more: the last word copies them too, and
 * the next bytes written replace them. Returns the new offset.
 */
function copyShort(s: CanonicalScratch, start: number, end: number, out: Uint8Array, o: number): number {
  const bytes = s.bytes;
  if (end + 3 > bytes.length || o + (end - start) + 3 > out.length) {
    for (let i = start; i < end; i++) out[o++] = bytes[i]!;
    return o;
  }
  const input = wordsOf(s.inputWords, bytes);
  const output = wordsOf(s.sinkWords, out);
  for (let i = start, w = o; i < end; i += 4, w += 4) output.setInt32(w, input.getInt32(i));
  return o + end - start;
}

/** Writes an int lexeme; returns the new offset. Room for end - start bytes must be made. */
function writeIntLexeme(bytes: Uint8Array, start: number, end: number, out: Uint8Array, o: number): number {
  // Python's int has no negative zero: `-0` prints as `0`; every other int lexeme is canonical.
  if (end - start === 2 && bytes[start] === grammar.Byte.Minus && bytes[start + 1] === 0x30) {
    out[o] = 0x30;
    return o + 1;
  }
  for (let i = start; i < end; i++) out[o++] = bytes[i]!;
  return o;
}

/** The slot just past the node at `slot` (and its subtree). */
export function nextSlot(tape: Int32Array, slot: number): number {
  const tag = tape[slot]!;
  return tag === TAG_OBJECT || tag === TAG_ARRAY ? tape[slot + 2]! : slot + SLOTS;
}

function putBytes(sink: ByteSink, word: Uint8Array): void {
  const out = sink.length + word.length > sink.bytes.length ? ensureCapacity(sink, word.length) : sink.bytes;
  out.set(word, sink.length);
  sink.length += word.length;
}

/** Floats (Python's repr) and the literal names. */
function writeOtherScalar(s: CanonicalScratch, slot: number): void {
  const tape = s.tape;
  const sink = s.sink;
  const tag = tape[slot]!;
  if (tag !== TAG_FLOAT) {
    const name = LITERAL_BYTES[tag];
    if (name === undefined) throw new Error(`bad tape: tag ${tag} at slot ${slot}`);
    return putBytes(sink, name);
  }
  const start = tape[slot + 1]!;
  const end = tape[slot + 2]!;
  if (isReprLexeme(s.bytes, start, end)) {
    const out = ensureCapacity(sink, end - start);
    out.set(s.bytes.subarray(start, end), sink.length);
    sink.length += end - start;
    return;
  }
  const text = pythonJsonFloat(Number(latin1(s.bytes, start, end)));
  const out = ensureCapacity(sink, text.length);
  let o = sink.length;
  for (let i = 0; i < text.length; i++) out[o++] = text.charCodeAt(i);
  sink.length = o;
}

/**
 * True when a float lexeme already is Python's repr of its value, so it can be copied instead of
 * parsed and re-printed: positional (`-?D.D`, no exponent), Python's layout (no redundant zeros
 * except the `.0` of an integral value), decimal point position in (-4, 16], and at most 15
 * significant digits. Why that suffices: distinct decimals of at most 15 significant digits
 * round to distinct doubles (DBL_DIG = 15), so no shorter or other string of that length reads
 * back as the same double; the shortest round-trip digits are the lexeme's own.
 */
function isReprLexeme(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  if (bytes[i] === grammar.Byte.Minus) i++;
  const wholeStart = i;
  while (i < end && bytes[i] !== grammar.Byte.DecimalPoint) {
    if (!grammar.isDigit(bytes[i]!)) return false; // an exponent: not positional
    i++;
  }
  const wholeEnd = i;
  if (i === end || i + 1 === end) return false;
  const fractionStart = i + 1;
  for (let k = fractionStart; k < end; k++) if (!grammar.isDigit(bytes[k]!)) return false;
  const wholeDigits = wholeEnd - wholeStart;
  const fractionDigits = end - fractionStart;
  const integral = fractionDigits === 1 && bytes[fractionStart] === 0x30;
  if (!integral && bytes[end - 1] === 0x30) return false; // 1.50 prints as 1.5
  let significant: number;
  if (wholeDigits === 1 && bytes[wholeStart] === 0x30) {
    if (integral) return true; // 0.0 and -0.0
    let zeros = 0;
    while (bytes[fractionStart + zeros] === 0x30) zeros++;
    if (zeros > 3) return false; // below 1e-4 Python switches to exponent notation
    significant = fractionDigits - zeros;
  } else {
    if (wholeDigits > 16) return false; // 1e16 and above use exponent notation
    if (integral) {
      let last = wholeEnd;
      while (last > wholeStart + 1 && bytes[last - 1] === 0x30) last--;
      significant = last - wholeStart;
    } else significant = wholeDigits + fractionDigits;
  }
  return significant <= 15;
}

/**
 * The body of an escaped string with its escapes decoded (`_grammar.ts`), written for `s` the way
 * Python's `c_encode_basestring` (ensure_ascii=False) re-escapes it, or, without `s`, as
 * generalised UTF-8 (to compare keys). Every escape re-encodes to at most its own length, so
 * end - start bytes of room are enough.
 */
function writeUnescaped(
  bytes: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  o: number,
  s: CanonicalScratch | undefined,
): number {
  let i = start;
  while (i < end) {
    const c = bytes[i]!;
    if (c !== grammar.Byte.Backslash) {
      out[o++] = c;
      i++;
      continue;
    }
    const cp = grammar.escapedCodePoint(bytes, i, end);
    i += grammar.escapeLength(bytes, i, cp);
    o = s === undefined ? writeUtf8(out, o, cp) : writeCodePoint(s, out, o, cp);
  }
  return o;
}

/** Writes one decoded code point the canonical way; returns the new offset. */
function writeCodePoint(s: CanonicalScratch, out: Uint8Array, o: number, cp: number): number {
  if (grammar.isControlCharacter(cp) || cp === grammar.Byte.Quote || cp === grammar.Byte.Backslash) {
    out[o++] = grammar.Byte.Backslash;
    const letter = grammar.escapeLetter(cp);
    if (letter !== 0) out[o++] = letter;
    else {
      out[o++] = grammar.Byte.UnicodeEscape;
      out[o++] = 0x30;
      out[o++] = 0x30;
      out[o++] = HEX[cp >> 4]!;
      out[o++] = HEX[cp & 15]!;
    }
    return o;
  }
  if (cp >= 0xd800 && cp <= 0xdfff) noteSurrogate(s, out, o, cp);
  return writeUtf8(out, o, cp);
}

/** Writes `cp` as UTF-8, lone surrogates as generalised UTF-8 (3 bytes) so positions and order hold. */
function writeUtf8(out: Uint8Array, o: number, cp: number): number {
  if (cp < 0x80) out[o++] = cp;
  else if (cp < 0x800) {
    out[o++] = 0xc0 | (cp >> 6);
    out[o++] = 0x80 | (cp & 63);
  } else if (cp < 0x10000) {
    out[o++] = 0xe0 | (cp >> 12);
    out[o++] = 0x80 | ((cp >> 6) & 63);
    out[o++] = 0x80 | (cp & 63);
  } else {
    out[o++] = 0xf0 | (cp >> 18);
    out[o++] = 0x80 | ((cp >> 12) & 63);
    out[o++] = 0x80 | ((cp >> 6) & 63);
    out[o++] = 0x80 | (cp & 63);
  }
  return o;
}

/** Tracks the first run of adjacent lone surrogates (what Python's encoder reports). */
function noteSurrogate(s: CanonicalScratch, out: Uint8Array, o: number, cp: number): void {
  if (s.faultStart < 0) {
    let position = 0;
    for (let k = s.faultBase; k < o; k++) if ((out[k]! & 0xc0) !== 0x80) position++;
    s.faultStart = position;
    s.faultEnd = position + 1;
    s.faultFirst = cp;
    s.faultRunEnd = o + 3;
  } else if (s.faultRunEnd === o) {
    s.faultEnd++;
    s.faultRunEnd = o + 3;
  } else {
    s.faultRunEnd = -1; // the first run is closed; later ones do not matter
  }
}

/**
 * Lists the members of the object at `slot` in canonical order at `members[base..]`, keeping only
 * the last of equal keys; returns how many were kept.
 */
function orderMembers(s: CanonicalScratch, slot: number, count: number, base: number): number {
  if (s.members.length < base + 8 * count) {
    let size = s.members.length * 2;
    while (size < base + 8 * count) size *= 2;
    const grown = new Int32Array(size);
    grown.set(s.members.subarray(0, base));
    s.members = grown;
  }
  const members = s.members;
  const tape = s.tape;
  const bytes = s.bytes;
  s.keys.length = 0;
  // Gather in input order at base + 4 * count; the sorted list goes to base.
  const gather = base + 4 * count;
  let child = slot + SLOTS;
  for (let j = 0; j < count; j++) {
    const at = gather + 4 * j;
    members[at] = child;
    members[at + 1] = child + SLOTS;
    const start = tape[child + 1]!;
    const end = tape[child + 2]!;
    if ((tape[child + 3]! & ESCAPED) === 0) {
      members[at + 2] = start;
      members[at + 3] = end;
    } else {
      members[at + 2] = s.keys.length;
      decodeKey(bytes, start, end, s.keys);
      members[at + 3] = s.keys.length;
    }
    const value = child + SLOTS;
    const tag = tape[value]!;
    child = tag === TAG_OBJECT || tag === TAG_ARRAY ? tape[value + 2]! : value + SLOTS;
  }
  if (count > MAX_SHAPE_MEMBERS || !plainKeys(s, gather, count)) return sortGathered(s, gather, count, base);
  if (orderFromShape(s, gather, count, base)) return count;
  const kept = sortGathered(s, gather, count, base);
  if (kept === count) rememberShape(s, gather, count, base);
  return kept;
}

/** No gathered key has escapes (so each one's bytes are in the input as they compare). */
function plainKeys(s: CanonicalScratch, gather: number, count: number): boolean {
  for (let j = 0; j < count; j++) if ((s.tape[s.members[gather + 4 * j]! + 3]! & ESCAPED) !== 0) return false;
  return true;
}

/** Puts the gathered members in order at `base` when their keys are a remembered shape's. */
function orderFromShape(s: CanonicalScratch, gather: number, count: number, base: number): boolean {
  const members = s.members;
  const bytes = s.bytes;
  search: for (const shape of s.shapes) {
    if (shape.count !== count) continue;
    const keys = shape.keys;
    let from = 0;
    for (let j = 0; j < count; j++) {
      const start = members[gather + 4 * j + 2]!;
      const length = members[gather + 4 * j + 3]! - start;
      if (shape.keyEnds[j]! - from !== length) continue search;
      for (let i = 0; i < length; i++) if (keys[from + i] !== bytes[start + i]) continue search;
      from += length;
    }
    for (let j = 0; j < count; j++) {
      const at = gather + 4 * shape.order[j]!;
      const to = base + 4 * j;
      members[to] = members[at]!;
      members[to + 1] = members[at + 1]!;
      members[to + 2] = members[at + 2]!;
      members[to + 3] = members[at + 3]!;
    }
    return true;
  }
  return false;
}

/** Remembers the order `sortGathered` just found (distinct plain keys, not too long), in place of the oldest shape. */
function rememberShape(s: CanonicalScratch, gather: number, count: number, base: number): void {
  const members = s.members;
  let length = 0;
  for (let j = 0; j < count; j++) length += members[gather + 4 * j + 3]! - members[gather + 4 * j + 2]!;
  if (length > MAX_SHAPE_KEY_BYTES) return;
  const shape = s.shapes[s.shapeNext]!;
  s.shapeNext = (s.shapeNext + 1) % SHAPES;
  let end = 0;
  for (let j = 0; j < count; j++) {
    const start = members[gather + 4 * j + 2]!;
    const stop = members[gather + 4 * j + 3]!;
    shape.keys.set(s.bytes.subarray(start, stop), end);
    end += stop - start;
    shape.keyEnds[j] = end;
    // The sorted member j is the gathered member with the same key slot.
    let input = 0;
    while (members[gather + 4 * input] !== members[base + 4 * j]) input++;
    shape.order[j] = input;
  }
  shape.count = count;
}

/** Sorts the gathered members into `base` (stable insertion sort), dropping all but the last of equal keys. */
function sortGathered(s: CanonicalScratch, gather: number, count: number, base: number): number {
  const members = s.members;
  for (let k = 0; k < 4 * count; k++) members[base + k] = members[gather + k]!;
  let duplicates = false;
  for (let j = 1; j < count; j++) {
    const at = base + 4 * j;
    const k0 = members[at]!;
    const k1 = members[at + 1]!;
    const k2 = members[at + 2]!;
    const k3 = members[at + 3]!;
    let hole = at;
    let order = 1;
    while (
      hole > base &&
      (order = compareKeys(s, members[hole - 4]!, members[hole - 2]!, members[hole - 1]!, k0, k2, k3)) > 0
    ) {
      members[hole] = members[hole - 4]!;
      members[hole + 1] = members[hole - 3]!;
      members[hole + 2] = members[hole - 2]!;
      members[hole + 3] = members[hole - 1]!;
      hole -= 4;
    }
    if (hole > base && order === 0) duplicates = true;
    members[hole] = k0;
    members[hole + 1] = k1;
    members[hole + 2] = k2;
    members[hole + 3] = k3;
  }
  if (!duplicates) return count;
  // Keep the last of each run of equal keys (Python's dict: the last value wins).
  let kept = 0;
  for (let j = 0; j < count; j++) {
    const at = base + 4 * j;
    if (
      j + 1 < count &&
      compareKeys(
        s,
        members[at]!,
        members[at + 2]!,
        members[at + 3]!,
        members[at + 4]!,
        members[at + 6]!,
        members[at + 7]!,
      ) === 0
    )
      continue;
    const to = base + 4 * kept;
    members[to] = members[at]!;
    members[to + 1] = members[at + 1]!;
    members[to + 2] = members[at + 2]!;
    members[to + 3] = members[at + 3]!;
    kept++;
  }
  return kept;
}

/** Byte order of the decoded keys = code-point order (UTF-8 preserves it). */
function compareKeys(
  s: CanonicalScratch,
  keyA: number,
  startA: number,
  endA: number,
  keyB: number,
  startB: number,
  endB: number,
): number {
  const tape = s.tape;
  const sourceA = (tape[keyA + 3]! & ESCAPED) === 0 ? s.bytes : s.keys.bytes;
  const sourceB = (tape[keyB + 3]! & ESCAPED) === 0 ? s.bytes : s.keys.bytes;
  const lengthA = endA - startA;
  const lengthB = endB - startB;
  const n = lengthA < lengthB ? lengthA : lengthB;
  for (let i = 0; i < n; i++) {
    const d = sourceA[startA + i]! - sourceB[startB + i]!;
    if (d !== 0) return d;
  }
  return lengthA - lengthB;
}

/** Decodes an escaped key to generalised UTF-8 (lone surrogates as 3 bytes) for comparing. */
function decodeKey(bytes: Uint8Array, start: number, end: number, into: ByteSink): void {
  const out = ensureCapacity(into, end - start);
  into.length = writeUnescaped(bytes, start, end, out, into.length, undefined);
}
