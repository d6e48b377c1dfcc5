/**
 * What every level's renderer does: messages are rendered as they are read, in file order, and the
 * document's head once the whole session is known (it counts the messages and shows the last
 * timestamp). The document is `head + body + tail`.
 * @module
 */
import type { MarkdownOutput } from './output.ts';
import type { SessionFacts, SessionMessage } from './session.ts';

/** agent-history's `--markdown-level`: 1 and 2 cut long messages, 3 does not, 4 is per agent. */
export type MarkdownLevel = 1 | 2 | 3 | 4;

/** One mode of the tool: a level, with or without `--minimal`. */
export interface MarkdownMode {
  readonly level: MarkdownLevel;
  readonly minimal: boolean;
}

/** Renders one session. */
export interface SessionRenderer {
  /** Renders the next message into the document's body. */
  message(message: SessionMessage, out: MarkdownOutput): void;
  /** Renders the title and header, once every message is known. */
  head(facts: SessionFacts, out: MarkdownOutput): void;
  /** What ends the document. */
  readonly tail: string;
}

/**
 * Lines as the tool joins them (`"\n".join(lines)`), each after the text before it: every line is
 * preceded by a line feed, so pieces rendered one after the other join exactly as the tool's list.
 * @example
 * joinedLines('## Message 1: User', ''); // '\n## Message 1: User\n'
 */
export function joinedLines(...lines: readonly string[]): string {
  let out = '';
  for (const line of lines) out += `\n${line}`;
  return out;
}
