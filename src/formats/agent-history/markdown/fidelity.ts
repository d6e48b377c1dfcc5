/**
 * Whether the markdown rebuilt from the NDJSON is the tool's file byte for byte
 * (docs/agent-history-markdown.md, 'Which modes are exact'): levels 1 to 3 and level 4 with
 * `--minimal` are, for every agent, except where impl-2.0 dropped something the layout prints.
 * Level 4 without `--minimal` never is (each agent's header or metadata comes from the source
 * session). Where the NDJSON cannot tell, the answer is "reconstructed": never a false "exact".
 * @module
 */
import { isTruthy } from './python-text.ts';
import type { MarkdownMode } from './renderer.ts';
import type { MarkdownAgent, SessionMessage } from './session.ts';

/** What rendering a session from its NDJSON could not reproduce. */
export interface Fidelity {
  /** True when the markdown is the tool's own file, byte for byte. */
  readonly exact: boolean;
  /** What the tool prints that the NDJSON does not hold, one sentence each; empty when exact. */
  readonly missing: readonly string[];
}

/** What level 4 without `--minimal` prints from the source session, by agent. */
const LEVEL_4_SOURCE_ONLY: Readonly<Record<MarkdownAgent, string>> = {
  claude: 'the message anchors (uuid) and the CWD, Branch and Reply-to metadata lines',
  codex: 'the Session Metadata section (session id, working directory, CLI version, source)',
  gemini: 'the Session Metadata section and summary, the thoughts and the token totals',
  pi: 'the Session Metadata section (session id, working directory, version)',
};

const GEMINI_SYSTEM = "a system message's label (the tool prints Info, Error or Warning; the NDJSON says system)";
const GEMINI_TOOLS = "a tool call's display name and its result output";
const PI_CUSTOM = "a Pi custom message's customType (the tool prints it after 'Context:'; the NDJSON keeps 'custom')";

/**
 * Watches the messages of one session and says, at the end, whether `mode` is exact for it.
 * @example
 * const check = createFidelityCheck('claude', { level: 2, minimal: false });
 * check.result().exact; // true
 */
export function createFidelityCheck(
  agent: MarkdownAgent,
  mode: MarkdownMode,
): { message(message: SessionMessage): void; result(): Fidelity } {
  const missing = new Set<string>();
  if (mode.level === 4 && !mode.minimal) missing.add(LEVEL_4_SOURCE_ONLY[agent]);
  return {
    message(message) {
      if (agent === 'gemini') {
        if (message.role === 'system') missing.add(GEMINI_SYSTEM);
        if (mode.level === 4 && isTruthy(message.toolCalls)) missing.add(GEMINI_TOOLS);
      } else if (agent === 'pi' && mode.level === 4 && message.rawRole === 'custom') {
        missing.add(PI_CUSTOM);
      }
    },
    result: () => ({ exact: missing.size === 0, missing: [...missing] }),
  };
}
