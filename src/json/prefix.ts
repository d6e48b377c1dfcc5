/**
 * Where a JSON text stops being JSON, found while it arrives: a push-style check that every byte
 * so far can start or continue a JSON document (RFC 8259, and Python's `json.loads`, which also
 * reads `NaN`, `Infinity` and `-Infinity`). The whole-document readers use it to stop reading a
 * document that is already known not to parse (600 MB of zeros, a binary file given as a bundle)
 * instead of buffering it up to `limits.maxBufferedBytes` first; the reader's own parser then
 * words the error from the bytes up to there, which is all it looks at.
 *
 * Sound: a byte is refused only where no continuation could make the text JSON, so a document that
 * parses is never refused. What a string may hold (no raw controls, only valid escapes) is JSON's;
 * the UTF-8 of strings is the decoder's business and is not looked at here. Nesting depth is not
 * limited here (the stack is a byte per level, bounded by the input).
 *
 * The bytes are attacker-controlled: constant work per byte, nothing allocated per byte, and the
 * same answer however the text is split into chunks.
 * @module
 */
import * as grammar from './_grammar.ts';

export interface JsonPrefixChecker {
  /**
   * Checks the next bytes. Returns the offset, in this chunk, of the first byte that cannot
   * continue the document, or -1 while it still can; once refused, every later push returns 0.
   */
  push(chunk: Uint8Array): number;
  /** Whether the refused byte came after the document's value had ended (only whitespace could follow). */
  refusedAfterEnd(): boolean;
}

// What the checker expects next (outside strings, numbers and names).
const VALUE = 0; // a value (document start, after `:` or `,` in an array)
const FIRST_ELEMENT = 1; // a value or `]`
const FIRST_KEY = 2; // a key or `}`
const KEY = 3; // a key (after `,` in an object)
const COLON = 4;
const AFTER_VALUE = 5; // `,` or the closer of the container, or (top level) only whitespace
const STRING = 6; // inside a string
const ESCAPE = 7; // after a backslash in a string
const HEX = 8; // inside \uXXXX (`pending` hex digits to go)
const NAME = 9; // inside a literal name (`name`, matched up to `pending`)
const NUMBER = 10; // inside a number (`numberState`)
const REFUSED = 11;

// Number states (RFC 8259 §6): where the last byte left the number.
const N_MINUS = 0; // after `-`: a digit (or Python's `Infinity`)
const N_ZERO = 1; // after a leading `0`: `.`, `e` or the end
const N_INT = 2; // in the integer digits
const N_POINT = 3; // after `.`: a digit
const N_FRACTION = 4; // in the fraction digits
const N_EXP = 5; // after `e`: a sign or a digit
const N_EXP_SIGN = 6; // after the exponent's sign: a digit
const N_EXP_DIGITS = 7; // in the exponent digits

const IN_ARRAY = 0;
const IN_OBJECT = 1;

/**
 * Creates a checker; `python` accepts Python's `NaN`, `Infinity` and `-Infinity`.
 * @example
 * const check = createJsonPrefixChecker();
 * check.push(new TextEncoder().encode('{"a": [1, 2')); // -1
 * check.push(new TextEncoder().encode('x]}')); // 0: `x` cannot continue it
 */
export function createJsonPrefixChecker(options: { readonly python?: boolean } = {}): JsonPrefixChecker {
  const python = options.python === true;
  let state = VALUE;
  let afterString = AFTER_VALUE; // where a string leads when it ends: AFTER_VALUE, or COLON for a key
  let numberState = N_MINUS;
  let name = '';
  let pending = 0;
  let stack = new Uint8Array(64);
  let depth = 0;
  let afterEnd = false;

  const open = (kind: number): void => {
    if (depth === stack.length) {
      const grown = new Uint8Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[depth++] = kind;
  };

  /** A value starts with `c`: the next state, or REFUSED. */
  const startValue = (c: number): number => {
    if (c === grammar.Byte.Quote) {
      afterString = AFTER_VALUE;
      return STRING;
    }
    if (c === grammar.Byte.BeginObject) {
      open(IN_OBJECT);
      return FIRST_KEY;
    }
    if (c === grammar.Byte.BeginArray) {
      open(IN_ARRAY);
      return FIRST_ELEMENT;
    }
    if (c === grammar.Byte.Minus) {
      numberState = N_MINUS;
      return NUMBER;
    }
    if (grammar.isDigit(c)) {
      numberState = c === 0x30 ? N_ZERO : N_INT;
      return NUMBER;
    }
    const literal =
      c === 0x74
        ? grammar.TRUE_NAME
        : c === 0x66
          ? grammar.FALSE_NAME
          : c === 0x6e
            ? grammar.NULL_NAME
            : python && c === 0x4e
              ? grammar.NAN_NAME
              : python && c === 0x49
                ? grammar.INFINITY_NAME
                : undefined;
    if (literal === undefined) return REFUSED;
    name = literal;
    pending = 1;
    return NAME;
  };

  /** The next byte of a number, or -1 when `c` ends it (or REFUSED when it cannot end here). */
  const numberByte = (c: number): number => {
    const digit = grammar.isDigit(c);
    switch (numberState) {
      case N_MINUS:
        if (digit) numberState = c === 0x30 ? N_ZERO : N_INT;
        else if (python && c === 0x49) {
          name = grammar.INFINITY_NAME;
          pending = 1;
          return NAME;
        } else return REFUSED;
        return NUMBER;
      case N_ZERO:
      case N_INT:
        if (digit && numberState === N_INT) return NUMBER;
        if (c === grammar.Byte.DecimalPoint) numberState = N_POINT;
        else if (c === 0x65 || c === 0x45) numberState = N_EXP;
        else return -1;
        return NUMBER;
      case N_POINT:
        if (!digit) return REFUSED;
        numberState = N_FRACTION;
        return NUMBER;
      case N_FRACTION:
        if (digit) return NUMBER;
        if (c === 0x65 || c === 0x45) {
          numberState = N_EXP;
          return NUMBER;
        }
        return -1;
      case N_EXP:
        if (c === 0x2b || c === grammar.Byte.Minus) numberState = N_EXP_SIGN;
        else if (digit) numberState = N_EXP_DIGITS;
        else return REFUSED;
        return NUMBER;
      case N_EXP_SIGN:
        if (!digit) return REFUSED;
        numberState = N_EXP_DIGITS;
        return NUMBER;
      default:
        return digit ? NUMBER : -1;
    }
  };

  /** A structural byte `c` in `state` (not inside a string, number or name): the next state. */
  const structure = (c: number): number => {
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) return state;
    switch (state) {
      case VALUE:
        return startValue(c);
      case FIRST_ELEMENT:
        if (c === grammar.Byte.EndArray) {
          depth--;
          return AFTER_VALUE;
        }
        return startValue(c);
      case FIRST_KEY:
      case KEY:
        if (c === grammar.Byte.Quote) {
          afterString = COLON;
          return STRING;
        }
        if (state === FIRST_KEY && c === grammar.Byte.EndObject) {
          depth--;
          return AFTER_VALUE;
        }
        return REFUSED;
      case COLON:
        return c === grammar.Byte.NameSeparator ? VALUE : REFUSED;
      default: {
        // AFTER_VALUE
        if (depth === 0) {
          afterEnd = true; // only whitespace may follow the document
          return REFUSED;
        }
        const inObject = stack[depth - 1] === IN_OBJECT;
        if (c === grammar.Byte.ValueSeparator) return inObject ? KEY : VALUE;
        if (c === (inObject ? grammar.Byte.EndObject : grammar.Byte.EndArray)) {
          depth--;
          return AFTER_VALUE;
        }
        return REFUSED;
      }
    }
  };

  return {
    push(chunk) {
      if (state === REFUSED) return 0;
      const n = chunk.byteLength;
      const words = grammar.wordView(chunk);
      let i = 0;
      while (i < n) {
        if (state === STRING) {
          i = grammar.skipStringBytes(chunk, i, words, grammar.STOP_MUST_ESCAPE);
          if (i >= n) break;
          const c = chunk[i]!;
          if (c === grammar.Byte.Quote) state = afterString;
          else if (c === grammar.Byte.Backslash) state = ESCAPE;
          else state = REFUSED; // a raw control character
        } else if (state === ESCAPE) {
          const c = chunk[i]!;
          if (c === grammar.Byte.UnicodeEscape) {
            state = HEX;
            pending = 4;
          } else state = grammar.escapedByte(c) === 0 ? REFUSED : STRING;
        } else if (state === HEX) {
          if (!grammar.isHexDigit(chunk[i]!)) state = REFUSED;
          else if (--pending === 0) state = STRING;
        } else if (state === NAME) {
          if (chunk[i] !== name.charCodeAt(pending)) state = REFUSED;
          else if (++pending === name.length) state = AFTER_VALUE;
        } else if (state === NUMBER) {
          const next = numberByte(chunk[i]!);
          if (next === -1) {
            state = AFTER_VALUE;
            continue; // the byte that ended the number is read again as structure
          }
          state = next;
        } else state = structure(chunk[i]!);
        if (state === REFUSED) return i;
        i++;
      }
      return -1;
    },
    refusedAfterEnd: () => afterEnd,
  };
}

/**
 * Where the value starting at `bytes[from]` shows it cannot be JSON: the offset of its first byte
 * that no continuation could accept, or -1 when there is none in `bytes` (the value may just be
 * cut short) or the value ends before it. Work is linear in the bytes looked at.
 * @example
 * firstImpossibleByte(new TextEncoder().encode('[1, x'), 0); // 4
 * firstImpossibleByte(new TextEncoder().encode('[1, 2'), 0); // -1: `]` may still come
 */
export function firstImpossibleByte(
  bytes: Uint8Array,
  from: number,
  options: { readonly python?: boolean } = {},
): number {
  const checker = createJsonPrefixChecker(options);
  const at = checker.push(bytes.subarray(from));
  return at < 0 || checker.refusedAfterEnd() ? -1 : from + at;
}
