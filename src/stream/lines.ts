/**
 * Bytes to NDJSON lines (a push-style core, a stream driver and a `TransformStream`), the framing
 * layer under the agent-history and codex-exec verifiers.
 *
 * - Lines end at LF (0x0A). A line ending in CR LF is flagged (`crlf`) so the format can warn.
 *   A last line without LF is delivered with `terminated: false`.
 * - Line numbers are 1-based and count decompressed lines, including blank and over-long ones.
 * - A line longer than `maxLineBytes` is reported once through `tooLong` and skipped, so memory
 *   stays bounded by the limit whatever the input.
 * - A UTF-8 byte-order mark at the start of line 1 is flagged (`bom`) and left out.
 * - The bytes of a line reach a `LineSink` as they arrive (no copy, no re-scan): `collectLines`
 *   joins and decodes them (invalid UTF-8 flagged, decoded with U+FFFD so the rest can still be
 *   checked); a skimming sink (`json/skim.ts`) can consume a line of many megabytes without ever
 *   holding it. An LF byte never occurs inside a multi-byte UTF-8 sequence, so a line's bytes are
 *   the same however the stream was chunked.
 *
 * The bytes are attacker-controlled: nothing here allocates per byte.
 * @module
 */
import { isKitStop, StreamProblem } from './problem.ts';
import { nextTurn, now } from './turn.ts';

/** What is known about a line once it ended. */
export interface LineEnd {
  /** 1-based line number, counting decompressed lines. */
  readonly number: number;
  /** Bytes of the line before its LF (CR and BOM included). */
  readonly byteLength: number;
  /** The line ended with CR LF (the CR was written to the sink; `collectLines` removes it). */
  readonly crlf: boolean;
  /** False for a last line that has no LF after it. */
  readonly terminated: boolean;
  /** Line 1 began with the UTF-8 byte-order mark EF BB BF (not written to the sink). */
  readonly bom: boolean;
}

/** Receives each line's bytes in order. */
export interface LineSink {
  /** More bytes of the current line (a view: copy what must outlive the call). */
  write(bytes: Uint8Array): void;
  /** The current line ended. */
  end(line: LineEnd): void;
  /** The current line is longer than the limit: forget its bytes; it will not `end`. */
  discard(): void;
}

/** A decoded line (from `collectLines`). */
export interface Line extends LineEnd {
  /** The line as text, without its LF, CR and (line 1) byte-order mark. */
  readonly text: string;
  /** The bytes were not valid UTF-8; `text` has U+FFFD where they were. */
  readonly invalidUtf8: boolean;
}

export interface LineSplitterOptions {
  /** Longest line accepted, in bytes (everything before its LF, a CR included); `limits.maxLineBytes`. */
  readonly maxLineBytes: number;
  readonly sink: LineSink;
  /** Called once for a line longer than `maxLineBytes`; that line is skipped. */
  readonly tooLong: (lineNumber: number, maxLineBytes: number) => void;
}

export interface LineSplitter {
  /** Feeds the next bytes (not modified; views of it may reach the sink). */
  push(chunk: Uint8Array): void;
  /** Ends the input: a last line without LF is ended too. */
  finish(): void;
  /** Lines seen so far (ended or skipped). */
  readonly lineCount: number;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Creates the push-style splitter.
 * @example
 * const lines: string[] = [];
 * const splitter = createLineSplitter({ maxLineBytes: 1 << 20, sink: collectLines((l) => lines.push(l.text)), tooLong:
 * () => {} });
 * splitter.push(new TextEncoder().encode('{"a":1}\r\n{"b"'));
 * splitter.push(new TextEncoder().encode(':2}'));
 * splitter.finish(); // lines = ['{"a":1}', '{"b":2}']
 */
export function createLineSplitter(options: LineSplitterOptions): LineSplitter {
  const { maxLineBytes, sink, tooLong } = options;
  if (!(maxLineBytes > 0)) throw new TypeError('maxLineBytes must be a positive number');
  let lineNumber = 0; // lines completed so far
  let length = 0; // bytes of the current line so far
  let lastByte = -1; // last byte of the current line so far (for CR LF)
  let skipping = false; // inside an over-long line
  // Line 1 is held back until its first three bytes show whether they are a BOM.
  let bomPending: number[] | undefined = [];
  let bom = false;

  const write = (bytes: Uint8Array): void => {
    if (bytes.byteLength === 0) return;
    length += bytes.byteLength;
    lastByte = bytes[bytes.byteLength - 1]!;
    if (bomPending) {
      let at = 0;
      while (bomPending.length < 3 && at < bytes.byteLength) bomPending.push(bytes[at++]!);
      if (bomPending.length < 3) return;
      settleBom();
      bytes = bytes.subarray(at);
    }
    if (bytes.byteLength > 0) sink.write(bytes);
  };

  /** Decides the BOM question and hands any held-back bytes on. */
  const settleBom = (): void => {
    const held = bomPending!;
    bomPending = undefined;
    bom = held.length === 3 && held[0] === BOM[0] && held[1] === BOM[1] && held[2] === BOM[2];
    if (!bom && held.length > 0) sink.write(Uint8Array.from(held));
  };

  const endLine = (terminated: boolean): void => {
    if (bomPending) settleBom();
    lineNumber++;
    sink.end({
      number: lineNumber,
      byteLength: length,
      crlf: terminated && lastByte === CR,
      terminated,
      bom: lineNumber === 1 && bom,
    });
    length = 0;
    lastByte = -1;
  };

  const overLimit = (): void => {
    skipping = true;
    bomPending = undefined;
    sink.discard();
    tooLong(lineNumber + 1, maxLineBytes);
  };

  return {
    push(chunk) {
      let start = 0;
      const size = chunk.byteLength;
      while (start < size) {
        const newline = chunk.indexOf(LF, start);
        const end = newline === -1 ? size : newline;
        if (skipping) {
          if (newline === -1) return;
          skipping = false;
          lineNumber++;
          length = 0;
          start = newline + 1;
          continue;
        }
        // Every byte before the LF counts (a CR too), so the verdict never depends on chunking.
        if (length + (end - start) > maxLineBytes) {
          overLimit();
          continue; // the loop resumes in skipping mode at `start`
        }
        write(chunk.subarray(start, end));
        if (newline === -1) return;
        endLine(true);
        start = newline + 1;
      }
    },
    finish() {
      if (skipping) {
        skipping = false;
        lineNumber++;
        return;
      }
      if (length > 0) endLine(false);
    },
    get lineCount() {
      return lineNumber;
    },
  };
}

const strictDecoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Decodes UTF-8 strictly; on invalid input, decodes with U+FFFD replacements and says so.
 * @example
 * decodeUtf8(new Uint8Array([0x68, 0xff])); // { text: 'h\uFFFD', invalid: true }
 */
export function decodeUtf8(bytes: Uint8Array): { text: string; invalid: boolean } {
  try {
    return { text: strictDecoder.decode(bytes), invalid: false };
  } catch {
    return { text: lenientDecoder.decode(bytes), invalid: true };
  }
}

/**
 * The sink that joins each line's bytes (one copy, only for lines spread over several chunks),
 * removes the CR of a CR LF, and decodes the line.
 * @example
 * const sink = collectLines((line) => console.log(line.number, line.text));
 */
export function collectLines(onLine: (line: Line) => void): LineSink {
  const pieces: Uint8Array[] = [];
  let total = 0;
  return {
    write(bytes) {
      pieces.push(bytes);
      total += bytes.byteLength;
    },
    end(line) {
      if (total === 0) {
        // Empty lines are common in hostile input (millions of LFs): no copy, no decoder call.
        onLine(withText(line, '', false));
        return;
      }
      let bytes: Uint8Array;
      if (pieces.length === 1) bytes = pieces[0]!;
      else {
        bytes = new Uint8Array(total);
        let offset = 0;
        for (const piece of pieces) {
          bytes.set(piece, offset);
          offset += piece.byteLength;
        }
      }
      pieces.length = 0;
      total = 0;
      if (line.crlf) bytes = bytes.subarray(0, bytes.byteLength - 1);
      const { text, invalid } = decodeUtf8(bytes);
      onLine(withText(line, text, invalid));
    },
    discard() {
      pieces.length = 0;
      total = 0;
    },
  };
}

/** A `Line` built field by field: one object shape for every line, which keeps the hot path fast. */
export function withText(line: LineEnd, text: string, invalidUtf8: boolean): Line {
  return {
    number: line.number,
    byteLength: line.byteLength,
    crlf: line.crlf,
    terminated: line.terminated,
    bom: line.bom,
    text,
    invalidUtf8,
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
  readonly tooLong: (lineNumber: number, maxLineBytes: number) => void;
}

/** Bytes handed to the splitter at once, so the abort check between slices stays frequent. */
const SLICE_BYTES = 256 * 1024;
/**
 * Longest stretch of work before the event loop may turn (stream/turn.ts): timers (and so an
 * abort) run, and a decompressor on another thread gets its next slice started.
 */
const YIELD_EVERY_MS = 2;

/**
 * Reads a byte stream to its end through a line splitter into `sink`. Resolves with the number
 * of lines; rejects with whatever the stream errors with (a `StreamProblem` for gzip damage or a
 * limit: the lines before it were delivered, a last partial line too after damage but not after a
 * limit) or with an `input.aborted` StreamProblem.
 * @example
 * const count = await forEachLine(stream, { maxLineBytes: 1 << 20, tooLong: () => {} }, collectLines((line) =>
 * console.log(line.text)));
 */
export async function forEachLine(
  stream: ReadableStream<Uint8Array>,
  options: ForEachLineOptions,
  sink: LineSink,
): Promise<number> {
  const splitter = createLineSplitter({ maxLineBytes: options.maxLineBytes, sink, tooLong: options.tooLong });
  const reader = stream.getReader();
  const { signal } = options;
  try {
    let lastYield = now();
    for (;;) {
      if (signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
      const { done, value } = await reader.read();
      if (done) break;
      // Bounded slices, and now and then a turn of the event loop: an in-memory input resolves
      // every read as a microtask, so without this a timer-driven abort (a Cancel click) could not
      // fire until the whole input was verified.
      for (let at = 0; at < value.byteLength; at += SLICE_BYTES) {
        splitter.push(value.subarray(at, Math.min(value.byteLength, at + SLICE_BYTES)));
        if (now() - lastYield > YIELD_EVERY_MS) {
          await nextTurn();
          lastYield = now();
          if (signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
        }
      }
    }
  } catch (error) {
    // The bytes before damage in the data (gzip) are real data: their last partial line is still
    // a line. A stop of the kit's own (a limit, an abort) cut that line itself: it is not a line.
    if (!isKitStop(error)) splitter.finish();
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  splitter.finish();
  return splitter.lineCount;
}

/**
 * The splitter as a `TransformStream` of decoded `Line`s, for consumers that prefer streams.
 * Over-long lines are reported through `tooLong` and not emitted.
 * @example
 * const reader = bytes.pipeThrough(lineStream({ maxLineBytes: 1 << 20, tooLong: () => {} })).getReader();
 * for (let next = await reader.read(); !next.done; next = await reader.read()) console.log(next.value.text);
 */
export function lineStream(options: Omit<LineSplitterOptions, 'sink'>): TransformStream<Uint8Array, Line> {
  let splitter: LineSplitter | undefined;
  return new TransformStream<Uint8Array, Line>({
    start(controller) {
      splitter = createLineSplitter({ ...options, sink: collectLines((line) => controller.enqueue(line)) });
    },
    transform(chunk) {
      splitter!.push(chunk);
    },
    flush() {
      splitter!.finish();
    },
  });
}
