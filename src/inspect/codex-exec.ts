/**
 * The codex-exec inspector: the outcome, the attempts and a terminal replay of a codex-orchestrator
 * `exec --jsonl` stream (docs/codex-exec.md), read from the
 * verified bytes. The replay is what the tool's interactive mode prints: `$ <command>`, the chunks
 * as they arrived, `[retry] attempt <n> in <delayMs>ms — <errorMessage>`, then
 * `<run id> SUCCEEDED|FAILED`; stderr keeps its stream so a view can tint it.
 *
 * The index notes each record's kind once and, per replay (everything, stdout only, stderr only),
 * a checkpoint every `CHECKPOINT_LINES` terminal lines; a page replays from the checkpoint before
 * it. `exec:end` keeps only the last 65,536 bytes of each stream (spec, 'Doc vs code differences'
 * 3–5): the summary says, per attempt and stream, whether and why that buffer differs from what
 * the chunks carried.
 *
 * Every byte is attacker-controlled and the stream may have failed verification: records that do
 * not parse or lack a field are skipped, never trusted to have a type; nothing throws.
 * @module
 */
import { readJson } from '../json/reader.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/value.ts';
import { DEFAULT_LIMITS } from '../limits.ts';
import type { SgrStyle } from './ansi-sgr.ts';
import { lexeme, textOf } from './json-text.ts';
import { indexLines, lineBytes, type LineIndex } from './line-index.ts';
import { createTerminal, type StreamName, type TerminalLine } from './terminal.ts';
import { createTextSearch, pageWindow } from './text-search.ts';
import type { InspectPage, InspectRequest, InspectSource, Inspector } from './types.ts';

/** Terminal lines between two checkpoints of a replay. */
const CHECKPOINT_LINES = 256;
/** `exec:end` keeps this many bytes of each stream, the last ones (spec, 'Doc vs code differences' 3). */
export const END_BUFFER_BYTES = 65_536;
const MAX_MARKS = 100_000;
/** Longest stream text a `text` page carries. */
const MAX_TEXT_CHARS = 256 * 1024 * 1024;

const KIND_OTHER = 0;
const KIND_BEGIN = 1;
const KIND_STDOUT = 2;
const KIND_STDERR = 3;
const KIND_RETRY = 4;
const KIND_END = 5;
const KIND_SUMMARY = 6;

/** One attempt on the timeline. */
export interface ExecAttempt {
  readonly attempt: string;
  readonly beginLine: number;
  readonly endLine: number;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly durationMs: string;
  readonly exitCode: string;
  readonly signal: string;
  readonly status: string;
  readonly sandboxState: string;
  /** The retry after this attempt, when there was one. */
  readonly retry?: {
    readonly line: number;
    readonly at: string;
    readonly delayMs: string;
    readonly errorMessage: string;
  };
  readonly streams: readonly ExecStreamComparison[];
}

/** What the chunks of one stream carried against what `exec:end` kept of it. */
export interface ExecStreamComparison {
  readonly stream: StreamName;
  readonly chunks: number;
  /** Sum of the chunks' `bytes`. */
  readonly chunkBytes: number;
  /** UTF-8 length of `exec:end`'s buffer, -1 when the attempt has no `exec:end`. */
  readonly endBytes: number;
  readonly same: boolean;
  /** Why they differ, one sentence each; empty when they are the same. */
  readonly why: readonly string[];
}

/** The `summary` view's one item. */
export interface ExecSummary {
  readonly kind: 'summary';
  /** `run:summary.status`, else the last `exec:end.status`, else ''. */
  readonly status: string;
  readonly exitCode: string;
  /** For an exit code 128+n: the signal n (a command killed under a shell, spec 'Doc vs code differences' 6). */
  readonly signalFromExit: string;
  readonly signal: string;
  readonly durationMs: string;
  readonly attempts: readonly ExecAttempt[];
  readonly command: string;
  readonly cwd: string;
  readonly runId: string;
  readonly taskId: string;
  readonly correlationId: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly records: number;
  readonly unreadableLines: readonly number[];
}

/** A terminal line as a page carries it. */
export interface ExecTerminalLine extends TerminalLine {
  readonly item: 'line';
}

/** The `marks` view's one item: positions of lines with stderr output and of search matches. */
export interface ExecMarks {
  readonly kind: 'marks';
  readonly matches: readonly number[];
}

/** The `text` view's one item: a stream's whole text (chunks or the `exec:end` buffer). */
export interface ExecText {
  readonly kind: 'text';
  readonly text: string;
}

/** The `locate` view's one item: the first terminal line a record at or after `filter.line` wrote. */
export interface ExecLocation {
  readonly kind: 'location';
  readonly position: number;
}

export type CodexExecItem = ExecSummary | ExecTerminalLine | ExecMarks | ExecText | ExecLocation;

type ReplayMode = 'all' | StreamName;

interface Checkpoint {
  readonly line: number;
  readonly record: number;
  readonly offset: number;
  readonly style: SgrStyle;
}

interface Replay {
  readonly lines: number;
  readonly checkpoints: readonly Checkpoint[];
}

export interface CodexExecIndex {
  readonly lines: LineIndex;
  readonly kinds: Uint8Array;
  readonly firstBegin: number;
  readonly summary: ExecSummary;
  readonly replays: Map<ReplayMode, Replay>;
  search: { readonly key: string; readonly positions: Uint32Array } | undefined;
}

/**
 * Builds the index of a codex-exec stream and pages its outcome and replay.
 * @example
 * const index = codexExecInspector.buildIndex(source);
 * codexExecInspector.page(source, index, { from: 0, count: 100, filter: { view: 'terminal' } });
 */
export const codexExecInspector: Inspector<CodexExecItem, CodexExecIndex> = {
  buildIndex,
  page(source, index, request) {
    const view = request.filter?.['view'] ?? 'terminal';
    const mode = replayMode(request.filter?.['stream']);
    switch (view) {
      case 'summary':
        return single(index.summary);
      case 'marks':
        return single(marks(source, index, mode, request.search));
      case 'text':
        return single(streamText(source, index, mode, request.filter?.['of'] === 'end'));
      case 'locate':
        return single(locate(source, index, mode, Number(request.filter?.['line'] ?? '0')));
      default:
        return terminalPage(source, index, mode, request);
    }
  },
};

function single(item: CodexExecItem): InspectPage<CodexExecItem> {
  return { items: [item], total: 1, matches: 1, firstIndex: 0 };
}

function replayMode(value: string | undefined): ReplayMode {
  return value === 'stdout' || value === 'stderr' ? value : 'all';
}

/** Parses one line as JSON (plain `JSON.parse` for chunks: only their `data` and `stream` are read). */
function parseFast(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

const decoder = /* @__PURE__ */ new TextDecoder();

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function buildIndex(source: InspectSource): CodexExecIndex {
  const bytes = source.bytes;
  const lines = indexLines(bytes);
  const kinds = new Uint8Array(lines.count + 1);
  const unreadable: number[] = [];
  let firstBegin = 0;
  for (let number = 1; number <= lines.count; number++) {
    const line = lineBytes(bytes, lines, number);
    if (line.length === 0) continue;
    const record = parseFast(line);
    const type = field(record, 'type');
    const payload = field(record, 'payload');
    if (record === undefined) unreadable.push(number);
    if (type === 'exec:begin') {
      kinds[number] = KIND_BEGIN;
      if (firstBegin === 0) firstBegin = number;
    } else if (type === 'exec:chunk' && typeof field(payload, 'data') === 'string') {
      kinds[number] = field(payload, 'stream') === 'stderr' ? KIND_STDERR : KIND_STDOUT;
    } else if (type === 'exec:retry') kinds[number] = KIND_RETRY;
    else if (type === 'exec:end') kinds[number] = KIND_END;
    else if (type === 'run:summary') kinds[number] = KIND_SUMMARY;
    else kinds[number] = KIND_OTHER;
  }
  const summary = summarize(source, lines, kinds, unreadable.slice(0, 1000));
  return { lines, kinds, firstBegin, summary, replays: new Map(), search: undefined };
}

/** A record's payload read losslessly (numbers keep their lexemes). */
function payloadAt(
  source: InspectSource,
  index: { readonly lines: LineIndex },
  number: number,
): { at: string; payload: JsonObject } {
  const parsed = readJson(lineBytes(source.bytes, index.lines, number), { maxDepth: DEFAULT_LIMITS.maxJsonDepth });
  if (!parsed.ok || !isJsonObject(parsed.value)) return { at: '', payload: new Map() };
  const payload = parsed.value.get('payload');
  return { at: lexeme(parsed.value.get('timestamp')) ?? '', payload: isJsonObject(payload) ? payload : new Map() };
}

/** A scalar's lexeme; '' for null and for anything missing. */
function text(value: JsonValue | undefined): string {
  return value === null ? '' : (lexeme(value) ?? '');
}

interface StreamTally {
  chunks: number;
  bytes: number;
  replacement: boolean;
  /** The last characters the chunks carried (enough to compare with a 64 KiB buffer). */
  tail: string;
}

function summarize(source: InspectSource, lines: LineIndex, kinds: Uint8Array, unreadable: number[]): ExecSummary {
  const index = { lines, kinds };
  const attempts: {
    attempt: string;
    beginLine: number;
    endLine: number;
    startedAt: string;
    endedAt: string;
    end: JsonObject | undefined;
    retry?: ExecAttempt['retry'];
    tallies: Record<StreamName, StreamTally>;
  }[] = [];
  let command = '';
  let cwd = '';
  let correlationId = '';
  let summary: JsonObject | undefined;
  let firstAt = '';
  let lastAt = '';
  let records = 0;
  const current = () => attempts[attempts.length - 1];
  const fresh = (): StreamTally => ({ chunks: 0, bytes: 0, replacement: false, tail: '' });
  for (let number = 1; number <= index.lines.count; number++) {
    const kind = index.kinds[number]!;
    if (kind === KIND_OTHER && lineBytes(source.bytes, index.lines, number).length === 0) continue;
    records++;
    if (kind === KIND_STDOUT || kind === KIND_STDERR) {
      // Chunks are many: read them with the fast parser; only `data` and `bytes` count here.
      const payload = field(parseFast(lineBytes(source.bytes, index.lines, number)), 'payload');
      const data = field(payload, 'data') as string;
      const count = field(payload, 'bytes');
      let attempt = current();
      if (attempt === undefined) {
        attempt = blankAttempt(text(field(payload, 'attempt') as JsonValue), fresh);
        attempts.push(attempt);
      }
      const tally = attempt.tallies[kind === KIND_STDOUT ? 'stdout' : 'stderr'];
      tally.chunks++;
      tally.bytes += typeof count === 'number' && Number.isFinite(count) ? count : utf8Length(data);
      if (data.includes('\uFFFD')) tally.replacement = true;
      tally.tail = (tally.tail + data).slice(-(END_BUFFER_BYTES + 8));
      continue;
    }
    const { at, payload } = payloadAt(source, index, number);
    if (firstAt === '') firstAt = at;
    if (at !== '') lastAt = at;
    if (kind === KIND_BEGIN) {
      attempts.push({ ...blankAttempt(text(payload.get('attempt')), fresh), beginLine: number, startedAt: at });
      if (command === '') command = textOf(payload.get('command'));
      if (cwd === '') cwd = text(payload.get('cwd'));
      if (correlationId === '') correlationId = text(payload.get('correlationId'));
    } else if (kind === KIND_END) {
      let attempt = current();
      if (attempt === undefined || attempt.end !== undefined) {
        attempt = blankAttempt(text(payload.get('attempt')), fresh);
        attempts.push(attempt);
      }
      attempt.end = payload;
      attempt.endLine = number;
      attempt.endedAt = at;
    } else if (kind === KIND_RETRY) {
      const attempt = current();
      const retry = {
        line: number,
        at,
        delayMs: text(payload.get('delayMs')),
        errorMessage: textOf(payload.get('errorMessage')),
      };
      if (attempt !== undefined) attempt.retry = retry;
    } else if (kind === KIND_SUMMARY) summary ??= payload;
  }
  const result = summary?.get('result');
  const lastEnd = [...attempts].reverse().find((attempt) => attempt.end !== undefined)?.end;
  const from = (key: string): string =>
    text(isJsonObject(result) && result.has(key) ? result.get(key) : lastEnd?.get(key));
  const exitCode = from('exitCode');
  const exitNumber = /^\d{1,4}$/u.test(exitCode) ? Number(exitCode) : -1;
  const run = summary?.get('run');
  const commandRecord = summary?.get('command');
  return {
    kind: 'summary',
    status: text(summary?.get('status')) || text(lastEnd?.get('status')),
    exitCode,
    signalFromExit: exitNumber > 128 && exitNumber < 128 + 65 ? signalName(exitNumber - 128) : '',
    signal: from('signal'),
    durationMs: from('durationMs'),
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      beginLine: attempt.beginLine,
      endLine: attempt.endLine,
      startedAt: attempt.startedAt,
      endedAt: attempt.endedAt,
      durationMs: text(attempt.end?.get('durationMs')),
      exitCode: text(attempt.end?.get('exitCode')),
      signal: text(attempt.end?.get('signal')),
      status: text(attempt.end?.get('status')),
      sandboxState: text(attempt.end?.get('sandboxState')),
      ...(attempt.retry === undefined ? {} : { retry: attempt.retry }),
      streams: (['stdout', 'stderr'] as const).map((stream) =>
        compareStream(stream, attempt.tallies[stream], attempt.end?.get(stream)),
      ),
    })),
    command: command || textOf(isJsonObject(commandRecord) ? commandRecord.get('shell') : undefined),
    cwd,
    runId: text(isJsonObject(run) ? run.get('id') : undefined),
    taskId: text(isJsonObject(run) ? run.get('taskId') : undefined),
    correlationId,
    startedAt: firstAt,
    endedAt: lastAt,
    records,
    unreadableLines: unreadable,
  };
}

function blankAttempt(
  attempt: string,
  fresh: () => StreamTally,
): {
  attempt: string;
  beginLine: number;
  endLine: number;
  startedAt: string;
  endedAt: string;
  end: JsonObject | undefined;
  tallies: Record<StreamName, StreamTally>;
} {
  return {
    attempt,
    beginLine: 0,
    endLine: 0,
    startedAt: '',
    endedAt: '',
    end: undefined,
    tallies: { stdout: fresh(), stderr: fresh() },
  };
}

/** Why `exec:end`'s buffer of a stream differs from its chunks (spec, 'Doc vs code differences' 3–5). */
function compareStream(stream: StreamName, tally: StreamTally, buffer: JsonValue | undefined): ExecStreamComparison {
  if (typeof buffer !== 'string')
    return {
      stream,
      chunks: tally.chunks,
      chunkBytes: tally.bytes,
      endBytes: -1,
      same: false,
      why: ['this attempt has no exec:end buffer to compare with'],
    };
  const endBytes = utf8Length(buffer);
  const why: string[] = [];
  const tailMatches = tally.tail.endsWith(buffer);
  const whole = tally.bytes <= END_BUFFER_BYTES;
  const same = whole && tally.tail === buffer;
  if (!same) {
    if (!whole)
      why.push(
        `exec:end keeps only the last ${END_BUFFER_BYTES.toLocaleString('en')} bytes; the chunks carried ${tally.bytes.toLocaleString('en')}`,
      );
    if (!whole && buffer.startsWith('\uFFFD'))
      why.push('the 64 KiB cut fell inside a character, so the buffer starts with U+FFFD');
    if (tally.replacement || (!tailMatches && buffer.includes('\uFFFD')))
      why.push(
        'a character split across chunks, or invalid UTF-8, decodes to U+FFFD differently in the chunks and in the buffer',
      );
    if (why.length === 0) why.push('the buffer is not what the chunks carried');
  }
  return { stream, chunks: tally.chunks, chunkBytes: tally.bytes, endBytes, same, why };
}

function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) length += 1;
    else if (c < 0x800) length += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        length += 4;
        i++;
      } else length += 3;
    } else length += 3;
  }
  return length;
}

/** POSIX signal numbers as Linux numbers them (signal(7)); others print as their number. */
const SIGNALS = [
  '',
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
  'SIGBUS',
  'SIGFPE',
  'SIGKILL',
  'SIGUSR1',
  'SIGSEGV',
  'SIGUSR2',
  'SIGPIPE',
  'SIGALRM',
  'SIGTERM',
];

function signalName(n: number): string {
  return SIGNALS[n] ?? `signal ${n}`;
}

// ---------------------------------------------------------------------------------------------
// Replay

function replayOf(source: InspectSource, index: CodexExecIndex, mode: ReplayMode): Replay {
  const known = index.replays.get(mode);
  if (known !== undefined) return known;
  const checkpoints: Checkpoint[] = [{ line: 0, record: 1, offset: 0, style: {} }];
  const position = { record: 1 };
  const lines = runReplay(source, index, mode, checkpoints[0]!, {
    collect: () => false,
    onLine: () => {},
    position,
    onLineStart(line, offset, style) {
      if (line % CHECKPOINT_LINES === 0) checkpoints.push({ line, record: position.record, offset, style });
    },
  });
  const replay = { lines, checkpoints };
  index.replays.set(mode, replay);
  return replay;
}

interface ReplayHooks {
  readonly collect: (line: number) => boolean;
  readonly onLine: (line: TerminalLine) => void;
  readonly onLineStart?: (line: number, offset: number, style: SgrStyle) => void;
  readonly position?: { record: number };
  /** Stop once this many lines were emitted. */
  readonly until?: number;
}

/** Replays records from a checkpoint; returns the number of terminal lines at the end. */
function runReplay(
  source: InspectSource,
  index: CodexExecIndex,
  mode: ReplayMode,
  from: Checkpoint,
  hooks: ReplayHooks,
): number {
  let record = from.record;
  let stopped = false;
  const terminal = createTerminal({
    collect: hooks.collect,
    onLine(line) {
      hooks.onLine(line);
      if (hooks.until !== undefined && line.number + 1 >= hooks.until) stopped = true;
    },
    onLineStart(line, offset, style) {
      if (hooks.position) hooks.position.record = record;
      hooks.onLineStart?.(line, offset, style);
    },
    startLine: from.line,
    startStyle: from.style,
  });
  for (; record <= index.lines.count && !stopped; record++) {
    const kind = index.kinds[record]!;
    if (kind === KIND_STDOUT || kind === KIND_STDERR) {
      const stream: StreamName = kind === KIND_STDOUT ? 'stdout' : 'stderr';
      if (mode !== 'all' && mode !== stream) continue;
      const data = field(field(parseFast(lineBytes(source.bytes, index.lines, record)), 'payload'), 'data');
      if (typeof data !== 'string') continue;
      terminal.write(record === from.record ? data.slice(from.offset) : data, stream, record);
      continue;
    }
    if (mode !== 'all') continue;
    if (kind === KIND_BEGIN && record === index.firstBegin) {
      terminal.say('command', `$ ${index.summary.command}`, record);
    } else if (kind === KIND_RETRY) {
      const { payload } = payloadAt(source, index, record);
      terminal.say(
        'retry',
        `[retry] attempt ${text(payload.get('attempt'))} in ${text(payload.get('delayMs'))}ms — ${textOf(payload.get('errorMessage'))}`,
        record,
      );
    } else if (kind === KIND_SUMMARY) {
      const { payload } = payloadAt(source, index, record);
      const run = payload.get('run');
      const status = text(payload.get('status'));
      terminal.say(
        'status',
        `${text(isJsonObject(run) ? run.get('id') : undefined)} ${status === 'succeeded' ? 'SUCCEEDED' : 'FAILED'}`,
        record,
      );
    }
  }
  if (!stopped) terminal.finish();
  return terminal.lines;
}

function terminalPage(
  source: InspectSource,
  index: CodexExecIndex,
  mode: ReplayMode,
  request: InspectRequest,
): InspectPage<CodexExecItem> {
  const replay = replayOf(source, index, mode);
  const { start, end } = pageWindow(replay.lines, request.from, request.count);
  const items: ExecTerminalLine[] = [];
  if (end > start) {
    const checkpoint =
      replay.checkpoints[Math.min(Math.floor(start / CHECKPOINT_LINES), replay.checkpoints.length - 1)]!;
    runReplay(source, index, mode, checkpoint, {
      collect: (line) => line >= start && line < end,
      onLine: (line) => {
        if (line.number >= start && line.number < end) items.push({ ...line, item: 'line' });
      },
      until: end,
    });
  }
  const matches = searchPositions(source, index, mode, request.search);
  return {
    items,
    total: replay.lines,
    matches: matches === undefined ? replay.lines : matches.length,
    firstIndex: start,
    ...(source.complete
      ? {}
      : {
          notViewable:
            'only the first part of the stream was kept for viewing (maxInspectBytes); the rest is not replayed',
        }),
  };
}

function searchPositions(
  source: InspectSource,
  index: CodexExecIndex,
  mode: ReplayMode,
  search: string | undefined,
): Uint32Array | undefined {
  const compiled = createTextSearch(search);
  if (compiled === undefined) return undefined;
  const key = `${mode}|${compiled.needle}`;
  if (index.search?.key === key) return index.search.positions;
  const found: number[] = [];
  runReplay(
    source,
    index,
    mode,
    { line: 0, record: 1, offset: 0, style: {} },
    {
      collect: () => true,
      onLine(line) {
        if (compiled.test([line.spans.map((span) => span.text).join('')])) found.push(line.number);
      },
    },
  );
  const positions = Uint32Array.from(found);
  index.search = { key, positions };
  return positions;
}

function marks(source: InspectSource, index: CodexExecIndex, mode: ReplayMode, search: string | undefined): ExecMarks {
  const matches = searchPositions(source, index, mode, search);
  return { kind: 'marks', matches: matches === undefined ? [] : [...matches.subarray(0, MAX_MARKS)] };
}

/** The first terminal line whose record is at or after NDJSON line `line` (the last line when none). */
function locate(source: InspectSource, index: CodexExecIndex, mode: ReplayMode, line: number): ExecLocation {
  const replay = replayOf(source, index, mode);
  let from = replay.checkpoints[0]!;
  for (const checkpoint of replay.checkpoints) if (checkpoint.record < line) from = checkpoint;
  let position = -1;
  runReplay(source, index, mode, from, {
    collect: () => position < 0,
    onLine(found) {
      if (position < 0 && found.source >= line) position = found.number;
    },
  });
  return { kind: 'location', position: position < 0 ? Math.max(0, replay.lines - 1) : position };
}

/** A stream's whole text from its chunks (or, `ofEnd`, the last attempt's `exec:end` buffer). */
function streamText(source: InspectSource, index: CodexExecIndex, mode: ReplayMode, ofEnd: boolean): ExecText {
  const parts: string[] = [];
  let length = 0;
  let lastEnd = '';
  for (let record = 1; record <= index.lines.count && length < MAX_TEXT_CHARS; record++) {
    const kind = index.kinds[record]!;
    if (ofEnd) {
      if (kind === KIND_END && mode !== 'all') lastEnd = textOf(payloadAt(source, index, record).payload.get(mode));
      continue;
    }
    if (kind !== KIND_STDOUT && kind !== KIND_STDERR) continue;
    if (mode !== 'all' && mode !== (kind === KIND_STDOUT ? 'stdout' : 'stderr')) continue;
    const data = field(field(parseFast(lineBytes(source.bytes, index.lines, record)), 'payload'), 'data');
    if (typeof data === 'string') {
      parts.push(data);
      length += data.length;
    }
  }
  return { kind: 'text', text: ofEnd ? lastEnd : parts.join('').slice(0, MAX_TEXT_CHARS) };
}
