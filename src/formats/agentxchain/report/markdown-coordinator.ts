/**
 * The markdown rendering of a coordinator report (docs/agentxchain-report.md §6.2), line for line
 * as `agentxchain report --format markdown` prints it.
 * @module
 */
import {
  countPairs,
  escapePipes,
  hasItems,
  latestEventLine,
  recentEventLine,
  statusCounts,
  summarizeBlockedOn,
  t,
  type Node,
} from './render-common.ts';
import {
  approvalMarkdown,
  continuityMarkdown,
  decisionLineMarkdown,
  gateFailureMarkdown,
  governanceEventMarkdown,
  timeoutMarkdown,
  TURN_TABLE,
  turnRowMarkdown,
} from './markdown-run.ts';

const ticked = (values: Node[]): string => values.map((v) => t`\`${v}\``).join(', ');

function barriersMarkdown(lines: string[], barriers: Node[]): void {
  lines.push(
    '',
    '## Barrier Summary',
    '',
    '| Barrier | Workstream | Type | Status | Satisfied |',
    '|---------|------------|------|--------|-----------|',
  );
  for (const b of barriers)
    lines.push(
      t`| \`${b.barrier_id}\` | \`${b.workstream_id || 'unknown'}\` | \`${b.type}\` | \`${b.status}\` | ${b.satisfied_repos.length}/${b.required_repos.length} repos |`,
    );
  const withDecisions = barriers.filter((b) => b.required_decision_ids_by_repo);
  if (withDecisions.length === 0) return;
  lines.push('', '### Decision Requirements');
  for (const b of withDecisions) {
    lines.push(
      '',
      t`**\`${b.barrier_id}\`** decision requirements:`,
      '',
      '| Repo | Required | Satisfied |',
      '|------|----------|-----------|',
    );
    for (const [repo, ids] of Object.entries(b.required_decision_ids_by_repo as Record<string, Node>)) {
      if (!hasItems(ids)) continue;
      const satisfiedList = b.satisfied_decision_ids_by_repo?.[repo];
      const satisfied = Array.isArray(satisfiedList) ? satisfiedList : [];
      lines.push(`| \`${repo}\` | ${ticked(ids)} | ${satisfied.length > 0 ? ticked(satisfied) : '—'} |`);
    }
  }
}

function repoMarkdown(repo: Node): string[] {
  if (!repo.ok)
    return [
      t`- \`${repo.repo_id}\`: failed export, ${repo.error || 'unknown error'}, path \`${repo.path || 'unknown'}\``,
    ];
  const lines = [
    t`### ${repo.repo_id}`,
    '',
    t`- Status: \`${repo.status || 'unknown'}\``,
    t`- Run: \`${repo.run_id || 'none'}\``,
    t`- Phase: \`${repo.phase || 'unknown'}\``,
    t`- Path: \`${repo.path || 'unknown'}\``,
  ];
  if (repo.blocked_on) lines.push(`- Blocked on: \`${summarizeBlockedOn(repo.blocked_on)}\``);
  const section = (title: string): void => {
    lines.push('', `#### ${title}`, '');
  };
  if (hasItems(repo.turns)) {
    lines.push('', '#### Turn Timeline', '', ...TURN_TABLE);
    repo.turns.forEach((turn: Node, i: number) => lines.push(turnRowMarkdown(turn, i)));
  }
  if (hasItems(repo.decisions)) {
    section('Decisions');
    for (const d of repo.decisions) lines.push(decisionLineMarkdown(d));
  }
  if (hasItems(repo.gate_summary)) {
    section('Gate Outcomes');
    for (const gate of repo.gate_summary) lines.push(t`- \`${gate.gate_id}\`: \`${gate.status}\``);
  }
  if (hasItems(repo.gate_failures)) {
    section('Gate Failures');
    for (const f of repo.gate_failures) gateFailureMarkdown(lines, f);
  }
  if (hasItems(repo.approval_policy_events)) {
    section('Approval Policy');
    for (const e of repo.approval_policy_events) approvalMarkdown(lines, e);
  }
  if (hasItems(repo.governance_events)) {
    section('Governance Events');
    for (const e of repo.governance_events) governanceEventMarkdown(lines, e);
  }
  if (hasItems(repo.timeout_events)) {
    section('Timeout Events');
    for (const e of repo.timeout_events) lines.push(timeoutMarkdown(e));
  }
  if (repo.hook_summary) {
    lines.push(
      '',
      '#### Hook Activity',
      '',
      t`- Total: ${repo.hook_summary.total}`,
      t`- Blocked: ${repo.hook_summary.blocked}`,
    );
    const events = countPairs(repo.hook_summary.events);
    if (events) lines.push(`- Events: ${events}`);
  }
  if (repo.recovery_summary) {
    const r = repo.recovery_summary;
    lines.push(
      '',
      '#### Recovery',
      '',
      t`- Category: \`${r.category || 'unknown'}\``,
      t`- Typed reason: \`${r.typed_reason || 'unknown'}\``,
      t`- Owner: \`${r.owner || 'unknown'}\``,
      t`- Action: \`${r.recovery_action || 'n/a'}\``,
    );
  }
  if (repo.continuity) {
    section('Continuity');
    continuityMarkdown(lines, repo.continuity, repo.run_id, 'repo export');
  }
  lines.push('');
  return lines;
}

/** The coordinator report as markdown, without the trailing newline. */
export function coordinatorReportMarkdown(report: Node): string {
  const s = report.subject;
  const { coordinator, run, artifacts } = s;
  const lines = [
    '# AgentXchain Governance Report',
    '',
    t`- Input: \`${report.input}\``,
    t`- Export kind: \`${report.export_kind}\``,
    '- Verification: `pass`',
    t`- Workspace: ${coordinator.project_name || 'unknown'} (\`${coordinator.project_id || 'unknown'}\`)`,
    t`- Coordinator schema: \`${coordinator.schema_version || 'unknown'}\``,
    t`- Super run: \`${run.super_run_id || 'none'}\``,
    t`- Status: \`${run.status || 'unknown'}\``,
    t`- Phase: \`${run.phase || 'unknown'}\``,
    t`- Blocked reason: \`${run.blocked_reason || 'none'}\``,
  ];
  if (hasItems(run.run_id_mismatches)) {
    lines.push(`- **Run ID mismatches: ${run.run_id_mismatches.length}**`);
    for (const m of run.run_id_mismatches)
      lines.push(t`  - \`${m.repo_id}\`: expected \`${m.expected_run_id}\`, actual \`${m.actual_run_id}\``);
  }
  if (hasItems(run.repo_status_drifts)) {
    lines.push(`- **Repo status drift: ${run.repo_status_drifts.length}**`);
    for (const d of run.repo_status_drifts)
      lines.push(
        t`  - \`${d.repo_id}\`: coordinator \`${d.coordinator_status || 'unknown'}\`, repo \`${d.repo_status || 'unknown'}\``,
      );
  }
  lines.push(
    t`- Started: \`${run.created_at || 'n/a'}\``,
    t`- Repos: ${coordinator.repo_count} total, ${run.repo_ok_count} exported cleanly, ${run.repo_error_count} failed`,
    t`- Workstreams: ${coordinator.workstream_count}`,
    t`- Barriers: ${run.barrier_count}`,
    `- Repo statuses: ${statusCounts(run.repo_status_counts)}`,
    t`- History entries: ${artifacts.history_entries}`,
    t`- Decision entries: ${artifacts.decision_entries}`,
  );
  if (run.completed_at) lines.push(t`- Completed: \`${run.completed_at}\``);
  if (run.duration_seconds != null) lines.push(t`- Duration: \`${run.duration_seconds}s\``);
  if (run.pending_gate) lines.push(t`- Pending gate: \`${run.pending_gate.gate}\` (\`${run.pending_gate.gate_type}\`)`);
  if (run.recent_coordinator_events) {
    lines.push(`- Recent coordinator events: \`${recentEventLine(run.recent_coordinator_events)}\``);
    lines.push(`- Latest coordinator event: ${latestEventLine(run.recent_coordinator_events)}`);
  }
  if (run.recent_child_repo_events) {
    lines.push(`- Recent child repo events: \`${recentEventLine(run.recent_child_repo_events)}\``);
    lines.push(`- Latest child repo event: ${latestEventLine(run.recent_child_repo_events)}`);
  }
  if (run.terminal_observability_note) lines.push(t`- Terminal drift note: ${run.terminal_observability_note}`);
  if (hasItems(run.next_actions)) {
    lines.push('', '## Next Actions', '');
    run.next_actions.forEach((a: Node, i: number) => lines.push(t`${i + 1}. \`${a.command}\`: ${a.reason}`));
  }
  if (hasItems(s.coordinator_timeline)) {
    lines.push('', '## Coordinator Timeline', '', '| # | Type | Time | Summary |', '|---|------|------|---------|');
    s.coordinator_timeline.forEach((e: Node, i: number) =>
      lines.push(
        t`| ${i + 1} | \`${e.type}\` | ${e.timestamp ? t`\`${e.timestamp}\`` : 'n/a'} | ${escapePipes(e.summary)} |`,
      ),
    );
  }
  lines.push('', '## Aggregated Child Repo Events', '');
  if (hasItems(s.aggregated_event_timeline)) {
    lines.push('| Timestamp | Repo | Event Type | Summary |', '|-----------|------|------------|---------|');
    for (const e of s.aggregated_event_timeline)
      lines.push(
        t`| ${e.timestamp ? t`\`${e.timestamp}\`` : 'n/a'} | \`${e.repo_id || '?'}\` | \`${e.type}\` | ${escapePipes(e.summary)} |`,
      );
  } else {
    lines.push('No child repo events.');
  }
  if (hasItems(s.barrier_summary)) barriersMarkdown(lines, s.barrier_summary);
  if (hasItems(s.barrier_ledger_timeline)) {
    lines.push(
      '',
      '## Barrier Transitions',
      '',
      '| # | Time | Barrier | From | To | Summary |',
      '|---|------|---------|------|----|---------|',
    );
    s.barrier_ledger_timeline.forEach((e: Node, i: number) =>
      lines.push(
        t`| ${i + 1} | ${e.timestamp ? t`\`${e.timestamp}\`` : 'n/a'} | \`${e.barrier_id}\` | \`${e.previous_status}\` | \`${e.new_status}\` | ${escapePipes(e.summary)} |`,
      ),
    );
  }
  if (hasItems(s.decision_digest)) {
    lines.push('', '## Coordinator Decisions', '');
    for (const d of s.decision_digest) lines.push(decisionLineMarkdown(d));
  }
  if (hasItems(s.approval_policy_events)) {
    lines.push('', '## Approval Policy', '');
    for (const e of s.approval_policy_events) approvalMarkdown(lines, e);
  }
  if (hasItems(s.governance_events)) {
    lines.push('', '## Governance Events', '');
    for (const e of s.governance_events) governanceEventMarkdown(lines, e);
  }
  if (hasItems(s.timeout_events)) {
    lines.push('', '## Timeout Events', '');
    for (const e of s.timeout_events) lines.push(timeoutMarkdown(e));
  }
  if (s.recovery_report) {
    const r = s.recovery_report;
    lines.push('', '## Recovery Report', '');
    lines.push(t`- **Trigger:** ${r.trigger || 'n/a'}`);
    lines.push(t`- **Impact:** ${r.impact || 'n/a'}`);
    lines.push(t`- **Mitigation:** ${r.mitigation || 'n/a'}`);
    lines.push(t`- **Owner:** ${r.owner || 'n/a'}`);
    lines.push(t`- **Exit Condition:** ${r.exit_condition || 'n/a'}`);
  }
  lines.push('', '## Repo Details', '');
  for (const repo of s.repos) lines.push(...repoMarkdown(repo));
  return lines.join('\n');
}
