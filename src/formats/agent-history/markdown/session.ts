/**
 * The session as agent-history's markdown sees it, read from impl-2.0 records
 * (docs/agent-history-markdown.md, 'From the NDJSON to the tool's messages'): the header's agent
 * and file name, each message's fields, its tool flags, and the summary's fork analysis.
 *
 * Records come from the lossless reader (`json/reader.ts`: objects are `Map`s, integers `bigint`,
 * floats `number`), so a value printed later keeps the key order and number lexeme Python had.
 * Every field is attacker-controlled: the verifier checks the schema's fields, but the renderer
 * also meets records of files that fail verification, so nothing here assumes a type.
 * @module
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../../json/value.ts';
import { pythonStr } from '../../../json/python.ts';
import { pythonLower } from './python-case.ts';
import { isTruthy } from './python-text.ts';

/** The agents impl-2.0 names in `header.agent`, each with its own renderer. */
export type MarkdownAgent = 'claude' | 'codex' | 'gemini' | 'pi';

const AGENTS: readonly MarkdownAgent[] = ['claude', 'codex', 'gemini', 'pi'];

/** A `message` record's fields, as the renderers read them. */
export interface SessionMessage {
  /** `timestamp` (a string in every verified file). */
  readonly timestamp: JsonValue | undefined;
  readonly role: JsonValue | undefined;
  readonly content: JsonValue | undefined;
  readonly model: JsonValue | undefined;
  readonly tokens: JsonValue | undefined;
  readonly toolCalls: JsonValue | undefined;
  /** Pi only: `{tool_call_id, tool_name, is_error}` on a tool result. */
  readonly toolResult: JsonValue | undefined;
  /** Pi only: Pi's own role. */
  readonly rawRole: JsonValue | undefined;
  /** The generic renderer's two flags (§2.1). */
  readonly toolCall: boolean;
  readonly isToolResult: boolean;
}

/** What the header and the closing summary tell the renderers. */
export interface SessionFacts {
  readonly agent: MarkdownAgent;
  /** `header.session_file`, printed with `str()`. */
  readonly sessionFile: string;
  readonly messageCount: number;
  readonly firstTimestamp: JsonValue | undefined;
  readonly lastTimestamp: JsonValue | undefined;
  /** `session.forks` (Claude, non-linear sessions). */
  readonly forks: JsonValue | undefined;
}

/**
 * The agent a header names, or `undefined` for anything else.
 * @example
 * headerAgent(new Map([['agent', 'pi']])); // 'pi'
 */
export function headerAgent(header: JsonObject): MarkdownAgent | undefined {
  const agent = header.get('agent');
  return AGENTS.find((known) => known === agent);
}

/**
 * Reads one message record, recovering the tool flags for `agent` (§2.1): Codex calls and results
 * by their text prefixes, Pi results by their `tool_result` object; Claude and Gemini have none.
 * @example
 * readMessage(new Map([['role', 'system'], ['content', '**[Tool Result]**\nCall ID: `c1`\n```\nok\n```']]), 'codex')
 *   .isToolResult; // true
 */
export function readMessage(record: JsonObject, agent: MarkdownAgent): SessionMessage {
  const role = record.get('role');
  const content = record.get('content');
  const text = typeof content === 'string' ? content : '';
  const toolResult = record.get('tool_result');
  return {
    timestamp: record.get('timestamp'),
    role,
    content,
    model: record.get('model'),
    tokens: record.get('tokens'),
    toolCalls: record.get('tool_calls'),
    toolResult,
    rawRole: record.get('raw_role'),
    toolCall: agent === 'codex' && role === 'assistant' && text.startsWith('**[Tool: '),
    isToolResult:
      (agent === 'codex' && role === 'system' && text.startsWith('**[Tool Result]**\nCall ID: `')) ||
      (agent === 'pi' && isJsonObject(toolResult)),
  };
}

/**
 * Python's `str(value)` for a value an f-string prints; a missing key prints as `None`
 * (what `dict.get` returns).
 * @example
 * printed(undefined); // 'None'
 * printed(30.0); // '30.0'
 */
export function printed(value: JsonValue | undefined): string {
  return pythonStr(value === undefined ? null : value);
}

/**
 * `lower(str(value or fallback))`, how the generic renderer reads a role.
 * @example
 * loweredRole('USER', ''); // 'user'
 * loweredRole(null, 'unknown'); // 'unknown'
 */
export function loweredRole(role: JsonValue | undefined, fallback: string): string {
  return pythonLower(isTruthy(role) ? printed(role) : fallback);
}

/**
 * A member of a JSON object, `undefined` for a missing key or a value that is not an object.
 * @example
 * member(new Map([['a', 1n]]), 'a'); // 1n
 */
export function member(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return isJsonObject(value) ? value.get(key) : undefined;
}

/**
 * The elements of a JSON array, none for anything else.
 * @example
 * elements([1n, 2n]).length; // 2
 * elements(null).length; // 0
 */
export function elements(value: JsonValue | undefined): readonly JsonValue[] {
  return Array.isArray(value) ? value : [];
}
