/**
 * verify-export: check AI-agent export artifacts where you stand. The public API, a deliberate
 * list (README, "Library"): verification of each format, the compat serializers, Zaxy disclosure
 * and its Merkle and signature primitives, the report's types and codes, limits and options.
 * Everything else in `src/` is internal and may change in any release.
 * @module
 */
export { verify, type AutoVerifyOptions } from './verify.ts';
export { detectFormat } from './detect.ts';
export {
  verifyAgentxchain,
  toAgentxchainJson,
  type AgentxchainJson,
  type AgentxchainDetails,
  reportAgentxchain,
  agentxchainReportMarkdown,
  agentxchainReportText,
  agentxchainReportExitCode,
  type AgentxchainReport,
  type AgentxchainReportOptions,
  type AgentxchainReportMode,
  type AgentxchainPassReport,
  type AgentxchainFailReport,
  type AgentxchainErrorReport,
  diffAgentxchain,
  diffAgentxchainArtifacts,
  agentxchainDiffText,
  type AgentxchainDiffOptions,
  type AgentxchainDiffMode,
  type AgentxchainDiffResult,
  type AgentxchainDiffRefusal,
  type AgentxchainExportDiff,
} from './formats/agentxchain/index.ts';
export {
  verifyZaxy,
  toZaxyJson,
  discloseSubset,
  type ZaxyOptions,
  type DiscloseResult,
  type DisclosureSelector,
  type ZaxyDetails,
} from './formats/zaxy/index.ts';
export type { ZaxyResult } from './formats/zaxy/compat.ts';
export {
  verifyAgentHistory,
  agentHistoryMarkdown,
  type AgentHistoryDetails,
  type AgentHistoryMarkdownOptions,
  type AgentHistoryMarkdownResult,
  type AgentHistoryMarkdownRendered,
  type AgentHistoryMarkdownRefused,
  type MarkdownLevel,
} from './formats/agent-history/index.ts';
export { verifyCodexExec, type CodexExecDetails } from './formats/codex-exec/index.ts';
export { canonicalJson, type CanonicalResult } from './json/canonical.ts';
export type { JsonValue, JsonObject, JsonArray } from './json/value.ts';
export {
  leafHash,
  merkleRoot,
  inclusionProof,
  rootFromInclusionProof,
  verifyInclusion,
  type ProofStep,
  type InclusionResult,
} from './crypto/merkle.ts';
export { verifySignature, type SignatureVerifier } from './crypto/signature.ts';
export { sha256Digest } from './crypto/sha256-digest.ts';
export { DEFAULT_LIMITS, type Limits } from './limits.ts';
export type { VerifyOptions } from './options.ts';
export type { Sha256, Sha256Hasher } from './crypto/sha256.ts';
export type { FormatId, Overall, Verdicts, DimensionVerdict, Dimension, Severity } from './report/types.ts';
export { CODES, type FindingCode } from './codes.ts';
export type { VerifyInput } from './stream/input.ts';
export type { GunzipFactory } from './stream/gunzip/index.ts';
export type { Base64Decoder } from './encoding/base64.ts';
export type { StringSkipper } from './json/_grammar.ts';
export type { Finding, Report, ReportOf } from './report.ts';
