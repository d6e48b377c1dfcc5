/**
 * NDJSON-aware mutations: work on whole lines (delete, duplicate, swap, blank, CRLF, garbage,
 * join, very long lines) or apply a JSON-aware mutation inside one line.
 * @module
 */
import type { Rng } from '../rng.ts';
import { mutateJson, type TextMutation } from './json.ts';

export const LINE_OPS = [
  'json-in-line',
  'json-in-line',
  'json-in-line',
  'delete-line',
  'duplicate-line',
  'swap-lines',
  'move-line',
  'blank-line',
  'crlf',
  'garbage-line',
  'join-lines',
  'long-line',
  'drop-final-newline',
  'split-line',
] as const;
export type LineOp = (typeof LINE_OPS)[number];

/**
 * `text` without trailing `char`s. (Not `/\n+$/`: on a long run of newlines that is not at the
 * end, that regex backtracks quadratically — it froze the fuzzer once.)
 */
export function trimEnd(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/** Indices of non-blank lines. */
function contentLines(lines: readonly string[]): number[] {
  const out: number[] = [];
  lines.forEach((line, i) => {
    if (line.trim() !== '') out.push(i);
  });
  return out;
}

/**
 * Applies one line-level mutation to NDJSON text.
 * @example
 * mutateLines('{"a":1}\n{"b":2}\n', createRng(1, 0), 'swap-lines')?.text; // '{"b":2}\n{"a":1}\n'
 */
export function mutateLines(text: string, rng: Rng, op: LineOp = rng.pick(LINE_OPS)): TextMutation | undefined {
  const lines = text.split('\n');
  const filled = contentLines(lines);
  if (filled.length === 0) return undefined;
  const i = rng.pick(filled);
  const join = (out: readonly string[], note: string): TextMutation => ({
    text: out.join('\n'),
    note: `${op} ${note}`.trim(),
  });
  switch (op) {
    case 'json-in-line': {
      const inner = mutateJson(lines[i]!, rng);
      if (!inner) return undefined;
      const out = [...lines];
      out[i] = inner.text;
      return join(out, `line ${i + 1}: ${inner.note}`);
    }
    case 'delete-line':
      return join([...lines.slice(0, i), ...lines.slice(i + 1)], `line ${i + 1}`);
    case 'duplicate-line': {
      const to = rng.int(lines.length + 1);
      return join([...lines.slice(0, to), lines[i]!, ...lines.slice(to)], `line ${i + 1} to ${to + 1}`);
    }
    case 'swap-lines': {
      const j = rng.pick(filled);
      const out = [...lines];
      out[i] = lines[j]!;
      out[j] = lines[i]!;
      return join(out, `lines ${i + 1} and ${j + 1}`);
    }
    case 'move-line': {
      const without = [...lines.slice(0, i), ...lines.slice(i + 1)];
      const to = rng.int(without.length + 1);
      return join([...without.slice(0, to), lines[i]!, ...without.slice(to)], `line ${i + 1} to ${to + 1}`);
    }
    case 'blank-line': {
      const blank = rng.pick(['', ' ', '\t', '\r', '   \r', '\u00a0', '\u2028', '\u000b']);
      return join([...lines.slice(0, i), blank, ...lines.slice(i)], `before line ${i + 1}: ${JSON.stringify(blank)}`);
    }
    case 'crlf':
      return rng.chance(0.5)
        ? join(
            lines.map((line, k) => (k < lines.length - 1 ? line + '\r' : line)),
            'all lines',
          )
        : join(
            lines.map((line, k) => (k === i ? line + '\r' : line)),
            `line ${i + 1}`,
          );
    case 'garbage-line': {
      const garbage = rng.pick([
        'not json',
        '{',
        '}',
        '[]',
        '[{"type":"header"}]',
        '"header"',
        'null',
        '42',
        '{"type":',
        '{"type":"header"}{"type":"header"}',
        '\u0000',
        '{}',
        '{"type":null}',
        '{"type":"exec:begin"}',
        '{"type":"run:summary"}',
        '{"type":"session"}',
      ]);
      return join(
        [...lines.slice(0, i), garbage, ...lines.slice(i)],
        `before line ${i + 1}: ${JSON.stringify(garbage)}`,
      );
    }
    case 'join-lines': {
      if (i + 1 >= lines.length) return undefined;
      return join(
        [...lines.slice(0, i), lines[i]! + rng.pick(['', ' ', '\r']) + lines[i + 1]!, ...lines.slice(i + 2)],
        `lines ${i + 1}+${i + 2}`,
      );
    }
    case 'long-line': {
      const length = rng.weighted([65_536, 1 << 20, 4 << 20], [60, 35, 5]);
      const line = rng.chance(0.5) ? `{"type":"message","pad":"${'x'.repeat(length)}"}` : 'x'.repeat(length);
      return join([...lines.slice(0, i), line, ...lines.slice(i)], `before line ${i + 1}: ${length}-byte line`);
    }
    case 'drop-final-newline':
      return { text: trimEnd(text, '\n'), note: op };
    case 'split-line': {
      const line = lines[i]!;
      const at = rng.int(line.length + 1);
      return join(
        [...lines.slice(0, i), line.slice(0, at), line.slice(at), ...lines.slice(i + 1)],
        `line ${i + 1} at ${at}`,
      );
    }
  }
}
