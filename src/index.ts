/**
 * verify-export: check AI-agent export artifacts where you stand. Public API.
 * @module
 */
export { verify, type AutoVerifyOptions } from './verify.ts';
export { detectFormat } from './detect.ts';
export { verifyAgentxchain, toAgentxchainJson, type AgentxchainJson } from './formats/agentxchain/index.ts';
export { verifyZaxy, toZaxyJson, discloseSubset, type ZaxyOptions, type DiscloseResult, type DisclosureSelector } from './formats/zaxy/index.ts';
export type { ZaxyResult } from './formats/zaxy/compat.ts';
export { readJson, readJsonDocument, readJsonAt, type ReadJsonResult, type ReadDocumentResult, type DocumentVisitor, type JsonReadError } from './json/reader.ts';
export { canonicalJson, pythonJsonDumps, compareCodePoints, type CanonicalResult } from './json/canonical.ts';
export type { JsonValue, JsonObject, JsonArray } from './json/value.ts';
export { leafHash, nodeHash, merkleRoot, inclusionProof, rootFromInclusionProof, verifyInclusion, type ProofStep, type InclusionResult } from './crypto/merkle.ts';
export { verifySignature, type SignatureVerifier } from './crypto/signature.ts';
export { verifyAgentHistory } from './formats/agent-history/index.ts';
export { verifyCodexExec } from './formats/codex-exec/index.ts';
export { DEFAULT_LIMITS, resolveLimits, type Limits } from './limits.ts';
export type { VerifyOptions } from './options.ts';
export type { Sha256, Sha256Hasher } from './crypto/sha256.ts';
export type { Report, Finding, FormatId, Overall, Verdicts, DimensionVerdict, Dimension, Severity } from './report/types.ts';
export { CODES, type FindingCode } from './report/codes.ts';
export { jsonPath, linePath } from './report/path.ts';
export type { VerifyInput } from './stream/input.ts';
export { gunzipStream, type GunzipFactory, type GunzipOptions } from './stream/gunzip.ts';
