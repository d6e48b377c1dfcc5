/**
 * design-1.0 checks (docs/agent-history.md §3 and §4): a header on line 1, then one session per
 * line, each holding all its messages and an optional fork graph. Per-session invariants
 * (M1 index, M2 uuid links, M3 tool results, M4 time order, G1 graph, S1 times) are checked within
 * the line; across lines only the header, the session ids and the sub-agent parent references
 * are kept, so memory is bounded by the largest session, not by the file.
 * @module
 */
import * as v from 'valibot';
import { linePath, type PathSegment } from '../../report/path.ts';
import { asObject, isIsoTimestamp, quote, reportIssues, type JsonRecord, type NdjsonEnding } from '../ndjson/reader.ts';
import type { AgentHistoryCounts } from './details.ts';
import { CONTENT_BLOCKS, designGraph, designHeader, designSessionRecord, type DesignHeader } from './schema.ts';
import type { FindingCollector } from '../../report.ts';

const SCHEMA_ISSUE_CODES = { missing: 'agent-history.missing_field', invalid: 'agent-history.invalid_field' } as const;

/** The checks over the whole file (docs/agent-history.md §4), as `details.not_checked` names them. */
const H2_CHECK = 'H2 header.session_count = session lines';
const S2_CHECK = 'S2 parent_session_id names a session of the file';

/** Streaming checker: `record` per JSON-object line, `end` once. */
export interface ShapeChecker {
  record(record: JsonRecord, line: number): void;
  /**
   * The checks over the whole input, as far as `ending` allows (docs/agent-history.md §5); returns
   * the ones not made, for `details.not_checked`.
   */
  end(ending: NdjsonEnding): readonly string[];
  /** What the shape reports in `report.details`. */
  details(): AgentHistoryCounts;
}

/**
 * Creates the design-1.0 checker reporting into `collector`.
 * @example
 * const checker = createDesignChecker(collector);
 * checker.record(JSON.parse(line1), 1);
 * checker.end('end');
 */
export function createDesignChecker(collector: FindingCollector): ShapeChecker {
  const add = collector.add.bind(collector);
  let firstRecordSeen = false;
  let header: { value: DesignHeader; line: number } | undefined;
  let headerLine = 0;
  let sessionLines = 0;
  let messageCount = 0;
  const byType = { header: 0, session: 0, other: 0 };
  const sessionIds = new Map<string, number>();
  const parentRefs: { line: number; parent: string }[] = [];

  const onHeader = (record: JsonRecord, line: number, first: boolean): void => {
    byType.header++;
    if (!first || line !== 1) {
      const again = headerLine !== 0;
      add(
        'agent-history.header_misplaced',
        linePath(line),
        again ? 'unexpected second header record' : 'header record not on line 1',
      );
      if (!first) return;
    }
    headerLine = line;
    const result = v.safeParse(designHeader, record);
    if (!result.success) {
      reportIssues(add, line, result.issues, SCHEMA_ISSUE_CODES, { label: 'header' });
      return;
    }
    header = { value: result.output, line };
  };

  const onSession = (record: JsonRecord, line: number): void => {
    byType.session++;
    sessionLines++;
    const result = v.safeParse(designSessionRecord, record);
    if (!result.success) reportIssues(add, line, result.issues, SCHEMA_ISSUE_CODES);
    checkSession(record, line);
  };

  /** Cross-checks of one session line; defensive, because the schema may have failed. */
  const checkSession = (record: JsonRecord, line: number): void => {
    const session = asObject(record['session']);
    if (session) {
      const id = session['id'];
      if (typeof id === 'string') {
        const previous = sessionIds.get(id);
        if (previous !== undefined) {
          add(
            'agent-history.duplicate_session_id',
            linePath(line, ['session', 'id']),
            `session.id ${quote(id)} already used on line ${previous}`,
            { severity: 'warning' },
          );
        } else if (sessionIds.size < 1_000_000) {
          sessionIds.set(id, line);
        }
      }
      // H3: every session agent is listed in the header.
      const agent = session['agent'];
      if (header && typeof agent === 'string' && !header.value.agent_types.includes(agent as never)) {
        add(
          'agent-history.agent_not_listed',
          linePath(line, ['session', 'agent']),
          `session.agent ${quote(agent)} not listed in header.agent_types`,
        );
      }
      const workspace = session['workspace'];
      if (header && typeof workspace === 'string' && !workspaceListed(workspace, header.value.workspaces)) {
        add(
          'agent-history.workspace_not_listed',
          linePath(line, ['session', 'workspace']),
          `session.workspace ${quote(workspace)} matches no header.workspaces entry`,
          { severity: 'warning' },
        );
      }
      // S1: started_at <= ended_at.
      const started = session['started_at'];
      const ended = session['ended_at'];
      if (
        typeof started === 'string' &&
        typeof ended === 'string' &&
        isIsoTimestamp(started) &&
        isIsoTimestamp(ended) &&
        Date.parse(started) > Date.parse(ended)
      ) {
        add(
          'agent-history.session_times',
          linePath(line, ['session', 'started_at']),
          'session.started_at later than ended_at',
        );
      }
      // S2 (always a warning): checked at the end, the parent may come later in the file.
      const parent = session['parent_session_id'];
      if (session['is_agent_session'] === true && typeof parent === 'string' && parentRefs.length < 1_000_000) {
        parentRefs.push({ line, parent });
      }
    }
    const messages = record['messages'];
    if (Array.isArray(messages)) {
      messageCount += messages.length;
      checkMessages(messages, record['graph'], line, add);
    }
  };

  return {
    record(record, line) {
      const type = record['type'];
      const first = !firstRecordSeen;
      firstRecordSeen = true;
      if (first && type !== 'header') {
        add(
          'agent-history.header_missing',
          linePath(line),
          `first record is not a header (type=${typeof type === 'string' ? type : quote(type)})`,
        );
      }
      if (type === 'header') onHeader(record, line, first);
      else if (type === 'session') onSession(record, line);
      else {
        byType.other++;
        add(
          'agent-history.unknown_record_type',
          linePath(line, ['type']),
          `unknown record type ${quote(type)} (design-1.0 has header and session records)`,
        );
      }
    },
    end(ending) {
      // After a stop (a limit, an abort) the sessions that follow were never read; a skipped line
      // may have been a session.
      if (ending === 'stopped' || ending === 'skipped') return [H2_CHECK, S2_CHECK];
      // H2: the header's count of sessions.
      if (header && header.value.session_count !== sessionLines) {
        add(
          'agent-history.session_count',
          linePath(header.line, ['session_count']),
          `header.session_count ${header.value.session_count} but ${sessionLines} session lines`,
        );
      }
      if (ending !== 'end') return [S2_CHECK];
      for (const { line, parent } of parentRefs) {
        if (!sessionIds.has(parent)) {
          add(
            'agent-history.parent_session_missing',
            linePath(line, ['session', 'parent_session_id']),
            `parent_session_id ${quote(parent)} not found among exported sessions`,
            {
              severity: 'warning',
            },
          );
        }
      }
      return [];
    },
    details() {
      return { session_count: sessionLines, message_count: messageCount, records_by_type: { ...byType } };
    },
  };
}

/** H3, leniently: the header may list a workspace by full path or by its last path element. */
function workspaceListed(workspace: string, listed: readonly string[]): boolean {
  if (listed.includes(workspace)) return true;
  const name =
    workspace
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .pop() ?? workspace;
  return listed.some(
    (entry) =>
      entry === name ||
      entry
        .replace(/[/\\]+$/, '')
        .split(/[/\\]/)
        .pop() === name,
  );
}

type Add = FindingCollector['add'];

/** The per-message facts the invariants need, gathered in one pass. */
interface MessageFacts {
  readonly uuid: string | undefined;
  readonly parent: string | null | undefined;
  readonly index: unknown;
}

/** M1–M4 and G1 over one session's messages (array order is line order). */
function checkMessages(messages: readonly unknown[], graph: unknown, line: number, add: Add): void {
  const facts: MessageFacts[] = [];
  const byUuid = new Map<string, number>();
  const toolUses = new Map<string, number>(); // tool_id -> message position of its first tool_use
  let previousIndex: number | undefined;
  let previousTime: number | undefined;

  for (let i = 0; i < messages.length; i++) {
    const message = asObject(messages[i]);
    if (!message) {
      facts.push({ uuid: undefined, parent: undefined, index: undefined });
      continue;
    }
    const at = (...rest: PathSegment[]): string => linePath(line, ['messages', i, ...rest]);
    // M1: 1-based and contiguous; after a gap, count on from the value found (one error per gap).
    const index = message['index'];
    if (typeof index === 'number' && Number.isInteger(index)) {
      const expected = previousIndex === undefined ? 1 : previousIndex + 1;
      if (index !== expected) {
        const why = previousIndex === undefined ? '' : index > expected ? ' (gap)' : ' (out of order)';
        add('agent-history.message_index', at('index'), `messages[${i}].index ${index} expected ${expected}${why}`);
      }
      previousIndex = index;
    }
    // M2: uuids unique.
    const uuid = typeof message['uuid'] === 'string' ? message['uuid'] : undefined;
    if (uuid !== undefined) {
      const earlier = byUuid.get(uuid);
      if (earlier !== undefined)
        add('agent-history.duplicate_uuid', at('uuid'), `messages[${i}].uuid duplicates messages[${earlier}].uuid`);
      else byUuid.set(uuid, i);
    }
    const parentValue = message['parent_uuid'];
    facts.push({
      uuid,
      parent: typeof parentValue === 'string' || parentValue === null ? parentValue : undefined,
      index,
    });
    // M4 (warning): timestamps non-decreasing.
    const timestamp = message['timestamp'];
    if (typeof timestamp === 'string' && isIsoTimestamp(timestamp)) {
      const time = Date.parse(timestamp);
      if (previousTime !== undefined && time < previousTime) {
        add(
          'agent-history.timestamp_order',
          at('timestamp'),
          `messages[${i}].timestamp earlier than the previous message`,
          { severity: 'warning' },
        );
      }
      previousTime = time;
    }
    // Content blocks: known types carry their fields; unknown types are tolerated with a warning.
    const content = message['content'];
    if (Array.isArray(content)) {
      for (let b = 0; b < content.length; b++) {
        const block = asObject(content[b]);
        const type = block?.['type'];
        if (!block || typeof type !== 'string') continue; // the message schema reported it
        const schema = (CONTENT_BLOCKS as Record<string, v.GenericSchema>)[type];
        if (!schema || !Object.hasOwn(CONTENT_BLOCKS, type)) {
          add(
            'agent-history.unknown_block_type',
            at('content', b, 'type'),
            `unknown content block type ${quote(type)}`,
            { severity: 'warning' },
          );
          continue;
        }
        const result = v.safeParse(schema, block);
        if (!result.success)
          reportIssues(add, line, result.issues, SCHEMA_ISSUE_CODES, { prefix: ['messages', i, 'content', b] });
        if (type === 'tool_use' && typeof block['tool_id'] === 'string' && !toolUses.has(block['tool_id']))
          toolUses.set(block['tool_id'], i);
      }
    }
  }

  // M3: every tool_result answers an earlier tool_use (same message counts: Gemini puts both in one).
  const seenToolUses = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const content = asObject(messages[i])?.['content'];
    if (!Array.isArray(content)) continue;
    for (let b = 0; b < content.length; b++) {
      const block = asObject(content[b]);
      const toolId = block?.['tool_id'];
      if (typeof toolId !== 'string') continue;
      if (block!['type'] === 'tool_use') seenToolUses.add(toolId);
      else if (block!['type'] === 'tool_result' && !seenToolUses.has(toolId)) {
        const later = toolUses.get(toolId);
        add(
          'agent-history.tool_result_orphan',
          linePath(line, ['messages', i, 'content', b, 'tool_id']),
          later === undefined
            ? `tool_result.tool_id ${quote(toolId)} has no earlier tool_use in session`
            : `tool_result precedes its tool_use (messages[${later}])`,
        );
      }
    }
  }

  // M2: parent_uuid is null or a known uuid. Children per parent feed the fork check (G1).
  const children = new Map<string, number[]>();
  for (let i = 0; i < facts.length; i++) {
    const { parent } = facts[i]!;
    if (typeof parent !== 'string') continue;
    if (!byUuid.has(parent)) {
      add(
        'agent-history.unknown_parent_uuid',
        linePath(line, ['messages', i, 'parent_uuid']),
        `messages[${i}].parent_uuid references unknown uuid ${quote(parent)}`,
      );
      continue;
    }
    const list = children.get(parent);
    if (list) list.push(i);
    else children.set(parent, [i]);
  }
  checkGraph(graph, facts, byUuid, children, line, add);
}

/** G1: graph present ⇔ the session forks, and the graph agrees with the messages. */
function checkGraph(
  graph: unknown,
  facts: readonly MessageFacts[],
  byUuid: ReadonlyMap<string, number>,
  children: ReadonlyMap<string, number[]>,
  line: number,
  add: Add,
): void {
  const forks: string[] = [];
  for (const [uuid, list] of children) if (list.length > 1) forks.push(uuid);
  const graphPath = (...rest: PathSegment[]): string => linePath(line, ['graph', ...rest]);
  if (graph === undefined) {
    if (forks.length > 0) {
      const at = byUuid.get(forks[0]!)!;
      add('agent-history.graph', linePath(line), `session is non-linear (fork at messages[${at}]) but has no graph`);
    }
    return;
  }
  const parsed = v.safeParse(designGraph, graph);
  if (!parsed.success) return; // designSessionRecord already reported the shape problems
  const { is_linear: isLinear, fork_points: forkPoints, active_path: activePath } = parsed.output;
  if (isLinear && forkPoints.length > 0)
    add('agent-history.graph', graphPath('is_linear'), 'graph.is_linear true but fork_points non-empty');
  else if (isLinear)
    add(
      'agent-history.graph',
      graphPath('is_linear'),
      'graph present with is_linear true (the graph is only included for non-linear sessions)',
    );
  else if (forks.length === 0)
    add('agent-history.graph', graphPath('is_linear'), 'graph.is_linear false but no message has two children');

  const listed = new Set<string>();
  forkPoints.forEach((point, p) => {
    listed.add(point.uuid);
    const at = byUuid.get(point.uuid);
    if (at === undefined) {
      add(
        'agent-history.graph',
        graphPath('fork_points', p, 'uuid'),
        `graph.fork_points[${p}].uuid references unknown uuid`,
      );
      return;
    }
    if (facts[at]!.index !== point.index)
      add(
        'agent-history.graph',
        graphPath('fork_points', p, 'index'),
        `graph.fork_points[${p}].index does not match message with that uuid`,
      );
    const actual = children.get(point.uuid) ?? [];
    if (actual.length < 2)
      add(
        'agent-history.graph',
        graphPath('fork_points', p, 'uuid'),
        `graph.fork_points[${p}] names messages[${at}], which has ${actual.length} child(ren)`,
      );
    const branchUuids = new Set<string>();
    point.branches.forEach((branch, b) => {
      branchUuids.add(branch.uuid);
      const branchAt = byUuid.get(branch.uuid);
      if (branchAt === undefined) {
        add(
          'agent-history.graph',
          graphPath('fork_points', p, 'branches', b, 'uuid'),
          `graph.fork_points[${p}].branches[${b}].uuid references unknown uuid`,
        );
      } else if (facts[branchAt]!.parent !== point.uuid) {
        add(
          'agent-history.graph',
          graphPath('fork_points', p, 'branches', b, 'uuid'),
          `graph.fork_points[${p}].branches[${b}] is not a child of the fork point`,
        );
      } else if (facts[branchAt]!.index !== branch.index) {
        add(
          'agent-history.graph',
          graphPath('fork_points', p, 'branches', b, 'index'),
          `graph.fork_points[${p}].branches[${b}].index does not match message with that uuid`,
        );
      }
    });
    for (const child of actual) {
      const uuid = facts[child]!.uuid!;
      if (!branchUuids.has(uuid))
        add(
          'agent-history.graph',
          graphPath('fork_points', p, 'branches'),
          `graph.fork_points[${p}].branches omits messages[${child}], a child of the fork point`,
        );
    }
  });
  for (const fork of forks) {
    if (!listed.has(fork))
      add(
        'agent-history.graph',
        graphPath('fork_points'),
        `fork at messages[${byUuid.get(fork)}] missing from graph.fork_points`,
      );
  }

  // active_path: known uuids forming a parent chain from a root to a leaf.
  const unknown = activePath.findIndex((uuid) => !byUuid.has(uuid));
  if (unknown !== -1) {
    add('agent-history.graph', graphPath('active_path', unknown), 'graph.active_path references unknown uuid');
    return;
  }
  if (activePath.length === 0) return;
  let chain = facts[byUuid.get(activePath[0]!)!]!.parent == null;
  for (let k = 1; chain && k < activePath.length; k++)
    chain = facts[byUuid.get(activePath[k]!)!]!.parent === activePath[k - 1];
  if (chain) chain = !children.has(activePath[activePath.length - 1]!);
  if (!chain)
    add('agent-history.graph', graphPath('active_path'), 'graph.active_path is not a root-to-leaf parent chain');
}
