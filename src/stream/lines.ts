/**
 * Bytes to NDJSON lines (push-style core, plus a stream driver), the framing layer under the
 * agent-history and codex-exec verifiers.
 *
 * - Lines end at LF (0x0A); a CR right before the LF is removed and flagged (`crlf`), so the
 *   format can warn about CRLF files. A last line without LF is delivered with `terminated: false`.
 * - Line numbers are 1-based and count decompressed lines, including blank and over-long ones.
 * - A line longer than `maxLineBytes` is not buffered: `onTooLong` is called once for it and its
 *   remaining bytes are skipped, so memory stays bounded by the limit whatever the input.
 * - Each line is decoded as UTF-8 on its own (an LF byte never occurs inside a multi-byte UTF-8
 *   sequence, so a line's bytes are the same however the stream was chunked). Invalid UTF-8 is
 *   flagged (`invalidUtf8`) and decoded with U+FFFD replacements so the rest can still be checked.
 * - A UTF-8 byte-order mark at the start of line 1 is flagged (`bom`) and left out of `text`.
 *
 * The bytes are attacker-controlled: nothing here allocates per byte, and a line spread over many
 * chunks is joined once, when its end is seen (no re-scanning).
 * @module
 */
import { StreamProblem } from './problem.ts';

/** One line of input. */
export interface Line {
  /** 1-based line number, counting decompressed lines. */
  readonly number: number;
  /** The decoded line, without its LF, CR and (line 1) byte-order mark. */
  readonly text: string;
  /** Byte length of the line as read (before removing CR / BOM). */
  readonly byteLength: number;
  /** The line ended with CR LF. */
  readonly crlf: boolean;
  /** False for a last line that has no LF after it. */
  readonly terminated: boolean;
  /** The bytes were not valid UTF-8; `text` has U+FFFD where they were. */
  readonly invalidUtf8: boolean;
  /** Line 1 began with the UTF-8 byte-order mark EF BB BF. */
  readonly bom: boolean;
}

export interface LineSplitterOptions {
  /** Longest line kept, in bytes (everything before its LF, a CR included); see `limits.maxLineBytes`. */
  readonly maxLineBytes: number;
  /** Called for each complete line, in order. */
  readonly onLine: (line: Line) => void;
  /** Called once for a line longer than `maxLineBytes`; that line is skipped. */
  readonly onTooLong: (lineNumber: number, maxLineBytes: number) => void;
}

export interface LineSplitter {
  /** Feeds the next bytes (the array is not modified; parts of it may be kept until its line ends). */
  push(chunk: Uint8Array): void;
  /** Ends the input: delivers a last line that had no LF. */
  finish(): void;
  /** Lines seen so far (delivered or skipped). */
  readonly lineCount: number;
}

const LF = 0x0a;
const CR = 0x0d;

const strictDecoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Creates the push-style splitter.
 * @example
 * const lines: string[] = [];
 * const splitter = createLineSplitter({ maxLineBytes: 1 << 20, onLine: (l) => lines.push(l.text), onTooLong: () => {} });
 * splitter.push(new TextEncoder().encode('{"a":1}\r\n{"b"'));
 * splitter.push(new TextEncoder().encode(':2}'));
 * splitter.finish(); // lines = ['{"a":1}', '{"b":2}']
 */
export function createLineSplitter(options: LineSplitterOptions): LineSplitter {
  const { maxLineBytes, onLine, onTooLong } = options;
  if (!(maxLineBytes > 0)) throw new TypeError('maxLineBytes must be a positive number');
  let lineNumber = 0; // lines completed so far
  const pieces: Uint8Array[] = []; // the current line's bytes so far, when it spans chunks
  let pendingLength = 0;
  let skipping = false; // inside an over-long line

  const deliver = (bytes: Uint8Array, terminated: boolean): void => {
    const number = ++lineNumber;
    let start = 0;
    let end = bytes.byteLength;
    const crlf = terminated && end > 0 && bytes[end - 1] === CR;
    if (crlf) end--;
    const bom = number === 1 && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    if (bom) start = 3;
    const view = start === 0 && end === bytes.byteLength ? bytes : bytes.subarray(start, end);
    let text: string;
    let invalidUtf8 = false;
    try {
      text = strictDecoder.decode(view);
    } catch {
      invalidUtf8 = true;
      text = lenientDecoder.decode(view);
    }
    onLine({ number, text, byteLength: bytes.byteLength, crlf, terminated, invalidUtf8, bom });
  };

  const takePending = (tail: Uint8Array): Uint8Array => {
    const total = pendingLength + tail.byteLength;
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const piece of pieces) {
      joined.set(piece, offset);
      offset += piece.byteLength;
    }
    joined.set(tail, offset);
    pieces.length = 0;
    pendingLength = 0;
    return joined;
  };

  const tooLong = (): void => {
    skipping = true;
    pieces.length = 0;
    pendingLength = 0;
    onTooLong(lineNumber + 1, maxLineBytes);
  };

  return {
    push(chunk) {
      let start = 0;
      const length = chunk.byteLength;
      while (start < length) {
        const newline = chunk.indexOf(LF, start);
        const end = newline === -1 ? length : newline;
        if (skipping) {
          if (newline === -1) return;
          skipping = false;
          lineNumber++;
          start = newline + 1;
          continue;
        }
        // Every byte before the LF counts (a CR too), so the verdict never depends on chunking.
        if (pendingLength + (end - start) > maxLineBytes) {
          tooLong();
          if (newline === -1) return;
          skipping = false;
          lineNumber++;
          start = newline + 1;
          continue;
        }
        if (newline === -1) {
          pieces.push(chunk.subarray(start));
          pendingLength += length - start;
          return;
        }
        deliver(pendingLength === 0 ? chunk.subarray(start, end) : takePending(chunk.subarray(start, end)), true);
        start = newline + 1;
      }
    },
    finish() {
      if (skipping) {
        skipping = false;
        lineNumber++;
        return;
      }
      if (pendingLength > 0) deliver(takePending(new Uint8Array(0)), false);
    },
    get lineCount() {
      return lineNumber;
    },
  };
}

/** True for a line holding only JSON whitespace (the NDJSON "blank line"). */
export function isBlankLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return false;
  }
  return true;
}

export interface ForEachLineOptions {
  readonly maxLineBytes: number;
  readonly signal?: AbortSignal;
  readonly onTooLong: (lineNumber: number, maxLineBytes: number) => void;
}

/**
 * Reads a byte stream to its end, calling `onLine` for each line. Resolves with the number of
 * lines; rejects with whatever the stream errors with (a `StreamProblem` for gzip damage or a
 * limit: the lines before it were delivered) or with an `input.aborted` StreamProblem.
 * A last line without LF is delivered before an error or the end of input is reported.
 * @example
 * const count = await forEachLine(stream, { maxLineBytes: 1 << 20, onTooLong: () => {} }, (line) => console.log(line.number, line.text));
 */
export async function forEachLine(stream: ReadableStream<Uint8Array>, options: ForEachLineOptions, onLine: (line: Line) => void): Promise<number> {
  const splitter = createLineSplitter({ maxLineBytes: options.maxLineBytes, onLine, onTooLong: options.onTooLong });
  const reader = stream.getReader();
  const { signal } = options;
  try {
    for (;;) {
      if (signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
      const { done, value } = await reader.read();
      if (done) break;
      splitter.push(value);
    }
  } catch (error) {
    // The bytes before a stream problem are real data: their last partial line is still a line.
    splitter.finish();
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  splitter.finish();
  return splitter.lineCount;
}

/**
 * The splitter as a `TransformStream` of `Line` objects, for consumers that prefer streams.
 * Over-long lines are reported through `onTooLong` and not emitted.
 * @example
 * for await (const line of bytes.pipeThrough(lineStream({ maxLineBytes: 1 << 20, onTooLong: () => {} }))) console.log(line.text);
 */
export function lineStream(options: Omit<LineSplitterOptions, 'onLine'>): TransformStream<Uint8Array, Line> {
  let splitter: LineSplitter | undefined;
  return new TransformStream<Uint8Array, Line>({
    start(controller) {
      splitter = createLineSplitter({ ...options, onLine: (line) => controller.enqueue(line) });
    },
    transform(chunk) {
      splitter!.push(chunk);
    },
    flush() {
      splitter!.finish();
    },
  });
}
