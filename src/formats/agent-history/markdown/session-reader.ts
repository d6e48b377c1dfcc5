/**
 * Reads an impl-2.0 session line by line and renders it as it goes: each line is parsed by the
 * lossless reader (Python's `json.loads`: key order, number lexemes and big integers kept, which
 * the pretty-printed tool arguments need), the header picks the agent, each message is rendered at
 * once and forgotten, and the summary's fork analysis is kept for the head. Only the markdown
 * itself grows, within its budget.
 *
 * Lines are attacker-controlled. Nothing here throws: a line the lossless reader refuses, a budget
 * spent, or a file that is not an impl-2.0 session stops the rendering with a reason, and the rest
 * of the input is skipped cheaply (verification goes on beside it).
 * @module
 */
import { readJson } from '../../../json/reader.ts';
import { isJsonObject, type JsonValue } from '../../../json/value.ts';
import type { LineSink } from '../../../stream/lines.ts';
import { createClaudeRenderer } from './claude.ts';
import { createCodexRenderer } from './codex.ts';
import { createFidelityCheck, type Fidelity } from './fidelity.ts';
import { createGenericRenderer } from './generic.ts';
import { createGeminiRenderer } from './gemini.ts';
import { createOutput, MarkdownTooLong, type MarkdownBudget } from './output.ts';
import { createPiRenderer } from './pi.ts';
import type { MarkdownMode, SessionRenderer } from './renderer.ts';
import { headerAgent, printed, readMessage, type MarkdownAgent, type SessionFacts } from './session.ts';

/** Why a session was not rendered, when it was not. */
export type RenderStop =
  | { readonly reason: 'not-impl-session'; readonly message: string }
  | { readonly reason: 'too-long'; readonly message: string }
  | { readonly reason: 'unreadable-line'; readonly message: string };

/** The outcome: the markdown and its fidelity, or why there is none. */
export type RenderOutcome =
  | {
      readonly ok: true;
      readonly markdown: string;
      readonly fidelity: Fidelity;
      readonly facts: SessionFacts;
    }
  | ({ readonly ok: false } & RenderStop);

export interface SessionReaderOptions {
  readonly mode: MarkdownMode;
  /** `limits.maxJsonDepth`. */
  readonly maxDepth: number;
  /** Longest markdown, in UTF-16 code units. */
  readonly maxLength: number;
}

/**
 * A line sink (for `createLineSplitter`) that renders the session, and `finish` for the outcome.
 * @example
 * const reader = createSessionReader({ mode: { level: 3, minimal: false }, maxDepth: 1000, maxLength: 1 << 28 });
 * const splitter = createLineSplitter({ maxLineBytes: 1 << 20, sink: reader.sink, tooLong: reader.skipLine });
 */
export function createSessionReader(options: SessionReaderOptions): {
  readonly sink: LineSink;
  /** A line was longer than the limit and skipped (the verifier reports it). */
  skipLine(): void;
  finish(): RenderOutcome;
} {
  const { mode } = options;
  const budget: MarkdownBudget = { remaining: options.maxLength };
  let body = createOutput(budget);
  let stop: RenderStop | undefined;
  let agent: MarkdownAgent | undefined;
  let renderer: SessionRenderer | undefined;
  let fidelity: ReturnType<typeof createFidelityCheck> | undefined;
  let sessionFile = '';
  let messageCount = 0;
  let firstTimestamp: JsonValue | undefined;
  let lastTimestamp: JsonValue | undefined;
  let forks: JsonValue | undefined;
  let recordSeen = false;

  const halt = (reason: RenderStop): void => {
    stop ??= reason;
    body = createOutput({ remaining: 0 }); // the text so far is no use: let it go
  };

  const onRecord = (record: Map<string, JsonValue>): void => {
    const first = !recordSeen;
    recordSeen = true;
    const type = record.get('type');
    if (first) {
      agent = type === 'header' ? headerAgent(record) : undefined;
      if (agent === undefined) {
        halt({
          reason: 'not-impl-session',
          message: 'the first record is not an impl-2.0 header naming claude, codex, gemini or pi',
        });
        return;
      }
      sessionFile = printed(record.get('session_file'));
      renderer = pickRenderer(agent, mode);
      fidelity = createFidelityCheck(agent, mode);
      return;
    }
    if (type === 'message') {
      const message = readMessage(record, agent!);
      messageCount++;
      if (messageCount === 1) firstTimestamp = message.timestamp;
      lastTimestamp = message.timestamp;
      fidelity!.message(message);
      renderer!.message(message, body);
    } else if (type === 'session') {
      forks = record.get('forks');
    }
  };

  const onLine = (bytes: Uint8Array, number: number): void => {
    if (stop || isBlank(bytes)) return;
    const parsed = readJson(bytes, { maxDepth: options.maxDepth });
    if (!parsed.ok) {
      halt({ reason: 'unreadable-line', message: `line ${number}: ${parsed.error.message}` });
      return;
    }
    if (!isJsonObject(parsed.value)) {
      halt({ reason: 'unreadable-line', message: `line ${number}: not a JSON object` });
      return;
    }
    try {
      onRecord(parsed.value);
    } catch (error) {
      if (!(error instanceof MarkdownTooLong)) throw error;
      halt({ reason: 'too-long', message: tooLongMessage(options.maxLength) });
    }
  };

  const pieces: Uint8Array[] = [];
  let total = 0;
  const sink: LineSink = {
    write(bytes) {
      if (stop) return;
      pieces.push(bytes.slice()); // a view into the stream's chunk: copy what outlives the call
      total += bytes.byteLength;
    },
    end(line) {
      const bytes = pieces.length === 1 ? pieces[0]! : join(pieces, total);
      pieces.length = 0;
      total = 0;
      onLine(bytes, line.number);
    },
    discard() {
      pieces.length = 0;
      total = 0;
    },
  };

  return {
    sink,
    skipLine() {
      sink.discard();
    },
    finish() {
      if (stop) return { ok: false, ...stop };
      if (!agent || !renderer || !fidelity) {
        return { ok: false, reason: 'not-impl-session', message: 'no impl-2.0 header: the input holds no session' };
      }
      const facts: SessionFacts = { agent, sessionFile, messageCount, firstTimestamp, lastTimestamp, forks };
      const head = createOutput(budget);
      const end = createOutput(budget);
      try {
        renderer.head(facts, head);
        end.add(renderer.tail);
      } catch (error) {
        if (!(error instanceof MarkdownTooLong)) throw error;
        return { ok: false, reason: 'too-long', message: tooLongMessage(options.maxLength) };
      }
      return { ok: true, markdown: head.text() + body.text() + end.text(), fidelity: fidelity.result(), facts };
    },
  };
}

function tooLongMessage(maxLength: number): string {
  return `the markdown would be longer than maxMarkdownLength (${maxLength} characters)`;
}

function pickRenderer(agent: MarkdownAgent, mode: MarkdownMode): SessionRenderer {
  if (mode.level !== 4) return createGenericRenderer(agent, mode);
  switch (agent) {
    case 'claude':
      return createClaudeRenderer(mode);
    case 'codex':
      return createCodexRenderer(mode);
    case 'gemini':
      return createGeminiRenderer(mode);
    case 'pi':
      return createPiRenderer(mode);
  }
}

/** A line of JSON whitespace only (the NDJSON "blank line", a warning; no record). */
function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0a) return false;
  return true;
}

function join(pieces: readonly Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    bytes.set(piece, offset);
    offset += piece.byteLength;
  }
  return bytes;
}
