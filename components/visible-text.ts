/**
 * Untrusted text drawn so that what a person reads is what the bytes say. Bidirectional formatting
 * controls (Unicode Standard Annex #9, 'Explicit Directional Embeddings/Overrides/Isolates' and
 * 'Implicit Directional Marks': U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), the line
 * and paragraph separators U+2028/U+2029 and the C0/C1 control characters would otherwise act on
 * the page: `x\u202Eexe.txt` draws as "xtxt.exe". Each becomes a visible mark (its abbreviation in
 * a small box, a text node), and the whole value is isolated in `<bdi dir="auto">`, so right-to-left
 * text in one cell cannot reorder its neighbours. Only text bindings are used.
 * @module
 */
import { html, type TemplateResult } from 'lit';
import { text } from './details.ts';

/** Abbreviations of the format characters, by code point (the standard names' initials). */
const FORMAT_MARKS: ReadonlyMap<number, string> = new Map([
  [0x061c, 'ALM'],
  [0x200e, 'LRM'],
  [0x200f, 'RLM'],
  [0x2028, 'LS'],
  [0x2029, 'PS'],
  [0x202a, 'LRE'],
  [0x202b, 'RLE'],
  [0x202c, 'PDF'],
  [0x202d, 'LRO'],
  [0x202e, 'RLO'],
  [0x2066, 'LRI'],
  [0x2067, 'RLI'],
  [0x2068, 'FSI'],
  [0x2069, 'PDI'],
]);

/** Every character that gets a mark (C0, DEL, C1 and the format characters above). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The visible mark of one control character: a format character's abbreviation, a C0 control's
 * Unicode control picture (U+2400 block), or `U+XXXX` for a C1 control.
 * @example
 * controlMark('\u202e'); // 'RLO'
 * controlMark('\n'); // '␊'
 */
export function controlMark(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const named = FORMAT_MARKS.get(code);
  if (named !== undefined) return named;
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  return code === 0x7f ? '\u2421' : codePoint(char);
}

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The value as plain text with every control replaced by its mark in brackets, for places that
 * take a string only (a `title`, a file name). `undefined` for `null`, objects and the like.
 * @example
 * visibleString('x\u202eexe.txt'); // 'x[RLO]exe.txt'
 */
export function visibleString(value: unknown, max?: number): string | undefined {
  return text(value, max)?.replace(CONTROLS, (char) => `[${controlMark(char)}]`);
}

/** Options of {@link visibleText}. */
export interface VisibleTextOptions {
  /** Characters drawn before the value is clipped with "…" (default 2000). */
  readonly max?: number;
  /** Keeps line feeds and tabs as they are (for multi-line text such as a command's output). */
  readonly multiline?: boolean;
  /** Drawn for a value that is not text (`null`, an object); default "–". */
  readonly missing?: string;
}

/**
 * The value isolated in `<bdi dir="auto">`, each control drawn as a visible mark.
 * @example
 * html`<td>${visibleText(file.path)}</td>`
 */
export function visibleText(value: unknown, options: VisibleTextOptions = {}): TemplateResult {
  const clipped = text(value, options.max);
  if (clipped === undefined) return html`<bdi dir="auto" class="vt missing">${options.missing ?? '–'}</bdi>`;
  const parts: (string | TemplateResult)[] = [];
  let start = 0;
  for (const match of clipped.matchAll(CONTROLS)) {
    const char = match[0];
    if (options.multiline === true && (char === '\n' || char === '\t')) continue;
    const at = match.index;
    if (at > start) parts.push(clipped.slice(start, at));
    parts.push(html`<span class="control" title=${codePoint(char)}>${controlMark(char)}</span>`);
    start = at + char.length;
  }
  if (start === 0) return html`<bdi dir="auto" class="vt">${clipped}</bdi>`;
  if (start < clipped.length) parts.push(clipped.slice(start));
  return html`<bdi dir="auto" class="vt">${parts}</bdi>`;
}
