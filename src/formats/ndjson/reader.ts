/**
 * The NDJSON reading loop shared by the line-oriented formats (agent-history, codex-exec): reads
 * the opened input line by line (see `lines.ts`), reports the framing findings of
 * `codes.ts`, parses each line as JSON and hands every object to the format. Container
 * problems (gzip damage, limits, abort) become findings without a line number; the lines decoded
 * before them are still checked (docs/agent-history.md §5; docs/codex-exec.md, 'Lines and gzip').
 * @module
 */
import type { BaseIssue } from 'valibot';
import type { FindingCode } from '../../codes.ts';
import { linePath, type PathSegment } from '../../report/path.ts';
import { recordThrown, type VerificationContext } from '../../verifier-lifecycle.ts';
import { isKitStop } from '../../stream/problem.ts';
import { findNestingPastLimit, namedSteps } from '../../json/depth.ts';
import type { StringSkipper } from '../../json/_grammar.ts';
import { createJsonSkimmer, type SkimProfile } from '../../json/skim.ts';
import {
  collectLines,
  decodeUtf8,
  forEachLine,
  isBlankLine,
  withText,
  type Line,
  type LineSink,
} from '../../stream/lines.ts';

/**
 * How reading ended (docs/agent-history.md §5): `end`, at the end of the input; `skipped`, at the
 * end, but a line over a per-line limit (`limits.maxLineBytes`, `limits.maxJsonDepth`) was skipped;
 * `damaged`, at damage in the container (gzip), which is the input's own problem; `stopped`, by the
 * kit (a limit, an abort), after which nothing is known of the rest. After `skipped` and `stopped`
 * the checks over the whole input (counts, a closing record) are not made, since the record they
 * miss may be the one not read, and none of them may report a mismatch. After a skipped line the
 * lines are still read and framed, but their records no longer reach the format: its checks across
 * records (a sequence, an attempt begun, the header first) would blame the gap on them.
 */
export type NdjsonEnding = 'end' | 'skipped' | 'damaged' | 'stopped';

/** What the reading loop saw, for the format's end-of-stream checks and `report.details`. */
export interface NdjsonSummary {
  readonly lineCount: number;
  /** Lines that held a JSON object (handed to `onRecord`). */
  readonly recordCount: number;
  /** The input was read to its end with no stream problem (gzip damage, limit, abort). */
  readonly complete: boolean;
  readonly ending: NdjsonEnding;
  /** What the reading loop left unchecked (the records after a skipped line), for `details.not_checked`. */
  readonly notChecked: readonly string[];
}

/** Appended to a limit's (or an abort's) message: what the stop means for the checks. */
const STOP_NOTE =
  'reading stopped here: the lines before were checked, the checks that need the whole input were not made (details.not_checked)';

/** A JSON object from one line. Attacker-controlled: check every field before use. */
export type JsonRecord = Record<string, unknown>;

export interface ReadNdjsonOptions {
  readonly signal?: AbortSignal;
  /**
   * Skim lines instead of decoding them whole (see `json/skim.ts`): the records handed to
   * `onRecord` then hold `""` for the strings the profile names. For formats that never read
   * those strings and whose lines can be megabytes long.
   */
  readonly skim?: SkimProfile;
  /** Skips the dropped strings of skimmed lines (see `VerifyOptions.stringSkipper`). */
  readonly stringSkipper?: StringSkipper | undefined;
}

/**
 * Reads every line of `context.opened`, reporting framing problems into `context.collector`, and
 * calls `onRecord` for each line that holds a JSON object.
 * @example
 * const summary = await readNdjson(context, (record, line) => checkRecord(record, line));
 */
export async function readNdjson(
  context: VerificationContext,
  onRecord: (record: JsonRecord, line: number) => void,
  options: ReadNdjsonOptions = {},
): Promise<NdjsonSummary> {
  const { collector, opened, limits } = context;
  if (opened.gzNameWithoutMagic) {
    collector.add('gzip.not_gzip', '$', 'gzip: bad magic bytes (the name ends in .gz but the file is not gzip)');
  }
  let recordCount = 0;
  let crlfReported = false;
  let ending: NdjsonEnding = 'end';
  let firstSkipped = 0; // the first line skipped for a per-line limit
  let lineCount = 0;

  const onLine = (line: Line, syntaxError?: string): void => {
    lineCount = line.number;
    const path = linePath(line.number);
    if (line.bom) collector.add('ndjson.bom', path, 'UTF-8 byte-order mark before first record');
    if (line.invalidUtf8) collector.add('ndjson.invalid_utf8', path, 'invalid UTF-8');
    if (line.crlf && !crlfReported) {
      crlfReported = true;
      collector.add('ndjson.crlf', path, 'CRLF line endings (reported once, first seen here)', { severity: 'warning' });
    }
    if (isBlankLine(line.text)) {
      collector.add('ndjson.blank_line', path, 'blank line', { severity: 'warning' });
      return;
    }
    if (syntaxError !== undefined) {
      collector.add('ndjson.invalid_json', path, `invalid JSON: ${syntaxError}`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      collector.add('ndjson.invalid_json', path, describeJsonError(error, line.terminated));
      return;
    }
    if (!line.terminated)
      collector.add('ndjson.no_final_newline', path, 'missing trailing newline', { severity: 'warning' });
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      collector.add(
        'ndjson.not_object',
        path,
        `line holds ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a JSON object`,
      );
      return;
    }
    // The kit's walkers and serialisers recurse into a record: nesting past the limit is reported
    // on its line, under the outermost members that hold it, and the record is skipped.
    const tooDeep = findNestingPastLimit(value, limits.maxJsonDepth);
    if (tooDeep !== undefined) {
      if (firstSkipped === 0) firstSkipped = line.number;
      collector.add(
        'limit.json_depth',
        linePath(line.number, namedSteps(tooDeep)),
        `JSON nesting is deeper than limits.maxJsonDepth (${limits.maxJsonDepth}); skipped`,
      );
      return;
    }
    if (firstSkipped !== 0) return;
    recordCount++;
    onRecord(value as JsonRecord, line.number);
  };

  const sink = options.skim
    ? skimLines(options.skim, onLine, options.stringSkipper)
    : collectLines((line) => onLine(line));
  try {
    lineCount = await forEachLine(
      opened.stream,
      {
        maxLineBytes: limits.maxLineBytes,
        ...(options.signal ? { signal: options.signal } : {}),
        tooLong: (number, max) => {
          lineCount = number;
          if (firstSkipped === 0) firstSkipped = number;
          collector.add(
            'limit.line_bytes',
            linePath(number),
            `line is longer than limits.maxLineBytes (${max} bytes); skipped`,
          );
        },
      },
      sink,
    );
  } catch (error) {
    if (isKitStop(error)) {
      ending = 'stopped';
      collector.add(error.code, '$', `${error.message}; ${STOP_NOTE}`);
    } else {
      ending = 'damaged';
      recordThrown(collector, error);
    }
  }
  if (firstSkipped !== 0 && ending !== 'stopped') ending = 'skipped';
  const notChecked =
    firstSkipped !== 0 && firstSkipped < lineCount
      ? [`the format's checks of the lines after line ${firstSkipped}`]
      : [];
  return { lineCount, recordCount, complete: ending === 'end', ending, notChecked };
}

/** A sink that skims each line (never holding it whole) and decodes only the skeleton. */
function skimLines(
  profile: SkimProfile,
  onLine: (line: Line, syntaxError?: string) => void,
  skipper: StringSkipper | undefined,
): LineSink {
  const skimmer = createJsonSkimmer(profile, skipper);
  return {
    write: (bytes) => skimmer.write(bytes),
    end(line) {
      const skimmed = skimmer.end();
      const { text, invalid } = decodeUtf8(skimmed.skeleton);
      onLine(withText(line, text, invalid || skimmed.invalidUtf8), skimmed.syntaxError);
    },
    discard() {
      skimmer.end();
    },
  };
}

/** `truncated JSON` for a value cut short (or a last line with no newline), else the parser's words. */
function describeJsonError(error: unknown, terminated: boolean): string {
  const raw = error instanceof Error ? error.message : String(error);
  const detail = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
  // V8: "Unexpected end of JSON input" / "Unterminated string in JSON at position …";
  // SpiderMonkey: "end of data …"; JavaScriptCore: "Unexpected EOF".
  if (/end of (JSON )?(input|data)|unterminated|unexpected EOF/i.test(raw))
    return 'truncated JSON (unexpected end of input)';
  if (!terminated) return `truncated JSON (last line, no newline): ${detail}`;
  return `invalid JSON: ${detail}`;
}

/**
 * Reports valibot issues of one line as findings: a missing key as `missingCode`, anything else
 * as `invalidCode`, each with the path inside the line (`line 7 $.payload.stream`) and a message
 * naming the field (`payload.stream 'stdin' not in {stdout, stderr}`).
 * @example
 * const result = v.safeParse(schema, record);
 * if (!result.success) reportIssues(collector.add, line, result.issues, codes, { prefix: ['payload'] });
 */
export function reportIssues(
  add: (code: FindingCode, path: string, message: string, extras?: { severity?: 'error' | 'warning' }) => void,
  line: number,
  issues: readonly BaseIssue<unknown>[],
  codes: { readonly missing: FindingCode; readonly invalid: FindingCode },
  options: { readonly prefix?: readonly PathSegment[]; readonly label?: string } = {},
): void {
  for (const issue of issues) {
    const segments: PathSegment[] = [...(options.prefix ?? [])];
    for (const item of issue.path ?? []) {
      const key = (item as { key?: unknown }).key;
      if (typeof key === 'string' || typeof key === 'number') segments.push(key);
    }
    const name = fieldName(options.label, segments);
    const last = issue.path?.[issue.path.length - 1] as { origin?: string } | undefined;
    if (last?.origin === 'key' && issue.input === undefined) {
      add(codes.missing, linePath(line, segments), `${name} missing`);
    } else {
      add(codes.invalid, linePath(line, segments), `${name} ${issue.message}`);
    }
  }
}

/** `messages[1].content`, or `header.session_count` when a label names the record itself. */
export function fieldName(label: string | undefined, segments: readonly PathSegment[]): string {
  let out = label ?? '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out === '' ? 'record' : out;
}

/** `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM)`: ISO 8601 date-times with a zone (what both tools write). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * True for an ISO 8601 date-time string with a zone that names a real instant.
 * @example
 * isIsoTimestamp('2025-11-20T09:05:36.000Z'); // true
 * isIsoTimestamp('Thu, 20 Nov 2025 09:19:21 GMT'); // false
 */
export function isIsoTimestamp(value: string): boolean {
  return ISO_8601.test(value) && !Number.isNaN(Date.parse(value));
}

/**
 * Renders an offending value for a message: short, strings in single quotes.
 * @example
 * quote('stdin'); // "'stdin'"
 */
export function quote(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 80 ? `${value.slice(0, 80)}…` : value}'`;
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json.length > 80 ? `${json.slice(0, 80)}…` : json;
  } catch {
    return String(value);
  }
}

/**
 * The value as a JSON object, or undefined for arrays, null and primitives.
 * @example
 * asObject(JSON.parse('{"a":1}')); // { a: 1 }
 * asObject([]); // undefined
 */
export function asObject(value: unknown): JsonRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : undefined;
}
