/**
 * The shapes of `agentxchain diff --export --json` (docs/agentxchain-diff.md §3): the two
 * normalised sides, the change entries, the regressions and the summary, with the reference's key
 * order. Values marked `unknown` are copied from the artifact (any JSON value, as `JSON.parse` gave
 * it, `Infinity` and `-0` included): show them as text.
 * @module
 */

/**
 * `reference` reproduces `agentxchain diff --export` bug for bug; `corrected` fixes the bugs listed in
 * docs/agentxchain-diff.md §6.
 */
export type AgentxchainDiffMode = 'reference' | 'corrected';

/** A run export reduced to what the diff compares (docs/agentxchain-diff.md §2.1), keys in the reference's order. */
export interface RunDiffSide {
  readonly export_kind: string;
  readonly run_id: unknown;
  readonly status: unknown;
  readonly phase: unknown;
  /** The summary's array as it is (not validated), else null. */
  readonly workflow_phase_order: readonly unknown[] | null;
  readonly project_name: unknown;
  readonly project_goal: unknown;
  readonly provenance_trigger: unknown;
  readonly dashboard_status: unknown;
  readonly history_entries: number | null;
  readonly decision_entries: number | null;
  readonly hook_audit_entries: number | null;
  readonly notification_audit_entries: number | null;
  readonly dispatch_artifact_files: number | null;
  readonly staging_artifact_files: number | null;
  readonly total_delegations_issued: number | null;
  readonly active_repo_decision_count: number | null;
  readonly overridden_repo_decision_count: number | null;
  readonly active_turn_ids: readonly string[];
  readonly retained_turn_ids: readonly string[];
  readonly active_repo_decision_ids: readonly string[];
  readonly overridden_repo_decision_ids: readonly string[];
  readonly budget_warn_mode: boolean;
  readonly budget_exhausted: boolean;
  readonly phase_gate_status: Readonly<Record<string, string>>;
  readonly blocked_category: unknown;
  readonly blocked_gate_action_timed_out: boolean;
  readonly blocked_gate_action_timeout_ms: number | null;
  readonly delegation_missing_decisions: Readonly<Record<string, readonly string[]>>;
}

/** A coordinator export reduced to what the diff compares (docs/agentxchain-diff.md §2.2). */
export interface CoordinatorDiffSide {
  readonly export_kind: string;
  readonly super_run_id: unknown;
  readonly status: unknown;
  readonly phase: unknown;
  readonly workflow_phase_order: readonly unknown[] | null;
  readonly project_name: unknown;
  readonly barrier_count: number | null;
  readonly history_entries: number | null;
  readonly decision_entries: number | null;
  readonly total_events: number | null;
  readonly repo_ids: readonly string[];
  readonly repos_with_events: readonly string[];
  readonly repo_statuses: Readonly<Record<string, string | null>>;
  readonly coordinator_repo_statuses: Readonly<Record<string, string | null>>;
  readonly repo_export_status: Readonly<Record<string, boolean>>;
  readonly event_type_counts: Readonly<Record<string, number>>;
}

/** One compared field: `changed` when the two values print differently as JSON. */
export interface FieldChange {
  readonly label: string;
  readonly left: unknown;
  readonly right: unknown;
  readonly changed: boolean;
}

/** A compared counter; `delta` = right − left when both are numbers. */
export interface NumericChange extends FieldChange {
  readonly left: number | null;
  readonly right: number | null;
  readonly delta: number | null;
}

/** A compared id list (both sides de-duplicated and sorted). */
export interface ListChange {
  readonly label: string;
  readonly left: readonly string[];
  readonly right: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: boolean;
}

/** One key of a compared map (coordinators). */
export interface MapChange {
  readonly label: string;
  readonly key: string;
  readonly left: unknown;
  readonly right: unknown;
  readonly changed: boolean;
}

/** One key of a compared map of counts; `delta` = right − left when both are numbers. */
export interface NumericMapChange extends MapChange {
  readonly left: number | null;
  readonly right: number | null;
  readonly delta: number | null;
}

/** A governance regression (docs/agentxchain-diff.md §4), id `<PREFIX>-<nnn>`. */
export interface DiffRegression {
  readonly id: string;
  readonly category: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly field: string;
  readonly left: unknown;
  readonly right: unknown;
}

/** `summary` of `diff --export --json` (docs/agentxchain-diff.md §5). */
export interface DiffSummary {
  readonly outcome: 'unchanged' | 'changed' | 'regressed';
  readonly risk_level: 'none' | 'low' | 'medium' | 'high';
  readonly highlights: readonly string[];
  readonly changed_field_count: number;
}

/** What both kinds of diff share, in the reference's key order up to `right`. */
interface DiffHead<Kind extends 'run' | 'coordinator', Side> {
  readonly comparison_mode: 'export';
  readonly subject_kind: Kind;
  readonly export_kind: string;
  readonly left_ref: string | null;
  readonly right_ref: string | null;
  /** Some scalar, numeric, list (coordinators: or map) entry changed. Not every difference counts. */
  readonly changed: boolean;
  readonly left: Side;
  readonly right: Side;
}

/** What both kinds of diff end with. */
interface DiffTail {
  readonly regressions: readonly DiffRegression[];
  readonly regression_count: number;
  readonly has_regressions: boolean;
  readonly summary: DiffSummary;
}

/** The diff of two run exports. */
export interface RunExportDiff extends DiffHead<'run', RunDiffSide>, DiffTail {
  readonly scalar_changes: Readonly<
    Record<
      'run_id' | 'status' | 'phase' | 'project_name' | 'project_goal' | 'provenance_trigger' | 'dashboard_status',
      FieldChange
    >
  >;
  readonly numeric_changes: Readonly<Record<RunNumericField, NumericChange>>;
  readonly list_changes: Readonly<
    Record<
      'active_turn_ids' | 'retained_turn_ids' | 'active_repo_decision_ids' | 'overridden_repo_decision_ids',
      ListChange
    >
  >;
}

/** The diff of two coordinator exports. */
export interface CoordinatorExportDiff extends DiffHead<'coordinator', CoordinatorDiffSide>, DiffTail {
  readonly scalar_changes: Readonly<Record<'super_run_id' | 'status' | 'phase' | 'project_name', FieldChange>>;
  readonly numeric_changes: Readonly<
    Record<'barrier_count' | 'history_entries' | 'decision_entries' | 'total_events', NumericChange>
  >;
  readonly list_changes: Readonly<Record<'repo_ids' | 'repos_with_events', ListChange>>;
  readonly repo_status_changes: readonly MapChange[];
  readonly repo_export_changes: readonly MapChange[];
  readonly event_type_changes: readonly NumericMapChange[];
}

/** The run counters the diff compares. */
export type RunNumericField =
  | 'history_entries'
  | 'decision_entries'
  | 'hook_audit_entries'
  | 'notification_audit_entries'
  | 'dispatch_artifact_files'
  | 'staging_artifact_files'
  | 'total_delegations_issued'
  | 'active_repo_decision_count'
  | 'overridden_repo_decision_count';

/**
 * `{...diff, summary}`: the object `agentxchain diff --export --json` prints; `JSON.stringify(diff,
 * null, 2)` gives its bytes.
 */
export type AgentxchainExportDiff = RunExportDiff | CoordinatorExportDiff;

/**
 * Why no diff was made (docs/agentxchain-diff.md §1):
 * - `read_failed`: the input could not be read (a stream error, gzip damage, a limit, an abort);
 * - `not_json`, `not_an_object`, `missing_export_kind`: the reference loader's checks, in its order;
 * - `kind_mismatch`, `unsupported_kind`: the two kinds differ, or are neither run nor coordinator;
 * - `too_deep`: a value the diff copies is nested deeper than `limits.maxJsonDepth`;
 * - `reference_crash`: the reference throws on this input (reference mode only; corrected mode diffs it);
 * - `internal_error`: a bug of the kit (reported, never turned into a diff).
 */
export type AgentxchainDiffRefusalCode =
  | 'read_failed'
  | 'not_json'
  | 'not_an_object'
  | 'missing_export_kind'
  | 'kind_mismatch'
  | 'unsupported_kind'
  | 'too_deep'
  | 'reference_crash'
  | 'internal_error';

/** A refused diff: the reference's one-line message (what it prints on stderr). */
export interface AgentxchainDiffRefusal {
  readonly code: AgentxchainDiffRefusalCode;
  /** The input the refusal is about; null when it is about both (kinds). */
  readonly side: 'left' | 'right' | null;
  readonly message: string;
}

/** The outcome of `diffAgentxchain`: a diff, or a refusal; never both, so neither can pass for the other. */
export type AgentxchainDiffResult =
  | { readonly ok: true; readonly diff: AgentxchainExportDiff }
  | { readonly ok: false; readonly refusal: AgentxchainDiffRefusal };
