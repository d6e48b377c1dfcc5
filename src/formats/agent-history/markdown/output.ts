/**
 * Where the markdown is written: text appended under one length budget shared by the document's
 * parts, so no input can make the output grow past `maxMarkdownLength`. Every piece is checked
 * before it is made when it could be large (a pretty-printed value, whose indentation grows with
 * nesting, is measured first by `prettyJsonLength`), and after it is made when it is bounded by
 * the bytes it came from.
 * @module
 */
import { pythonJsonDumps } from '../../../json/canonical.ts';
import type { JsonValue } from '../../../json/value.ts';
import { prettyJsonLength } from './pretty.ts';

/** Thrown when the markdown would pass its budget; the caller gives up on the rendering. */
export class MarkdownTooLong extends Error {
  override readonly name = 'MarkdownTooLong';
}

/** The UTF-16 code units left for the whole document. */
export interface MarkdownBudget {
  remaining: number;
}

/** An append-only piece of the document. */
export interface MarkdownOutput {
  /**
   * Appends text.
   * @throws MarkdownTooLong when the budget is spent.
   */
  add(text: string): void;
  /**
   * Appends Python's `json.dumps(value, indent=2, ensure_ascii=False)`, measured before it is made.
   * @throws MarkdownTooLong when it would not fit.
   */
  addPretty(value: JsonValue): void;
  /** What was appended. */
  text(): string;
}

/**
 * A new output drawing on `budget`.
 * @example
 * const out = createOutput({ remaining: 100 });
 * out.add('# Title');
 * out.text(); // '# Title'
 */
export function createOutput(budget: MarkdownBudget): MarkdownOutput {
  let text = '';
  const reserve = (length: number): void => {
    if (length > budget.remaining) throw new MarkdownTooLong('the markdown is longer than maxMarkdownLength');
    budget.remaining -= length;
  };
  return {
    add(piece) {
      reserve(piece.length);
      text += piece;
    },
    addPretty(value) {
      reserve(prettyJsonLength(value));
      text += pythonJsonDumps(value, { indent: 2 });
    },
    text: () => text,
  };
}
