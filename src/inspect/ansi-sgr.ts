/**
 * ANSI escape sequences in a command's output, read as data (never HTML): where an escape
 * sequence ends, and what a Select Graphic Rendition sequence does to the current style.
 * ECMA-48 (5th edition): §5.4 control sequences (`ESC [` parameter bytes 0x30–0x3F, intermediate
 * bytes 0x20–0x2F, a final byte 0x40–0x7E), §8.3.117 SGR. The 256-colour and direct-colour forms
 * (`38;5;n`, `38;2;r;g;b`, ITU T.416) are the ones xterm documents in "Xterm Control Sequences".
 *
 * The output is attacker-controlled: parameters are bounded in count and value, a sequence that
 * never ends is cut at `MAX_SEQUENCE`, and nothing here builds markup; a view turns the style into
 * colours it chooses itself.
 * @module
 */

/** A colour: an index into the 256-colour palette (0–15 the terminal's own), or `#rrggbb`. */
export type SgrColor = number | string;

/** The graphic rendition in effect. Absent fields are the terminal's defaults. */
export interface SgrStyle {
  readonly fg?: SgrColor;
  readonly bg?: SgrColor;
  readonly bold?: true;
  readonly dim?: true;
  readonly italic?: true;
  readonly underline?: true;
  readonly blink?: true;
  readonly inverse?: true;
  readonly hidden?: true;
  readonly strike?: true;
}

/** The default rendition. */
export const PLAIN: SgrStyle = Object.freeze({});

/** Longest escape sequence read; a longer one is dropped as garbage. */
const MAX_SEQUENCE = 256;
/** Parameters kept of one sequence. */
const MAX_PARAMS = 32;

const ESC = 0x1b;

/** What `readEscape` found at an ESC. */
export type EscapeRead =
  | { readonly kind: 'sgr'; readonly end: number; readonly params: readonly number[] }
  /** Another control sequence or escape: consumed, no effect on the style. */
  | { readonly kind: 'other'; readonly end: number; readonly final: string; readonly params: readonly number[] }
  /** The text ends inside the sequence: keep `text.slice(at)` and read it again with more text. */
  | { readonly kind: 'incomplete' };

/**
 * Reads the escape sequence that starts with the ESC at `at`.
 * @example
 * readEscape('\u001b[1;31mred', 0); // { kind: 'sgr', end: 7, params: [1, 31] }
 */
export function readEscape(text: string, at: number): EscapeRead {
  if (text.charCodeAt(at) !== ESC) return { kind: 'other', end: at + 1, final: '', params: [] };
  if (at + 1 >= text.length) return { kind: 'incomplete' };
  const second = text.charCodeAt(at + 1);
  if (STRING_OPENERS.has(second)) return readControlString(text, at);
  if (second !== 0x5b /* [ */) return readShortEscape(text, at);
  const params: number[] = [];
  let current = -1;
  let intermediates = false;
  const limit = Math.min(text.length, at + MAX_SEQUENCE);
  for (let i = at + 2; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39 && !intermediates) {
      current = Math.min((current < 0 ? 0 : current) * 10 + (c - 0x30), 65535);
    } else if ((c === 0x3b || c === 0x3a) && !intermediates) {
      if (params.length < MAX_PARAMS) params.push(current);
      current = -1;
    } else if (c >= 0x3c && c <= 0x3f && !intermediates) {
      // Private parameter bytes (`?`, `<`, `=`, `>`): a private sequence, never SGR.
      params.push(-2);
    } else if (c >= 0x20 && c <= 0x2f) {
      intermediates = true;
    } else if (c >= 0x40 && c <= 0x7e) {
      if (params.length < MAX_PARAMS) params.push(current);
      const isSgr = c === 0x6d /* m */ && !intermediates && !params.includes(-2);
      return isSgr
        ? { kind: 'sgr', end: i + 1, params }
        : { kind: 'other', end: i + 1, final: String.fromCharCode(c), params };
    } else {
      // A character that cannot be in a control sequence ends it unfinished (drawn as text after).
      return { kind: 'other', end: i, final: '', params: [] };
    }
  }
  return limit === text.length && text.length - at < MAX_SEQUENCE
    ? { kind: 'incomplete' }
    : { kind: 'other', end: limit, final: '', params: [] };
}

/** `ESC ]` (OSC), `ESC P` (DCS), `ESC X` (SOS), `ESC ^` (PM), `ESC _` (APC): a string up to ST or BEL. */
const STRING_OPENERS: ReadonlySet<number> = new Set([0x5d, 0x50, 0x58, 0x5e, 0x5f]);

/**
 * A control string (ECMA-48 §5.6; an OSC 8 hyperlink is one): consumed whole up to its terminator
 * (`ESC \` or BEL, which xterm also accepts), so its text (a URL …) is never drawn, nor followed.
 */
function readControlString(text: string, at: number): EscapeRead {
  const limit = Math.min(text.length, at + MAX_SEQUENCE);
  for (let i = at + 2; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x07) return { kind: 'other', end: i + 1, final: '', params: [] };
    if (c === ESC && i + 1 < text.length && text.charCodeAt(i + 1) === 0x5c)
      return { kind: 'other', end: i + 2, final: '', params: [] };
  }
  return limit === text.length && text.length - at < MAX_SEQUENCE
    ? { kind: 'incomplete' }
    : { kind: 'other', end: limit, final: '', params: [] };
}

/** `ESC`, intermediate bytes 0x20–0x2F, a final byte 0x30–0x7E (ECMA-35 §13.2); anything else ends it. */
function readShortEscape(text: string, at: number): EscapeRead {
  let i = at + 1;
  while (i < text.length && i - at < 16 && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
  if (i >= text.length) return { kind: 'incomplete' };
  const c = text.charCodeAt(i);
  return { kind: 'other', end: c >= 0x30 && c <= 0x7e ? i + 1 : i, final: '', params: [] };
}

const BASIC_FG = 30;
const BASIC_BG = 40;
const BRIGHT_FG = 90;
const BRIGHT_BG = 100;

/**
 * The style after an SGR sequence with `params` (an empty parameter, -1, counts as 0).
 * @example
 * applySgr(PLAIN, [1, 31]); // { bold: true, fg: 1 }
 * applySgr({ bold: true }, [0]); // {}
 */
export function applySgr(style: SgrStyle, params: readonly number[]): SgrStyle {
  let next: { -readonly [K in keyof SgrStyle]: SgrStyle[K] } = { ...style };
  const list = params.length === 0 ? [0] : params;
  for (let i = 0; i < list.length; i++) {
    const p = list[i]! < 0 ? 0 : list[i]!;
    if (p === 0) next = {};
    else if (p === 1) next.bold = true;
    else if (p === 2) next.dim = true;
    else if (p === 3) next.italic = true;
    else if (p === 4) next.underline = true;
    else if (p === 5 || p === 6) next.blink = true;
    else if (p === 7) next.inverse = true;
    else if (p === 8) next.hidden = true;
    else if (p === 9) next.strike = true;
    else if (p === 22) {
      delete next.bold;
      delete next.dim;
    } else if (p === 23) delete next.italic;
    else if (p === 24) delete next.underline;
    else if (p === 25) delete next.blink;
    else if (p === 27) delete next.inverse;
    else if (p === 28) delete next.hidden;
    else if (p === 29) delete next.strike;
    else if (p >= BASIC_FG && p <= 37) next.fg = p - BASIC_FG;
    else if (p === 39) delete next.fg;
    else if (p >= BASIC_BG && p <= 47) next.bg = p - BASIC_BG;
    else if (p === 49) delete next.bg;
    else if (p >= BRIGHT_FG && p <= 97) next.fg = p - BRIGHT_FG + 8;
    else if (p >= BRIGHT_BG && p <= 107) next.bg = p - BRIGHT_BG + 8;
    else if (p === 38 || p === 48) {
      const read = extendedColor(list, i + 1);
      i = read.next - 1;
      if (read.color !== undefined) {
        if (p === 38) next.fg = read.color;
        else next.bg = read.color;
      }
    }
    // Anything else (fonts, frames, ideograms) changes nothing drawn here.
  }
  return next;
}

/** `5;n` or `2;r;g;b` after a 38/48. */
function extendedColor(list: readonly number[], at: number): { color?: SgrColor; next: number } {
  const mode = list[at];
  if (mode === 5) {
    const n = list[at + 1];
    return n !== undefined && n >= 0 && n <= 255 ? { color: n, next: at + 2 } : { next: at + 2 };
  }
  if (mode === 2) {
    const rgb = [list[at + 1], list[at + 2], list[at + 3]];
    if (rgb.every((v) => v !== undefined && v >= 0 && v <= 255))
      return { color: `#${rgb.map((v) => v!.toString(16).padStart(2, '0')).join('')}`, next: at + 4 };
    return { next: at + 4 };
  }
  return { next: at + 1 };
}

/**
 * Whether two styles draw the same.
 * @example
 * sameStyle({ fg: 1 }, { fg: 1 }); // true
 */
export function sameStyle(a: SgrStyle, b: SgrStyle): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => a[key as keyof SgrStyle] === b[key as keyof SgrStyle]);
}

/**
 * The red, green and blue of palette colour `n` from 16 to 255 (xterm's 6×6×6 cube and 24
 * greys); undefined for 0–15, whose colours the view's theme picks.
 * @example
 * paletteRgb(196); // [255, 0, 0]
 */
export function paletteRgb(n: number): readonly [number, number, number] | undefined {
  if (!(n >= 16 && n <= 255)) return undefined;
  if (n >= 232) {
    const grey = 8 + (n - 232) * 10;
    return [grey, grey, grey];
  }
  const cube = n - 16;
  const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
  return [level(Math.floor(cube / 36)), level(Math.floor(cube / 6) % 6), level(cube % 6)];
}
