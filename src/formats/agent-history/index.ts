/**
 * The `agent-history` format's public surface.
 * @module
 */
export { verifyAgentHistory, detectAgentHistorySchema, type AgentHistorySchema } from './verify.ts';
