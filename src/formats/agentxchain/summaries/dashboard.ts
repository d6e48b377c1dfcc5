/**
 * `summary.dashboard_session` of run exports (docs/agentxchain.md §6.3).
 * Nothing ties the session to the `.agentxchain-dashboard.*` files; only its shape is checked.
 * @module
 */
import { reportError, type CheckContext, type Scope } from '../context.ts';
import { isJsonObject, isParsableDate, type ParsedObject } from '../js-semantics.ts';

const STATUSES = ['running', 'pid_only', 'stale', 'not_running'] as const;

function isPositiveInteger(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) > 0;
}

/** Checks the session, if the key is present: status first, then field types, then status rules. */
export function verifyDashboardSession(context: CheckContext, scope: Scope, summary: ParsedObject): void {
  const session = summary['dashboard_session'];
  if (session === undefined) return;
  const error = (field: string | null, message: string): void => {
    const segments = field === null ? ['summary', 'dashboard_session'] : ['summary', 'dashboard_session', field];
    reportError(context, scope, 'agentxchain.summary_invalid', segments.join('.'), segments, message);
  };
  if (!isJsonObject(session)) {
    error(null, 'must be an object when present');
    return;
  }
  const status = session['status'];
  if (!(STATUSES as readonly unknown[]).includes(status)) {
    error('status', `must be one of: ${STATUSES.join(', ')}`);
    return;
  }
  const { pid, url, started_at: startedAt } = session;
  // §6.3: pid type, url type, started_at type; then the not_running nulls; then the running pid.
  if (pid !== null && !isPositiveInteger(pid)) error('pid', 'must be a positive integer or null');
  if (url !== null && typeof url !== 'string') error('url', 'must be a string or null');
  if (startedAt !== null && !isParsableDate(startedAt)) error('started_at', 'must be a valid ISO timestamp or null');
  if (status === 'not_running') {
    if (pid !== null) error('pid', 'must be null when status is not_running');
    if (url !== null) error('url', 'must be null when status is not_running');
    if (startedAt !== null) error('started_at', 'must be null when status is not_running');
  }
  if (status === 'running' && !isPositiveInteger(pid))
    error('pid', 'must be a positive integer when status is running');
}
