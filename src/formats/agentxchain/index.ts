/**
 * The `agentxchain` format: AgentXchain run and coordinator export artifacts, verified with the
 * verdict and error strings of `agentxchain verify export` (docs/agentxchain.md).
 * @module
 */
export { verifyAgentxchain } from './verify.ts';
export { toAgentxchainJson, type AgentxchainJson } from './compat.ts';
export type { AgentxchainDetails, FileRow, RepoRow } from './details.ts';
export { AGENTXCHAIN_CODES } from './codes.ts';
export {
  reportAgentxchain,
  agentxchainReportExitCode,
  type AgentxchainReport,
  type AgentxchainReportOptions,
  type AgentxchainReportMode,
  type AgentxchainPassReport,
  type AgentxchainFailReport,
  type AgentxchainErrorReport,
} from './report/report.ts';
export { agentxchainReportMarkdown, agentxchainReportText } from './report/render.ts';
export {
  diffAgentxchain,
  diffAgentxchainArtifacts,
  agentxchainDiffText,
  type AgentxchainDiffOptions,
  type AgentxchainDiffMode,
  type AgentxchainDiffResult,
  type AgentxchainDiffRefusal,
  type AgentxchainExportDiff,
} from './diff/index.ts';
