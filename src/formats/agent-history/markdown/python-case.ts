/**
 * Python 3.11's `str.lower()` and `str.title()` (docs/agent-history-markdown.md, 'Python
 * semantics'), which agent-history applies to roles to make the markdown's labels. `lower` is full
 * Unicode lower-casing, as JavaScript's `toLowerCase` (final sigma included). `title` walks code
 * points: a character after a *cased* one (Unicode property `Cased`) is lower-cased, every other
 * one is title-cased, so `x-tool_2nd` becomes `X-Tool_2Nd`. JavaScript has no title-casing: title
 * case is upper case except for the characters of `TITLE_EXCEPTIONS`.
 * @module
 */

/**
 * The code points whose title case (Unicode 14.0 UnicodeData and SpecialCasing, as Python 3.11
 * applies them) differs from their upper case: digraphs (`ǆ` → `ǅ`), `ß` → `Ss`, ligatures
 * (`ﬁ` → `Fi`), Greek letters with ypogegrammeni, and the Georgian Mkhedruli letters, whose title
 * case is themselves while their upper case is Mtavruli.
 */
const TITLE_EXCEPTIONS: ReadonlyMap<number, string> = /* @__PURE__ */ (() => {
  const table = new Map<number, string>();
  const set = (code: number, ...title: number[]): void => void table.set(code, String.fromCodePoint(...title));
  set(0xdf, 0x53, 0x73);
  for (const [first, title] of [
    [0x1c4, 0x1c5],
    [0x1c7, 0x1c8],
    [0x1ca, 0x1cb],
    [0x1f1, 0x1f2],
  ] as const) {
    for (let code = first; code < first + 3; code++) set(code, title);
  }
  set(0x587, 0x535, 0x582);
  for (let code = 0x10d0; code <= 0x10ff; code++) if (code !== 0x10fb && code !== 0x10fc) set(code, code);
  // U+1F80..U+1FAF: eight small letters with ypogegrammeni, then their eight title-case forms.
  for (let code = 0x1f80; code <= 0x1faf; code++) set(code, code | 0x08);
  for (const [code, ...title] of [
    [0x1fb2, 0x1fba, 0x345],
    [0x1fb3, 0x1fbc],
    [0x1fb4, 0x386, 0x345],
    [0x1fb7, 0x391, 0x342, 0x345],
    [0x1fbc, 0x1fbc],
    [0x1fc2, 0x1fca, 0x345],
    [0x1fc3, 0x1fcc],
    [0x1fc4, 0x389, 0x345],
    [0x1fc7, 0x397, 0x342, 0x345],
    [0x1fcc, 0x1fcc],
    [0x1ff2, 0x1ffa, 0x345],
    [0x1ff3, 0x1ffc],
    [0x1ff4, 0x38f, 0x345],
    [0x1ff7, 0x3a9, 0x342, 0x345],
    [0x1ffc, 0x1ffc],
    [0xfb00, 0x46, 0x66],
    [0xfb01, 0x46, 0x69],
    [0xfb02, 0x46, 0x6c],
    [0xfb03, 0x46, 0x66, 0x69],
    [0xfb04, 0x46, 0x66, 0x6c],
    [0xfb05, 0x53, 0x74],
    [0xfb06, 0x53, 0x74],
    [0xfb13, 0x544, 0x576],
    [0xfb14, 0x544, 0x565],
    [0xfb15, 0x544, 0x56b],
    [0xfb16, 0x54e, 0x576],
    [0xfb17, 0x544, 0x56d],
  ] as const) {
    set(code, ...title);
  }
  return table;
})();

const CASED = /^\p{Cased}$/u;
const CASE_IGNORABLE = /^\p{Case_Ignorable}$/u;
const CAPITAL_SIGMA = 0x3a3;

/**
 * Python's `text.lower()`.
 * @example
 * pythonLower('DEVELOPER'); // 'developer'
 */
export function pythonLower(text: string): string {
  return text.toLowerCase();
}

/**
 * Python's `text.title()`.
 * @example
 * pythonTitle('x-tool_2nd'); // 'X-Tool_2Nd'
 * pythonTitle("o'neil"); // "O'Neil"
 * pythonTitle('ǆemal'); // 'ǅemal'
 */
export function pythonTitle(text: string): string {
  let out = '';
  let previousCased = false;
  for (let index = 0; index < text.length;) {
    const code = text.codePointAt(index)!;
    const character = String.fromCodePoint(code);
    if (previousCased) out += code === CAPITAL_SIGMA ? lowerSigma(text, index) : character.toLowerCase();
    else out += TITLE_EXCEPTIONS.get(code) ?? character.toUpperCase();
    previousCased = CASED.test(character);
    index += character.length;
  }
  return out;
}

/**
 * CPython's `handle_capital_sigma`: `ς` when the Σ at `index` ends a word (a cased letter before it
 * and none after it, case-ignorable characters skipped on both sides), else `σ`.
 */
function lowerSigma(text: string, index: number): string {
  const before = neighbour(text, index, -1);
  let final = before !== undefined && CASED.test(before);
  if (final) {
    const after = neighbour(text, index + 1, 1);
    final = after === undefined || !CASED.test(after);
  }
  return final ? '\u03c2' : '\u03c3';
}

/** The first character from `index` in `direction` that is not case-ignorable. */
function neighbour(text: string, index: number, direction: 1 | -1): string | undefined {
  let at = direction === 1 ? index : index - 1;
  while (at >= 0 && at < text.length) {
    let code = text.codePointAt(at)!;
    if (direction === -1 && at > 0 && code >= 0xdc00 && code <= 0xdfff) {
      const pair = text.codePointAt(at - 1)!;
      if (pair > 0xffff) {
        at--;
        code = pair;
      }
    }
    const character = String.fromCodePoint(code);
    if (!CASE_IGNORABLE.test(character)) return character;
    at += direction === 1 ? character.length : -1;
  }
  return undefined;
}
