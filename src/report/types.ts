/**
 * The report every verifier returns (docs/architecture.md, 'The report'). Plain data,
 * JSON-serialisable, frozen.
 * @module
 */
import type { FindingCode } from './codes.ts';

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

export interface Finding {
  /** Stable code from `codes.ts`. */
  readonly code: FindingCode;
  /** JSON path (`$.files[".agentxchain/state.json"].sha256`) or `line 17` for NDJSON. */
  readonly path: string;
  /** Human-readable; the reference tool's wording where the format's docs/ page gives one. */
  readonly message: string;
  readonly severity: Severity;
  /**
   * The exact text the reference tool prints for this problem, when the reference reports it
   * (AgentXchain's error string, Zaxy's reason). Compat serializers use only these.
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

export interface Report {
  readonly overall: Overall;
  readonly verdicts: Verdicts;
  readonly format: FormatId | null;
  /** e.g. `agentxchain_run_export`, `zaxy.portable.v1`, `zaxy.subset`, `impl-2.0`. */
  readonly kind: string | null;
  /** File name, URL, or `stdin` / `bytes`. */
  readonly input: string;
  /** Every problem found, in the order found, at most `limits.maxFindings` (+1 `limit.findings`). */
  readonly findings: readonly Finding[];
  /** Format facts: file_count, algorithm, public_key, merkle_root, line_count, bytes_in/out … */
  readonly details: Readonly<Record<string, unknown>>;
  readonly stats: { readonly bytes_read: number; readonly duration_ms: number };
}
