/**
 * The governance report and the export diff as the Run and Compare views read them: the JSON that
 * `agentxchain report --format json` and `agentxchain diff --export --json` print (spec
 * `agentxchain-report.md` §1.1, §2, §4, §5, §8.4–§8.6). Many values are passed through from the
 * artifact with any type, so the views type them `unknown` and draw them through `visibleText`.
 * Only the fields the views draw are listed.
 * @module
 */

/** A `{command, reason}` next action (coordinators add a `code`). */
export interface NextAction {
  readonly code?: unknown;
  readonly command: unknown;
  readonly reason: unknown;
}

/** A recent-event summary (spec §3). */
export interface RecentEvents {
  readonly window_minutes: number;
  readonly freshness: string;
  readonly recent_count: number;
  readonly latest_event: {
    readonly event_type: unknown;
    readonly timestamp: unknown;
    readonly summary: unknown;
  } | null;
}

/** One turn of the timeline (spec §4.3). */
export interface Turn {
  readonly turn_id: string;
  readonly role: string;
  readonly status: unknown;
  readonly summary: unknown;
  readonly phase: unknown;
  readonly phase_transition: unknown;
  readonly files_changed_count: number;
  readonly decisions: readonly unknown[];
  readonly objections?: readonly unknown[];
  readonly cost_usd: number | null;
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly duration_ms: number | null;
  readonly accepted_at: unknown;
}

/** A decision of the ledger (spec §4.4); coordinators' digests add a `category`. */
export interface Decision {
  readonly id: string;
  readonly turn_id: unknown;
  readonly role: unknown;
  readonly phase: unknown;
  readonly category?: unknown;
  readonly statement: unknown;
}

export interface Delegation {
  readonly delegation_id: string;
  readonly to_role: string;
  readonly charter: string;
  readonly required_decision_ids: readonly unknown[];
  readonly satisfied_decision_ids: readonly unknown[];
  readonly missing_decision_ids: readonly unknown[];
  readonly status: string;
  readonly child_turn_id: string | null;
}

export interface DelegationChain {
  readonly parent_turn_id: string;
  readonly parent_role: string;
  readonly delegations: readonly Delegation[];
  readonly review_turn_id: string | null;
  readonly outcome: string;
}

export interface GateFailure {
  readonly gate_id: unknown;
  readonly gate_type: unknown;
  readonly phase: unknown;
  readonly from_phase: unknown;
  readonly to_phase: unknown;
  readonly failed_at: unknown;
  readonly reasons: readonly unknown[];
}

export interface GateAction {
  readonly gate_id: unknown;
  readonly action_label: unknown;
  readonly command: unknown;
  readonly status: unknown;
  readonly exit_code: number | null;
  readonly timed_out: boolean;
  readonly stderr_tail: unknown;
  readonly timestamp: unknown;
}

export interface GovernanceEvent {
  readonly type: unknown;
  readonly timestamp: unknown;
  readonly role: unknown;
  readonly phase: unknown;
}

export interface HookSummary {
  readonly total: number;
  readonly blocked: number;
  readonly events: Readonly<Record<string, number>>;
}

/** `S.repo_decisions`, passed through (verified against its reconstruction). */
export interface RepoDecisions {
  readonly active?: readonly {
    readonly id?: unknown;
    readonly category?: unknown;
    readonly statement?: unknown;
    readonly role?: unknown;
    readonly overrides?: unknown;
    readonly authority_level?: unknown;
  }[];
  readonly overridden?: readonly {
    readonly id?: unknown;
    readonly statement?: unknown;
    readonly overridden_by?: unknown;
  }[];
}

/** `subject.run` of a governed run (spec §4.2). */
export interface RunFacts {
  readonly run_id: unknown;
  readonly status: unknown;
  readonly phase: unknown;
  readonly blocked_on: unknown;
  readonly blocked_reason: unknown;
  readonly active_turn_ids: unknown;
  readonly retained_turn_ids: unknown;
  readonly active_roles: readonly string[];
  readonly budget_status: {
    readonly spent_usd?: number;
    readonly remaining_usd?: number;
    readonly warn_mode?: boolean;
    readonly exhausted?: boolean;
  } | null;
  readonly cost_summary: {
    readonly total_usd: number;
    readonly total_input_tokens: number | null;
    readonly total_output_tokens: number | null;
    readonly turn_count: number;
  } | null;
  readonly recent_event_summary: RecentEvents;
  readonly created_at: unknown;
  readonly completed_at: unknown;
  readonly duration_seconds: number | null;
  readonly turns: readonly Turn[];
  readonly decisions: readonly Decision[];
  readonly governance_events: readonly GovernanceEvent[];
  readonly gate_failures: readonly GateFailure[];
  readonly gate_actions: readonly GateAction[];
  readonly delegation_summary: {
    readonly total_delegations_issued: number;
    readonly delegation_chains: readonly DelegationChain[];
  } | null;
  readonly hook_summary: HookSummary | null;
  readonly gate_summary: readonly { readonly gate_id: string; readonly status: string }[];
  readonly next_actions: readonly NextAction[];
  readonly repo_decisions: RepoDecisions | null;
  readonly ship_status?: {
    readonly overall: string;
    readonly dimensions_passed: number;
    readonly dimensions_total: number;
    readonly blocking_reasons: readonly unknown[];
  } | null;
}

export interface RunSubject {
  readonly kind: 'governed_run';
  readonly project: {
    readonly id: unknown;
    readonly name: unknown;
    readonly goal: unknown;
    readonly template: unknown;
    readonly protocol_mode: unknown;
  };
  readonly run: RunFacts;
}

/** A child repo of a coordinator (spec §5, `repos`). */
export interface RepoRow {
  readonly repo_id: string;
  readonly path: unknown;
  readonly ok: boolean;
  readonly status: unknown;
  readonly run_id: unknown;
  readonly phase: unknown;
  readonly project_name?: unknown;
  readonly error: unknown;
  readonly turns?: readonly Turn[];
  readonly decisions?: readonly Decision[];
  readonly gate_summary?: readonly { readonly gate_id: string; readonly status: string }[];
  readonly blocked_on?: unknown;
}

export interface CoordinatorSubject {
  readonly kind: 'coordinator_workspace';
  readonly coordinator: {
    readonly project_id: unknown;
    readonly project_name: unknown;
    readonly repo_count: unknown;
    readonly workstream_count: unknown;
  };
  readonly run: {
    readonly super_run_id: unknown;
    readonly status: unknown;
    readonly phase: unknown;
    readonly blocked_reason: unknown;
    readonly pending_gate: { readonly gate: string; readonly gate_type: string } | null;
    readonly run_id_mismatches: readonly {
      readonly repo_id: unknown;
      readonly expected_run_id: unknown;
      readonly actual_run_id: unknown;
    }[];
    readonly repo_status_drifts: readonly {
      readonly repo_id: unknown;
      readonly coordinator_status: unknown;
      readonly repo_status: unknown;
    }[];
    readonly terminal_observability_note: string | null;
    readonly recent_coordinator_events: RecentEvents;
    readonly recent_child_repo_events: RecentEvents;
    readonly next_actions: readonly NextAction[];
    readonly created_at: unknown;
    readonly completed_at: unknown;
    readonly duration_seconds: number | null;
    readonly barrier_count: unknown;
    readonly repo_ok_count: number;
    readonly repo_error_count: number;
  };
  readonly coordinator_timeline: readonly {
    readonly type: unknown;
    readonly timestamp: unknown;
    readonly summary: unknown;
    readonly repo_id: unknown;
  }[];
  readonly aggregated_event_timeline: readonly {
    readonly repo_id: unknown;
    readonly type: unknown;
    readonly timestamp: unknown;
    readonly summary: unknown;
  }[];
  readonly barrier_summary: readonly {
    readonly barrier_id: string;
    readonly workstream_id: unknown;
    readonly type: unknown;
    readonly status: unknown;
    readonly required_repos: readonly unknown[];
    readonly satisfied_repos: readonly unknown[];
  }[];
  readonly decision_digest: readonly Decision[];
  readonly repos: readonly RepoRow[];
}

/** The report: a pass with its subject, or a refusal (spec §1.1: `fail` after verification, `error` before). */
export type GovernanceReport =
  | {
      readonly overall: 'pass';
      readonly generated_at: string;
      readonly input: string;
      readonly export_kind: string;
      readonly subject: RunSubject | CoordinatorSubject;
    }
  | {
      readonly overall: 'fail';
      readonly input: string;
      readonly message: string;
      readonly verification: { readonly errors: readonly string[] };
    }
  | { readonly overall: 'error'; readonly input: string; readonly message: string };

/** One regression (spec §8.5). */
export interface Regression {
  readonly id: string;
  readonly category: string;
  readonly severity: string;
  readonly message: string;
  readonly field: string;
  readonly left: unknown;
  readonly right: unknown;
}

export interface FieldChange {
  readonly label: string;
  readonly key?: string;
  readonly left: unknown;
  readonly right: unknown;
  readonly changed: boolean;
  readonly delta?: number | null;
  readonly added?: readonly unknown[];
  readonly removed?: readonly unknown[];
}

/** The `diff --export --json` object (spec §8.4, §8.6). */
export interface ExportDiff {
  readonly subject_kind: 'run' | 'coordinator';
  readonly export_kind: string;
  readonly left_ref: string;
  readonly right_ref: string;
  readonly changed: boolean;
  readonly left: Readonly<Record<string, unknown>>;
  readonly right: Readonly<Record<string, unknown>>;
  readonly scalar_changes: Readonly<Record<string, FieldChange>>;
  readonly numeric_changes: Readonly<Record<string, FieldChange>>;
  readonly list_changes: Readonly<Record<string, FieldChange>>;
  readonly repo_status_changes?: readonly FieldChange[];
  readonly repo_export_changes?: readonly FieldChange[];
  readonly event_type_changes?: readonly FieldChange[];
  readonly regressions: readonly Regression[];
  readonly regression_count: number;
  readonly has_regressions: boolean;
  readonly summary: {
    readonly outcome: string;
    readonly risk_level: string;
    readonly highlights: readonly string[];
    readonly changed_field_count: number;
  };
}

/** What a comparison produced: the diff with its text rendering, or the reference's refusal message. */
export type Comparison =
  | { readonly ok: true; readonly diff: ExportDiff; readonly text: string }
  | { readonly ok: false; readonly message: string };

/** What the Run view is given: the report and its markdown, as the reference prints it. */
export interface RunReport {
  readonly report: GovernanceReport;
  readonly markdown: string;
}
