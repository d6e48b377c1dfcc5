/**
 * The text rendering of a run report (docs/agentxchain-report.md §7), line for line as
 * `agentxchain report --format text` prints it.
 * @module
 */
import { formatTokens, formatUsd } from './number-format.ts';
import {
  bounded,
  countPairs,
  decisionAuthority,
  domainLabel,
  hasItems,
  joined,
  latestEventLine,
  minutes,
  outcomeCounts,
  overlap,
  plural,
  recentEventLine,
  repoDecisionSummaryLines,
  requestLabel,
  ruleText,
  summarizeBlockedState,
  t,
  timeoutLabel,
  turnTime,
  yesNo,
  type Node,
} from './render-common.ts';
import { dashboardLine, provenanceLine } from './run-state.ts';

/** The detail lines of a governance event, text style. */
export function governanceDetailText(lines: string[], event: Node, indent: string): void {
  const files = (): void => {
    if (hasItems(event.conflicting_files)) lines.push(`${indent}files: ${joined(event.conflicting_files)}`);
    if (hasItems(event.accepted_since_turn_ids))
      lines.push(`${indent}accepted since: ${joined(event.accepted_since_turn_ids)}`);
  };
  switch (event.type) {
    case 'policy_escalation':
      for (const v of event.violations || [])
        lines.push(t`${indent}violation: ${v.policy_id || '?'} / ${v.rule || '?'} — ${v.message || 'n/a'}`);
      break;
    case 'conflict_detected':
      files();
      if (event.overlap_ratio != null) lines.push(`${indent}overlap: ${overlap(event.overlap_ratio)}`);
      break;
    case 'conflict_rejected':
      files();
      if (event.operator_reason) lines.push(t`${indent}operator reason: ${event.operator_reason}`);
      break;
    case 'conflict_resolution_selected':
      files();
      if (event.overlap_ratio != null) lines.push(`${indent}overlap: ${overlap(event.overlap_ratio)}`);
      if (event.resolution_method) lines.push(t`${indent}resolution: ${event.resolution_method}`);
      break;
    case 'operator_escalated':
      if (event.reason) lines.push(t`${indent}reason: ${event.reason}`);
      if (event.blocked_on) lines.push(t`${indent}blocked_on: ${event.blocked_on}`);
      break;
    case 'escalation_resolved':
      if (event.resolved_via) lines.push(t`${indent}resolved via: ${event.resolved_via}`);
      if (event.previous_blocked_on) lines.push(t`${indent}was blocked on: ${event.previous_blocked_on}`);
      break;
  }
}

/** One turn line (`withDuration`: the run timeline; child timelines print `accepted_at` only). */
export function turnLineText(turn: Node, index: number, withDuration: boolean): string {
  const cost = turn.cost_usd != null ? formatUsd(turn.cost_usd) : 'n/a';
  const phase = turn.phase_transition ? t`${turn.phase || '?'} -> ${turn.phase_transition}` : t`${turn.phase || '?'}`;
  const siblings = Array.isArray(turn.sibling_attributed_files)
    ? ` (${turn.sibling_attributed_files.length} sibling-attributed)`
    : '';
  const time = withDuration ? turnTime(turn) : t`${turn.accepted_at || 'n/a'}`;
  return t`${index + 1}. [${turn.role}] ${turn.summary || '(no summary)'} | phase: ${phase} | files: ${turn.files_changed_count}${siblings} | cost: ${cost} | ${time}`;
}

/** The approval-policy lines shared by run and coordinator. */
export function approvalPolicyText(lines: string[], events: Node[]): void {
  const { items, omitted } = bounded(events);
  lines.push('', 'Approval Policy:');
  for (const e of items) {
    const rule = e.matched_rule ? ` | rule: ${ruleText(e.matched_rule)}` : '';
    lines.push(
      t`  - ${e.action || 'unknown'} | ${e.gate_type || 'unknown'} | ${requestLabel(e.gate_type, e.from_phase, e.to_phase, '->')}${rule} | at: ${e.timestamp || 'n/a'}`,
    );
    if (e.reason) lines.push(t`      reason: ${e.reason}`);
  }
  if (omitted > 0) lines.push(`  (${omitted} more approval policy events omitted)`);
}

/** The governance-event section shared by run and coordinator. */
export function governanceEventsText(lines: string[], events: Node[]): void {
  const { items, omitted } = bounded(events);
  lines.push('', 'Governance Events:');
  for (const e of items) {
    lines.push(t`  - ${e.type} | ${e.role || '?'} | ${e.phase || '?'} | at: ${e.timestamp || 'n/a'}`);
    governanceDetailText(lines, e, '      ');
  }
  if (omitted > 0) lines.push(`  (${omitted} more governance events omitted)`);
}

/** The timeout-event section shared by run and coordinator. */
export function timeoutEventsText(lines: string[], events: Node[]): void {
  const { items, omitted } = bounded(events);
  lines.push('', 'Timeout Events:');
  for (const e of items) {
    const exceeded = e.exceeded_by_minutes != null ? t` (+${e.exceeded_by_minutes}m)` : '';
    lines.push(
      t`  - ${timeoutLabel(e.type, false)} | ${e.scope || '?'} scope | ${minutes(e.elapsed_minutes)}/${minutes(e.limit_minutes)}${exceeded} | action: ${e.action || 'n/a'} | phase: ${e.phase || 'n/a'} | at: ${e.timestamp || 'n/a'}`,
    );
  }
  if (omitted > 0) lines.push(`  (${omitted} more timeout events omitted)`);
}

function costText(lines: string[], cost: Node): void {
  lines.push('', 'Cost Summary:');
  lines.push(
    t`  Total: ${formatUsd(cost.total_usd)} across ${cost.turn_count} turn${plural(cost.turn_count)} (${cost.costed_turn_count} with cost data)`,
  );
  if (cost.total_input_tokens != null || cost.total_output_tokens != null)
    lines.push(
      `  Tokens: ${formatTokens(cost.total_input_tokens)} input / ${formatTokens(cost.total_output_tokens)} output`,
    );
  if (cost.by_role.length > 0) {
    lines.push('  By role:');
    for (const r of cost.by_role) {
      const tokens =
        r.input_tokens || r.output_tokens
          ? `, ${formatTokens(r.input_tokens)} in / ${formatTokens(r.output_tokens)} out`
          : '';
      lines.push(t`    ${r.role}: ${formatUsd(r.usd)} (${r.turns} turn${plural(r.turns)}${tokens})`);
    }
  }
  if (cost.by_phase.length > 0) {
    lines.push('  By phase:');
    for (const p of cost.by_phase)
      lines.push(t`    ${p.phase}: ${formatUsd(p.usd)} (${p.turns} turn${plural(p.turns)})`);
  }
}

function delegationText(lines: string[], summary: Node): void {
  lines.push('', 'Delegation Summary:');
  lines.push(t`  Total delegations issued: ${summary.total_delegations_issued}`);
  for (const chain of summary.delegation_chains) {
    lines.push(
      t`  - ${chain.parent_role} (${chain.parent_turn_id}) | outcome: ${chain.outcome} | review: ${chain.review_turn_id || 'pending'}`,
    );
    for (const d of chain.delegations) {
      lines.push(
        t`      ${d.delegation_id} -> ${d.to_role} | ${d.status} | child: ${d.child_turn_id || 'pending'} | ${d.charter}`,
      );
      if (hasItems(d.required_decision_ids)) {
        lines.push(`        required decisions: ${joined(d.required_decision_ids)}`);
        lines.push(`        satisfied decisions: ${joined(d.satisfied_decision_ids) || 'none'}`);
        lines.push(`        missing decisions: ${joined(d.missing_decision_ids) || 'none'}`);
      }
    }
  }
}

function repoDecisionsText(lines: string[], decisions: Node): void {
  lines.push('', 'Repo Decisions:');
  lines.push(t`  Active: ${decisions.active_count}  Overridden: ${decisions.overridden_count}`);
  for (const line of repoDecisionSummaryLines(decisions)) lines.push(`  ${line}`);
  const authority = (d: Node): string => {
    const level = decisionAuthority(d);
    return level === null ? '' : ` | authority ${level}`;
  };
  for (const d of decisions.active) {
    const supersedes = d.overrides ? t` | supersedes ${d.overrides}` : '';
    lines.push(t`  - ${d.id} (${d.category}): ${d.statement}${supersedes}${authority(d)}`);
  }
  for (const d of decisions.overridden || [])
    lines.push(t`  - ${d.id} (overridden by ${d.overridden_by || 'unknown'}${authority(d)})`);
}

function gateFailuresText(lines: string[], failures: Node[]): void {
  const { items, omitted } = bounded(failures);
  lines.push('', 'Gate Failures:');
  for (const f of items) {
    const request = requestLabel(f.gate_type, f.from_phase || f.phase, f.to_phase, '->');
    lines.push(
      t`  - ${f.gate_id || 'unknown'} | ${f.gate_type || 'unknown'} | request: ${request} | source: ${f.queued_request ? 'queued drain' : 'direct'} | at: ${f.failed_at || 'n/a'}`,
    );
    for (const reason of f.reasons || []) lines.push(t`      reason: ${reason}`);
  }
  if (omitted > 0) lines.push(`  (${omitted} more gate failures omitted)`);
}

function gateActionsText(lines: string[], actions: Node[]): void {
  const { items, omitted } = bounded(actions);
  lines.push('', 'Gate Actions:');
  for (const a of items) {
    const label = a.action_label || a.command || t`action ${a.action_index || '?'}`;
    const exit = a.exit_code == null ? 'n/a' : t`${a.exit_code}`;
    const timeout = a.timed_out ? t` | timed_out after ${a.timeout_ms}ms` : '';
    lines.push(
      t`  - ${a.gate_id || 'unknown'} | ${a.gate_type || 'unknown'} | action ${a.action_index || '?'} | ${a.status} | ${label} | exit: ${exit}${timeout} | at: ${a.timestamp || 'n/a'}`,
    );
    if (a.stderr_tail) lines.push(t`      stderr: ${a.stderr_tail}`);
  }
  if (omitted > 0) lines.push(`  (${omitted} more gate actions omitted)`);
}

function recoveryText(lines: string[], recovery: Node): void {
  lines.push('', 'Recovery:');
  lines.push(t`  Category: ${recovery.category || 'unknown'}`);
  lines.push(t`  Typed reason: ${recovery.typed_reason || 'unknown'}`);
  lines.push(t`  Owner: ${recovery.owner || 'unknown'}`);
  lines.push(t`  Action: ${recovery.recovery_action || 'n/a'}`);
  lines.push(t`  Detail: ${recovery.detail || 'n/a'}`);
  lines.push(`  Turn retained: ${recovery.turn_retained == null ? 'n/a' : yesNo(recovery.turn_retained)}`);
  if (hasItems(recovery.runtime_guidance)) {
    lines.push('  Runtime guidance:');
    for (const g of recovery.runtime_guidance) lines.push(t`    - ${g.code} | ${g.command} | ${g.reason}`);
  }
}

function classificationText(lines: string[], rc: Node): void {
  lines.push('', 'Recovery Classification:');
  lines.push(t`  Health: ${rc.health_score}`);
  lines.push(t`  Events: ${rc.total_recovery_events} total (${outcomeCounts(rc.by_outcome)})`);
  lines.push('  By Domain:');
  for (const [domain, counts] of Object.entries(rc.by_domain as Record<string, Node>))
    lines.push(t`    ${domainLabel(domain)}: ${counts.total} (${outcomeCounts(counts)})`);
  if (rc.timeline.length > 0) {
    const { items, omitted } = bounded<Node>(rc.timeline);
    lines.push('  Timeline:');
    items.forEach((e, i) =>
      lines.push(
        t`    ${i + 1}. ${e.timestamp || 'n/a'} | ${e.domain} | ${e.severity} | ${e.outcome} | ${e.mechanism} | ${e.summary}`,
      ),
    );
    if (omitted > 0) lines.push(`    (${omitted} more recovery events omitted)`);
  }
}

/** The continuity lines (`indent` two spaces for the run, four for a child repo). */
export function continuityText(lines: string[], c: Node, indent: string, runId: unknown, subject: string): void {
  lines.push(t`${indent}Session: ${c.session_id || 'unknown'}`);
  lines.push(t`${indent}Checkpoint: ${c.checkpoint_reason || 'unknown'} at ${c.last_checkpoint_at || 'n/a'}`);
  lines.push(t`${indent}Last turn: ${c.last_turn_id || 'none'}`);
  lines.push(t`${indent}Last role: ${c.last_role || 'unknown'}`);
  lines.push(t`${indent}Last phase: ${c.last_phase || 'unknown'}`);
  if (c.stale_checkpoint)
    lines.push(t`${indent}WARNING: checkpoint tracks run ${c.run_id}, but ${subject} tracks ${runId}`);
}

/** The decision lines shared by the run and the coordinator. */
export function decisionsText(lines: string[], title: string, decisions: Node[]): void {
  const { items, omitted } = bounded(decisions);
  lines.push('', title);
  for (const d of items) lines.push(t`  - ${d.id} (${d.role || '?'}, ${d.phase || '?'}): ${d.statement}`);
  if (omitted > 0) lines.push(`  (${omitted} more decisions omitted)`);
}

/** The run report as text, without the trailing newline. */
export function runReportText(report: Node): string {
  const { project, run, artifacts } = report.subject;
  const idList = (ids: Node): string => (ids.length ? ` (${joined(ids)})` : '');
  const lines = [
    'AgentXchain Governance Report',
    t`Input: ${report.input}`,
    t`Export kind: ${report.export_kind}`,
    'Verification: PASS',
    t`Project: ${project.name || 'unknown'} (${project.id || 'unknown'})`,
    ...(project.goal ? [t`Goal: ${project.goal}`] : []),
    t`Template: ${project.template}`,
    t`Protocol: ${project.protocol_mode || 'unknown'} (config schema ${project.schema_version || 'unknown'})`,
    t`Run: ${run.run_id || 'none'}`,
    t`Status: ${run.status || 'unknown'}`,
    t`Phase: ${run.phase || 'unknown'}`,
    `Blocked on: ${summarizeBlockedState(run)}`,
    t`Active turns: ${run.active_turn_count}${idList(run.active_turn_ids)}`,
    t`Retained turns: ${run.retained_turn_count}${idList(run.retained_turn_ids)}`,
    `Active roles: ${run.active_roles.length ? joined(run.active_roles) : 'none'}`,
  ];
  if (run.budget_status) {
    const warn = run.budget_status.warn_mode ? ' [OVER BUDGET]' : '';
    lines.push(
      `Budget: spent ${formatUsd(run.budget_status.spent_usd)}, remaining ${formatUsd(run.budget_status.remaining_usd)}${warn}`,
    );
  }
  if (run.created_at) lines.push(t`Started: ${run.created_at}`);
  if (run.completed_at) lines.push(t`Completed: ${run.completed_at}`);
  if (run.duration_seconds != null) lines.push(t`Duration: ${run.duration_seconds}s`);
  const provenance = provenanceLine(run.provenance);
  if (provenance) lines.push(`Provenance: ${provenance}`);
  if (run.inherited_context?.parent_run_id)
    lines.push(
      t`Inherited from: ${run.inherited_context.parent_run_id} (${run.inherited_context.parent_status || 'unknown'})`,
    );
  if (run.dashboard_session) lines.push(`Dashboard session: ${dashboardLine(run.dashboard_session)}`);
  if (run.recent_event_summary) {
    lines.push(`Recent events: ${recentEventLine(run.recent_event_summary)}`);
    lines.push(`Latest event: ${latestEventLine(run.recent_event_summary)}`);
  }
  lines.push(
    t`History entries: ${artifacts.history_entries}`,
    t`Decision entries: ${artifacts.decision_entries}`,
    t`Hook audit entries: ${artifacts.hook_audit_entries}`,
    t`Notification audit entries: ${artifacts.notification_audit_entries}`,
    t`Dispatch files: ${artifacts.dispatch_artifact_files}`,
    t`Staging files: ${artifacts.staging_artifact_files}`,
    `Intake artifacts: ${yesNo(artifacts.intake_present)}`,
    `Coordinator artifacts: ${yesNo(artifacts.coordinator_present)}`,
  );
  if (run.cost_summary) costText(lines, run.cost_summary);
  if (hasItems(run.delegation_summary?.delegation_chains)) delegationText(lines, run.delegation_summary);
  if (run.repo_decisions) repoDecisionsText(lines, run.repo_decisions);
  if (run.ship_status) {
    const ship = run.ship_status;
    const verdict = ship.overall === 'pass' ? 'YES' : ship.overall === 'fail' ? 'NO' : 'PENDING';
    lines.push('', t`Ship Status: ${verdict} (${ship.dimensions_passed}/${ship.dimensions_total} dimensions pass)`);
    for (const reason of ship.blocking_reasons) lines.push(t`  - ${reason}`);
  }
  if (hasItems(run.turns)) {
    const { items, omitted } = bounded<Node>(run.turns);
    lines.push('', 'Turn Timeline:');
    items.forEach((turn, i) => lines.push(`  ${turnLineText(turn, i, true)}`));
    if (omitted > 0) lines.push(`  (${omitted} more turns omitted)`);
  }
  if (hasItems(run.decisions)) decisionsText(lines, 'Decisions:', run.decisions);
  if (hasItems(run.gate_summary)) {
    lines.push('', 'Gate Outcomes:');
    for (const gate of run.gate_summary) lines.push(t`  - ${gate.gate_id}: ${gate.status}`);
  }
  if (hasItems(run.gate_failures)) gateFailuresText(lines, run.gate_failures);
  if (hasItems(run.gate_actions)) gateActionsText(lines, run.gate_actions);
  if (hasItems(run.approval_policy_events)) approvalPolicyText(lines, run.approval_policy_events);
  if (hasItems(run.governance_events)) governanceEventsText(lines, run.governance_events);
  if (hasItems(run.timeout_events)) timeoutEventsText(lines, run.timeout_events);
  if (hasItems(run.intake_links)) {
    lines.push('', 'Intake Linkage:');
    for (const i of run.intake_links)
      lines.push(
        t`  - ${i.intent_id} | status: ${i.status || 'unknown'} | event: ${i.event_id || 'n/a'} | target turn: ${i.target_turn || 'n/a'} | started: ${i.started_at || 'n/a'}`,
      );
  }
  if (run.hook_summary) {
    lines.push('', 'Hook Activity:');
    lines.push(t`  Total: ${run.hook_summary.total}, Blocked: ${run.hook_summary.blocked}`);
    const events = countPairs(run.hook_summary.events);
    if (events) lines.push(`  Events: ${events}`);
  }
  if (run.recovery_summary) recoveryText(lines, run.recovery_summary);
  if (run.recovery_classification) classificationText(lines, run.recovery_classification);
  if (hasItems(run.next_actions)) {
    lines.push('', 'Next Actions:');
    run.next_actions.forEach((a: Node, i: number) => lines.push(t`  ${i + 1}. ${a.command} | ${a.reason}`));
  }
  if (run.continuity) {
    lines.push('', 'Continuity:');
    continuityText(lines, run.continuity, '  ', run.run_id, 'export');
  }
  if (hasItems(run.workflow_kit_artifacts)) {
    lines.push('', t`Workflow Artifacts (${run.phase || 'unknown'} phase):`);
    for (const a of run.workflow_kit_artifacts) {
      const owner = a.owned_by ? t`${a.owned_by} (${a.owner_resolution})` : 'none';
      lines.push(
        t`  ${a.path} | ${a.required ? 'required' : 'optional'} | ${a.semantics || 'none'} | owner: ${owner} | ${a.exists ? 'exists' : 'missing'}`,
      );
    }
  }
  return lines.join('\n');
}
