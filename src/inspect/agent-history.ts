/**
 * The agent-history inspector: pages of transcript view models read from the verified NDJSON
 * (docs/agent-history.md: design-1.0 and impl-2.0). The index is built once: where each line
 * starts, and per message its line, its offset inside a design-1.0 session line, its session, its
 * turn and a few flags. A page then reads only its own messages again from the bytes.
 *
 * Turns are numbered as agent-history numbers them in its markdown (docs/agent-history-markdown.md,
 * 'Turns'): a user message without a tool flag opens a turn. The filters are the tool's markdown
 * levels: level 1 leaves out the messages with a tool flag and cuts bodies at 500 code points,
 * level 2 keeps them and cuts, level 3 shows every body whole, level 4 adds the metadata (model,
 * tokens, working directory, branch).
 *
 * Every byte is attacker-controlled and the file may have failed verification: a line that does
 * not parse is skipped and listed, no field is assumed to have its type, and nothing throws.
 * @module
 */
import { SLOTS, TAG_ARRAY, TAG_OBJECT, TAG_TRUE, createScanContext, scanValue } from '../json/tape.ts';
import { skipWhitespace } from '../json/_grammar.ts';
import { materialize, readJson, readJsonAt, readJsonDocument, type TapeNode } from '../json/reader.ts';
import { childCount, memberValue, nextSlot, stringAt } from '../json/tape-read.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/value.ts';
import { codePointCutIndex, pythonRstrip } from '../formats/agent-history/markdown/python-text.ts';
import { DEFAULT_LIMITS } from '../limits.ts';
import { lexeme, prettyJson, textOf } from './json-text.ts';
import { indexLines, lineBytes, type LineIndex } from './line-index.ts';
import { createTextSearch, pageWindow } from './text-search.ts';
import type { InspectPage, InspectRequest, InspectSource, Inspector } from './types.ts';

/** Longest body (UTF-16 code units) a page carries; the view offers the full text as a download. */
export const MAX_BODY_CHARS = 200_000;
/** Code points the tool keeps of a body at levels 1 and 2 (docs/agent-history-markdown.md, 'Which messages'). */
const LEVEL_CUT = 500;
/** Positions returned by the `marks` view, each list. */
const MAX_MARKS = 100_000;

export type TranscriptBlockKind =
  'text' | 'thinking' | 'tool-use' | 'tool-result' | 'agent-spawn' | 'agent-result' | 'other';

/** One part of a message: its text, or a tool's input or output. */
export interface TranscriptBlock {
  readonly kind: TranscriptBlockKind;
  /** A tool's name, a sub-agent's type or an unknown block's type; '' when none. */
  readonly name: string;
  /** A tool call id or a sub-agent session id; '' when none. */
  readonly ref: string;
  /** The text shown (at most `MAX_BODY_CHARS` unless the page was asked `full`). */
  readonly text: string;
  /** Length of the whole text: more than `text.length` when it was clipped for the page. */
  readonly fullLength: number;
  /** The level (1 or 2) cut this body at 500 code points, as the tool does. */
  readonly levelCut: boolean;
  readonly isError: boolean;
}

/** A message card. */
export interface TranscriptMessage {
  readonly kind: 'message';
  /** Message id: its position among all messages of the file (stable across filters). */
  readonly id: number;
  readonly session: number;
  /** 1-based position in its session. */
  readonly ordinal: number;
  /** The NDJSON line holding it (a design-1.0 session line holds all its messages). */
  readonly line: number;
  readonly turn: number;
  readonly role: string;
  readonly label: string;
  readonly timestamp: string;
  /** Level 4: model, tokens, working directory, branch …, each `[label, text]`, numbers by lexeme. */
  readonly meta: readonly (readonly [string, string])[];
  readonly blocks: readonly TranscriptBlock[];
  readonly isError: boolean;
  /** Has a tool flag: level 1 leaves it out. */
  readonly tool: boolean;
  /** design-1.0 with a fork graph: not on the active path (a fork branch). */
  readonly offPath: boolean;
  /** design-1.0: a fork point of the graph. */
  readonly forkPoint: boolean;
  readonly uuid: string;
}

/** A session in the session list (design-1.0: sub-agent sessions follow their parents, one level deeper). */
export interface TranscriptSession {
  readonly index: number;
  readonly line: number;
  readonly id: string;
  readonly agent: string;
  readonly workspace: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly isAgentSession: boolean;
  readonly parentId: string;
  /** The parent is named but not in the file. */
  readonly parentMissing: boolean;
  readonly depth: number;
  readonly messageCount: number;
  readonly errorCount: number;
  /** Fork points (design-1.0 `graph`, impl-2.0 `forks`): the message where it forked, and each branch. */
  readonly forks: readonly TranscriptFork[];
}

export interface TranscriptFork {
  readonly uuid: string;
  /** Message ordinal in the session, when the file says. */
  readonly index: string;
  readonly branches: readonly { readonly uuid: string; readonly index: string }[];
}

/** The `overview` view's one item: the export header and the session list. */
export interface TranscriptOverview {
  readonly kind: 'overview';
  readonly shape: 'design-1.0' | 'impl-2.0' | 'unknown';
  /** impl-2.0 `header.agent`. */
  readonly agent: string;
  readonly header: readonly (readonly [string, string])[];
  readonly sessions: readonly TranscriptSession[];
  readonly messageCount: number;
  readonly errorCount: number;
  /** Lines that could not be read (they are left out). */
  readonly unreadableLines: readonly number[];
}

/** The `marks` view's one item: positions (in the filtered list) of errors and of search matches. */
export interface TranscriptMarks {
  readonly kind: 'marks';
  readonly errors: readonly number[];
  readonly matches: readonly number[];
}

/** The `locate` view's one item: the position of the first message at or after `filter.line`. */
export interface TranscriptLocation {
  readonly kind: 'location';
  readonly position: number;
}

export type AgentHistoryItem = TranscriptMessage | TranscriptOverview | TranscriptMarks | TranscriptLocation;

const FLAG_ERROR = 1;
const FLAG_TOOL = 2;
const FLAG_OFF_PATH = 4;
const FLAG_FORK = 8;

/** What the inspector notes once per file. */
export interface AgentHistoryIndex {
  readonly shape: 'design-1.0' | 'impl-2.0' | 'unknown';
  readonly agent: string;
  readonly lines: LineIndex;
  readonly header: JsonObject | undefined;
  readonly sessions: SessionFacts[];
  readonly messages: number;
  readonly msgLine: Uint32Array;
  readonly msgOffset: Uint32Array;
  readonly msgSession: Uint32Array;
  readonly msgTurn: Uint32Array;
  readonly msgOrdinal: Uint32Array;
  readonly msgFlags: Uint8Array;
  readonly unreadable: number[];
  /** Filtered message ids, by filter key. */
  readonly filtered: Map<string, Uint32Array>;
  /** The last search: its key and which filtered positions match. */
  search: { readonly key: string; readonly positions: Uint32Array } | undefined;
}

interface SessionFacts {
  readonly line: number;
  readonly record: JsonObject;
  readonly forks: TranscriptFork[];
  readonly first: number;
  count: number;
  errors: number;
}

/** Growable parallel arrays of message facts. */
class MessageTable {
  count = 0;
  line = new Uint32Array(256);
  offset = new Uint32Array(256);
  session = new Uint32Array(256);
  turn = new Uint32Array(256);
  ordinal = new Uint32Array(256);
  flags = new Uint8Array(256);

  add(line: number, offset: number, session: number, turn: number, ordinal: number, flags: number): number {
    if (this.count === this.line.length) this.grow();
    const id = this.count++;
    this.line[id] = line;
    this.offset[id] = offset;
    this.session[id] = session;
    this.turn[id] = turn;
    this.ordinal[id] = ordinal;
    this.flags[id] = flags;
    return id;
  }

  private grow(): void {
    const size = this.line.length * 2;
    const widen = <T extends Uint32Array | Uint8Array>(from: T, make: (n: number) => T): T => {
      const to = make(size);
      to.set(from);
      return to;
    };
    this.line = widen(this.line, (n) => new Uint32Array(n));
    this.offset = widen(this.offset, (n) => new Uint32Array(n));
    this.session = widen(this.session, (n) => new Uint32Array(n));
    this.turn = widen(this.turn, (n) => new Uint32Array(n));
    this.ordinal = widen(this.ordinal, (n) => new Uint32Array(n));
    this.flags = widen(this.flags, (n) => new Uint8Array(n));
  }
}

const utf8 = /* @__PURE__ */ new TextEncoder();
const KEY = {
  type: utf8.encode('type'),
  role: utf8.encode('role'),
  content: utf8.encode('content'),
  toolResult: utf8.encode('tool_result'),
  toolCalls: utf8.encode('tool_calls'),
  status: utf8.encode('status'),
  isError: utf8.encode('is_error'),
  uuid: utf8.encode('uuid'),
};

const CLAUDE_RESULT_ERROR = '\n**[Tool Result: ERROR]**';

/**
 * Builds the index of an agent-history file and pages transcript items out of it.
 * @example
 * const index = agentHistoryInspector.buildIndex(source);
 * agentHistoryInspector.page(source, index, { from: 0, count: 50 }).items; // the first 50 messages
 */
export const agentHistoryInspector: Inspector<AgentHistoryItem, AgentHistoryIndex> = {
  buildIndex,
  page(source, index, request) {
    const view = request.filter?.['view'] ?? 'transcript';
    switch (view) {
      case 'overview':
        return single(overview(source, index));
      case 'marks':
        return single(marks(source, index, request));
      case 'locate':
        return single(locate(index, request));
      default:
        return transcriptPage(source, index, request);
    }
  },
};

function single(item: AgentHistoryItem): InspectPage<AgentHistoryItem> {
  return { items: [item], total: 1, matches: 1, firstIndex: 0 };
}

function buildIndex(source: InspectSource): AgentHistoryIndex {
  const bytes = source.bytes;
  const lines = indexLines(bytes);
  const table = new MessageTable();
  const sessions: SessionFacts[] = [];
  const unreadable: number[] = [];
  let shape: AgentHistoryIndex['shape'] = 'unknown';
  let header: JsonObject | undefined;
  let agent = '';
  // impl-2.0: the one session's state while its messages are read.
  let implTurn = 0;
  let implTurnEmpty = true;
  let implOrdinal = 0;
  const implFirst = { value: -1 };

  for (let number = 1; number <= lines.count; number++) {
    const line = lineBytes(bytes, lines, number);
    const start = skipWhitespace(line, 0);
    if (start === line.length) continue;
    const context = createScanContext(line, DEFAULT_LIMITS.maxJsonDepth);
    if (scanValue(context, start, 0) < 0 || context.tape.data[0] !== TAG_OBJECT) {
      unreadable.push(number);
      continue;
    }
    const tape = context.tape.data;
    const type = stringAt(line, tape, memberValue(line, tape, 0, KEY.type));
    if (type === 'header' && header === undefined) {
      header = materialize(line, tape, 0) as JsonObject;
      if (header.has('agent_types')) shape = 'design-1.0';
      else if (header.has('agent')) {
        shape = 'impl-2.0';
        agent = typeof header.get('agent') === 'string' ? (header.get('agent') as string) : '';
      }
    } else if (type === 'session' && isObjectSlot(tape, memberValue(line, tape, 0, utf8.encode('session')))) {
      if (shape === 'unknown') shape = 'design-1.0';
      readDesignSession(line, number, table, sessions, unreadable);
    } else if (type === 'message') {
      if (shape === 'unknown') shape = 'impl-2.0';
      const facts = implMessageFacts(line, tape, agent);
      // A user message without a tool flag opens a turn (docs/agent-history-markdown.md, 'Turns').
      if (implTurn === 0 || (facts.opensTurn && !implTurnEmpty)) implTurn++;
      implTurnEmpty = false;
      if (implFirst.value < 0) implFirst.value = table.count;
      table.add(number, 0, 0, implTurn, ++implOrdinal, facts.flags);
    } else if (type === 'session') {
      // impl-2.0's closing summary.
      const record = materialize(line, tape, 0) as JsonObject;
      if (sessions.length === 0) sessions.push(implSession(number, record, implFirst.value));
    }
  }
  if (shape === 'impl-2.0') {
    if (sessions.length === 0) sessions.push(implSession(0, new Map(), implFirst.value));
    const only = sessions[0]!;
    only.count = table.count;
    for (let id = 0; id < table.count; id++) {
      table.session[id] = 0;
      if ((table.flags[id]! & FLAG_ERROR) !== 0) only.errors++;
    }
  }
  return {
    shape,
    agent,
    lines,
    header,
    sessions,
    messages: table.count,
    msgLine: table.line,
    msgOffset: table.offset,
    msgSession: table.session,
    msgTurn: table.turn,
    msgOrdinal: table.ordinal,
    msgFlags: table.flags,
    unreadable,
    filtered: new Map(),
    search: undefined,
  };
}

function isObjectSlot(tape: Int32Array, slot: number): boolean {
  return slot >= 0 && tape[slot] === TAG_OBJECT;
}

function implSession(line: number, record: JsonObject, first: number): SessionFacts {
  return { line, record, forks: implForks(record.get('forks')), first: Math.max(first, 0), count: 0, errors: 0 };
}

/** impl-2.0: the flags of a message, from its role, content prefix and tool objects (spec §2.1). */
function implMessageFacts(line: Uint8Array, tape: Int32Array, agent: string): { opensTurn: boolean; flags: number } {
  const role = stringAt(line, tape, memberValue(line, tape, 0, KEY.role));
  const content = stringAt(line, tape, memberValue(line, tape, 0, KEY.content)) ?? '';
  const toolResultSlot = memberValue(line, tape, 0, KEY.toolResult);
  let flags = 0;
  const codexCall = agent === 'codex' && role === 'assistant' && content.startsWith('**[Tool: ');
  const codexResult = agent === 'codex' && role === 'system' && content.startsWith('**[Tool Result]**\nCall ID: `');
  const piResult = agent === 'pi' && isObjectSlot(tape, toolResultSlot);
  if (codexCall || codexResult || piResult) flags |= FLAG_TOOL;
  if (agent === 'claude' && role === 'user' && content.startsWith(CLAUDE_RESULT_ERROR)) flags |= FLAG_ERROR;
  if (piResult && tape[memberValue(line, tape, toolResultSlot, KEY.isError)] === TAG_TRUE) flags |= FLAG_ERROR;
  const calls = memberValue(line, tape, 0, KEY.toolCalls);
  if (calls >= 0 && tape[calls] === TAG_ARRAY) {
    let element = calls + SLOTS;
    for (let k = 0; k < childCount(tape, calls); k++, element = nextSlot(tape, element)) {
      if (isObjectSlot(tape, element) && stringAt(line, tape, memberValue(line, tape, element, KEY.status)) === 'error')
        flags |= FLAG_ERROR;
    }
  }
  const opensTurn = typeof role === 'string' && role.toLowerCase() === 'user' && (flags & FLAG_TOOL) === 0;
  return { opensTurn, flags };
}

/** design-1.0: one session line, its messages streamed one at a time (never materialised here). */
function readDesignSession(
  line: Uint8Array,
  number: number,
  table: MessageTable,
  sessions: SessionFacts[],
  unreadable: number[],
): void {
  const session = sessions.length;
  const first = table.count;
  const uuids: string[] = [];
  let turn = 0;
  let turnEmpty = true;
  let ordinal = 0;
  const result = readJsonDocument(
    line,
    {
      streamKeys: ['messages'],
      startArray() {
        // A repeated `messages` key: the last one wins, as in Python.
        table.count = first;
        uuids.length = 0;
        turn = 0;
        turnEmpty = true;
        ordinal = 0;
      },
      element(_key, _index, node) {
        const facts = designMessageFacts(node);
        if (turn === 0 || (facts.opensTurn && !turnEmpty)) turn++;
        turnEmpty = false;
        uuids.push(facts.uuid);
        table.add(number, node.tape[node.node + 3]!, session, turn, ++ordinal, facts.flags);
      },
    },
    { maxDepth: DEFAULT_LIMITS.maxJsonDepth },
  );
  if (!result.ok || !isJsonObject(result.root)) {
    table.count = first;
    unreadable.push(number);
    return;
  }
  const root = result.root;
  const record = root.get('session');
  const graph = root.get('graph');
  const forks: TranscriptFork[] = [];
  if (isJsonObject(graph)) {
    const active = graph.get('active_path');
    const onPath = new Set(Array.isArray(active) ? active.filter((u): u is string => typeof u === 'string') : []);
    const forkUuids = new Set<string>();
    for (const point of Array.isArray(graph.get('fork_points')) ? (graph.get('fork_points') as JsonValue[]) : []) {
      if (!isJsonObject(point)) continue;
      const uuid = lexeme(point.get('uuid')) ?? '';
      forkUuids.add(uuid);
      const branches = point.get('branches');
      forks.push({
        uuid,
        index: lexeme(point.get('index')) ?? '',
        branches: (Array.isArray(branches) ? branches : []).filter(isJsonObject).map((branch) => ({
          uuid: lexeme(branch.get('uuid')) ?? '',
          index: lexeme(branch.get('index')) ?? '',
        })),
      });
    }
    for (let k = 0; k < uuids.length; k++) {
      const id = first + k;
      if (onPath.size > 0 && !onPath.has(uuids[k]!)) table.flags[id]! |= FLAG_OFF_PATH;
      if (forkUuids.has(uuids[k]!)) table.flags[id]! |= FLAG_FORK;
    }
  }
  let errors = 0;
  for (let id = first; id < table.count; id++) if ((table.flags[id]! & FLAG_ERROR) !== 0) errors++;
  sessions.push({
    line: number,
    record: isJsonObject(record) ? record : new Map(),
    forks,
    first,
    count: table.count - first,
    errors,
  });
}

/** design-1.0: role, uuid and flags of a message element, read from its tape. */
function designMessageFacts(node: TapeNode): { opensTurn: boolean; flags: number; uuid: string } {
  const { bytes, tape, node: slot } = node;
  if (tape[slot] !== TAG_OBJECT) return { opensTurn: false, flags: 0, uuid: '' };
  const role = stringAt(bytes, tape, memberValue(bytes, tape, slot, KEY.role));
  const uuid = stringAt(bytes, tape, memberValue(bytes, tape, slot, KEY.uuid)) ?? '';
  const content = memberValue(bytes, tape, slot, KEY.content);
  let flags = 0;
  let results = 0;
  let toolBlocks = 0;
  let blocks = 0;
  if (content >= 0 && tape[content] === TAG_ARRAY) {
    let element = content + SLOTS;
    for (let k = 0; k < childCount(tape, content); k++, element = nextSlot(tape, element)) {
      blocks++;
      if (!isObjectSlot(tape, element)) continue;
      const type = stringAt(bytes, tape, memberValue(bytes, tape, element, KEY.type));
      if (type === 'tool_use' || type === 'tool_result') toolBlocks++;
      if (type === 'tool_result') results++;
      if (
        (type === 'tool_result' || type === 'agent_result') &&
        tape[memberValue(bytes, tape, element, KEY.isError)] === TAG_TRUE
      )
        flags |= FLAG_ERROR;
    }
  }
  if (blocks > 0 && toolBlocks === blocks) flags |= FLAG_TOOL;
  return { opensTurn: role === 'user' && results === 0, flags, uuid };
}

function implForks(value: JsonValue | undefined): TranscriptFork[] {
  if (!isJsonObject(value)) return [];
  const branches = value.get('branches');
  return (Array.isArray(branches) ? branches : []).filter(isJsonObject).map((fork) => {
    const inner = fork.get('branches');
    return {
      uuid: lexeme(fork.get('fork_uuid')) ?? '',
      index: '',
      branches: (Array.isArray(inner) ? inner : []).filter(isJsonObject).map((branch) => ({
        uuid: lexeme(branch.get('uuid')) ?? '',
        index: '',
      })),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Views

function overview(source: InspectSource, index: AgentHistoryIndex): TranscriptOverview {
  const header: [string, string][] = [];
  for (const [key, value] of index.header ?? []) {
    if (key === 'type') continue;
    header.push([key, Array.isArray(value) ? value.map((v) => lexeme(v) ?? prettyJson(v)).join(', ') : textOf(value)]);
  }
  let errorCount = 0;
  for (let id = 0; id < index.messages; id++) if ((index.msgFlags[id]! & FLAG_ERROR) !== 0) errorCount++;
  return {
    kind: 'overview',
    shape: index.shape,
    agent: index.agent,
    header,
    sessions: sessionTree(source, index),
    messageCount: index.messages,
    errorCount,
    unreadableLines: index.unreadable.slice(0, 1000),
  };
}

/** The sessions in tree order: each sub-agent session right after its parent (or its parent's other children). */
function sessionTree(source: InspectSource, index: AgentHistoryIndex): TranscriptSession[] {
  const facts = index.sessions;
  const ids = facts.map((session) => (index.shape === 'impl-2.0' ? '' : (lexeme(session.record.get('id')) ?? '')));
  const byId = new Map<string, number>();
  ids.forEach((id, at) => {
    if (id !== '' && !byId.has(id)) byId.set(id, at);
  });
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  const parentOf = facts.map((session, at) => {
    const parent = lexeme(session.record.get('parent_session_id'));
    const found = parent === undefined || parent === 'null' ? undefined : byId.get(parent);
    return found === undefined || found === at ? -1 : found;
  });
  // A parent chain that loops is cut where it comes back, so every session is listed once.
  const placed = new Set<number>();
  facts.forEach((_, at) => {
    let walk = parentOf[at]!;
    const seen = new Set([at]);
    while (walk >= 0 && !seen.has(walk)) {
      seen.add(walk);
      walk = parentOf[walk]!;
    }
    if (parentOf[at]! < 0 || walk >= 0) roots.push(at);
    else children.set(parentOf[at]!, [...(children.get(parentOf[at]!) ?? []), at]);
  });
  const out: TranscriptSession[] = [];
  const stack: { at: number; depth: number }[] = roots.map((at) => ({ at, depth: 0 })).reverse();
  while (stack.length > 0) {
    const { at, depth } = stack.pop()!;
    if (placed.has(at)) continue;
    placed.add(at);
    out.push(sessionModel(source, index, at, depth, ids[at]!));
    for (const child of [...(children.get(at) ?? [])].reverse()) stack.push({ at: child, depth: depth + 1 });
  }
  return out;
}

function sessionModel(
  source: InspectSource,
  index: AgentHistoryIndex,
  at: number,
  depth: number,
  id: string,
): TranscriptSession {
  const session = index.sessions[at]!;
  const record = session.record;
  const impl = index.shape === 'impl-2.0';
  const header = index.header;
  const parent = lexeme(record.get('parent_session_id'));
  const parentId = parent === undefined || parent === 'null' ? '' : parent;
  const named = new Set(index.sessions.map((other) => lexeme(other.record.get('id'))));
  const first = session.count > 0 ? index.msgLine[session.first] : undefined;
  const last = session.count > 0 ? index.msgLine[session.first + session.count - 1] : undefined;
  return {
    index: at,
    line: session.line,
    id: impl ? (lexeme(header?.get('session_file')) ?? '') : id,
    agent: lexeme(record.get('agent')) ?? lexeme(header?.get('agent')) ?? '',
    workspace: lexeme(record.get('workspace')) ?? lexeme(header?.get('workspace')) ?? '',
    startedAt: impl ? timestampAtLine(source, index, first) : (lexeme(record.get('started_at')) ?? ''),
    endedAt: impl ? timestampAtLine(source, index, last) : (lexeme(record.get('ended_at')) ?? ''),
    isAgentSession: record.get('is_agent_session') === true,
    parentId,
    parentMissing: parentId !== '' && !named.has(parentId),
    depth,
    messageCount: session.count,
    errorCount: session.errors,
    forks: session.forks,
  };
}

/** impl-2.0: the first and last message times are read back from their lines (kept nowhere else). */
function timestampAtLine(source: InspectSource, index: AgentHistoryIndex, line: number | undefined): string {
  if (line === undefined) return '';
  const parsed = readJson(lineBytes(source.bytes, index.lines, line));
  return parsed.ok && isJsonObject(parsed.value) ? (lexeme(parsed.value.get('timestamp')) ?? '') : '';
}

interface Filter {
  readonly level: 1 | 2 | 3 | 4;
  readonly errorsOnly: boolean;
  readonly session: number | undefined;
  readonly full: boolean;
  readonly key: string;
}

function readFilter(filter: Readonly<Record<string, string>> | undefined): Filter {
  const level = Number(filter?.['level'] ?? '4');
  const lv = level === 1 || level === 2 || level === 3 ? level : 4;
  const errorsOnly = filter?.['errors'] === 'only';
  const sessionText = filter?.['session'];
  const session = sessionText !== undefined && /^\d{1,9}$/.test(sessionText) ? Number(sessionText) : undefined;
  return {
    level: lv,
    errorsOnly,
    session,
    full: filter?.['full'] === '1',
    key: `${lv === 1 ? 1 : 0}|${errorsOnly ? 1 : 0}|${session ?? ''}`,
  };
}

/** The ids of the messages the filter keeps (cached per filter). */
function filteredIds(index: AgentHistoryIndex, filter: Filter): Uint32Array {
  const cached = index.filtered.get(filter.key);
  if (cached !== undefined) return cached;
  const ids = new Uint32Array(index.messages);
  let n = 0;
  for (let id = 0; id < index.messages; id++) {
    const flags = index.msgFlags[id]!;
    if (filter.level === 1 && (flags & FLAG_TOOL) !== 0) continue;
    if (filter.errorsOnly && (flags & FLAG_ERROR) === 0) continue;
    if (filter.session !== undefined && index.msgSession[id] !== filter.session) continue;
    ids[n++] = id;
  }
  const kept = ids.slice(0, n);
  if (index.filtered.size > 16) index.filtered.clear();
  index.filtered.set(filter.key, kept);
  return kept;
}

/** Which filtered positions match `search` (cached for the last search). */
function searchPositions(
  source: InspectSource,
  index: AgentHistoryIndex,
  filter: Filter,
  ids: Uint32Array,
  search: string | undefined,
): Uint32Array | undefined {
  const compiled = createTextSearch(search);
  if (compiled === undefined) return undefined;
  const key = `${filter.key}|${filter.level}|${compiled.needle}`;
  if (index.search?.key === key) return index.search.positions;
  const found: number[] = [];
  for (let position = 0; position < ids.length; position++) {
    const message = messageModel(source, index, ids[position]!, filter, true);
    if (message !== undefined && compiled.test(searchTexts(message))) found.push(position);
  }
  const positions = Uint32Array.from(found);
  index.search = { key, positions };
  return positions;
}

function searchTexts(message: TranscriptMessage): string[] {
  const texts = [message.label, message.timestamp];
  for (const [label, value] of message.meta) texts.push(`${label}: ${value}`);
  for (const block of message.blocks) texts.push(block.name, block.ref, block.text);
  return texts;
}

function transcriptPage(
  source: InspectSource,
  index: AgentHistoryIndex,
  request: InspectRequest,
): InspectPage<AgentHistoryItem> {
  const filter = readFilter(request.filter);
  const ids = filteredIds(index, filter);
  const matches = searchPositions(source, index, filter, ids, request.search);
  const { start, end } = pageWindow(ids.length, request.from, request.count);
  const items: TranscriptMessage[] = [];
  for (let position = start; position < end; position++) {
    const message = messageModel(source, index, ids[position]!, filter, filter.full);
    if (message !== undefined) items.push(message);
  }
  return {
    items,
    total: ids.length,
    matches: matches === undefined ? ids.length : matches.length,
    firstIndex: start,
    ...(source.complete
      ? {}
      : {
          notViewable:
            'only the first part of the file was kept for viewing (maxInspectBytes); later messages are not shown',
        }),
  };
}

function marks(source: InspectSource, index: AgentHistoryIndex, request: InspectRequest): TranscriptMarks {
  const filter = readFilter(request.filter);
  const ids = filteredIds(index, filter);
  const errors: number[] = [];
  for (let position = 0; position < ids.length && errors.length < MAX_MARKS; position++)
    if ((index.msgFlags[ids[position]!]! & FLAG_ERROR) !== 0) errors.push(position);
  const matches = searchPositions(source, index, filter, ids, request.search);
  return { kind: 'marks', errors, matches: matches === undefined ? [] : [...matches.subarray(0, MAX_MARKS)] };
}

function locate(index: AgentHistoryIndex, request: InspectRequest): TranscriptLocation {
  const filter = readFilter(request.filter);
  const ids = filteredIds(index, filter);
  const line = Number(request.filter?.['line'] ?? '0');
  // Message lines only grow along the file: binary search for the first at or after `line`.
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (index.msgLine[ids[mid]!]! < line) low = mid + 1;
    else high = mid;
  }
  return { kind: 'location', position: Math.min(low, Math.max(ids.length - 1, 0)) };
}

// ---------------------------------------------------------------------------------------------
// One message, read again from its bytes

function messageModel(
  source: InspectSource,
  index: AgentHistoryIndex,
  id: number,
  filter: Filter,
  full: boolean,
): TranscriptMessage | undefined {
  const line = lineBytes(source.bytes, index.lines, index.msgLine[id]!);
  const parsed =
    index.shape === 'design-1.0'
      ? readJsonAt(line, index.msgOffset[id]!, { maxDepth: DEFAULT_LIMITS.maxJsonDepth })
      : readJson(line, { maxDepth: DEFAULT_LIMITS.maxJsonDepth });
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const record = parsed.value;
  const flags = index.msgFlags[id]!;
  const role = lexeme(record.get('role')) ?? '';
  const blocks =
    index.shape === 'design-1.0' ? designBlocks(record.get('content')) : implBlocks(record, index.agent, flags);
  const shaped = blocks.map((block) => shapeBlock(block, filter.level, full));
  return {
    kind: 'message',
    id,
    session: index.msgSession[id]!,
    ordinal: index.msgOrdinal[id]!,
    line: index.msgLine[id]!,
    turn: index.msgTurn[id]!,
    role,
    label: roleLabel(role),
    timestamp: lexeme(record.get('timestamp')) ?? '',
    meta: filter.level === 4 ? metadata(record) : [],
    blocks: shaped,
    isError: (flags & FLAG_ERROR) !== 0,
    tool: (flags & FLAG_TOOL) !== 0,
    offPath: (flags & FLAG_OFF_PATH) !== 0,
    forkPoint: (flags & FLAG_FORK) !== 0,
    uuid: lexeme(record.get('uuid')) ?? '',
  };
}

function roleLabel(role: string): string {
  if (role === '') return 'Unknown';
  return role.charAt(0).toUpperCase() + role.slice(1);
}

/** A block before the level cut and the page clip. */
interface RawBlock {
  readonly kind: TranscriptBlockKind;
  readonly name: string;
  readonly ref: string;
  readonly text: string;
  readonly isError: boolean;
}

function shapeBlock(block: RawBlock, level: number, full: boolean): TranscriptBlock {
  let text = block.text;
  let levelCut = false;
  if (level <= 2) {
    const cut = codePointCutIndex(text, LEVEL_CUT);
    if (cut !== undefined) {
      text = pythonRstrip(text.slice(0, cut));
      levelCut = true;
    }
  }
  const fullLength = text.length;
  if (!full && text.length > MAX_BODY_CHARS) text = text.slice(0, MAX_BODY_CHARS);
  return { ...block, text, fullLength, levelCut };
}

function designBlocks(content: JsonValue | undefined): RawBlock[] {
  if (typeof content === 'string') return [raw('text', '', '', content, false)];
  if (!Array.isArray(content)) return [];
  return content.map((block): RawBlock => {
    if (!isJsonObject(block)) return raw('other', '', '', prettyJson(block), false);
    const type = lexeme(block.get('type')) ?? '';
    const isError = block.get('is_error') === true;
    switch (type) {
      case 'text':
        return raw('text', '', '', textOf(block.get('text')), false);
      case 'thinking':
        return raw('thinking', '', '', textOf(block.get('text')), false);
      case 'tool_use':
        return raw(
          'tool-use',
          name(block.get('tool_name')),
          name(block.get('tool_id')),
          textOf(block.get('input')),
          false,
        );
      case 'tool_result':
        return raw(
          'tool-result',
          name(block.get('tool_name')),
          name(block.get('tool_id')),
          textOf(block.get('output')),
          isError,
        );
      case 'agent_spawn':
        return raw(
          'agent-spawn',
          name(block.get('agent_type')),
          name(block.get('agent_session_id')),
          textOf(block.get('prompt')),
          false,
        );
      case 'agent_result':
        return raw('agent-result', '', name(block.get('agent_session_id')), textOf(block.get('summary')), isError);
      default:
        return raw('other', type, '', prettyJson(block), false);
    }
  });
}

function name(value: JsonValue | undefined): string {
  return lexeme(value) ?? '';
}

function raw(kind: TranscriptBlockKind, blockName: string, ref: string, text: string, isError: boolean): RawBlock {
  return { kind, name: blockName, ref, text, isError };
}

/** impl-2.0: the flattened content, with the tool traffic each agent writes into it made into panels (spec §2.2). */
function implBlocks(record: JsonObject, agent: string, flags: number): RawBlock[] {
  const content = textOf(record.get('content'));
  const blocks: RawBlock[] = [];
  if (agent === 'claude' && content.startsWith('\n**[Tool Result: ')) {
    const close = content.indexOf(']**', 17);
    const status = close > 0 ? content.slice(17, close) : '';
    const rest = close > 0 ? content.slice(close + 3).replace(/^\n/u, '') : content;
    const idMatch = /^Tool Use ID: `([^`\n]*)`\n/u.exec(rest);
    blocks.push(
      raw(
        'tool-result',
        status,
        idMatch?.[1] ?? '',
        idMatch ? rest.slice(idMatch[0].length) : rest,
        status === 'ERROR',
      ),
    );
  } else if (agent === 'claude') {
    blocks.push(...claudeToolUses(content));
  } else if (agent === 'codex' && (flags & FLAG_TOOL) !== 0) {
    const call = /^\*\*\[Tool: ([^\]\n]*)\]\*\*\n/u.exec(content);
    const body = call ? content.slice(call[0].length) : content.replace(/^\*\*\[Tool Result\]\*\*\n/u, '');
    const ref = /^Call ID: `([^`\n]*)`\n/u.exec(body);
    blocks.push(
      raw(
        call ? 'tool-use' : 'tool-result',
        call?.[1] ?? '',
        ref?.[1] ?? '',
        ref ? body.slice(ref[0].length) : body,
        false,
      ),
    );
  } else if (agent === 'pi' && isJsonObject(record.get('tool_result'))) {
    const result = record.get('tool_result') as JsonObject;
    blocks.push(
      raw(
        'tool-result',
        name(result.get('tool_name')),
        name(result.get('tool_call_id')),
        content,
        result.get('is_error') === true,
      ),
    );
  } else if (content !== '' || !Array.isArray(record.get('tool_calls'))) {
    blocks.push(raw('text', '', '', content, false));
  }
  const calls = record.get('tool_calls');
  if (Array.isArray(calls)) {
    for (const call of calls) {
      if (!isJsonObject(call)) continue;
      const status = lexeme(call.get('status')) ?? '';
      const args = call.has('args') ? call.get('args') : call.get('arguments');
      blocks.push(
        raw(
          'tool-use',
          `${name(call.get('name'))}${status === '' ? '' : ` (${status})`}`,
          name(call.get('id')),
          args === undefined ? '' : textOf(args),
          status === 'error',
        ),
      );
    }
  }
  return blocks;
}

const TOOL_USE_MARK = '\n**[Tool Use: ';
const FENCE_END = '\n```\n';

/**
 * Claude's assistant content: text, with each tool use the exporter flattened into it
 * (`**[Tool Use: <name>]**`, `Tool ID: …`, `Input:` and a JSON fence) made a panel. Found with
 * `indexOf` and stopped at the first piece that does not have that shape, so hostile text costs
 * one pass.
 */
function claudeToolUses(content: string): RawBlock[] {
  const blocks: RawBlock[] = [];
  let at = 0;
  for (let mark = content.indexOf(TOOL_USE_MARK); mark >= 0; mark = content.indexOf(TOOL_USE_MARK, at)) {
    const close = content.indexOf(']**\n', mark);
    const fence = content.indexOf('Input:\n```json\n', mark);
    const end = fence < 0 ? -1 : content.indexOf(FENCE_END, fence);
    if (close < 0 || fence < 0 || end < 0 || content.slice(mark, close).includes('\n', 1)) break;
    if (mark > at) blocks.push(raw('text', '', '', content.slice(at, mark), false));
    const toolName = content.slice(mark + TOOL_USE_MARK.length, close);
    const idMatch = /^Tool ID: `([^`\n]*)`\n/u.exec(content.slice(close + 4, close + 4 + 200));
    blocks.push(raw('tool-use', toolName, idMatch?.[1] ?? '', content.slice(fence + 15, end), false));
    at = end + FENCE_END.length;
  }
  if (at < content.length || blocks.length === 0) blocks.push(raw('text', '', '', content.slice(at), false));
  return blocks;
}

/** Level 4's metadata lines: model, tokens, and (design-1.0) the rest of `metadata`. */
function metadata(record: JsonObject): [string, string][] {
  const out: [string, string][] = [];
  const model = record.get('model');
  if (model !== undefined) out.push(['Model', textOf(model)]);
  pushTokens(out, record.get('tokens'));
  const meta = record.get('metadata');
  if (isJsonObject(meta)) {
    for (const [key, value] of meta) {
      if (key === 'model' && isJsonObject(value)) out.push(['Model', textOf(value.get('name'))]);
      else if (key === 'token_usage') pushTokens(out, value);
      else out.push([key, lexeme(value) ?? prettyJson(value)]);
    }
  }
  return out;
}

function pushTokens(out: [string, string][], tokens: JsonValue | undefined): void {
  if (!isJsonObject(tokens)) return;
  const parts = [...tokens].map(([key, value]) => `${key} ${lexeme(value) ?? prettyJson(value)}`);
  out.push(['Tokens', parts.join(' · ')]);
}
