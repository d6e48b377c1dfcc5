/**
 * Where the markdown is written: text appended under one length budget shared by the document's
 * parts, so no input can make the output grow past `maxMarkdownLength`. A piece that could be large
 * (a pretty-printed value, whose indentation grows with nesting) is made under what is left of the
 * budget and given up as soon as it passes it; any other piece is checked after it is made, being
 * bounded by the bytes it came from.
 * @module
 */
import { pythonJsonDumpsWithin } from '../../../json/canonical.ts';
import type { JsonValue } from '../../../json/value.ts';

/** Thrown when the markdown would pass its budget; the caller gives up on the rendering. */
export class MarkdownTooLong extends Error {
  override readonly name = 'MarkdownTooLong';
}

const TOO_LONG = 'the markdown is longer than maxMarkdownLength';

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
   * Appends Python's `json.dumps(value, indent=2, ensure_ascii=False)`, made no longer than fits.
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
    if (length > budget.remaining) throw new MarkdownTooLong(TOO_LONG);
    budget.remaining -= length;
  };
  return {
    add(piece) {
      reserve(piece.length);
      text += piece;
    },
    addPretty(value) {
      const pretty = pythonJsonDumpsWithin(value, budget.remaining, { indent: 2 });
      if (pretty === undefined) throw new MarkdownTooLong(TOO_LONG);
      reserve(pretty.length);
      text += pretty;
    },
    text: () => text,
  };
}
