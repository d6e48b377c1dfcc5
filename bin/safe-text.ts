/**
 * Artifact text made safe to print for people: nothing in it can drive the terminal or reorder
 * what is shown. Every character that is invisible yet changes the display becomes a visible
 * `\uXXXX` escape:
 * - C0 and C1 controls and DEL (ECMA-48 escape sequences, carriage returns that overwrite a line);
 * - the bidirectional formatting characters of Unicode's Bidirectional Algorithm (UAX #9): the
 *   embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069 and the marks U+200E,
 *   U+200F and U+061C (`x\u202Eexe.txt` would otherwise be shown as "xtxt.exe");
 * - the line and paragraph separators U+2028 and U+2029, which some terminals and viewers break on.
 * A run of `##[` is escaped too: GitHub's runner reads its older workflow-command syntax
 * (`##[error]…`) anywhere in a line of a job's log, so artifact text must not spell it.
 * @module
 */

/** What `safeText` escapes; `keepLineBreaks` leaves `\n` and `\r` to the caller's own rules. */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|##\[/g;
const INVISIBLE_BUT_BREAKS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|##\[/g;

const escapeOne = (match: string): string =>
  match === '##[' ? '#\\u0023[' : `\\u${match.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` with every invisible, display-changing character shown as `\uXXXX` (see the module).
 * @example
 * safeText('x\u202Eexe.txt'); // 'x\\u202eexe.txt'
 */
export function safeText(text: string, options: { readonly keepLineBreaks?: boolean } = {}): string {
  return text.replace(options.keepLineBreaks ? INVISIBLE_BUT_BREAKS : INVISIBLE, escapeOne);
}
