/**
 * The Run view of a governed run: what `agentxchain report` says about it (spec
 * `agentxchain-report.md` §4), laid out for people: the header facts, next actions first when
 * there are any, the turn timeline, decisions with their lineage (which decision supersedes
 * which), delegations, gates, hooks and recent events.
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { visibleText } from '../visible-text.ts';
import { codeList, duration, facts, section, status, tokens, usd, windowed, type Paging } from './shared.ts';
import type { NextAction, RecentEvents, RepoDecisions, RunFacts, RunSubject, Turn, Decision } from './types.ts';

/**
 * The whole summary of a governed run.
 * @example
 * html`${renderRunSummary(report.subject, paging)}`
 */
export function renderRunSummary(subject: RunSubject, paging: Paging): TemplateResult {
  const { project, run } = subject;
  const turns = run.turns;
  const chains = run.delegation_summary?.delegation_chains ?? [];
  return html`${facts(
    [
      ['Project', html`${visibleText(project.name, { missing: 'unknown' })} (<code>${visibleText(project.id)}</code>)`],
      project.goal ? ['Goal', project.goal] : undefined,
      ['Run', html`<code>${visibleText(run.run_id, { missing: 'none' })}</code>`],
      ['Status', status(run.status)],
      ['Phase', run.phase],
      ['Blocked on', blockedWords(run)],
      ['Budget', budgetWords(run)],
      ['Started', run.created_at],
      run.completed_at ? ['Completed', run.completed_at] : undefined,
      run.duration_seconds === null ? undefined : ['Duration', `${run.duration_seconds}s`],
      ['Active turns', html`${codeList(run.active_turn_ids)}`],
      ['Recent events', recentWords(run.recent_event_summary)],
    ],
    'run-header',
  )}
  ${renderNextActions(run.next_actions)}
  ${section('Turn timeline', 'turns', turns.length > 0, () => renderTurns(turns, paging, 'turns'), paging)}
  ${section(
    'Decisions',
    'decisions',
    run.decisions.length > 0 || run.repo_decisions !== null,
    () => renderDecisions(run.decisions, run.repo_decisions, paging, 'decisions'),
    paging,
  )}
  ${section('Delegations', 'delegations', chains.length > 0, () => renderDelegations(run), paging)}
  ${section(
    'Gates',
    'gates',
    run.gate_summary.length > 0 || run.gate_failures.length > 0 || run.gate_actions.length > 0,
    () => renderGates(run, paging),
    paging,
  )}
  ${section('Hooks', 'hooks', run.hook_summary !== null, () => renderHooks(run), paging)}
  ${section(
    'Governance events',
    'governance',
    run.governance_events.length > 0,
    () => renderGovernance(run, paging),
    paging,
  )}
  ${renderCost(run, paging)}`;
}

function blockedWords(run: RunFacts): unknown {
  const reason = run.blocked_reason;
  if (typeof reason === 'object' && reason !== null) {
    const typed = (reason as { recovery?: { typed_reason?: unknown } }).recovery?.typed_reason;
    if (typeof typed === 'string' && typed !== '') return typed;
    const category = (reason as { category?: unknown }).category;
    if (typeof category === 'string' && category !== '') return category;
  }
  if (!run.blocked_on) return 'none';
  return typeof run.blocked_on === 'string' ? run.blocked_on : 'present';
}

function budgetWords(run: RunFacts): string {
  const budget = run.budget_status;
  if (budget === null) return 'not set';
  const over = budget.warn_mode === true ? ' (over budget)' : '';
  return `spent ${usd(budget.spent_usd)}, remaining ${usd(budget.remaining_usd)}${over}`;
}

/**
 * The recent-event line: how fresh the run's events are, and the latest one.
 * @example
 * recentWords(run.recent_event_summary); // quiet: 0 in the last 15 min; latest run_completed at …
 */
export function recentWords(recent: RecentEvents): TemplateResult {
  const latest = recent.latest_event;
  const freshness =
    recent.freshness === 'no_events'
      ? 'none recorded'
      : `${recent.freshness}: ${recent.recent_count} in the last ${recent.window_minutes} min`;
  return html`${freshness}${
    latest === null
      ? nothing
      : html`; latest ${visibleText(latest.summary ?? latest.event_type)} at
        ${visibleText(latest.timestamp, { missing: 'unknown time' })}`
  }`;
}

/**
 * The next actions, as commands to run (selectable text, never links).
 * @example
 * html`${renderNextActions(run.next_actions)}`
 */
export function renderNextActions(actions: readonly NextAction[]): TemplateResult | typeof nothing {
  return section(
    'Next actions',
    'next-actions',
    actions.length > 0,
    () =>
      html`<ol class="actions">
        ${actions.map(
          (action) =>
            html`<li><code class="command">${visibleText(action.command)}</code>: ${visibleText(action.reason)}</li>`,
        )}
      </ol>`,
  );
}

/**
 * The turn timeline as a table (a page of rows at a time).
 * @example
 * renderTurns(run.turns, paging, 'turns')
 */
export function renderTurns(turns: readonly Turn[], paging: Paging, list: string): TemplateResult {
  const [rows, more] = windowed(paging, list, turns);
  return html`<div class="scroll">
      <table class="turns" part="turn-table">
        <caption class="visually-hidden">
          Turn timeline
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num">#</th>
            <th scope="col">Role</th>
            <th scope="col">Phase</th>
            <th scope="col">Summary</th>
            <th scope="col">Decisions</th>
            <th scope="col" class="num">Files</th>
            <th scope="col" class="num">Cost</th>
            <th scope="col">Accepted</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (turn, i) =>
              html`<tr>
                <td class="num">${i + 1}</td>
                <td>${visibleText(turn.role)}</td>
                <td>
                  ${visibleText(turn.phase, { missing: '?' })}${
                    turn.phase_transition ? html` → ${visibleText(turn.phase_transition)}` : nothing
                  }
                </td>
                <td>
                  ${visibleText(turn.summary || '(no summary)')}
                  <div class="sub"><code>${visibleText(turn.turn_id)}</code> · ${visibleText(turn.status)}</div>
                </td>
                <td>${codeList(turn.decisions)}</td>
                <td class="num">${turn.files_changed_count}</td>
                <td class="num">${usd(turn.cost_usd)}</td>
                <td>
                  ${visibleText(turn.accepted_at, { missing: 'n/a' })}${
                    duration(turn.duration_ms) === undefined ? nothing : ` (${duration(turn.duration_ms)})`
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${more}`;
}

/**
 * The decision ledger, then the repo decisions' lineage: each active decision with the one it
 * supersedes, each overridden decision with its successor.
 * @example
 * renderDecisions(run.decisions, run.repo_decisions, paging, 'decisions')
 */
export function renderDecisions(
  decisions: readonly Decision[],
  repo: RepoDecisions | null,
  paging: Paging,
  list: string,
): TemplateResult {
  const [rows, more] = windowed(paging, list, decisions);
  const active = Array.isArray(repo?.active) ? repo.active : [];
  const overridden = Array.isArray(repo?.overridden) ? repo.overridden : [];
  return html`${
    decisions.length > 0
      ? html`<ul class="decisions">
            ${rows.map(
              (decision) =>
                html`<li>
                  <strong><code>${visibleText(decision.id)}</code></strong>
                  (${visibleText(decision.role, { missing: '?' })}, ${visibleText(decision.phase, { missing: '?' })}
                  phase${decision.turn_id ? html`, turn <code>${visibleText(decision.turn_id)}</code>` : nothing}):
                  ${visibleText(decision.statement)}
                </li>`,
            )}
          </ul>
          ${more}`
      : nothing
  }
  ${
    active.length > 0 || overridden.length > 0
      ? html`<h4>Lineage of repo decisions</h4>
          <div class="scroll">
            <table class="lineage" part="lineage-table">
              <thead>
                <tr>
                  <th scope="col">Decision</th>
                  <th scope="col">State</th>
                  <th scope="col">Statement</th>
                  <th scope="col">Lineage</th>
                </tr>
              </thead>
              <tbody>
                ${active.map(
                  (entry) =>
                    html`<tr>
                      <td><code>${visibleText(entry.id)}</code></td>
                      <td>active${entry.category ? html` (${visibleText(entry.category)})` : nothing}</td>
                      <td>${visibleText(entry.statement)}</td>
                      <td>${entry.overrides ? html`supersedes <code>${visibleText(entry.overrides)}</code>` : '–'}</td>
                    </tr>`,
                )}
                ${overridden.map(
                  (entry) =>
                    html`<tr>
                      <td><code>${visibleText(entry.id)}</code></td>
                      <td>overridden</td>
                      <td>${visibleText(entry.statement)}</td>
                      <td>superseded by <code>${visibleText(entry.overridden_by, { missing: 'unknown' })}</code></td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
      : nothing
  }`;
}

function renderDelegations(run: RunFacts): TemplateResult {
  const summary = run.delegation_summary!;
  return html`<p>${summary.total_delegations_issued} delegation(s) issued.</p>
    <ul class="chains">
      ${summary.delegation_chains.map(
        (chain) =>
          html`<li>
            ${visibleText(chain.parent_role)} (turn <code>${visibleText(chain.parent_turn_id)}</code>) delegated;
            outcome ${status(chain.outcome)}, review turn
            <code>${visibleText(chain.review_turn_id, { missing: 'pending' })}</code>
            <ul>
              ${chain.delegations.map(
                (delegation) =>
                  html`<li>
                    <code>${visibleText(delegation.delegation_id)}</code> → ${visibleText(delegation.to_role)}:
                    ${visibleText(delegation.charter)} — ${status(delegation.status)}, child turn
                    <code>${visibleText(delegation.child_turn_id, { missing: 'pending' })}</code>; required
                    ${codeList(delegation.required_decision_ids)}, missing ${codeList(delegation.missing_decision_ids)}
                  </li>`,
              )}
            </ul>
          </li>`,
      )}
    </ul>`;
}

function renderGates(run: RunFacts, paging: Paging): TemplateResult {
  const [failures, moreFailures] = windowed(paging, 'gate-failures', run.gate_failures);
  const [actions, moreActions] = windowed(paging, 'gate-actions', run.gate_actions);
  return html`${
    run.gate_summary.length > 0
      ? html`<ul class="gates">
          ${run.gate_summary.map(
            (gate) => html`<li><code>${visibleText(gate.gate_id)}</code>: ${status(gate.status)}</li>`,
          )}
        </ul>`
      : nothing
  }
  ${
    failures.length > 0
      ? html`<h4>Gate failures</h4>
          <ul>
            ${failures.map(
              (failure) =>
                html`<li>
                  <code>${visibleText(failure.gate_id, { missing: 'unknown' })}</code>
                  (${visibleText(failure.gate_type, { missing: 'unknown' })}) at
                  ${visibleText(failure.failed_at, { missing: 'n/a' })}
                  <ul>
                    ${failure.reasons.map((reason) => html`<li>${visibleText(reason)}</li>`)}
                  </ul>
                </li>`,
            )}
          </ul>
          ${moreFailures}`
      : nothing
  }
  ${
    actions.length > 0
      ? html`<h4>Gate actions</h4>
          <ul>
            ${actions.map(
              (action) =>
                html`<li>
                  <code>${visibleText(action.gate_id, { missing: 'unknown' })}</code>:
                  ${visibleText(action.action_label || action.command)} — ${status(action.status)} (exit
                  ${action.exit_code ?? 'n/a'}${action.timed_out ? ', timed out' : ''}) at
                  ${visibleText(action.timestamp, { missing: 'n/a' })}
                  ${action.stderr_tail ? html`<pre class="tail">${visibleText(action.stderr_tail, { multiline: true })}</pre>` : nothing}
                </li>`,
            )}
          </ul>
          ${moreActions}`
      : nothing
  }`;
}

function renderHooks(run: RunFacts): TemplateResult {
  const hooks = run.hook_summary!;
  return html`<p>
    ${hooks.total} hook execution(s), ${hooks.blocked} blocked.
    ${Object.entries(hooks.events).map(
      ([event, count], i) => html`${i === 0 ? 'Events: ' : ', '}<code>${visibleText(event)}</code> (${count})`,
    )}
  </p>`;
}

function renderGovernance(run: RunFacts, paging: Paging): TemplateResult {
  const [events, more] = windowed(paging, 'governance', run.governance_events);
  return html`<ul>
      ${events.map(
        (event) =>
          html`<li>
            <strong>${visibleText(event.type)}</strong> (${visibleText(event.role, { missing: '?' })},
            ${visibleText(event.phase, { missing: '?' })} phase) at ${visibleText(event.timestamp, { missing: 'n/a' })}
          </li>`,
      )}
    </ul>
    ${more}`;
}

function renderCost(run: RunFacts, paging: Paging): TemplateResult | typeof nothing {
  const cost = run.cost_summary;
  return section(
    'Cost',
    'cost',
    cost !== null,
    () =>
      html`<p>
        ${usd(cost!.total_usd)} across ${cost!.turn_count}
        turn(s)${
          cost!.total_input_tokens === null && cost!.total_output_tokens === null
            ? nothing
            : html`; ${tokens(cost!.total_input_tokens)} input / ${tokens(cost!.total_output_tokens)} output tokens`
        }.
      </p>`,
    paging,
  );
}
