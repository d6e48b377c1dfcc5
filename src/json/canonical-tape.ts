/**
 * Python's canonical JSON bytes (`json.dumps(sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False)` as UTF-8, zaxy spec §5) written straight from the input bytes and their
 * tape (`tape.ts`): no values, no intermediate strings. Plain strings and integers are copied as
 * they are; escaped strings are decoded and re-escaped the way Python does; floats are re-printed
 * as Python's repr; object members are put in code-point order (the byte order of UTF-8) with the
 * last of duplicate keys kept.
 *
 * This is the fast path for hashing many entries (zaxy spec §14 speed note); `canonical.ts` is
 * the value-based twin and both must agree byte for byte (property-tested).
 * @module
 */
import type { SurrogateFault } from './canonical.ts';
import { pythonJsonFloat } from './python-float.ts';
import { latin1 } from './reader.ts';
import {
  ESCAPED,
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

/** Reusable working memory for `writeCanonicalFromTape` (pass one per loop to avoid allocations). */
export interface CanonicalScratch {
  /** Sorted members of open objects, four ints each: key slot, value slot, key start, key end. */
  members: Int32Array;
  /** Decoded escaped keys, for comparing. */
  readonly keys: ByteSink;
  /** Open containers, four numbers each. */
  readonly frames: number[];
}

/**
 * Creates scratch memory for `writeCanonicalFromTape`.
 * @example
 * const scratch = createCanonicalScratch();
 */
export function createCanonicalScratch(): CanonicalScratch {
  return { members: new Int32Array(1024), keys: createByteSink(256), frames: [] };
}

/** Fault tracking for lone surrogates (positions in code points from `base`). */
interface FaultState {
  base: number;
  start: number;
  end: number;
  first: number;
  /** Sink offset just after the last lone surrogate written, while the run is open. */
  runEnd: number;
}

const HEX = /* @__PURE__ */ new TextEncoder().encode('0123456789abcdef');

/**
 * Appends the canonical bytes of the tape node `node` to `sink`.
 * @returns the first run of lone surrogates (positions in code points counted from the sink's
 *   length at the call), which Python could not encode; the bytes are then not canonical JSON.
 * @example
 * const context = createScanContext(bytes, 1000);
 * scanValue(context, 0, 0);
 * const sink = createByteSink();
 * writeCanonicalFromTape(bytes, context.tape.data, 0, sink, createCanonicalScratch()); // undefined
 */
export function writeCanonicalFromTape(bytes: Uint8Array, tape: Int32Array, node: number, sink: ByteSink, scratch: CanonicalScratch): SurrogateFault | undefined {
  const fault: FaultState = { base: sink.length, start: -1, end: -1, first: 0, runEnd: -1 };
  const frames = scratch.frames;
  const frameBase = frames.length;
  let membersTop = 0;

  emitValue(node);
  while (frames.length > frameBase) {
    const top = frames.length - 4;
    if (frames[top] === TAG_OBJECT) {
      const cursor = frames[top + 1]!;
      const base = frames[top + 3]!;
      if (cursor === frames[top + 2]) {
        put(0x7d);
        membersTop = base;
        frames.length = top;
        continue;
      }
      if (cursor > base) put(0x2c);
      frames[top + 1] = cursor + 4;
      const members = scratch.members;
      writeString(members[cursor]!);
      put(0x3a);
      emitValue(members[cursor + 1]!);
    } else {
      const remaining = frames[top + 2]!;
      if (remaining === 0) {
        put(0x5d);
        frames.length = top;
        continue;
      }
      const child = frames[top + 1]!;
      if (frames[top + 3] === 1) frames[top + 3] = 0;
      else put(0x2c);
      frames[top + 1] = nextSlot(tape, child);
      frames[top + 2] = remaining - 1;
      emitValue(child);
    }
  }
  return fault.start < 0 ? undefined : { start: fault.start, end: fault.end, first: fault.first };

  function put(byte: number): void {
    ensureCapacity(sink, 1)[sink.length++] = byte;
  }

  function putAscii(text: string): void {
    const out = ensureCapacity(sink, text.length);
    let length = sink.length;
    for (let i = 0; i < text.length; i++) out[length++] = text.charCodeAt(i);
    sink.length = length;
  }

  function emitValue(slot: number): void {
    const tag = tape[slot]!;
    switch (tag) {
      case TAG_STRING:
        writeString(slot);
        return;
      case TAG_INT: {
        const start = tape[slot + 1]!;
        const end = tape[slot + 2]!;
        // Python's int has no negative zero: `-0` prints as `0`; every other int lexeme is canonical.
        if (end - start === 2 && bytes[start] === 0x2d && bytes[start + 1] === 0x30) put(0x30);
        else copy(start, end);
        return;
      }
      case TAG_FLOAT:
        putAscii(pythonJsonFloat(Number(latin1(bytes, tape[slot + 1]!, tape[slot + 2]!))));
        return;
      case TAG_TRUE:
        putAscii('true');
        return;
      case TAG_FALSE:
        putAscii('false');
        return;
      case TAG_NULL:
        putAscii('null');
        return;
      case TAG_NAN:
        putAscii('NaN');
        return;
      case TAG_INFINITY:
        putAscii('Infinity');
        return;
      case TAG_NEG_INFINITY:
        putAscii('-Infinity');
        return;
      case TAG_ARRAY: {
        const count = tape[slot + 1]!;
        if (count === 0) {
          putAscii('[]');
          return;
        }
        put(0x5b);
        frames.push(TAG_ARRAY, slot + SLOTS, count, 1);
        return;
      }
      case TAG_OBJECT: {
        const count = tape[slot + 1]!;
        if (count === 0) {
          putAscii('{}');
          return;
        }
        put(0x7b);
        const base = membersTop;
        const kept = sortMembers(slot, count, base);
        membersTop = base + 4 * count;
        frames.push(TAG_OBJECT, base, base + 4 * kept, base);
        return;
      }
      default:
        throw new Error(`bad tape: tag ${tag} at slot ${slot}`);
    }
  }

  function copy(start: number, end: number): void {
    const out = ensureCapacity(sink, end - start);
    if (end - start > 32) out.set(bytes.subarray(start, end), sink.length);
    else for (let i = start, o = sink.length; i < end; i++, o++) out[o] = bytes[i]!;
    sink.length += end - start;
  }

  /** A string node, re-escaped as Python's `c_encode_basestring` (ensure_ascii=False) does. */
  function writeString(slot: number): void {
    const start = tape[slot + 1]!;
    const end = tape[slot + 2]!;
    // Output never exceeds input: every escape re-encodes to at most its own length.
    let out = ensureCapacity(sink, end - start + 2);
    out[sink.length++] = 0x22;
    if ((tape[slot + 3]! & ESCAPED) === 0) {
      copy(start, end);
      out = sink.bytes;
      out[sink.length++] = 0x22;
      return;
    }
    let o = sink.length;
    let i = start;
    while (i < end) {
      const c = bytes[i]!;
      if (c !== 0x5c) {
        out[o++] = c;
        i++;
        continue;
      }
      const e = bytes[i + 1]!;
      if (e !== 0x75) {
        i += 2;
        switch (e) {
          case 0x2f: // \/ is just /
            out[o++] = 0x2f;
            break;
          case 0x22:
          case 0x5c:
          case 0x62:
          case 0x66:
          case 0x6e:
          case 0x72:
          case 0x74:
            out[o++] = 0x5c;
            out[o++] = e;
            break;
        }
        continue;
      }
      let cp = hex4(i + 2);
      i += 6;
      // A high surrogate escape followed by a low surrogate escape is one character (CPython joins them).
      if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= end && bytes[i] === 0x5c && bytes[i + 1] === 0x75) {
        const low = hex4(i + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
      }
      o = writeCodePoint(out, o, cp);
    }
    out[o++] = 0x22;
    sink.length = o;
  }

  function hex4(at: number): number {
    let value = 0;
    for (let k = 0; k < 4; k++) {
      const h = bytes[at + k]!;
      value = value * 16 + (h <= 0x39 ? h - 0x30 : (h | 0x20) - 0x57);
    }
    return value;
  }

  /** Writes one decoded code point the canonical way; returns the new offset. */
  function writeCodePoint(out: Uint8Array, o: number, cp: number): number {
    if (cp < 0x20) {
      out[o++] = 0x5c;
      const short = cp === 0x08 ? 0x62 : cp === 0x09 ? 0x74 : cp === 0x0a ? 0x6e : cp === 0x0c ? 0x66 : cp === 0x0d ? 0x72 : 0;
      if (short !== 0) out[o++] = short;
      else {
        out[o++] = 0x75;
        out[o++] = 0x30;
        out[o++] = 0x30;
        out[o++] = HEX[cp >> 4]!;
        out[o++] = HEX[cp & 15]!;
      }
      return o;
    }
    if (cp === 0x22 || cp === 0x5c) {
      out[o++] = 0x5c;
      out[o++] = cp;
      return o;
    }
    if (cp < 0x80) {
      out[o++] = cp;
      return o;
    }
    if (cp < 0x800) {
      out[o++] = 0xc0 | (cp >> 6);
      out[o++] = 0x80 | (cp & 63);
      return o;
    }
    if (cp < 0x10000) {
      if (cp >= 0xd800 && cp <= 0xdfff) noteSurrogate(out, o, cp);
      // Lone surrogates are written as generalised UTF-8 (3 bytes) so positions and order hold.
      out[o++] = 0xe0 | (cp >> 12);
      out[o++] = 0x80 | ((cp >> 6) & 63);
      out[o++] = 0x80 | (cp & 63);
      return o;
    }
    out[o++] = 0xf0 | (cp >> 18);
    out[o++] = 0x80 | ((cp >> 12) & 63);
    out[o++] = 0x80 | ((cp >> 6) & 63);
    out[o++] = 0x80 | (cp & 63);
    return o;
  }

  function noteSurrogate(out: Uint8Array, o: number, cp: number): void {
    if (fault.start < 0) {
      let position = 0;
      for (let k = fault.base; k < o; k++) if ((out[k]! & 0xc0) !== 0x80) position++;
      fault.start = position;
      fault.end = position + 1;
      fault.first = cp;
      fault.runEnd = o + 3;
    } else if (fault.runEnd === o) {
      fault.end++;
      fault.runEnd = o + 3;
    } else {
      fault.runEnd = -1; // the first run is closed; later ones do not matter
    }
  }

  /**
   * Lists the members of the object at `slot` in canonical order at `scratch.members[base..]`,
   * keeping only the last of equal keys; returns how many were kept.
   */
  function sortMembers(slot: number, count: number, base: number): number {
    if (scratch.members.length < base + 4 * count) {
      let size = scratch.members.length * 2;
      while (size < base + 4 * count) size *= 2;
      const grown = new Int32Array(size);
      grown.set(scratch.members.subarray(0, base));
      scratch.members = grown;
    }
    const members = scratch.members;
    const keys = scratch.keys;
    keys.length = 0;
    let child = slot + SLOTS;
    let sorted = true;
    let duplicates = false;
    for (let j = 0; j < count; j++) {
      const at = base + 4 * j;
      members[at] = child;
      members[at + 1] = child + SLOTS;
      if ((tape[child + 3]! & ESCAPED) === 0) {
        members[at + 2] = tape[child + 1]!;
        members[at + 3] = tape[child + 2]!;
      } else {
        members[at + 2] = keys.length;
        decodeKey(tape[child + 1]!, tape[child + 2]!, keys);
        members[at + 3] = keys.length;
      }
      if (j > 0) {
        const order = compareMembers(at - 4, at);
        if (order > 0) sorted = false;
        else if (order === 0) duplicates = true;
      }
      child = nextSlot(tape, child + SLOTS);
    }
    if (!sorted) {
      // Insertion sort (objects are small); stable, so equal keys keep their input order.
      for (let j = 1; j < count; j++) {
        const at = base + 4 * j;
        const k0 = members[at]!;
        const k1 = members[at + 1]!;
        const k2 = members[at + 2]!;
        const k3 = members[at + 3]!;
        let hole = at;
        while (hole > base && compareRanges(members[hole - 4]!, members[hole - 2]!, members[hole - 1]!, k0, k2, k3) > 0) {
          members.copyWithin(hole, hole - 4, hole);
          hole -= 4;
        }
        members[hole] = k0;
        members[hole + 1] = k1;
        members[hole + 2] = k2;
        members[hole + 3] = k3;
        duplicates ||= hole > base && compareMembers(hole - 4, hole) === 0;
      }
      // Sorting may reveal duplicates that were not adjacent in input order.
      if (!duplicates) for (let j = 1; j < count && !duplicates; j++) duplicates = compareMembers(base + 4 * (j - 1), base + 4 * j) === 0;
    }
    if (!duplicates) return count;
    // Keep the last of each run of equal keys (Python's dict: the last value wins).
    let kept = 0;
    for (let j = 0; j < count; j++) {
      const at = base + 4 * j;
      if (j + 1 < count && compareMembers(at, at + 4) === 0) continue;
      members.copyWithin(base + 4 * kept, at, at + 4);
      kept++;
    }
    return kept;
  }

  function compareMembers(a: number, b: number): number {
    const members = scratch.members;
    return compareRanges(members[a]!, members[a + 2]!, members[a + 3]!, members[b]!, members[b + 2]!, members[b + 3]!);
  }

  /** Byte order of the decoded keys = code-point order (UTF-8 preserves it). */
  function compareRanges(keyA: number, startA: number, endA: number, keyB: number, startB: number, endB: number): number {
    const sourceA = (tape[keyA + 3]! & ESCAPED) === 0 ? bytes : scratch.keys.bytes;
    const sourceB = (tape[keyB + 3]! & ESCAPED) === 0 ? bytes : scratch.keys.bytes;
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
  function decodeKey(start: number, end: number, into: ByteSink): void {
    const out = ensureCapacity(into, end - start);
    let o = into.length;
    let i = start;
    while (i < end) {
      const c = bytes[i]!;
      if (c !== 0x5c) {
        out[o++] = c;
        i++;
        continue;
      }
      const e = bytes[i + 1]!;
      if (e !== 0x75) {
        out[o++] = e === 0x62 ? 0x08 : e === 0x66 ? 0x0c : e === 0x6e ? 0x0a : e === 0x72 ? 0x0d : e === 0x74 ? 0x09 : e;
        i += 2;
        continue;
      }
      let cp = hex4(i + 2);
      i += 6;
      if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= end && bytes[i] === 0x5c && bytes[i + 1] === 0x75) {
        const low = hex4(i + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
      }
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
    }
    into.length = o;
  }
}

/** The slot just past the node at `slot` (and its subtree). */
export function nextSlot(tape: Int32Array, slot: number): number {
  const tag = tape[slot]!;
  return tag === TAG_OBJECT || tag === TAG_ARRAY ? tape[slot + 2]! : slot + SLOTS;
}
