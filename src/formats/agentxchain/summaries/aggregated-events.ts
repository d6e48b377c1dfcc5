/**
 * `summary.aggregated_events` of coordinator exports, reconstructed from the child exports'
 * embedded `.agentxchain/events.jsonl` data (docs/agentxchain.md §8.7).
 * Mirrors the reference: a stable sort by `Date.parse(timestamp)` (NaN last), ties broken by ICU
 * collation of `String(event_id)`; counts keyed by `event_type || type || "unknown"` on a plain
 * object (so `__proto__` and `constructor` behave exactly as in the reference). Event fields are
 * attacker-controlled: an unprintable timestamp, id or type (crash site 10, §9) and a `repos_with_events`
 * without `includes` (site 9) become findings instead of a crash.
 * @module
 */
import { jsonDeepStrictEqual } from '../../../json/deep-equal.ts';
import type { PathSegment } from '../../../report/path.ts';
import { reportError, type CheckContext, type Scope } from '../context.ts';
import {
  compareDefaultLocale,
  isJsonObject,
  jsString,
  path,
  prop,
  type ParsedObject,
  type ParsedValue,
} from '../js-semantics.ts';
import { reconstruct, reportUnprocessable, UnprocessableValue } from '../unprocessable.ts';

const EVENTS = '.agentxchain/events.jsonl';

interface SourcedEvent {
  readonly event: Record<string, unknown>;
  /** Where the event came from, relative to the coordinator export. */
  readonly origin: readonly PathSegment[];
}

function eventTime(event: Record<string, unknown>): number {
  const time = Date.parse((event['timestamp'] || '') as string);
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
}

function compareEvents(a: SourcedEvent, b: SourcedEvent): number {
  const left = eventTime(a.event);
  const right = eventTime(b.event);
  if (left !== right) return left - right;
  return compareDefaultLocale(String(a.event['event_id'] || ''), String(b.event['event_id'] || ''));
}

/** The first event whose `field` cannot be converted to a string (an own `toString` key). */
function unprintable(events: readonly SourcedEvent[], fields: readonly string[]): UnprocessableValue | undefined {
  for (const { event, origin } of events) {
    for (const field of fields) {
      if (jsString(event[field]) === undefined)
        return new UnprocessableValue([...origin, field], 'cannot be converted to a string');
    }
  }
  return undefined;
}

/**
 * Rebuilds the aggregated events from the child exports (`repos` must be an object).
 * @throws UnprocessableValue where the reference would crash.
 */
export function buildExpectedAggregatedEvents(repos: ParsedObject): Record<string, unknown> {
  const events: SourcedEvent[] = [];
  const contributing = new Set<string>();
  for (const [repoId, entry] of Object.entries(repos)) {
    const child = prop(entry, 'export');
    if (!prop(entry, 'ok') || !isJsonObject(child)) continue;
    const data = path(child, 'files', EVENTS, 'data');
    if (!Array.isArray(data)) continue;
    for (let index = 0; index < data.length; index++) {
      const event: ParsedValue = data[index];
      if (!isJsonObject(event)) continue;
      events.push({
        event: { ...event, repo_id: repoId },
        origin: ['repos', repoId, 'export', 'files', EVENTS, 'data', index],
      });
      contributing.add(repoId);
    }
  }
  try {
    events.sort(compareEvents);
  } catch (error) {
    throw unprintable(events, ['timestamp', 'event_id']) ?? error;
  }
  const counts: Record<string, number> = {};
  for (const { event } of events) {
    const type = (event['event_type'] || event['type'] || 'unknown') as string;
    try {
      counts[type] = (counts[type] || 0) + 1;
    } catch (error) {
      const culprit = events.find(
        (sourced) => jsString(sourced.event['event_type'] || sourced.event['type']) === undefined,
      );
      if (culprit === undefined) throw error;
      const field = culprit.event['event_type'] ? 'event_type' : 'type';
      throw new UnprocessableValue([...culprit.origin, field], 'cannot be converted to a string');
    }
  }
  return {
    total_events: events.length,
    repos_with_events: [...contributing].sort(),
    event_type_counts: counts,
    events: events.map((sourced) => sourced.event),
  };
}

/** §8.7: checks the claimed aggregated events, if present, against the child exports. */
export function verifyAggregatedEvents(
  context: CheckContext,
  scope: Scope,
  summary: ParsedValue,
  repos: ParsedObject,
): void {
  const claimed = prop(summary, 'aggregated_events');
  if (claimed === undefined || claimed === null) return;
  const error = (
    field: string | null,
    message: string,
    code:
      | 'agentxchain.summary_mismatch'
      | 'agentxchain.failed_repo_claimed'
      | 'agentxchain.summary_invalid' = 'agentxchain.summary_mismatch',
  ): void => {
    const segments = field === null ? ['summary', 'aggregated_events'] : ['summary', 'aggregated_events', field];
    reportError(context, scope, code, segments.join('.'), segments, message);
  };
  if (!isJsonObject(claimed)) {
    error(null, 'must be an object when present', 'agentxchain.summary_invalid');
    return;
  }

  // §8.7: `repos_with_events?.includes(id)` for each failed repo: membership on an array, a
  // substring search on a string; anything else has no `includes` and crashes the reference.
  const withEvents = claimed['repos_with_events'];
  for (const [repoId, entry] of Object.entries(repos)) {
    if (!isJsonObject(entry) || entry['ok'] !== false || withEvents === undefined || withEvents === null) continue;
    if (!Array.isArray(withEvents) && typeof withEvents !== 'string') {
      reportUnprocessable(
        context,
        scope,
        ['summary', 'aggregated_events', 'repos_with_events'],
        'must be an array or a string to be searched for failed repos',
      );
      break;
    }
    if (withEvents.includes(repoId)) {
      error(
        'repos_with_events',
        `cannot include repo "${repoId}" when repos.${repoId}.ok is false because no nested export proof is available`,
        'agentxchain.failed_repo_claimed',
      );
    }
  }

  const built = reconstruct(context, scope, ['summary', 'aggregated_events'], 'summary.aggregated_events', () =>
    buildExpectedAggregatedEvents(repos),
  );
  if (built === undefined) return;
  const expected = built.value;
  if (claimed['total_events'] !== expected['total_events'])
    error('total_events', 'must match reconstructed aggregated event count');
  if (!jsonDeepStrictEqual(withEvents, expected['repos_with_events']))
    error('repos_with_events', 'must match reconstructed contributing repo ids');
  if (!jsonDeepStrictEqual(claimed['event_type_counts'], expected['event_type_counts']))
    error('event_type_counts', 'must match reconstructed event type counts');
  if (!jsonDeepStrictEqual(claimed['events'], expected['events']))
    error('events', 'must match reconstructed sorted aggregated event list');
}
