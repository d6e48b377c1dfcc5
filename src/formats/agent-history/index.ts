/**
 * The `agent-history` format's public surface.
 * @module
 */
export { verifyAgentHistory, detectAgentHistorySchema } from './verify.ts';
export type { AgentHistoryDetails, AgentHistorySchema } from './details.ts';
export {
  agentHistoryMarkdown,
  type AgentHistoryMarkdownOptions,
  type AgentHistoryMarkdownResult,
  type AgentHistoryMarkdownRendered,
  type AgentHistoryMarkdownRefused,
  type MarkdownLevel,
} from './markdown/index.ts';
