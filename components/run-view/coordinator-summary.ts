/**
 * The Run view of a coordinator workspace (spec `agentxchain-report.md` §5): the super run's
 * facts, identity and status drift between the coordinator and its repos, next actions, one row
 * per child repo, then the coordinator timeline, child repo events, barriers and decisions.
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { visibleText } from '../visible-text.ts';
import { recentWords, renderDecisions, renderNextActions } from './run-summary.ts';
import { facts, section, status, windowed, type Paging } from './shared.ts';
import type { CoordinatorSubject, RepoRow } from './types.ts';

/**
 * The whole summary of a coordinator workspace.
 * @example
 * html`${renderCoordinatorSummary(report.subject, paging)}`
 */
export function renderCoordinatorSummary(subject: CoordinatorSubject, paging: Paging): TemplateResult {
  const { coordinator, run } = subject;
  return html`${facts(
    [
      [
        'Workspace',
        html`${visibleText(coordinator.project_name, { missing: 'unknown' })}
        (<code>${visibleText(coordinator.project_id)}</code>)`,
      ],
      ['Super run', html`<code>${visibleText(run.super_run_id, { missing: 'none' })}</code>`],
      ['Status', status(run.status)],
      ['Phase', run.phase],
      ['Blocked reason', visibleText(run.blocked_reason, { missing: 'none' })],
      run.pending_gate
        ? [
            'Pending gate',
            html`<code>${visibleText(run.pending_gate.gate)}</code> (${visibleText(run.pending_gate.gate_type)})`,
          ]
        : undefined,
      [
        'Repos',
        `${String(coordinator.repo_count)} total, ${run.repo_ok_count} exported cleanly, ${run.repo_error_count} failed`,
      ],
      ['Workstreams', coordinator.workstream_count],
      ['Barriers', run.barrier_count],
      ['Started', visibleText(run.created_at, { missing: 'n/a' })],
      run.completed_at ? ['Completed', run.completed_at] : undefined,
      run.duration_seconds === null ? undefined : ['Duration', `${run.duration_seconds}s`],
      ['Coordinator events', recentWords(run.recent_coordinator_events)],
      ['Child repo events', recentWords(run.recent_child_repo_events)],
    ],
    'run-header',
  )}
  ${renderDrift(subject)} ${renderNextActions(run.next_actions)}
  ${section('Repos', 'repos', subject.repos.length > 0, () => renderRepos(subject.repos), paging)}
  ${section(
    'Coordinator timeline',
    'coordinator-timeline',
    subject.coordinator_timeline.length > 0,
    () => {
      const [timeline, moreTimeline] = windowed(paging, 'coordinator-timeline', subject.coordinator_timeline);
      return html`<ol class="timeline">
          ${timeline.map(
            (entry) =>
              html`<li>
                <code>${visibleText(entry.type)}</code> · ${visibleText(entry.timestamp, { missing: 'n/a' })}:
                ${visibleText(entry.summary)}
              </li>`,
          )}
        </ol>
        ${moreTimeline}`;
    },
    paging,
  )}
  ${section(
    'Child repo events',
    'child-events',
    subject.aggregated_event_timeline.length > 0,
    () => {
      const [events, moreEvents] = windowed(paging, 'child-events', subject.aggregated_event_timeline);
      return html`<ol class="timeline">
          ${events.map(
            (event) =>
              html`<li>
                <code>${visibleText(event.repo_id, { missing: '?' })}</code> <code>${visibleText(event.type)}</code>
                at ${visibleText(event.timestamp, { missing: 'n/a' })}
              </li>`,
          )}
        </ol>
        ${moreEvents}`;
    },
    paging,
  )}
  ${section(
    'Barriers',
    'barriers',
    subject.barrier_summary.length > 0,
    () =>
      html`<ul>
        ${subject.barrier_summary.map(
          (barrier) =>
            html`<li>
              <code>${visibleText(barrier.barrier_id)}</code> (${visibleText(barrier.type)}, workstream
              <code>${visibleText(barrier.workstream_id, { missing: 'unknown' })}</code>): ${status(barrier.status)},
              ${barrier.satisfied_repos.length}/${barrier.required_repos.length} repos satisfied
            </li>`,
        )}
      </ul>`,
    paging,
  )}
  ${section(
    'Coordinator decisions',
    'decisions',
    subject.decision_digest.length > 0,
    () => renderDecisions(subject.decision_digest, null, paging, 'decisions'),
    paging,
  )}`;
}

function renderDrift(subject: CoordinatorSubject): TemplateResult | typeof nothing {
  const { run_id_mismatches: mismatches, repo_status_drifts: drifts, terminal_observability_note: note } = subject.run;
  return section(
    'Drift between the coordinator and its repos',
    'drift',
    mismatches.length > 0 || drifts.length > 0,
    () =>
      html`<ul class="drift">
          ${mismatches.map(
            (m) =>
              html`<li>
                <code>${visibleText(m.repo_id)}</code>: run id expected <code>${visibleText(m.expected_run_id)}</code>,
                actual <code>${visibleText(m.actual_run_id)}</code>
              </li>`,
          )}
          ${drifts.map(
            (d) =>
              html`<li>
                <code>${visibleText(d.repo_id)}</code>: coordinator says ${status(d.coordinator_status)}, repo says
                ${status(d.repo_status)}
              </li>`,
          )}
        </ul>
        ${note === null ? nothing : html`<p>${visibleText(note)}</p>`}`,
  );
}

function renderRepos(repos: readonly RepoRow[]): TemplateResult {
  return html`<div class="scroll">
    <table class="repos" part="repo-run-table">
      <caption class="visually-hidden">
        Child repos
      </caption>
      <thead>
        <tr>
          <th scope="col">Repo</th>
          <th scope="col">Export</th>
          <th scope="col">Status</th>
          <th scope="col">Phase</th>
          <th scope="col">Run</th>
          <th scope="col" class="num">Turns</th>
          <th scope="col" class="num">Decisions</th>
          <th scope="col">Gates</th>
          <th scope="col">Path</th>
        </tr>
      </thead>
      <tbody>
        ${repos.map(
          (repo) =>
            html`<tr data-ok=${String(repo.ok)}>
              <th scope="row"><code>${visibleText(repo.repo_id)}</code></th>
              <td>${repo.ok ? 'ok' : html`failed: ${visibleText(repo.error, { missing: 'unknown error' })}`}</td>
              <td>${status(repo.status)}</td>
              <td>${visibleText(repo.phase)}</td>
              <td><code>${visibleText(repo.run_id)}</code></td>
              <td class="num">${repo.turns?.length ?? '–'}</td>
              <td class="num">${repo.decisions?.length ?? '–'}</td>
              <td>
                ${(repo.gate_summary ?? []).map(
                  (gate, i) =>
                    html`${i > 0 ? ', ' : ''}<code>${visibleText(gate.gate_id)}</code> ${visibleText(gate.status)}`,
                )}
              </td>
              <td><code>${visibleText(repo.path)}</code></td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
