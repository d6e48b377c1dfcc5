/**
 * JSON skimming: turns one JSON text, fed in pieces, into a "skeleton" where the string values the
 * verifier never reads (message text, tool output, metadata…) are replaced by `""`. The skeleton
 * has the same structure and types, so `JSON.parse(skeleton)` gives what `JSON.parse(original)`
 * gives except for those strings, at a fraction of the memory and time: agent-history lines of
 * many megabytes are mostly such strings, and decoding plus parsing them dominated verification.
 *
 * Soundness: only the contents of string tokens are dropped, every other byte is copied, and a
 * dropped string is checked here exactly as `JSON.parse` would check it (no raw control
 * characters, only valid escapes), so the skeleton is valid JSON if and only if the original is.
 * Dropped strings are also checked for UTF-8 validity, since they are never decoded. In valid JSON
 * the key/value tracking is exact, so object keys are never dropped (duplicate-key semantics are
 * kept); in invalid JSON, dropping string contents cannot make the text valid.
 *
 * The bytes are attacker-controlled: the state machine allocates nothing per byte, the nesting
 * stack is bounded (deeper nesting just stops key tracking, which only keeps more strings), and a
 * string split across pieces (even inside an escape or a UTF-8 sequence) gives the same result.
 * What a string may hold, and the fast skip over its plain bytes, are `_grammar.ts`'s.
 * @module
 */
import * as grammar from './_grammar.ts';

/** Which strings to drop, by the key they are the value of. */
export interface SkimProfile {
  /** Keys whose whole value is content: every string inside it is dropped (any depth). */
  readonly opaque: readonly string[];
  /** Keys whose value is dropped only when it is a string (e.g. `content`, an array elsewhere). */
  readonly stringOnly: readonly string[];
}

export interface SkimResult {
  /** The JSON text with dropped strings as `""` (a view, valid until the skimmer is fed again). */
  readonly skeleton: Uint8Array;
  /** A dropped string held invalid UTF-8 (the skeleton itself is checked when it is decoded). */
  readonly invalidUtf8: boolean;
  /** A dropped string was not a valid JSON string (so the whole text is not valid JSON). */
  readonly syntaxError?: string;
}

export interface JsonSkimmer {
  /** Feeds the next bytes of the text. */
  write(bytes: Uint8Array): void;
  /** Ends the text and returns the skeleton; the skimmer is then ready for the next text. */
  end(): SkimResult;
}

/** Key classes in the nesting stack. */
const PLAIN = 0;
const OPAQUE = 1;
const STRING_ONLY = 2;
/** Deeper nesting is not tracked (its strings are simply kept). */
const MAX_TRACKED_DEPTH = 64;
/** A skeleton buffer grown past this is not kept for the next text. */
const SHRINK_ABOVE = 4 << 20;
/** Keys longer than this are never in a profile (and are kept). */
const MAX_KEY = 32;

// Lexer states.
const OUTSIDE = 0; // between tokens (structure, whitespace, numbers, literals)
const IN_STRING = 1; // inside a string that is copied
const IN_SKIPPED = 2; // inside a string that is dropped

/**
 * Creates a skimmer for `profile`. With `skipper`, the plain bytes and two-character escapes of
 * dropped strings are skipped by it (stopping at non-ASCII bytes, whose UTF-8 is checked here), as
 * `skipPlain` skips them: the same skeleton and findings, faster on long strings.
 * @example
 * const skim = createJsonSkimmer({ opaque: ['text'], stringOnly: [] });
 * skim.write(new TextEncoder().encode('{"type":"text","text":"a long message…"}'));
 * new TextDecoder().decode(skim.end().skeleton); // '{"type":"text","text":""}'
 */
export function createJsonSkimmer(profile: SkimProfile, skipper?: grammar.StringSkipper): JsonSkimmer {
  const keyClasses = new Map<string, number>();
  for (const key of profile.opaque) keyClasses.set(key, OPAQUE);
  for (const key of profile.stringOnly) keyClasses.set(key, STRING_ONLY);

  let out = new Uint8Array(64 * 1024);
  let outLength = 0;

  // Nesting: for each open container, whether it is an object, and whether its strings are opaque.
  const isObject = new Uint8Array(MAX_TRACKED_DEPTH + 1);
  const opaqueAt = new Uint8Array(MAX_TRACKED_DEPTH + 1);
  let depth = 0; // open containers (tracked up to MAX_TRACKED_DEPTH)
  let expectKey = false; // the next string in the current object is a member name
  let memberClass = PLAIN; // class of the current member's key (for its value)

  let state = OUTSIDE;
  let stringIsKey = false;
  let escape = 0; // 0: none; 1: after a backslash; 2..5: hex digits of \u still expected (5 - escape + 1)
  const keyBytes = new Uint8Array(MAX_KEY);
  let keyLength = 0;
  let keyPlain = true; // the key had no escape and fit in keyBytes
  // UTF-8 validation inside dropped strings.
  let utf8Need = 0;
  let utf8Lower = 0x80;
  let utf8Upper = 0xbf;
  let invalidUtf8 = false;
  let syntaxError: string | undefined;

  const reserve = (extra: number): void => {
    if (outLength + extra <= out.byteLength) return;
    let size = out.byteLength * 2;
    while (size < outLength + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(out.subarray(0, outLength));
    out = grown;
  };
  const copy = (bytes: Uint8Array, start: number, end: number): void => {
    if (end <= start) return;
    reserve(end - start);
    out.set(bytes.subarray(start, end), outLength);
    outLength += end - start;
  };
  const fail = (message: string): void => {
    syntaxError ??= message;
  };

  /** A value string starts: dropped when its key (or an enclosing one) says so. */
  const dropValue = (): boolean => {
    if (depth > MAX_TRACKED_DEPTH || depth === 0) return false;
    if (opaqueAt[depth]) return true;
    return isObject[depth] === 1 && (memberClass === OPAQUE || memberClass === STRING_ONLY);
  };

  const classifyKey = (): number => {
    if (!keyPlain) return PLAIN;
    let name = '';
    for (let i = 0; i < keyLength; i++) name += String.fromCharCode(keyBytes[i]!);
    return keyClasses.get(name) ?? PLAIN;
  };

  return {
    write(bytes) {
      const n = bytes.byteLength;
      const words = grammar.wordView(bytes);
      // The skipper's skip over these bytes, made when a dropped string first needs it.
      let skip: ((at: number) => number) | undefined;
      let i = 0;
      let run = 0; // start of the bytes not yet copied
      while (i < n) {
        if (state === IN_SKIPPED) {
          for (;;) {
            if (escape === 0 && utf8Need === 0) {
              i = skipper === undefined ? skipPlain(bytes, i, words) : (skip ??= skipper.over(bytes, true))(i);
            }
            if (i >= n) break;
            const c = bytes[i]!;
            if (utf8Need > 0) {
              if (c >= utf8Lower && c <= utf8Upper) {
                utf8Need--;
                utf8Lower = 0x80;
                utf8Upper = 0xbf;
                i++;
                continue;
              }
              invalidUtf8 = true; // sequence cut short: this byte starts afresh
              utf8Need = 0;
              utf8Lower = 0x80;
              utf8Upper = 0xbf;
              continue;
            }
            if (escape === 1) {
              if (c === grammar.Byte.UnicodeEscape)
                escape = 2; // four hex digits follow
              else {
                escape = 0;
                if (grammar.escapedByte(c) === 0) fail('invalid escape in a string');
              }
              i++;
              continue;
            }
            if (escape >= 2) {
              if (!grammar.isHexDigit(c)) {
                fail('invalid \\u escape in a string');
                escape = 0;
                continue;
              }
              escape = escape === 5 ? 0 : escape + 1;
              i++;
              continue;
            }
            if (c === grammar.Byte.Quote) {
              // End of the dropped string: the skeleton gets its closing quote right after the opening one.
              state = OUTSIDE;
              run = i;
              i++;
              break;
            }
            if (c === grammar.Byte.Backslash) {
              escape = 1;
              i++;
              continue;
            }
            if (grammar.isControlCharacter(c)) {
              fail('raw control character in a string');
              i++;
              continue;
            }
            // A UTF-8 lead byte.
            utf8Need = grammar.utf8ContinuationCount(c);
            if (utf8Need === 0) invalidUtf8 = true;
            else {
              utf8Lower = grammar.utf8SecondByteMin(c);
              utf8Upper = grammar.utf8SecondByteMax(c);
            }
            i++;
          }
          continue;
        }
        if (state === IN_STRING) {
          // A copied string (keys, ids, timestamps): find its end; JSON.parse checks the rest.
          while (i < n) {
            const c = bytes[i++]!;
            if (escape === 1) {
              escape = 0;
              keyPlain = false;
            } else if (c === grammar.Byte.Backslash) escape = 1;
            else if (c === grammar.Byte.Quote) {
              state = OUTSIDE;
              if (stringIsKey) {
                memberClass = classifyKey();
                expectKey = false;
              }
              break;
            } else if (stringIsKey) {
              if (keyLength < MAX_KEY) keyBytes[keyLength++] = c;
              else keyPlain = false;
            }
          }
          continue;
        }
        // OUTSIDE: structure.
        const c = bytes[i]!;
        if (c === grammar.Byte.Quote) {
          i++;
          stringIsKey = expectKey && depth > 0 && depth <= MAX_TRACKED_DEPTH && isObject[depth] === 1;
          if (!stringIsKey && dropValue()) {
            copy(bytes, run, i); // up to and including the opening quote
            run = i;
            state = IN_SKIPPED;
            escape = 0;
            utf8Need = 0;
            utf8Lower = 0x80;
            utf8Upper = 0xbf;
          } else {
            state = IN_STRING;
            escape = 0;
            keyLength = 0;
            keyPlain = true;
          }
          continue;
        }
        if (c === grammar.Byte.BeginObject || c === grammar.Byte.BeginArray) {
          // A container opens: it inherits opacity, or takes it from the member it is the value of.
          const opaque =
            depth >= 1 &&
            depth <= MAX_TRACKED_DEPTH &&
            (opaqueAt[depth] === 1 || (isObject[depth] === 1 && memberClass === OPAQUE));
          depth++;
          if (depth <= MAX_TRACKED_DEPTH) {
            isObject[depth] = c === grammar.Byte.BeginObject ? 1 : 0;
            opaqueAt[depth] = opaque ? 1 : 0;
          }
          expectKey = c === grammar.Byte.BeginObject;
          memberClass = PLAIN;
        } else if (c === grammar.Byte.EndObject || c === grammar.Byte.EndArray) {
          if (depth > 0) depth--;
          expectKey = false;
          memberClass = PLAIN;
        } else if (c === grammar.Byte.ValueSeparator) {
          expectKey = depth > 0 && depth <= MAX_TRACKED_DEPTH && isObject[depth] === 1;
          memberClass = PLAIN;
        }
        i++;
      }
      if (state !== IN_SKIPPED) copy(bytes, run, n);
    },
    end() {
      if (state === IN_SKIPPED) {
        // Unterminated string: JSON.parse of the skeleton will say so (it lacks the closing quote).
        if (utf8Need > 0) invalidUtf8 = true;
      }
      const result: SkimResult = {
        skeleton: out.subarray(0, outLength),
        invalidUtf8,
        ...(syntaxError !== undefined ? { syntaxError } : {}),
      };
      outLength = 0;
      if (out.byteLength > SHRINK_ABOVE) out = new Uint8Array(64 * 1024); // the result keeps the big one alive
      depth = 0;
      expectKey = false;
      memberClass = PLAIN;
      state = OUTSIDE;
      escape = 0;
      utf8Need = 0;
      invalidUtf8 = false;
      syntaxError = undefined;
      return result;
    },
  };
}

/**
 * Skips plain string bytes (`grammar.skipStringBytes`, stopping at non-ASCII bytes, whose
 * UTF-8 is checked here) and simple two-byte escapes (`\\n`, `\\"`…), from `i`; returns the
 * index of the first other byte (or the end). A `StringSkipper` asked to stop at non-ASCII bytes
 * must stop where this does (test/unit/string-skip.test.ts).
 */
export function skipPlain(bytes: Uint8Array, i: number, words: DataView | undefined): number {
  for (;;) {
    i = grammar.skipStringBytes(bytes, i, words, grammar.STOP_MUST_ESCAPE | grammar.STOP_NON_ASCII);
    if (i + 1 >= bytes.length || bytes[i] !== grammar.Byte.Backslash || grammar.escapedByte(bytes[i + 1]!) === 0)
      return i;
    i += 2;
  }
}
