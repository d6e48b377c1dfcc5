/**
 * The shape of the report every verifier returns (docs/architecture.md, 'The report'): plain
 * data, JSON-serialisable, frozen. Format-agnostic: `src/report.ts` binds it to the formats'
 * details and the closed list of codes, so that `report/` imports nothing from the formats.
 * @module
 */
/** Format ids the kit knows; one folder under `src/formats/` each. */
export type FormatId = 'agentxchain' | 'zaxy' | 'agent-history' | 'codex-exec';

/** `error` = unreadable or not the format at all; `fail` = read, and something is wrong. */
export type Overall = 'pass' | 'fail' | 'error';

/** One dimension of a verdict. `not-checked` is never shown as passed. */
export type DimensionVerdict = 'pass' | 'fail' | 'not-checked';

/**
 * What a finding is about. `input` findings (unreadable, not the format, over a limit) make the
 * overall verdict `error`; the other four are the report's verdict dimensions.
 */
export type Dimension = 'input' | 'structure' | 'integrity' | 'authenticity' | 'trust';

export type Severity = 'error' | 'warning';

/** A finding; `Code` is the closed list of codes (`FindingCode`, joined in `src/codes.ts`). */
export interface Finding<Code extends string = string> {
  /** Stable code from `src/codes.ts`. */
  readonly code: Code;
  /** JSON path (`$.files[".agentxchain/state.json"].sha256`) or `line 17` for NDJSON. */
  readonly path: string;
  /** Human-readable; the reference tool's wording where the format's docs/ page gives one. */
  readonly message: string;
  readonly severity: Severity;
  /**
   * The exact text the reference tool prints for this problem, when the reference reports it
   * (AgentXchain's error string, Zaxy's reason). Compat serializers print only these texts.
   */
  readonly compat?: string;
  readonly expected?: string;
  readonly actual?: string;
}

export interface Verdicts {
  readonly structure: DimensionVerdict;
  readonly integrity: DimensionVerdict;
  readonly authenticity: DimensionVerdict;
  /** A pinned key matched; `not-checked` when no key was pinned. */
  readonly trust: DimensionVerdict;
}

/**
 * What every report holds, whatever the format: `format` says which details it carries (see
 * `Report`), and every string in the details may come from the artifact.
 */
export interface ReportShape<
  Format extends FormatId | null,
  Kind extends string | null,
  Details,
  Code extends string = string,
> {
  readonly overall: Overall;
  readonly verdicts: Verdicts;
  readonly format: Format;
  /** e.g. `agentxchain_run_export`, `zaxy.portable.v1`, `zaxy.subset`, `impl-2.0`. */
  readonly kind: Kind;
  /** File name, URL, or `stdin` / `bytes`. */
  readonly input: string;
  /** Every problem found, in the order found, at most `limits.maxFindings` (+1 `limit.findings`). */
  readonly findings: readonly Finding<Code>[];
  /** The format's facts (README, 'The report'): file table, signer, counts, bytes in and out … */
  readonly details: Details;
  readonly stats: { readonly bytes_read: number; readonly duration_ms: number };
}

/** Any report, whatever its format and codes (the public, format-bound `Report` is in `src/report.ts`). */
export type AnyReport = ReportShape<FormatId | null, string | null, unknown>;
