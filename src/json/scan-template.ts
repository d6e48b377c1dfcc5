/**
 * Scanning the elements of a streamed array by the layout of an earlier one. The elements of an
 * export's arrays are written by one program, so most share their layout byte for byte outside
 * their string and number values: the same keys, whitespace and punctuation, the same nesting.
 * A template holds that layout (learnt from an element the general scanner, `tape.ts`, just
 * read): its fixed bytes, and where the values that vary sit. An element that follows it is
 * scanned by comparing the fixed bytes and scanning only the values (with `tape.ts`'s own string
 * and number scanners), and gets the tape the general scanner would give, node for node.
 *
 * Anything else, a byte that differs, a value that fails, the input's end, answers -1 and the
 * caller scans the element the general way: errors and their positions always come from there.
 * @module
 */
import * as grammar from './_grammar.ts';
import {
  LITERAL_NAMES,
  packWords,
  type ScanContext,
  scanNumber,
  scanString,
  SLOTS,
  TAG_ARRAY,
  TAG_FLOAT,
  TAG_INT,
  TAG_OBJECT,
  TAG_STRING,
} from './tape.ts';

/**
 * Steps of a template, three ints each: the step, and two arguments. The fixed bytes between two
 * values that vary are one run, keys and container openings included, compared in one step; the
 * nodes of the keys and containers in it follow that step, each placed `b` bytes back from the
 * run's end.
 */
const FIXED = 0; // bytes [a, b) of `fixed` come next
const CONTAINER = 1; // the object or array node at slot a started b bytes back
const KEY = 2; // the key node at slot a: its opening quote was b bytes back
const STRING = 3; // a string value, node at slot a
const NUMBER = 4; // a number, node at slot a
const LITERAL = 5; // the literal node at slot a (its tag says which)

/**
 * `TAIL_MASKS[n]`: the low n bytes of a little-endian word. The last one to three bytes of a run are
 * compared as a word masked to them when the input has a whole word there (the word's other
 * bytes are the value that follows).
 */
const TAIL_MASKS = /* @__PURE__ */ new Int32Array([0, 0xff, 0xffff, 0xffffff]);

/** Larger elements are never templated: what is remembered stays small. */
const MAX_TEMPLATE_NODES = 256;
const MAX_FIXED_BYTES = 4096;
const MAX_STEPS = 3 * 2 * MAX_TEMPLATE_NODES + 3;

/** The layout of an element (see the module doc); `nodes` 0: none learnt. */
export interface ScanTemplate {
  nodes: number;
  /** This layout's number (`TapeNode.layout`): new each time one is learnt, unique in the program. */
  layout: number;
  /** The element's tape: tags, sizes and ends of containers, and flags of keys, as learnt. */
  readonly tape: Int32Array;
  readonly fixed: Uint8Array;
  /** `fixedWords[i]`: the four fixed bytes from `i` on, as a little-endian int (compared a word at a time). */
  readonly fixedWords: Int32Array;
  readonly steps: Int32Array;
  stepCount: number;
}

/**
 * Creates an empty template.
 * @example
 * const template = createScanTemplate(); // template.nodes === 0
 */
export function createScanTemplate(): ScanTemplate {
  return {
    nodes: 0,
    layout: 0,
    tape: new Int32Array(SLOTS * MAX_TEMPLATE_NODES),
    fixed: new Uint8Array(MAX_FIXED_BYTES + 3),
    fixedWords: new Int32Array(MAX_FIXED_BYTES),
    steps: new Int32Array(MAX_STEPS),
    stepCount: 0,
  };
}

/**
 * Scans the value at `at` into `context.tape` (from slot 0) by `template`.
 * @returns the offset just after it, or -1 when it does not follow the template (the tape and
 *   `context.error` are then left to the caller to reset).
 */
export function scanByTemplate(context: ScanContext, at: number, template: ScanTemplate): number {
  const bytes = context.bytes;
  const length = bytes.length;
  const tape = context.tape;
  const slots = SLOTS * template.nodes;
  if (tape.data.length < slots) {
    const grown = new Int32Array(slots);
    grown.set(tape.data.subarray(0, tape.length));
    tape.data = grown;
  }
  const data = tape.data;
  const model = template.tape;
  const fixed = template.fixed;
  const fixedWords = template.fixedWords;
  const words = context.words;
  const steps = template.steps;
  let pos = at;
  for (let k = 0; k < template.stepCount; k += 3) {
    const a = steps[k + 1]!;
    switch (steps[k]) {
      case FIXED: {
        const to = steps[k + 2]!;
        if (pos + to - a > length) return -1;
        let i = a;
        if (words !== undefined) {
          for (; i + 4 <= to; i += 4, pos += 4) if (words.getInt32(pos, true) !== fixedWords[i]) return -1;
          if (i < to && pos + 4 <= length) {
            if (((words.getInt32(pos, true) ^ fixedWords[i]!) & TAIL_MASKS[to - i]!) !== 0) return -1;
            pos += to - i;
            i = to;
          }
        }
        for (; i < to; i++) if (bytes[pos++] !== fixed[i]) return -1;
        break;
      }
      case CONTAINER:
        data[a] = model[a]!;
        data[a + 1] = model[a + 1]!;
        data[a + 2] = model[a + 2]!;
        data[a + 3] = pos - steps[k + 2]!;
        break;
      case KEY: {
        const quote = pos - steps[k + 2]!;
        data[a] = TAG_STRING;
        data[a + 1] = quote + 1;
        data[a + 2] = quote + 1 + model[a + 2]!; // the key's length, kept in the model's end slot
        data[a + 3] = model[a + 3]!;
        break;
      }
      case STRING:
        if (pos >= length || bytes[pos] !== grammar.Byte.Quote) return -1;
        pos = scanString(context, pos, a);
        if (pos < 0) return -1;
        break;
      case NUMBER: {
        const c = pos < length ? bytes[pos]! : -1;
        if (c !== grammar.Byte.Minus && !grammar.isDigit(c)) return -1;
        pos = scanNumber(context, pos, a);
        if (pos < 0) return -1;
        break;
      }
      default: {
        const tag = model[a]!;
        const name = LITERAL_NAMES[tag]!;
        if (!grammar.matchesName(bytes, pos, name)) return -1;
        data[a] = tag;
        data[a + 1] = pos;
        data[a + 2] = 0;
        data[a + 3] = 0;
        pos += name.length;
      }
    }
  }
  tape.length = slots;
  return pos;
}

/**
 * Learns the layout of the value the general scanner just read from `at` to `end` (its tape from
 * slot 0, `context.tape.length` slots) into `template`, unless it is too large: then the
 * template is left empty.
 */
export function learnScanTemplate(template: ScanTemplate, context: ScanContext, at: number, end: number): void {
  template.nodes = 0;
  template.layout = 0;
  template.stepCount = 0;
  const slots = context.tape.length;
  if (slots > SLOTS * MAX_TEMPLATE_NODES) return;
  const bytes = context.bytes;
  const source = context.tape.data;
  const model = template.tape;
  let fixedLength = 0;
  let stepCount = 0;
  const steps = template.steps;
  const step = (kind: number, a: number, b: number): void => {
    steps[stepCount++] = kind;
    steps[stepCount++] = a;
    steps[stepCount++] = b;
  };
  /** Appends `bytes[from..to)` to the fixed bytes; false when they would be too many. */
  const keep = (from: number, to: number): boolean => {
    if (fixedLength + to - from > MAX_FIXED_BYTES) return false;
    template.fixed.set(bytes.subarray(from, to), fixedLength);
    fixedLength += to - from;
    return true;
  };
  // The run of fixed bytes not yet stepped over: from `runStart` in `fixed`, with the nodes of
  // the keys and containers in it (kind, slot, offset in `fixed`).
  let runStart = 0;
  const runNodes: number[] = [];
  /** Keeps the input's bytes up to `to` in the run, then ends the run: its step and its nodes'. */
  const fixedUpTo = (from: number, to: number): boolean => {
    if (to > from && !keep(from, to)) return false;
    if (fixedLength > runStart) step(FIXED, runStart, fixedLength);
    for (let i = 0; i < runNodes.length; i += 3) step(runNodes[i]!, runNodes[i + 1]!, fixedLength - runNodes[i + 2]!);
    runStart = fixedLength;
    runNodes.length = 0;
    return true;
  };
  // Open containers: their slot and how many child nodes were seen (keys count in objects).
  const open: number[] = [];
  const seen: number[] = [];
  let cursor = at;
  for (let slot = 0; slot < slots; slot += SLOTS) {
    while (open.length > 0 && source[open[open.length - 1]! + 2]! <= slot) {
      open.pop();
      seen.pop();
    }
    const parent = open.length - 1;
    const isKey = parent >= 0 && source[open[parent]!] === TAG_OBJECT && seen[parent]! % 2 === 0;
    if (parent >= 0) seen[parent]!++;
    const tag = source[slot]!;
    model[slot] = tag;
    model[slot + 1] = source[slot + 1]!;
    model[slot + 2] = source[slot + 2]!;
    model[slot + 3] = source[slot + 3]!;
    if (tag === TAG_OBJECT || tag === TAG_ARRAY) {
      if (!keep(cursor, source[slot + 3]!)) return;
      runNodes.push(CONTAINER, slot, fixedLength);
      cursor = source[slot + 3]!;
      open.push(slot);
      seen.push(0);
    } else if (tag === TAG_STRING) {
      const start = source[slot + 1]!;
      const stop = source[slot + 2]!;
      if (isKey) {
        if (!keep(cursor, start - 1)) return;
        runNodes.push(KEY, slot, fixedLength);
        if (!keep(start - 1, stop + 1)) return;
        model[slot + 2] = stop - start;
      } else {
        if (!fixedUpTo(cursor, start - 1)) return;
        step(STRING, slot, 0);
      }
      cursor = stop + 1;
    } else if (tag === TAG_INT || tag === TAG_FLOAT) {
      if (!fixedUpTo(cursor, source[slot + 1]!)) return;
      step(NUMBER, slot, 0);
      cursor = source[slot + 2]!;
    } else {
      if (!fixedUpTo(cursor, source[slot + 1]!)) return;
      step(LITERAL, slot, 0);
      cursor = source[slot + 1]! + LITERAL_NAMES[tag]!.length;
    }
  }
  if (!fixedUpTo(cursor, end)) return;
  packWords(template.fixed, fixedLength, template.fixedWords);
  template.stepCount = stepCount;
  template.nodes = slots / SLOTS;
  template.layout = ++layouts;
}

/** Layouts learnt so far, in the whole program (so that no two share a number). */
let layouts = 0;
