/**
 * The markdown rendering of a run report (docs/agentxchain-report.md §6.1), line for line as
 * `agentxchain report --format markdown` prints it.
 * @module
 */
import { formatTokens, formatUsd } from './number-format.ts';
import {
  bounded,
  countPairs,
  decisionAuthority,
  domainLabel,
  escapePipes,
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

const code = (values: Node): string =>
  Array.isArray(values) ? values.map((v) => t`\`${v}\``).join(', ') : t`\`${values}\``;

/** The detail lines of a governance event, markdown style. */
export function governanceDetailMarkdown(lines: string[], event: Node): void {
  const files = (): void => {
    if (hasItems(event.conflicting_files)) lines.push(`  - Files: ${code(event.conflicting_files)}`);
    if (hasItems(event.accepted_since_turn_ids))
      lines.push(`  - Accepted since: ${code(event.accepted_since_turn_ids)}`);
  };
  switch (event.type) {
    case 'policy_escalation':
      for (const v of event.violations || [])
        lines.push(t`  - Violation: \`${v.policy_id || '?'}\` / \`${v.rule || '?'}\` — ${v.message || 'n/a'}`);
      break;
    case 'conflict_detected':
      files();
      if (event.overlap_ratio != null) lines.push(`  - Overlap: ${overlap(event.overlap_ratio)}`);
      break;
    case 'conflict_rejected':
      files();
      if (event.operator_reason) lines.push(t`  - Operator reason: ${event.operator_reason}`);
      break;
    case 'conflict_resolution_selected':
      files();
      if (event.overlap_ratio != null) lines.push(`  - Overlap: ${overlap(event.overlap_ratio)}`);
      if (event.resolution_method) lines.push(t`  - Resolution: \`${event.resolution_method}\``);
      break;
    case 'operator_escalated':
      if (event.reason) lines.push(t`  - Reason: ${event.reason}`);
      if (event.blocked_on) lines.push(t`  - Blocked on: \`${event.blocked_on}\``);
      break;
    case 'escalation_resolved':
      if (event.resolved_via) lines.push(t`  - Resolved via: \`${event.resolved_via}\``);
      if (event.previous_blocked_on) lines.push(t`  - Was blocked on: \`${event.previous_blocked_on}\``);
      break;
  }
}

export const TURN_TABLE = [
  '| # | Role | Phase | Summary | Files | Cost | Time |',
  '|---|------|-------|---------|-------|------|------|',
];

/** One row of the turn table. */
export function turnRowMarkdown(turn: Node, index: number): string {
  const cost = turn.cost_usd != null ? formatUsd(turn.cost_usd) : 'n/a';
  const phase = turn.phase_transition ? t`${turn.phase || '?'} → ${turn.phase_transition}` : t`${turn.phase || '?'}`;
  const siblings = Array.isArray(turn.sibling_attributed_files)
    ? ` (${turn.sibling_attributed_files.length} sibling)`
    : '';
  return t`| ${index + 1} | ${turn.role} | ${phase} | ${escapePipes(turn.summary || '(no summary)')} | ${turn.files_changed_count}${siblings} | ${cost} | ${escapePipes(turnTime(turn))} |`;
}

/** One decision line. */
export function decisionLineMarkdown(d: Node): string {
  return t`- **${d.id}** (${d.role || '?'}, ${d.phase || '?'} phase): ${d.statement}`;
}

/** One gate failure and its reasons. */
export function gateFailureMarkdown(lines: string[], f: Node): void {
  lines.push(
    t`- \`${f.gate_id || 'unknown'}\` (${f.gate_type || 'unknown'}) at \`${f.failed_at || 'n/a'}\` via ${f.queued_request ? 'queued drain' : 'direct'} request: ${requestLabel(f.gate_type, f.from_phase || f.phase, f.to_phase, '→')}`,
  );
  for (const reason of f.reasons || []) lines.push(t`  - ${reason}`);
}

/** One approval-policy event and its reason. */
export function approvalMarkdown(lines: string[], e: Node): void {
  const rule = e.matched_rule ? ` — rule: \`${ruleText(e.matched_rule)}\`` : '';
  lines.push(
    t`- **${e.action || 'unknown'}** (${e.gate_type || 'unknown'}) ${requestLabel(e.gate_type, e.from_phase, e.to_phase, '→')}${rule} at \`${e.timestamp || 'n/a'}\``,
  );
  if (e.reason) lines.push(t`  - ${e.reason}`);
}

/** One governance event and its details. */
export function governanceEventMarkdown(lines: string[], e: Node): void {
  lines.push(t`- **${e.type}** (\`${e.role || '?'}\`, \`${e.phase || '?'}\` phase) at \`${e.timestamp || 'n/a'}\``);
  governanceDetailMarkdown(lines, e);
}

/** One timeout event line. */
export function timeoutMarkdown(e: Node): string {
  const exceeded = e.exceeded_by_minutes != null ? t` (+${e.exceeded_by_minutes}m)` : '';
  return t`- **${timeoutLabel(e.type, true)}** (\`${e.scope || '?'}\` scope) — ${minutes(e.elapsed_minutes)}/${minutes(e.limit_minutes)}${exceeded}, action: \`${e.action || 'n/a'}\`, phase: \`${e.phase || 'n/a'}\` at \`${e.timestamp || 'n/a'}\``;
}

/** A bounded list section: heading, items, omission line. */
function boundedSection(lines: string[], title: string, items: Node[], noun: string, each: (item: Node) => void): void {
  const slice = bounded(items);
  lines.push('', `## ${title}`, '');
  for (const item of slice.items) each(item);
  if (slice.omitted > 0) lines.push('', `*(${slice.omitted} more ${noun} omitted)*`);
}

/** The continuity lines (`subject`: `export` for the run, `repo export` for a child). */
export function continuityMarkdown(lines: string[], c: Node, runId: unknown, subject: string): void {
  lines.push(t`- Session: \`${c.session_id || 'unknown'}\``);
  lines.push(t`- Checkpoint: \`${c.checkpoint_reason || 'unknown'}\` at \`${c.last_checkpoint_at || 'n/a'}\``);
  lines.push(t`- Last turn: \`${c.last_turn_id || 'none'}\``);
  lines.push(t`- Last role: \`${c.last_role || 'unknown'}\``);
  lines.push(t`- Last phase: \`${c.last_phase || 'unknown'}\``);
  if (c.stale_checkpoint)
    lines.push(t`- **Warning:** checkpoint tracks run \`${c.run_id}\`, but ${subject} tracks \`${runId}\``);
}

function costMarkdown(lines: string[], cost: Node): void {
  lines.push('', '## Cost Summary', '');
  lines.push(
    t`**Total:** ${formatUsd(cost.total_usd)} across ${cost.turn_count} turn${plural(cost.turn_count)} (${cost.costed_turn_count} with cost data)`,
  );
  if (cost.total_input_tokens != null || cost.total_output_tokens != null)
    lines.push(
      `**Tokens:** ${formatTokens(cost.total_input_tokens)} input / ${formatTokens(cost.total_output_tokens)} output`,
    );
  if (cost.by_role.length > 0) {
    lines.push(
      '',
      '| Role | Cost | Turns | Input Tokens | Output Tokens |',
      '|------|------|-------|--------------|---------------|',
    );
    for (const r of cost.by_role)
      lines.push(
        t`| ${r.role} | ${formatUsd(r.usd)} | ${r.turns} | ${formatTokens(r.input_tokens)} | ${formatTokens(r.output_tokens)} |`,
      );
  }
  if (cost.by_phase.length > 0) {
    lines.push('', '| Phase | Cost | Turns |', '|-------|------|-------|');
    for (const p of cost.by_phase) lines.push(t`| ${p.phase} | ${formatUsd(p.usd)} | ${p.turns} |`);
  }
}

function delegationMarkdown(lines: string[], summary: Node): void {
  lines.push('', '## Delegation Summary', '');
  lines.push(t`- Total delegations issued: ${summary.total_delegations_issued}`, '');
  lines.push(
    '| Parent Role | Parent Turn | Outcome | Review Turn | Delegation | Child Turn | Status | Required Decisions | Missing Decisions | Charter |',
    '|-------------|-------------|---------|-------------|------------|------------|--------|--------------------|-------------------|---------|',
  );
  for (const chain of summary.delegation_chains) {
    chain.delegations.forEach((d: Node, i: number) => {
      const first = i === 0;
      const ids = (list: Node): string => escapePipes(joined(list || [])) || '—';
      lines.push(
        t`| ${first ? chain.parent_role : ''} | ${first ? t`\`${chain.parent_turn_id}\`` : ''} | ${first ? t`\`${chain.outcome}\`` : ''} | ${first ? t`\`${chain.review_turn_id || 'pending'}\`` : ''} | \`${d.delegation_id}\` → \`${d.to_role}\` | \`${d.child_turn_id || 'pending'}\` | \`${d.status}\` | ${ids(d.required_decision_ids)} | ${ids(d.missing_decision_ids)} | ${escapePipes(d.charter)} |`,
      );
    });
  }
}

function repoDecisionsMarkdown(lines: string[], decisions: Node): void {
  lines.push('', '## Repo Decisions', '');
  lines.push(t`Active: ${decisions.active_count} | Overridden: ${decisions.overridden_count}`, '');
  for (const line of repoDecisionSummaryLines(decisions)) lines.push(line, '');
  if (decisions.active.length > 0) {
    lines.push(
      '| ID | Category | Statement | Role | Authority | Run | Supersedes |',
      '|----|----------|-----------|------|-----------|-----|------------|',
    );
    for (const d of decisions.active)
      lines.push(
        t`| ${d.id} | ${d.category} | ${escapePipes(d.statement || '')} | ${d.role || '—'} | ${decisionAuthority(d) ?? '—'} | \`${String(d.run_id || '').slice(0, 12)}\` | ${d.overrides || '—'} |`,
      );
  }
  if (hasItems(decisions.overridden)) {
    lines.push('', 'Overridden decisions:', '');
    lines.push('| ID | Statement | Authority | Overridden By |', '|----|-----------|-----------|---------------|');
    for (const d of decisions.overridden)
      lines.push(
        t`| ${d.id} | ${escapePipes(d.statement || '')} | ${decisionAuthority(d) ?? '—'} | ${d.overridden_by || '—'} |`,
      );
  }
}

function recoveryMarkdown(lines: string[], r: Node): void {
  lines.push('', '## Recovery', '');
  lines.push(t`- Category: \`${r.category || 'unknown'}\``);
  lines.push(t`- Typed reason: \`${r.typed_reason || 'unknown'}\``);
  lines.push(t`- Owner: \`${r.owner || 'unknown'}\``);
  lines.push(t`- Action: \`${r.recovery_action || 'n/a'}\``);
  lines.push(t`- Detail: ${r.detail || 'n/a'}`);
  lines.push(`- Turn retained: \`${r.turn_retained == null ? 'n/a' : yesNo(r.turn_retained)}\``);
  if (hasItems(r.runtime_guidance)) {
    lines.push('- Runtime guidance:');
    for (const g of r.runtime_guidance) lines.push(t`  - \`${g.code}\` — \`${g.command}\`: ${g.reason}`);
  }
}

function classificationMarkdown(lines: string[], rc: Node): void {
  lines.push('', '## Recovery Classification', '');
  lines.push(t`- Health: \`${rc.health_score}\``);
  lines.push(t`- Events: ${rc.total_recovery_events} total (${outcomeCounts(rc.by_outcome)})`);
  lines.push(
    '',
    '| Domain | Total | Recovered | Exhausted | Manual | Pending |',
    '|--------|-------|-----------|-----------|--------|---------|',
  );
  for (const [domain, c] of Object.entries(rc.by_domain as Record<string, Node>))
    lines.push(
      t`| ${domainLabel(domain)} | ${c.total} | ${c.recovered} | ${c.exhausted} | ${c.manual} | ${c.pending} |`,
    );
  if (rc.timeline.length > 0) {
    const { items, omitted } = bounded<Node>(rc.timeline);
    lines.push(
      '',
      '| # | Time | Domain | Severity | Outcome | Mechanism | Summary |',
      '|---|------|--------|----------|---------|-----------|---------|',
    );
    items.forEach((e, i) =>
      lines.push(
        t`| ${i + 1} | \`${e.timestamp || 'n/a'}\` | \`${e.domain}\` | \`${e.severity}\` | \`${e.outcome}\` | \`${e.mechanism}\` | ${escapePipes(e.summary || '')} |`,
      ),
    );
    if (omitted > 0) lines.push('', `*(${omitted} more recovery events omitted)*`);
  }
}

/** The run report as markdown, without the trailing newline. */
export function runReportMarkdown(report: Node): string {
  const { project, run, artifacts } = report.subject;
  const idList = (ids: Node): string => (ids.length ? ` (${code(ids)})` : '');
  const lines = [
    '# AgentXchain Governance Report',
    '',
    t`- Input: \`${report.input}\``,
    t`- Export kind: \`${report.export_kind}\``,
    '- Verification: `pass`',
    t`- Project: ${project.name || 'unknown'} (\`${project.id || 'unknown'}\`)`,
    ...(project.goal ? [t`- Goal: ${project.goal}`] : []),
    t`- Template: \`${project.template}\``,
    t`- Protocol: \`${project.protocol_mode || 'unknown'}\` (config schema \`${project.schema_version || 'unknown'}\`)`,
    t`- Run: \`${run.run_id || 'none'}\``,
    t`- Status: \`${run.status || 'unknown'}\``,
    t`- Phase: \`${run.phase || 'unknown'}\``,
    `- Blocked on: \`${summarizeBlockedState(run)}\``,
    t`- Active turns: ${run.active_turn_count}${idList(run.active_turn_ids)}`,
    t`- Retained turns: ${run.retained_turn_count}${idList(run.retained_turn_ids)}`,
    `- Active roles: ${run.active_roles.length ? code(run.active_roles) : '`none`'}`,
  ];
  if (run.budget_status) {
    const warn = run.budget_status.warn_mode ? ' **[OVER BUDGET]**' : '';
    lines.push(
      `- Budget: spent ${formatUsd(run.budget_status.spent_usd)}, remaining ${formatUsd(run.budget_status.remaining_usd)}${warn}`,
    );
  }
  if (run.created_at) lines.push(t`- Started: \`${run.created_at}\``);
  if (run.completed_at) lines.push(t`- Completed: \`${run.completed_at}\``);
  if (run.duration_seconds != null) lines.push(t`- Duration: \`${run.duration_seconds}s\``);
  const provenance = provenanceLine(run.provenance);
  if (provenance) lines.push(`- Provenance: \`${provenance}\``);
  if (run.inherited_context?.parent_run_id)
    lines.push(
      t`- Inherited from: \`${run.inherited_context.parent_run_id}\` (${run.inherited_context.parent_status || 'unknown'})`,
    );
  if (run.dashboard_session) lines.push(`- Dashboard session: \`${dashboardLine(run.dashboard_session)}\``);
  if (run.recent_event_summary) {
    lines.push(`- Recent events: \`${recentEventLine(run.recent_event_summary)}\``);
    lines.push(`- Latest event: ${latestEventLine(run.recent_event_summary)}`);
  }
  lines.push(
    t`- History entries: ${artifacts.history_entries}`,
    t`- Decision entries: ${artifacts.decision_entries}`,
    t`- Hook audit entries: ${artifacts.hook_audit_entries}`,
    t`- Notification audit entries: ${artifacts.notification_audit_entries}`,
    t`- Dispatch files: ${artifacts.dispatch_artifact_files}`,
    t`- Staging files: ${artifacts.staging_artifact_files}`,
    `- Intake artifacts: \`${yesNo(artifacts.intake_present)}\``,
    `- Coordinator artifacts: \`${yesNo(artifacts.coordinator_present)}\``,
  );
  if (run.cost_summary) costMarkdown(lines, run.cost_summary);
  if (hasItems(run.delegation_summary?.delegation_chains)) delegationMarkdown(lines, run.delegation_summary);
  if (run.repo_decisions) repoDecisionsMarkdown(lines, run.repo_decisions);
  if (hasItems(run.turns)) {
    const { items, omitted } = bounded<Node>(run.turns);
    lines.push('', '## Turn Timeline', '', ...TURN_TABLE);
    items.forEach((turn, i) => lines.push(turnRowMarkdown(turn, i)));
    if (omitted > 0) lines.push('', `*(${omitted} more turns omitted)*`);
  }
  if (hasItems(run.decisions))
    boundedSection(lines, 'Decisions', run.decisions, 'decisions', (d) => lines.push(decisionLineMarkdown(d)));
  if (hasItems(run.gate_summary)) {
    lines.push('', '## Gate Outcomes', '');
    for (const gate of run.gate_summary) lines.push(t`- \`${gate.gate_id}\`: \`${gate.status}\``);
  }
  if (hasItems(run.gate_failures))
    boundedSection(lines, 'Gate Failures', run.gate_failures, 'gate failures', (f) => gateFailureMarkdown(lines, f));
  if (hasItems(run.gate_actions))
    boundedSection(lines, 'Gate Actions', run.gate_actions, 'gate actions', (a) => {
      const label = a.action_label || a.command || t`action ${a.action_index || '?'}`;
      const exit = a.exit_code == null ? 'n/a' : t`${a.exit_code}`;
      const timeout = a.timed_out ? t` timed out after ${a.timeout_ms}ms` : '';
      lines.push(
        t`- \`${a.gate_id || 'unknown'}\` (${a.gate_type || 'unknown'}) action ${a.action_index || '?'} — **${a.status}** at \`${a.timestamp || 'n/a'}\`: ${label} (exit \`${exit}\`)${timeout}`,
      );
      if (a.stderr_tail) lines.push(t`  - stderr: ${a.stderr_tail}`);
    });
  if (hasItems(run.approval_policy_events))
    boundedSection(lines, 'Approval Policy', run.approval_policy_events, 'approval policy events', (e) =>
      approvalMarkdown(lines, e),
    );
  if (hasItems(run.governance_events))
    boundedSection(lines, 'Governance Events', run.governance_events, 'governance events', (e) =>
      governanceEventMarkdown(lines, e),
    );
  if (hasItems(run.timeout_events))
    boundedSection(lines, 'Timeout Events', run.timeout_events, 'timeout events', (e) =>
      lines.push(timeoutMarkdown(e)),
    );
  if (hasItems(run.intake_links)) {
    lines.push('', '## Intake Linkage', '');
    for (const i of run.intake_links)
      lines.push(
        t`- \`${i.intent_id}\` (${i.status || 'unknown'}) from event \`${i.event_id || 'n/a'}\`, target turn \`${i.target_turn || 'n/a'}\`, started \`${i.started_at || 'n/a'}\``,
      );
  }
  if (run.hook_summary) {
    lines.push('', '## Hook Activity', '');
    lines.push(t`- Total hook executions: ${run.hook_summary.total}`);
    lines.push(t`- Blocked: ${run.hook_summary.blocked}`);
    const events = countPairs(run.hook_summary.events);
    if (events) lines.push(`- Events: ${events}`);
  }
  if (run.recovery_summary) recoveryMarkdown(lines, run.recovery_summary);
  if (run.recovery_classification) classificationMarkdown(lines, run.recovery_classification);
  if (hasItems(run.next_actions)) {
    lines.push('', '## Next Actions', '');
    run.next_actions.forEach((a: Node, i: number) => lines.push(t`${i + 1}. \`${a.command}\`: ${a.reason}`));
  }
  if (run.continuity) {
    lines.push('', '## Continuity', '');
    continuityMarkdown(lines, run.continuity, run.run_id, 'export');
  }
  if (hasItems(run.workflow_kit_artifacts)) {
    lines.push('', '## Workflow Artifacts', '');
    lines.push(t`Phase: \`${run.phase || 'unknown'}\``, '');
    lines.push(
      '| Artifact | Required | Semantics | Owner | Resolution | Status |',
      '|----------|----------|-----------|-------|------------|--------|',
    );
    for (const a of run.workflow_kit_artifacts)
      lines.push(
        t`| \`${a.path}\` | ${a.required ? 'yes' : 'no'} | ${a.semantics ? t`\`${a.semantics}\`` : 'none'} | ${a.owned_by ? t`\`${a.owned_by}\`` : 'none'} | ${a.owner_resolution} | ${a.exists ? 'exists' : '**missing**'} |`,
      );
  }
  return lines.join('\n');
}
