/**
 * The report types of this kit's formats: the format-agnostic shape of `report/types.ts` bound to
 * each format's details and to the closed list of finding codes (`codes.ts`). Every module that
 * knows the formats takes `Report`, `Finding` and `FindingCollector` from here.
 * @module
 */
import type { FindingCode } from './codes.ts';
import type { AgentHistoryDetails, AgentHistorySchema } from './formats/agent-history/details.ts';
import type { AgentxchainDetails } from './formats/agentxchain/details.ts';
import type { CodexExecDetails } from './formats/codex-exec/details.ts';
import type {
  ZaxyBundleDetails,
  ZaxySubsetDetails,
  ZaxyUnreadDetails,
  ZaxyUnsignedDetails,
} from './formats/zaxy/details.ts';
import type { FindingCollector as CollectorOf } from './report/collector.ts';
import type { Finding as FindingOf, FormatId, ReportShape } from './report/types.ts';

/** A finding with one of this kit's codes. */
export type Finding = FindingOf<FindingCode>;

/** The collector the format verifiers add findings to (only this kit's codes). */
export type FindingCollector = CollectorOf<FindingCode>;

/** The details of a report whose format is unknown (`format: null`): none. */
export type UnknownFormatDetails = Readonly<Record<string, never>>;

/**
 * A verification report, discriminated on `format` (and, for Zaxy, on `kind`): narrowing
 * `report.format` gives `report.details` its format's type.
 */
export type Report =
  | ReportShape<'agentxchain', string | null, AgentxchainDetails, FindingCode>
  | ReportShape<'zaxy', 'zaxy.portable.v1', ZaxyBundleDetails, FindingCode>
  | ReportShape<'zaxy', 'zaxy.subset', ZaxySubsetDetails, FindingCode>
  | ReportShape<'zaxy', 'zaxy.export.unsigned.v1', ZaxyUnsignedDetails, FindingCode>
  | ReportShape<'zaxy', null, ZaxyUnreadDetails, FindingCode>
  | ReportShape<'agent-history', AgentHistorySchema | null, AgentHistoryDetails, FindingCode>
  | ReportShape<'codex-exec', 'exec-jsonl', CodexExecDetails, FindingCode>
  | ReportShape<null, null, UnknownFormatDetails, FindingCode>;

/**
 * The reports of one format, e.g. `ReportOf<'zaxy'>`.
 * @example
 * function fileCount(report: ReportOf<'agentxchain'>): number | undefined { return report.details.file_count; }
 */
export type ReportOf<Format extends FormatId | null> = Extract<Report, { readonly format: Format }>;
