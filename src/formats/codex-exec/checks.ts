/**
 * Streaming checks of a codex-orchestrator `exec --jsonl` stream (docs/codex-exec.md,
 * 'Invariants'). State kept across lines: the correlationId, the current and previous attempt, the
 * global chunk sequence, the last 65,536 bytes of each stream of the current attempt (the exec:end
 * tail rule) and the last exec:end, so memory is bounded however long the stream is.
 * @module
 */
import * as v from 'valibot';
import { linePath } from '../../report/path.ts';
import { asObject, isIsoTimestamp, quote, reportIssues, type JsonRecord, type NdjsonEnding } from '../ndjson/reader.ts';
import { envelope, PAYLOADS, type EventType } from './schema.ts';
import type { CodexExecCounts } from './details.ts';
import type { FindingCollector } from '../../report.ts';

const SCHEMA_ISSUE_CODES = { missing: 'codex-exec.missing_field', invalid: 'codex-exec.invalid_field' } as const;

/** The checks over the whole stream (docs/codex-exec.md, 'Invariants'), as `details.not_checked` names them. */
const END_CHECK = 'every attempt that began has an exec:end';
const SUMMARY_CHECK = 'exactly one run:summary, the last record';

/**
 * The tool keeps the last 64 KiB of each stream in exec:end (docs/codex-exec.md,
 * 'Known differences', 3).
 */
export const TAIL_BYTES = 65_536;
const REPLACEMENT = '\uFFFD';

/**
 * The last `TAIL_BYTES` bytes of a byte stream (a ring), plus where the last chunk containing
 * U+FFFD ended: when such a chunk reaches into the window, the re-encoded bytes are not the raw
 * bytes the tool saw, and a mismatch can only be a warning.
 */
interface Tail {
  readonly ring: Uint8Array;
  total: number;
  replacementEnd: number;
}

function createTail(): Tail {
  return { ring: new Uint8Array(TAIL_BYTES), total: 0, replacementEnd: -1 };
}

function appendTail(tail: Tail, bytes: Uint8Array, hasReplacement: boolean): void {
  const keep = bytes.byteLength > TAIL_BYTES ? bytes.subarray(bytes.byteLength - TAIL_BYTES) : bytes;
  const at = (tail.total + (bytes.byteLength - keep.byteLength)) % TAIL_BYTES;
  const first = Math.min(keep.byteLength, TAIL_BYTES - at);
  tail.ring.set(keep.subarray(0, first), at);
  if (first < keep.byteLength) tail.ring.set(keep.subarray(first), 0);
  tail.total += bytes.byteLength;
  if (hasReplacement) tail.replacementEnd = tail.total;
}

function tailBytes(tail: Tail): Uint8Array {
  if (tail.total <= TAIL_BYTES) return tail.ring.subarray(0, tail.total);
  const at = tail.total % TAIL_BYTES;
  const out = new Uint8Array(TAIL_BYTES);
  out.set(tail.ring.subarray(at), 0);
  out.set(tail.ring.subarray(0, at), TAIL_BYTES - at);
  return out;
}

interface AttemptState {
  readonly attempt: number;
  begunLine: number;
  endedLine: number;
  retriedLine: number;
  beginMissingReported: boolean;
  readonly tails: { readonly stdout: Tail; readonly stderr: Tail };
}

interface EndFacts {
  readonly line: number;
  readonly attempt: number;
  readonly payload: JsonRecord;
}

const lenientDecoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Creates the checker reporting into `collector`: `record` per JSON-object line, `end` once.
 * @example
 * const checker = createExecChecker(collector);
 * checker.record(JSON.parse(line), 1);
 * checker.end('end');
 */
export function createExecChecker(collector: FindingCollector): {
  record(record: JsonRecord, line: number): void;
  /**
   * The checks over the whole stream, as far as `ending` allows (docs/codex-exec.md, 'Lines and
   * gzip'); returns the ones not made, for `details.not_checked`.
   */
  end(ending: NdjsonEnding): readonly string[];
  /** What the checker reports in `report.details`. */
  details(): CodexExecCounts;
} {
  const add = collector.add.bind(collector);
  let correlationId: string | undefined;
  let current: AttemptState | undefined;
  let previous: AttemptState | undefined;
  let attemptsBegun = 0;
  let lastSequence = 0;
  let chunkCount = 0;
  let lastEnd: EndFacts | undefined;
  let summaryLine = 0;
  let summaryNotLastReported = false;
  let previousTime: number | undefined;
  let scratch = new Uint8Array(64 * 1024);
  const byType: Record<string, number> = {
    'exec:begin': 0,
    'exec:chunk': 0,
    'exec:retry': 0,
    'exec:end': 0,
    'run:summary': 0,
    other: 0,
  };

  /** UTF-8 bytes of `text` in a reused buffer (valid until the next call). */
  const utf8 = (text: string): Uint8Array => {
    if (scratch.byteLength < text.length * 3) scratch = new Uint8Array(text.length * 3);
    const { written } = encoder.encodeInto(text, scratch);
    return scratch.subarray(0, written);
  };

  const attemptState = (attempt: number): AttemptState => {
    if (current?.attempt === attempt) return current;
    previous = current;
    current = {
      attempt,
      begunLine: 0,
      endedLine: 0,
      retriedLine: 0,
      beginMissingReported: false,
      tails: { stdout: createTail(), stderr: createTail() },
    };
    return current;
  };

  const requireBegin = (state: AttemptState, line: number, what: string): void => {
    if (state.begunLine !== 0 || state.beginMissingReported) return;
    state.beginMissingReported = true;
    add(
      'codex-exec.begin_missing',
      linePath(line),
      `${what} for attempt ${state.attempt} without exec:begin for attempt ${state.attempt}`,
    );
  };

  const onBegin = (state: AttemptState, line: number): void => {
    if (state.begunLine !== 0) {
      add(
        'codex-exec.event_order',
        linePath(line),
        `second exec:begin for attempt ${state.attempt} (first on line ${state.begunLine})`,
      );
      return;
    }
    state.begunLine = line;
    attemptsBegun++;
    if (previous) {
      if (previous.begunLine !== 0 && previous.endedLine === 0) {
        add(
          'codex-exec.event_order',
          linePath(line),
          `exec:begin for attempt ${state.attempt} before exec:end of attempt ${previous.attempt}`,
        );
      } else if (previous.retriedLine === 0) {
        add(
          'codex-exec.retry_missing',
          linePath(line),
          `exec:begin for attempt ${state.attempt} without exec:retry for attempt ${previous.attempt}`,
          { severity: 'warning' },
        );
      }
    }
  };

  const onChunk = (state: AttemptState, payload: JsonRecord, line: number): void => {
    chunkCount++;
    requireBegin(state, line, 'exec:chunk');
    if (state.endedLine !== 0) {
      add(
        'codex-exec.chunk_after_end',
        linePath(line),
        `exec:chunk for attempt ${state.attempt} after exec:end of attempt ${state.attempt} (line ${state.endedLine})`,
      );
    }
    // Sequence: one counter for both streams, continuing across attempts
    // (docs/codex-exec.md, 'Known differences', 1).
    const sequence = payload['sequence'];
    if (typeof sequence === 'number' && Number.isInteger(sequence)) {
      const expected = lastSequence + 1;
      if (sequence !== expected) {
        const message =
          lastSequence === 0 && sequence < 1
            ? `sequence ${sequence} (must start at 1)`
            : `chunk sequence ${sequence} expected ${expected}`;
        add('codex-exec.sequence', linePath(line, ['payload', 'sequence']), message);
      }
      lastSequence = sequence; // count on from what was found: one finding per gap
    }
    const data = payload['data'];
    if (typeof data !== 'string') return;
    const bytes = utf8(data);
    const hasReplacement = data.includes(REPLACEMENT);
    // bytes counts the raw chunk; data is its lossy decoding (docs/codex-exec.md, 'Invariants':
    // error only without U+FFFD).
    const declared = payload['bytes'];
    if (typeof declared === 'number' && declared !== bytes.byteLength) {
      add(
        'codex-exec.chunk_bytes',
        linePath(line, ['payload', 'bytes']),
        `bytes ${declared} != UTF-8 byte length of data (${bytes.byteLength})${hasReplacement ? '; data holds U+FFFD, so the raw length may differ' : ''}`,
        {
          ...(hasReplacement ? { severity: 'warning' as const } : {}),
        },
      );
    }
    const stream = payload['stream'];
    if (stream === 'stdout' || stream === 'stderr') appendTail(state.tails[stream], bytes, hasReplacement);
  };

  const onRetry = (state: AttemptState, line: number): void => {
    if (state.retriedLine !== 0) {
      add(
        'codex-exec.event_order',
        linePath(line),
        `second exec:retry for attempt ${state.attempt} (first on line ${state.retriedLine})`,
      );
      return;
    }
    state.retriedLine = line;
    if (state.endedLine === 0)
      add(
        'codex-exec.event_order',
        linePath(line),
        `exec:retry for attempt ${state.attempt} before exec:end of attempt ${state.attempt}`,
      );
  };

  const onEnd = (state: AttemptState, payload: JsonRecord, line: number): void => {
    requireBegin(state, line, 'exec:end');
    if (state.endedLine !== 0) {
      add(
        'codex-exec.event_order',
        linePath(line),
        `second exec:end for attempt ${state.attempt} (first on line ${state.endedLine})`,
      );
      return;
    }
    state.endedLine = line;
    lastEnd = { line, attempt: state.attempt, payload };
    const exitCode = payload['exitCode'];
    if (payload['status'] === 'succeeded' && exitCode !== 0) {
      add(
        'codex-exec.end_status',
        linePath(line, ['payload', 'status']),
        `exec:end status succeeded with non-zero exitCode ${quote(exitCode)}`,
      );
    }
    for (const stream of ['stdout', 'stderr'] as const) {
      const text = payload[stream];
      if (typeof text !== 'string') continue;
      const tail = state.tails[stream];
      if (lenientDecoder.decode(tailBytes(tail)) === text) continue;
      // Re-encoded chunk data equals the raw bytes only where no U+FFFD replaced anything.
      const lossy =
        (tail.replacementEnd >= 0 && tail.replacementEnd > tail.total - TAIL_BYTES) || text.includes(REPLACEMENT);
      add(
        'codex-exec.end_output',
        linePath(line, ['payload', stream]),
        `${stream} is not the (64 KiB-capped tail of the) concatenated ${stream} chunks of attempt ${state.attempt}${lossy ? ' (U+FFFD involved: the raw bytes may still agree)' : ''}`,
        lossy ? { severity: 'warning' } : {},
      );
    }
  };

  const onSummary = (payload: JsonRecord, line: number): void => {
    summaryLine = line;
    const result = asObject(payload['result']);
    const outputs = asObject(payload['outputs']);
    if (result) {
      const resultCorrelation = result['correlationId'];
      if (typeof resultCorrelation === 'string') {
        if (correlationId === undefined) correlationId = resultCorrelation;
        else if (resultCorrelation !== correlationId)
          add(
            'codex-exec.correlation_id',
            linePath(line, ['payload', 'result', 'correlationId']),
            'run:summary.result.correlationId differs from exec:begin',
          );
      }
      const status = payload['status'];
      if (typeof status === 'string' && status !== result['status']) {
        add(
          'codex-exec.summary_mismatch',
          linePath(line, ['payload', 'status']),
          `status ${quote(status)} disagrees with result.status ${quote(result['status'])}`,
        );
      }
      const attempts = result['attempts'];
      if (typeof attempts === 'number' && current && attempts !== current.attempt) {
        add(
          'codex-exec.summary_mismatch',
          linePath(line, ['payload', 'result', 'attempts']),
          `result.attempts ${attempts} != last attempt ${current.attempt}`,
        );
      }
    }
    if (!lastEnd) {
      add('codex-exec.summary_mismatch', linePath(line), 'run:summary before any exec:end');
      return;
    }
    // result mirrors the last exec:end; outputs are its buffers.
    const end = lastEnd.payload;
    if (result) {
      for (const field of ['exitCode', 'signal', 'durationMs', 'status', 'sandboxState'] as const) {
        if (result[field] !== end[field]) {
          add(
            'codex-exec.summary_mismatch',
            linePath(line, ['payload', 'result', field]),
            `run:summary.result.${field} != last exec:end ${field} (${quote(result[field])} vs ${quote(end[field])} on line ${lastEnd.line})`,
          );
        }
      }
    }
    if (outputs) {
      for (const stream of ['stdout', 'stderr'] as const) {
        if (outputs[stream] !== end[stream]) {
          add(
            'codex-exec.summary_mismatch',
            linePath(line, ['payload', 'outputs', stream]),
            `run:summary.outputs.${stream} != last exec:end.${stream} (line ${lastEnd.line})`,
          );
        }
      }
    }
  };

  return {
    record(record, line) {
      const checked = v.safeParse(envelope, record);
      if (!checked.success) reportIssues(add, line, checked.issues, SCHEMA_ISSUE_CODES);
      const type = record['type'];
      const known = typeof type === 'string' && Object.hasOwn(PAYLOADS, type);
      byType[known ? (type as string) : 'other']!++;
      if (summaryLine !== 0) {
        if (!summaryNotLastReported) {
          summaryNotLastReported = true;
          add('codex-exec.summary_not_last', linePath(summaryLine), 'run:summary is not the last record');
        }
        add(
          'codex-exec.summary_not_last',
          linePath(line),
          type === 'run:summary' ? 'second run:summary' : 'record after run:summary',
        );
        if (type === 'run:summary') return; // its fields are not compared again
      }
      // docs/codex-exec.md, 'Invariants': a timestamp earlier than the previous line's is only a
      // warning.
      const timestamp = record['timestamp'];
      if (typeof timestamp === 'string' && isIsoTimestamp(timestamp)) {
        const time = Date.parse(timestamp);
        if (previousTime !== undefined && time < previousTime)
          add('codex-exec.timestamp_order', linePath(line, ['timestamp']), 'timestamp decreases', {
            severity: 'warning',
          });
        previousTime = time;
      }
      if (!known) {
        if (typeof type === 'string')
          add('codex-exec.unknown_event_type', linePath(line, ['type']), `unknown event type ${quote(type)}`, {
            severity: 'warning',
          });
        return;
      }
      const payload = asObject(record['payload']);
      if (!payload) return; // the envelope schema reported it
      const event = type as EventType;
      const parsed = v.safeParse(PAYLOADS[event], payload);
      if (!parsed.success) reportIssues(add, line, parsed.issues, SCHEMA_ISSUE_CODES, { prefix: ['payload'] });
      if (event === 'run:summary') {
        onSummary(payload, line);
        return;
      }
      // exec:* events: one correlationId for the whole stream.
      const id = payload['correlationId'];
      if (typeof id === 'string') {
        if (correlationId === undefined) correlationId = id;
        else if (id !== correlationId)
          add(
            'codex-exec.correlation_id',
            linePath(line, ['payload', 'correlationId']),
            'correlationId differs from exec:begin',
          );
      }
      const attempt = payload['attempt'];
      if (typeof attempt !== 'number' || !Number.isInteger(attempt)) return; // reported by the schema
      if (current && attempt < current.attempt) {
        add(
          'codex-exec.attempt_order',
          linePath(line, ['payload', 'attempt']),
          `attempt ${attempt} < current attempt ${current.attempt} (attempts must be >=1 and non-decreasing)`,
        );
        return;
      }
      if (attempt < 1) return; // the schema reported it; nothing to track
      const state = attemptState(attempt);
      if (event === 'exec:begin') onBegin(state, line);
      else if (event === 'exec:chunk') onChunk(state, payload, line);
      else if (event === 'exec:retry') onRetry(state, line);
      else onEnd(state, payload, line);
    },
    end(ending) {
      if (ending !== 'end') return [END_CHECK, SUMMARY_CHECK];
      // An earlier attempt left open was reported when the next one began.
      if (current && current.begunLine !== 0 && current.endedLine === 0) {
        add('codex-exec.end_missing', linePath(current.begunLine), `attempt ${current.attempt} has no exec:end`);
      }
      if (summaryLine === 0) add('codex-exec.summary_missing', '$', 'end of stream: run:summary missing');
      return [];
    },
    details() {
      return { attempts: attemptsBegun, chunk_count: chunkCount, records_by_type: { ...byType } };
    },
  };
}
