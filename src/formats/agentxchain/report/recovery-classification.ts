/**
 * The recovery classification of a run's events (docs/agentxchain-report.md §4.12): which events
 * record an automatic or pending recovery, per domain and outcome, and the run's recovery health.
 * @module
 */
import { compareEn, stableSorted } from './collation.ts';
import { parseDate } from './date-parse.ts';
import { field, isJsonObject, text, type ParsedValue } from './values.ts';

type Domain = 'ghost' | 'budget' | 'credential' | 'crash';
type Outcome = 'recovered' | 'exhausted' | 'manual' | 'pending';

interface EventClass {
  readonly domain: Domain;
  readonly severity: string;
  readonly outcome: Outcome;
  readonly mechanism: string;
  readonly summary: string;
}

const CLASSES: Readonly<Record<string, EventClass>> = {
  auto_retried_ghost: cls('ghost', 'medium', 'recovered', 'auto_retry', 'Ghost turn reissued automatically'),
  ghost_retry_exhausted: cls('ghost', 'high', 'exhausted', 'auto_retry', 'Ghost retry budget exhausted'),
  auto_retried_productive_timeout: cls(
    'ghost',
    'medium',
    'recovered',
    'auto_retry',
    'Productive timeout reissued automatically',
  ),
  productive_timeout_retry_exhausted: cls(
    'ghost',
    'high',
    'exhausted',
    'auto_retry',
    'Productive timeout retry budget exhausted',
  ),
  budget_exceeded_warn: cls('budget', 'medium', 'pending', 'config_change', 'Budget warning threshold exceeded'),
  retained_claude_auth_escalation_reclassified: cls(
    'credential',
    'medium',
    'pending',
    'env_refresh',
    'Claude credential escalation reclassified',
  ),
  continuous_paused_active_run_recovered: cls(
    'crash',
    'medium',
    'recovered',
    'loop_guard',
    'Paused continuous session recovered active run',
  ),
  session_failed_recovered_active_run: cls(
    'crash',
    'medium',
    'recovered',
    'loop_guard',
    'Failed continuous step recovered active run',
  ),
};

function cls(domain: Domain, severity: string, outcome: Outcome, mechanism: string, summary: string): EventClass {
  return { domain, severity, outcome, mechanism, summary };
}

export interface ClassifiedEvent {
  event_id: ParsedValue;
  timestamp: ParsedValue;
  event_type: string;
  domain: Domain;
  severity: string;
  outcome: Outcome;
  mechanism: string;
  summary: string;
}

type Counts = Record<Outcome, number>;

export interface RecoveryClassification {
  total_recovery_events: number;
  by_domain: Record<Domain, Counts & { total: number }>;
  by_outcome: Counts;
  timeline: ClassifiedEvent[];
  health_score: 'critical' | 'degraded' | 'healthy';
}

const DOMAINS: readonly Domain[] = ['ghost', 'budget', 'credential', 'crash'];

/**
 * §4.12 over the run events; `null` when none is a recovery event. The event type is looked up as
 * an own key: the reference's plain property read finds `Object.prototype` members for types such as
 * `constructor` and crashes (docs/agentxchain-report.md §10).
 */
export function recoveryClassification(events: readonly ParsedValue[]): RecoveryClassification | null {
  const timeline: ClassifiedEvent[] = [];
  for (const event of events) {
    if (!isJsonObject(event)) continue;
    const type = event['event_type'] || event['type'];
    const key = text(type);
    if (!type || !Object.hasOwn(CLASSES, key)) continue;
    const known = CLASSES[key]!;
    const payload = isJsonObject(event['payload']) ? event['payload'] : {};
    let severity = known.severity;
    if (key === 'ghost_retry_exhausted' && payload['exhaustion_reason'] === 'same_signature_repeat')
      severity = 'critical';
    const remaining = payload['remaining_usd'];
    if (key === 'budget_exceeded_warn' && typeof remaining === 'number' && remaining <= 0) severity = 'high';
    const summary = [payload['recovery_class'], payload['warning'], payload['recovery_action']].find(
      (v): v is string => typeof v === 'string' && v !== '',
    );
    timeline.push({
      event_id: field(event, 'event_id'),
      timestamp: field(event, 'timestamp'),
      event_type: key,
      domain: known.domain,
      severity,
      outcome: known.outcome,
      mechanism: known.mechanism,
      summary: summary ?? known.summary,
    });
  }
  if (timeline.length === 0) return null;
  const timeOf = (e: ClassifiedEvent): number => {
    const time = parseDate(e.timestamp || '');
    return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
  };
  const sorted = stableSorted(
    timeline,
    (a, b) => timeOf(a) - timeOf(b) || compareEn(text(a.event_id || ''), text(b.event_id || '')),
  );
  const counts = (): Counts => ({ recovered: 0, exhausted: 0, manual: 0, pending: 0 });
  const byDomain = Object.fromEntries(
    DOMAINS.map((d) => [d, { total: 0, ...counts() }]),
  ) as RecoveryClassification['by_domain'];
  const byOutcome = counts();
  for (const entry of sorted) {
    byDomain[entry.domain].total++;
    byDomain[entry.domain][entry.outcome]++;
    byOutcome[entry.outcome]++;
  }
  const critical = sorted.some((e) => e.severity === 'critical');
  const health =
    critical || byOutcome.exhausted > byOutcome.recovered
      ? 'critical'
      : byOutcome.exhausted > 0 || byOutcome.manual > 0
        ? 'degraded'
        : 'healthy';
  return {
    total_recovery_events: sorted.length,
    by_domain: byDomain,
    by_outcome: byOutcome,
    timeline: sorted,
    health_score: health,
  };
}
