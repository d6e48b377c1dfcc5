/**
 * Levels 1, 2 and 3, the same for every agent (docs/agent-history-markdown.md, 'What the markdown holds'):
 * a header, then the messages grouped by turns, each shown message as a `###` label, its time and
 * its text, stripped, and at levels 1 and 2 cut to 500 code points.
 *
 * The tool joins the lines with `"\n"`, strips the whole text at its right end and adds one line
 * feed. Here each block (heading, time, body) is appended after a blank line, and the document ends
 * with one line feed: the same text, because the last block is always a body (stripped, so it ends
 * in non-whitespace), a `## Turn` heading or the `---` rule.
 * @module
 */
import type { JsonValue } from '../../../json/value.ts';
import { printed, loweredRole, type MarkdownAgent } from './session.ts';
import { pythonTitle } from './python-case.ts';
import { codePointCutIndex, isTruthy, pythonRstrip, pythonStrip } from './python-text.ts';
import type { MarkdownMode, SessionRenderer } from './renderer.ts';

/** The document title's name for each agent. */
const AGENT_TITLES: Readonly<Record<MarkdownAgent, string>> = {
  claude: 'Claude',
  codex: 'Codex',
  gemini: 'Gemini',
  pi: 'Pi',
};

/** Levels 1 and 2 cut a message longer than this many code points. */
const CUT_CODE_POINTS = 500;
const CUT_MARK = '\n\n... [truncated]';

/**
 * The renderer of levels 1 to 3.
 * @example
 * const renderer = createGenericRenderer('claude', { level: 1, minimal: true });
 */
export function createGenericRenderer(agent: MarkdownAgent, mode: MarkdownMode): SessionRenderer {
  let turns = 0;
  return {
    message(message, out) {
      // §3.2: the first message opens turn 1; later a user message that is no tool traffic opens one.
      const flagged = message.toolCall || message.isToolResult;
      if (turns === 0 || (loweredRole(message.role, '') === 'user' && !flagged)) {
        turns++;
        out.add(`\n\n## Turn ${turns}`);
      }
      // §3.3
      if (mode.level === 1 && flagged) return;
      let text = isTruthy(message.content) ? printed(message.content) : '';
      if (mode.level !== 3) {
        const cut = codePointCutIndex(text, CUT_CODE_POINTS);
        if (cut !== undefined) text = pythonRstrip(text.slice(0, cut)) + CUT_MARK;
      }
      const body = pythonStrip(text);
      if (body === '') return;
      out.add(`\n\n### ${label(message.role, message.toolCall, message.isToolResult)}`);
      if (!mode.minimal && isTruthy(message.timestamp)) out.add(`\n\n*${printed(message.timestamp)}*`);
      out.add(`\n\n${body}`);
    },
    head(facts, out) {
      out.add(`# ${AGENT_TITLES[facts.agent]} Conversation`);
      if (!mode.minimal) {
        out.add(`\n\n**File:** ${facts.sessionFile}`);
        out.add(`\n**Messages:** ${facts.messageCount}`);
        out.add(`\n**Markdown detail level:** ${mode.level}`);
        if (isTruthy(facts.firstTimestamp)) out.add(`\n**Started:** ${printed(facts.firstTimestamp)}`);
        if (facts.messageCount >= 2 && isTruthy(facts.lastTimestamp))
          out.add(`\n**Ended:** ${printed(facts.lastTimestamp)}`);
      }
      out.add('\n\n---');
    },
    tail: '\n',
  };
}

/** §3.4 */
function label(role: JsonValue | undefined, toolCall: boolean, toolResult: boolean): string {
  if (toolCall) return 'Tool Call';
  if (toolResult) return 'Tool Result';
  const name = loweredRole(role, 'unknown');
  if (name === 'user') return 'User';
  if (name === 'assistant') return 'Assistant';
  return pythonTitle(name);
}
