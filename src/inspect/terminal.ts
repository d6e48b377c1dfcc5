/**
 * A small terminal: turns a command's output, as it arrived, into the lines a terminal would show.
 * `\n` ends a line, `\r` returns to its start so the next characters overwrite it (progress bars),
 * backspace steps back, `ESC [ K` erases to the end of the line, SGR sequences set the colours
 * (`ansi-sgr.ts`), other escape sequences are dropped. Each character remembers the stream it came
 * from, so stderr can be tinted. Lines come out as spans of plain text with their style: data,
 * never markup.
 *
 * It can also only count lines (styles still followed, no text built), which is how a view over a
 * long output is indexed: a checkpoint at every `CHECKPOINT_LINES`-th line start holds what is
 * needed to start again there.
 *
 * The output is attacker-controlled: a line keeps at most `MAX_LINE_CHARS` characters (the rest
 * is counted), and every step is linear in the text.
 * @module
 */
import { applySgr, PLAIN, readEscape, sameStyle, type SgrStyle } from './ansi-sgr.ts';

/** Characters kept of one line (about 200 KB of text, the most one view body holds). */
export const MAX_LINE_CHARS = 100_000;

export type StreamName = 'stdout' | 'stderr';
export type TerminalLineKind = 'command' | 'output' | 'retry' | 'status';

/** A run of characters with one style from one stream. */
export interface TerminalSpan {
  readonly text: string;
  readonly style: SgrStyle;
  /** Absent on the lines the tool adds itself (`$ command`, retries, the outcome). */
  readonly stream?: StreamName;
}

export interface TerminalLine {
  readonly kind: TerminalLineKind;
  /** 0-based position among the terminal's lines. */
  readonly number: number;
  /** The NDJSON line whose record started this terminal line. */
  readonly source: number;
  readonly spans: readonly TerminalSpan[];
  /** Characters the line had in all, when more than `MAX_LINE_CHARS` (then only those are kept). */
  readonly fullLength?: number;
}

interface Run {
  /** Index in the line text just past the run. */
  end: number;
  readonly style: SgrStyle;
  readonly stream: StreamName | undefined;
}

export interface TerminalOptions {
  /** Whether line `number` is wanted as text (others are only counted). */
  readonly collect: (number: number) => boolean;
  readonly onLine: (line: TerminalLine) => void;
  /** A line starts (empty): `offset` is where in the text being written it starts (0 between writes). */
  readonly onLineStart?: (number: number, offset: number, style: SgrStyle) => void;
  /** Where to start: line number and style (from a checkpoint). */
  readonly startLine?: number;
  readonly startStyle?: SgrStyle;
}

export interface Terminal {
  /** Writes output from `stream`, which the NDJSON line `source` carried. */
  write(text: string, stream: StreamName, source: number): void;
  /** Adds a whole line of the tool's own (the current line, if not empty, ends first). */
  say(kind: TerminalLineKind, text: string, source: number): void;
  /** Ends the input: an unfinished last line is emitted. */
  finish(): void;
  /** Lines emitted so far. */
  readonly lines: number;
}

/* eslint-disable no-control-regex -- the control characters a terminal acts on */
const SPECIAL = /[\n\r\b\u001b]/gu;
/* eslint-enable no-control-regex */

/**
 * Creates a terminal.
 * @example
 * const lines: TerminalLine[] = [];
 * const term = createTerminal({ collect: () => true, onLine: (line) => lines.push(line) });
 * term.write('10%\r50%\n', 'stdout', 2);
 * lines[0].spans[0].text; // '50%'
 */
export function createTerminal(options: TerminalOptions): Terminal {
  const { collect, onLine, onLineStart } = options;
  let number = options.startLine ?? 0;
  let style: SgrStyle = options.startStyle ?? PLAIN;
  let pending = '';
  let text = '';
  let runs: Run[] = [];
  let col = 0;
  let overflow = 0;
  let started = false;
  let source = 0;
  let collecting = collect(number);

  function startLine(offset: number): void {
    number++;
    text = '';
    runs = [];
    col = 0;
    overflow = 0;
    started = false;
    collecting = collect(number);
    onLineStart?.(number, offset, style);
  }

  function endLine(kind: TerminalLineKind, offset: number): void {
    if (collecting) {
      let from = 0;
      const spans: TerminalSpan[] = [];
      for (const run of runs) {
        if (run.end > from)
          spans.push({
            text: text.slice(from, run.end),
            style: run.style,
            ...(run.stream === undefined ? {} : { stream: run.stream }),
          });
        from = run.end;
      }
      onLine({
        kind,
        number,
        source,
        spans,
        ...(overflow > 0 ? { fullLength: text.length + overflow } : {}),
      });
    }
    startLine(offset);
  }

  function put(piece: string, stream: StreamName | undefined, at: number): void {
    if (!started) {
      started = true;
      source = at;
    }
    if (!collecting || piece === '') return;
    if (col >= MAX_LINE_CHARS) {
      overflow += piece.length;
      col += piece.length;
      return;
    }
    if (col + piece.length > MAX_LINE_CHARS) {
      overflow += col + piece.length - MAX_LINE_CHARS;
      piece = piece.slice(0, MAX_LINE_CHARS - col);
    }
    if (col === text.length) {
      text += piece;
      const last = runs[runs.length - 1];
      if (last !== undefined && last.stream === stream && sameStyle(last.style, style)) last.end = text.length;
      else runs.push({ end: text.length, style, stream });
    } else {
      overwrite(piece, stream);
    }
    col += piece.length;
  }

  /** Overwrites the line from `col` (after a `\r` or backspace): the runs before and after stay. */
  function overwrite(piece: string, stream: StreamName | undefined): void {
    if (col > text.length) {
      text += ' '.repeat(col - text.length);
      runs.push({ end: text.length, style: PLAIN, stream: undefined });
    }
    const to = col + piece.length;
    text = text.slice(0, col) + piece + text.slice(to);
    const next: Run[] = [];
    const push = (end: number, runStyle: SgrStyle, runStream: StreamName | undefined): void => {
      const last = next[next.length - 1];
      if (end <= (last?.end ?? 0)) return;
      if (last !== undefined && last.stream === runStream && sameStyle(last.style, runStyle)) last.end = end;
      else next.push({ end, style: runStyle, stream: runStream });
    };
    for (const run of runs) push(Math.min(run.end, col), run.style, run.stream);
    push(to, style, stream);
    for (const run of runs) push(run.end, run.style, run.stream);
    runs = next;
  }

  /** Keeps the first `length` characters of the line. */
  function truncate(length: number): void {
    text = text.slice(0, length);
    const next: Run[] = [];
    for (const run of runs) {
      const end = Math.min(run.end, length);
      if (end > (next[next.length - 1]?.end ?? 0)) next.push({ ...run, end });
    }
    runs = next;
  }

  function escape(all: string, at: number): number {
    const read = readEscape(all, at);
    if (read.kind === 'incomplete') {
      pending = all.slice(at);
      return all.length;
    }
    if (read.kind === 'sgr') style = applySgr(style, read.params);
    else if (read.final === 'K' && collecting && (read.params[0] ?? -1) <= 0) {
      // Erase in line, to its end (ECMA-48 §8.3.41, EL with 0).
      if (col < text.length) truncate(col);
    }
    return read.end;
  }

  return {
    get lines() {
      return number;
    },
    write(data, stream, at) {
      let all = data;
      let shift = 0;
      if (pending !== '') {
        shift = pending.length;
        all = pending + data;
        pending = '';
      }
      const special = SPECIAL;
      let pos = 0;
      while (pos < all.length) {
        special.lastIndex = pos;
        const found = special.exec(all);
        const stop = found === null ? all.length : found.index;
        if (stop > pos) put(all.slice(pos, stop), stream, at);
        if (found === null) break;
        const c = all.charCodeAt(stop);
        if (c === 0x0a) {
          if (!started) {
            started = true;
            source = at;
          }
          endLine('output', Math.max(0, stop + 1 - shift));
          pos = stop + 1;
        } else if (c === 0x0d) {
          col = 0;
          pos = stop + 1;
        } else if (c === 0x08) {
          col = Math.max(0, col - 1);
          pos = stop + 1;
        } else {
          pos = escape(all, stop);
        }
      }
    },
    say(kind, line, at) {
      pending = '';
      if (started || text !== '') endLine('output', 0);
      started = true;
      source = at;
      const saved = style;
      style = PLAIN;
      put(line, undefined, at);
      style = saved;
      endLine(kind, 0);
    },
    finish() {
      pending = '';
      if (started || text !== '') endLine('output', 0);
    },
  };
}
