/**
 * Level 4 for Codex (docs/agent-history-markdown.md, 'What the markdown holds'): every message under a
 * heading naming its kind and number, its time (without `--minimal`) and its content verbatim, even
 * when empty. The tool's Session Metadata section (session id, cwd, CLI version, source) comes from
 * the source's `session_meta`, which the NDJSON does not keep: it is left out, which is why that
 * mode is reconstructed, not exact.
 * @module
 */
import { pythonTitle } from './python-case.ts';
import { isTruthy } from './python-text.ts';
import { joinedLines, type MarkdownMode, type SessionRenderer } from './renderer.ts';
import { printed, type SessionMessage } from './session.ts';

/**
 * The Codex level-4 renderer.
 * @example
 * const renderer = createCodexRenderer({ level: 4, minimal: true });
 */
export function createCodexRenderer(mode: MarkdownMode): SessionRenderer {
  let index = 0;
  return {
    message(message, out) {
      index++;
      out.add(joinedLines(`## ${label(message)} (Message ${index})`));
      if (!mode.minimal && isTruthy(message.timestamp)) out.add(joinedLines(`*${printed(message.timestamp)}*`));
      out.add(joinedLines('', printed(message.content), '', '---', ''));
    },
    head(_facts, out) {
      out.add('# Codex Conversation');
      out.add(joinedLines('', '---', ''));
    },
    tail: '',
  };
}

function label(message: SessionMessage): string {
  if (message.isToolResult) return 'Tool Result';
  if (message.role === 'user') return 'User';
  if (message.role === 'assistant') return message.toolCall ? 'Tool Call' : 'Assistant';
  return pythonTitle(printed(message.role));
}
