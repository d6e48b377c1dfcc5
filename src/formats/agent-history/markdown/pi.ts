/**
 * Level 4 for Pi (docs/agent-history-markdown.md, 'What the markdown holds'): every message under a heading
 * naming its kind, its time and Pi's own role (without `--minimal`), its text, and one block per
 * tool call with the pretty-printed arguments. The tool's Session Metadata section comes from the
 * source's session header, which the NDJSON does not keep: it is left out, which is why that mode
 * is reconstructed, not exact.
 * @module
 */
import { pythonTitle } from './python-case.ts';
import { isTruthy } from './python-text.ts';
import { joinedLines, type MarkdownMode, type SessionRenderer } from './renderer.ts';
import { elements, member, printed, type SessionMessage } from './session.ts';
import { isJsonObject, type JsonValue } from '../../../json/value.ts';

/** Pi entries that are context rather than conversation, labelled `Context: <raw role>`. */
const CONTEXT_ROLES: ReadonlySet<string> = new Set([
  'custom',
  'compactionSummary',
  'branchSummary',
  'model_change',
  'thinking_level_change',
  'label',
  'session_info',
]);

const NO_ARGUMENTS: JsonValue = new Map();

/**
 * The Pi level-4 renderer.
 * @example
 * const renderer = createPiRenderer({ level: 4, minimal: true });
 */
export function createPiRenderer(mode: MarkdownMode): SessionRenderer {
  let index = 0;
  return {
    message(message, out) {
      index++;
      out.add(joinedLines(`## ${label(message)} (Message ${index})`));
      if (!mode.minimal) {
        if (isTruthy(message.timestamp)) out.add(joinedLines(`*${printed(message.timestamp)}*`));
        out.add(joinedLines(`*Raw Role: ${printed(message.rawRole)}*`));
      }
      out.add(joinedLines(''));
      if (isTruthy(message.content)) out.add(joinedLines(printed(message.content), ''));
      for (const call of elements(message.toolCalls)) {
        // `c.get("name", "unknown")` and `c.get("id", "")`: a present null prints `None`.
        const name = isJsonObject(call) && call.has('name') ? printed(call.get('name')) : 'unknown';
        const id = isJsonObject(call) && call.has('id') ? printed(call.get('id')) : '';
        out.add(joinedLines(`**[Tool: ${name}]**`, `Call ID: \`${id}\``, '```json', ''));
        const args = member(call, 'arguments');
        out.addPretty(isTruthy(args) ? args! : NO_ARGUMENTS);
        out.add(joinedLines('```', ''));
      }
      out.add(joinedLines('---', ''));
    },
    head(_facts, out) {
      out.add('# Pi Conversation');
      out.add(joinedLines('', '---', ''));
    },
    tail: '',
  };
}

function label(message: SessionMessage): string {
  if (message.isToolResult) return `Tool Result: ${printed(member(message.toolResult, 'tool_name'))}`;
  if (typeof message.rawRole === 'string' && CONTEXT_ROLES.has(message.rawRole)) return `Context: ${message.rawRole}`;
  return pythonTitle(printed(message.role));
}
