/**
 * The `agentxchain` format: AgentXchain run and coordinator export artifacts, verified with the
 * verdict and error strings of `agentxchain verify export` (docs/agentxchain.md).
 * @module
 */
export { verifyAgentxchain } from './verify.ts';
export { toAgentxchainJson, type AgentxchainJson } from './compat.ts';
export type { AgentxchainDetails, FileRow, RepoRow } from './details.ts';
export { AGENTXCHAIN_CODES } from './codes.ts';
