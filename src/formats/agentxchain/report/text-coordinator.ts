/**
 * The text rendering of a coordinator report (docs/agentxchain-report.md §7), line for line as
 * `agentxchain report --format text` prints it.
 * @module
 */
import {
  bounded,
  hasItems,
  latestEventLine,
  minutes,
  recentEventLine,
  requestLabel,
  statusCounts,
  summarizeBlockedOn,
  t,
  timeoutLabel,
  type Node,
} from './render-common.ts';
import {
  approvalPolicyText,
  continuityText,
  decisionsText,
  governanceDetailText,
  governanceEventsText,
  timeoutEventsText,
  turnLineText,
} from './text-run.ts';

function barrierText(lines: string[], barriers: Node[]): void {
  lines.push('', 'Barrier Summary:');
  for (const b of barriers) {
    lines.push(
      t`  - ${b.barrier_id}: ${b.status} (${b.type}, ${b.satisfied_repos.length}/${b.required_repos.length} repos satisfied, workstream ${b.workstream_id || 'unknown'})`,
    );
    if (!b.required_decision_ids_by_repo) continue;
    lines.push('    Decision requirements:');
    for (const [repo, ids] of Object.entries(b.required_decision_ids_by_repo as Record<string, Node>)) {
      if (!hasItems(ids)) continue;
      const satisfiedList = b.satisfied_decision_ids_by_repo?.[repo];
      const satisfied = new Set(Array.isArray(satisfiedList) ? satisfiedList : []);
      lines.push(
        `      ${repo}: ${ids.map((id) => t`${id} (${satisfied.has(id) ? 'satisfied' : 'pending'})`).join(', ')}`,
      );
    }
  }
}

function repoText(repo: Node): string[] {
  if (!repo.ok)
    return [t`- ${repo.repo_id}: failed export, ${repo.error || 'unknown error'}, path ${repo.path || 'unknown'}`];
  const lines = [
    t`- ${repo.repo_id}: ok, status ${repo.status || 'unknown'}, run ${repo.run_id || 'none'}, path ${repo.path || 'unknown'}`,
  ];
  if (repo.blocked_on) lines.push(`  Blocked on: ${summarizeBlockedOn(repo.blocked_on)}`);
  if (hasItems(repo.turns)) {
    lines.push('  Turn Timeline:');
    repo.turns.forEach((turn: Node, i: number) => lines.push(`    ${turnLineText(turn, i, false)}`));
  }
  if (hasItems(repo.decisions)) {
    lines.push('  Decisions:');
    for (const d of repo.decisions) lines.push(t`    - ${d.id} (${d.role || '?'}, ${d.phase || '?'}): ${d.statement}`);
  }
  if (hasItems(repo.gate_summary)) {
    lines.push('  Gate Outcomes:');
    for (const gate of repo.gate_summary) lines.push(t`    - ${gate.gate_id}: ${gate.status}`);
  }
  if (hasItems(repo.gate_failures)) {
    lines.push('  Gate Failures:');
    for (const f of repo.gate_failures) {
      lines.push(
        t`    - ${f.gate_id || 'unknown'}: ${f.gate_type || 'unknown'} | ${requestLabel(f.gate_type, f.from_phase || f.phase, f.to_phase, '->')} | ${f.queued_request ? 'queued drain' : 'direct'} | ${f.failed_at || 'n/a'}`,
      );
      for (const reason of f.reasons || []) lines.push(t`      reason: ${reason}`);
    }
  }
  if (hasItems(repo.approval_policy_events)) {
    lines.push('  Approval Policy:');
    for (const e of repo.approval_policy_events)
      lines.push(
        t`    - ${e.action || 'unknown'}: ${e.gate_type || 'unknown'} | ${requestLabel(e.gate_type, e.from_phase, e.to_phase, '->')} | ${e.timestamp || 'n/a'}`,
      );
  }
  if (hasItems(repo.governance_events)) {
    lines.push('  Governance Events:');
    for (const e of repo.governance_events) {
      lines.push(t`    - ${e.type} | ${e.role || '?'} | ${e.phase || '?'} | at: ${e.timestamp || 'n/a'}`);
      governanceDetailText(lines, e, '        ');
    }
  }
  if (hasItems(repo.timeout_events)) {
    lines.push('  Timeout Events:');
    for (const e of repo.timeout_events)
      lines.push(
        t`    - ${timeoutLabel(e.type, false)}: ${e.scope || '?'} scope | ${minutes(e.elapsed_minutes)}/${minutes(e.limit_minutes)} | action: ${e.action || 'n/a'} | ${e.timestamp || 'n/a'}`,
      );
  }
  if (repo.hook_summary)
    lines.push(t`  Hook Activity: ${repo.hook_summary.total} total, ${repo.hook_summary.blocked} blocked`);
  if (repo.recovery_summary) {
    const r = repo.recovery_summary;
    lines.push(
      t`  Recovery: ${r.category || 'unknown'} — ${r.typed_reason || 'unknown'} (owner: ${r.owner || 'unknown'})`,
    );
  }
  if (repo.continuity) {
    lines.push('  Continuity:');
    continuityText(lines, repo.continuity, '    ', repo.run_id, 'repo export');
  }
  return lines;
}

/** The coordinator report as text, without the trailing newline. */
export function coordinatorReportText(report: Node): string {
  const s = report.subject;
  const { coordinator, run, artifacts } = s;
  const lines = [
    'AgentXchain Governance Report',
    t`Input: ${report.input}`,
    t`Export kind: ${report.export_kind}`,
    'Verification: PASS',
    t`Workspace: ${coordinator.project_name || 'unknown'} (${coordinator.project_id || 'unknown'})`,
    t`Coordinator schema: ${coordinator.schema_version || 'unknown'}`,
    t`Super run: ${run.super_run_id || 'none'}`,
    t`Status: ${run.status || 'unknown'}`,
    t`Phase: ${run.phase || 'unknown'}`,
    t`Blocked reason: ${run.blocked_reason || 'none'}`,
  ];
  if (hasItems(run.run_id_mismatches)) {
    lines.push(`Run ID mismatches: ${run.run_id_mismatches.length}`);
    for (const m of run.run_id_mismatches)
      lines.push(t`  - ${m.repo_id}: expected ${m.expected_run_id}, actual ${m.actual_run_id}`);
  }
  if (hasItems(run.repo_status_drifts)) {
    lines.push(`Repo status drift: ${run.repo_status_drifts.length}`);
    for (const d of run.repo_status_drifts)
      lines.push(
        t`  - ${d.repo_id}: coordinator ${d.coordinator_status || 'unknown'}, repo ${d.repo_status || 'unknown'}`,
      );
  }
  lines.push(
    t`Started: ${run.created_at || 'n/a'}`,
    t`Repos: ${coordinator.repo_count} total, ${run.repo_ok_count} exported cleanly, ${run.repo_error_count} failed`,
    t`Workstreams: ${coordinator.workstream_count}`,
    t`Barriers: ${run.barrier_count}`,
    `Repo statuses: ${statusCounts(run.repo_status_counts)}`,
    t`History entries: ${artifacts.history_entries}`,
    t`Decision entries: ${artifacts.decision_entries}`,
  );
  if (run.completed_at) lines.push(t`Completed: ${run.completed_at}`);
  if (run.duration_seconds != null) lines.push(t`Duration: ${run.duration_seconds}s`);
  if (run.pending_gate) lines.push(t`Pending gate: ${run.pending_gate.gate} (${run.pending_gate.gate_type})`);
  if (run.recent_coordinator_events) {
    lines.push(`Recent coordinator events: ${recentEventLine(run.recent_coordinator_events)}`);
    lines.push(`Latest coordinator event: ${latestEventLine(run.recent_coordinator_events)}`);
  }
  if (run.recent_child_repo_events) {
    lines.push(`Recent child repo events: ${recentEventLine(run.recent_child_repo_events)}`);
    lines.push(`Latest child repo event: ${latestEventLine(run.recent_child_repo_events)}`);
  }
  if (run.terminal_observability_note) lines.push(t`Terminal drift note: ${run.terminal_observability_note}`);
  if (hasItems(run.next_actions)) {
    lines.push('', 'Next Actions:');
    run.next_actions.forEach((a: Node, i: number) => lines.push(t`  ${i + 1}. ${a.command} | ${a.reason}`));
  }
  if (hasItems(s.coordinator_timeline)) {
    const { items, omitted } = bounded<Node>(s.coordinator_timeline);
    lines.push('', 'Coordinator Timeline:');
    items.forEach((e, i) =>
      lines.push(t`  ${i + 1}. [${e.type}]${e.timestamp ? t` [${e.timestamp}]` : ''} ${e.summary}`),
    );
    if (omitted > 0) lines.push(`  (${omitted} more coordinator events omitted)`);
  }
  lines.push('', 'Aggregated Child Repo Events:');
  if (hasItems(s.aggregated_event_timeline)) {
    const { items, omitted } = bounded<Node>(s.aggregated_event_timeline);
    for (const e of items) lines.push(t`  [${e.repo_id || '?'}] ${e.type}${e.timestamp ? t` [${e.timestamp}]` : ''}`);
    if (omitted > 0) lines.push(`  (${omitted} more child repo events omitted)`);
  } else {
    lines.push('  No child repo events.');
  }
  if (hasItems(s.barrier_summary)) barrierText(lines, s.barrier_summary);
  if (hasItems(s.barrier_ledger_timeline)) {
    lines.push('', 'Barrier Transitions:');
    s.barrier_ledger_timeline.forEach((e: Node, i: number) =>
      lines.push(t`  ${i + 1}.${e.timestamp ? t` [${e.timestamp}]` : ''} ${e.summary}`),
    );
  }
  if (hasItems(s.decision_digest)) decisionsText(lines, 'Coordinator Decisions:', s.decision_digest);
  if (hasItems(s.approval_policy_events)) approvalPolicyText(lines, s.approval_policy_events);
  if (hasItems(s.governance_events)) governanceEventsText(lines, s.governance_events);
  if (hasItems(s.timeout_events)) timeoutEventsText(lines, s.timeout_events);
  if (s.recovery_report) {
    const r = s.recovery_report;
    lines.push('', 'Recovery Report:');
    lines.push(t`  Trigger: ${r.trigger || 'n/a'}`);
    lines.push(t`  Impact: ${r.impact || 'n/a'}`);
    lines.push(t`  Mitigation: ${r.mitigation || 'n/a'}`);
    lines.push(t`  Owner: ${r.owner || 'n/a'}`);
    lines.push(t`  Exit Condition: ${r.exit_condition || 'n/a'}`);
  }
  lines.push('Repo details:');
  for (const repo of s.repos) lines.push(...repoText(repo));
  return lines.join('\n');
}
