/**
 * AgentXchain export diff: `agentxchain diff --export` reproduced (docs/agentxchain-diff.md).
 * @module
 */
export { diffAgentxchain, diffAgentxchainArtifacts, type AgentxchainDiffOptions } from './diff.ts';
export { agentxchainDiffText } from './text.ts';
export type {
  AgentxchainDiffMode,
  AgentxchainDiffRefusal,
  AgentxchainDiffRefusalCode,
  AgentxchainDiffResult,
  AgentxchainExportDiff,
  CoordinatorDiffSide,
  CoordinatorExportDiff,
  DiffRegression,
  DiffSummary,
  FieldChange,
  ListChange,
  MapChange,
  NumericChange,
  NumericMapChange,
  RunDiffSide,
  RunExportDiff,
} from './types.ts';
