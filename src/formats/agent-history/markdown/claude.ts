/**
 * Level 4 for Claude (docs/agent-history-markdown.md, 'What the markdown holds'): every message under a
 * numbered heading with its time and its content verbatim; without `--minimal`, a metadata block
 * (model, tokens) and the fork summary of a non-linear session. The tool's message anchors and its
 * CWD, Branch and Reply-to lines come from the source session, not the NDJSON: they are left out,
 * which is why that mode is reconstructed, not exact.
 * @module
 */
import { elements, member, printed } from './session.ts';
import { firstCodePoints, isTruthy } from './python-text.ts';
import { joinedLines, type MarkdownMode, type SessionRenderer } from './renderer.ts';
import type { JsonValue } from '../../../json/value.ts';
import type { MarkdownOutput } from './output.ts';

/**
 * The Claude level-4 renderer.
 * @example
 * const renderer = createClaudeRenderer({ level: 4, minimal: true });
 */
export function createClaudeRenderer(mode: MarkdownMode): SessionRenderer {
  let index = 0;
  return {
    message(message, out) {
      index++;
      out.add(joinedLines(`## Message ${index}: ${message.role === 'user' ? 'User' : 'Assistant'}`, ''));
      if (isTruthy(message.timestamp)) out.add(joinedLines(`*${printed(message.timestamp)}*`, ''));
      out.add(joinedLines(printed(message.content), ''));
      if (!mode.minimal) {
        const metadata: string[] = [];
        if (isTruthy(message.model)) metadata.push(`**Model:** ${printed(message.model)}`);
        if (message.tokens !== undefined) {
          const tokens = message.tokens;
          metadata.push(
            `**Tokens:** ${printed(member(tokens, 'input'))} in / ${printed(member(tokens, 'output'))} out`,
          );
        }
        if (metadata.length > 0)
          out.add(joinedLines('', '<details>', '<summary>Metadata</summary>', '', ...metadata, '', '</details>'));
      }
      out.add(joinedLines('---', ''));
    },
    head(facts, out) {
      out.add(`# Claude Code Session: ${facts.sessionFile}`);
      out.add(joinedLines(''));
      if (facts.messageCount > 0) {
        if (isTruthy(facts.firstTimestamp)) out.add(joinedLines(`**Started:** ${printed(facts.firstTimestamp)}`));
        if (facts.messageCount >= 2 && isTruthy(facts.lastTimestamp))
          out.add(joinedLines(`**Ended:** ${printed(facts.lastTimestamp)}`));
        out.add(joinedLines(`**Messages:** ${facts.messageCount}`));
      }
      if (!mode.minimal && isTruthy(facts.forks)) forkSummary(facts.forks!, out);
      out.add(joinedLines('', '---', ''));
    },
    tail: '',
  };
}

/** The fork summary (the tool's `Conversation Structure` section), one line at a time. */
function forkSummary(forks: JsonValue, out: MarkdownOutput): void {
  const points = elements(member(forks, 'fork_points'));
  out.add(joinedLines('', '### Conversation Structure', ''));
  out.add(
    joinedLines(
      `This conversation has **${points.length} fork point(s)** where the conversation branched into multiple paths.`,
      '',
    ),
  );
  let forkNumber = 0;
  for (const fork of elements(member(forks, 'branches'))) {
    forkNumber++;
    const type = member(fork, 'fork_type');
    const uuid = printed(member(fork, 'fork_uuid'));
    out.add(
      joinedLines(`**Fork ${forkNumber}** at ${isTruthy(type) ? printed(type) : 'message'} \`${short(uuid)}...\``),
    );
    const time = member(fork, 'fork_timestamp');
    if (isTruthy(time)) out.add(joinedLines(`- Fork time: ${printed(time)}`));
    const branches = elements(member(fork, 'branches'));
    out.add(joinedLines(`- Branches: ${branches.length}`));
    let branchNumber = 0;
    for (const branch of branches) {
      branchNumber++;
      const branchUuid = printed(member(branch, 'uuid'));
      out.add(
        joinedLines(
          `  - Branch ${branchNumber}: [${printed(member(branch, 'type'))} \`${short(branchUuid)}...\`](#msg-${branchUuid}) (${printed(member(branch, 'timestamp'))})`,
        ),
      );
    }
    out.add(joinedLines(''));
  }
}

/** `uuid[:8]`. */
function short(uuid: string): string {
  return firstCodePoints(uuid, 8);
}
