/**
 * Level 4 for Gemini (docs/agent-history-markdown.md, 'What the markdown holds'): every message under a
 * heading (`User`, `Model`, …), its time and model (without `--minimal`), its text, one block per
 * tool call, and its tokens (without `--minimal`).
 *
 * What the NDJSON does not keep is left out: the Session Metadata section and summary, the
 * thoughts, the token total, a tool's display name (its `name` is printed instead, the tool's own
 * fallback) and its result output, and which of info, error and warning a `system` message was
 * (printed `System`). So only `--minimal` without tool calls and system messages is exact.
 * @module
 */
import { pythonTitle } from './python-case.ts';
import { isTruthy } from './python-text.ts';
import { joinedLines, type MarkdownMode, type SessionRenderer } from './renderer.ts';
import { elements, member, printed, type SessionMessage } from './session.ts';
import type { JsonValue } from '../../../json/value.ts';
import type { MarkdownOutput } from './output.ts';

/**
 * The Gemini level-4 renderer.
 * @example
 * const renderer = createGeminiRenderer({ level: 4, minimal: true });
 */
export function createGeminiRenderer(mode: MarkdownMode): SessionRenderer {
  let index = 0;
  return {
    message(message, out) {
      index++;
      out.add(joinedLines(`## ${label(message)} (Message ${index})`));
      if (!mode.minimal) {
        if (isTruthy(message.timestamp)) out.add(joinedLines(`*${printed(message.timestamp)}*`));
        if (isTruthy(message.model)) out.add(joinedLines(`*Model: ${printed(message.model)}*`));
      }
      out.add(joinedLines(''));
      if (isTruthy(message.content)) out.add(joinedLines(printed(message.content), ''));
      for (const call of elements(message.toolCalls)) {
        toolBlock(call, out);
        out.add(joinedLines(''));
      }
      if (!mode.minimal && isTruthy(message.tokens)) {
        const tokens = message.tokens;
        // The tool prints `<total> total (in: …)`; the NDJSON has no total.
        const counts = `in: ${printed(member(tokens, 'input'))}, out: ${printed(member(tokens, 'output'))}, cached: ${printed(member(tokens, 'cached'))}`;
        out.add(joinedLines(`*Tokens: ${counts}*`, ''));
      }
      out.add(joinedLines('---', ''));
    },
    head(_facts, out) {
      out.add('# Gemini Conversation');
      out.add(joinedLines('', '---', ''));
    },
    tail: '',
  };
}

/** `**[Tool: <name>]** (<status>)` and the pretty-printed arguments; the parts joined with line feeds. */
function toolBlock(call: JsonValue, out: MarkdownOutput): void {
  const name = member(call, 'name');
  out.add(
    joinedLines(`**[Tool: ${isTruthy(name) ? printed(name) : 'unknown'}]** (${printed(member(call, 'status'))})`),
  );
  const args = member(call, 'args');
  if (isTruthy(args)) {
    out.add(joinedLines('```json', ''));
    out.addPretty(args!);
    out.add(joinedLines('```'));
  }
}

function label(message: SessionMessage): string {
  if (message.role === 'user') return 'User';
  if (message.role === 'assistant') return 'Model';
  return pythonTitle(printed(message.role));
}
