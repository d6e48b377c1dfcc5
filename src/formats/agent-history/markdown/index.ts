/**
 * agent-history's own markdown for a verified impl-2.0 session (docs/agent-history-markdown.md):
 * what `agent-history session export --markdown-level <1-4> [--minimal]` writes, rebuilt from the
 * NDJSON it exported, byte for byte in every mode the NDJSON determines.
 *
 * One pass over the input: the decompressed bytes go to the verifier and, through a tap, to a line
 * splitter that renders the session as it is read (`session-reader.ts`). The markdown is released
 * only when the file passed verification, so it is held until the end; its length is bounded by
 * `maxMarkdownLength`.
 * @module
 */
import { resolveLimits } from '../../../limits.ts';
import type { VerifyOptions } from '../../../options.ts';
import type { ReportOf } from '../../../report.ts';
import type { VerifyInput } from '../../../stream/input.ts';
import { createLineSplitter } from '../../../stream/lines.ts';
import { openInput, type OpenedInput } from '../../../stream/open.ts';
import { pumpThrough } from '../../../stream/pump.ts';
import { verifyAgentHistory } from '../verify.ts';
import { markdownFileName } from './file-name.ts';
import type { MarkdownLevel } from './renderer.ts';
import { createSessionReader } from './session-reader.ts';

export type { MarkdownLevel } from './renderer.ts';

/**
 * Default `maxMarkdownLength`: 256 Mi UTF-16 code units, half of V8's longest string, so a level-4
 * document of a 100 MB session fits with room to spare.
 */
export const DEFAULT_MAX_MARKDOWN_LENGTH = 256 * 1024 * 1024;

export interface AgentHistoryMarkdownOptions extends VerifyOptions {
  /** agent-history's `--markdown-level`. */
  readonly level: MarkdownLevel;
  /** agent-history's `--minimal`. Default false. */
  readonly minimal?: boolean;
  /** Longest markdown made, in UTF-16 code units (JavaScript string length). Default 256 Mi. */
  readonly maxMarkdownLength?: number;
}

/** The markdown, when it was made. */
export interface AgentHistoryMarkdownRendered {
  /**
   * `exact`: the tool's own file, byte for byte. `reconstructed`: the same layout, but the tool
   * prints things the NDJSON does not hold (`missing` names them); show it as reconstructed.
   */
  readonly status: 'exact' | 'reconstructed';
  readonly markdown: string;
  /** The name the tool gives the file (`<YYYYmmddHHMMSS>_<stem>.md`). */
  readonly fileName: string;
  /** Empty when exact. */
  readonly missing: readonly string[];
  /** The input's verification (it passed). */
  readonly report: ReportOf<'agent-history'>;
}

/** No markdown, and why. */
export interface AgentHistoryMarkdownRefused {
  /**
   * `not-verified`: the input failed verification (see `report`). `unsupported`: a valid file that
   * is not one impl-2.0 session (design-1.0). `too-long`: past `maxMarkdownLength`. `unreadable`: a
   * line Python's JSON reader would refuse (e.g. an integer of more than 4,300 digits).
   */
  readonly status: 'not-verified' | 'unsupported' | 'too-long' | 'unreadable';
  readonly markdown: null;
  /** For people: why there is no markdown. */
  readonly message: string;
  readonly report: ReportOf<'agent-history'>;
}

export type AgentHistoryMarkdownResult = AgentHistoryMarkdownRendered | AgentHistoryMarkdownRefused;

/**
 * Verifies an agent-history NDJSON export (plain or gzip) and, when it passes, renders its session
 * as agent-history's markdown at `options.level` (with `options.minimal`).
 * @throws TypeError on API misuse (bad level, bad limits, unsupported input type).
 * @example
 * const result = await agentHistoryMarkdown(file, { level: 3, name: file.name });
 * if (result.markdown !== null) download(new Blob([result.markdown]), result.fileName);
 * else console.log(result.status, result.message);
 */
export async function agentHistoryMarkdown(
  input: VerifyInput | OpenedInput,
  options: AgentHistoryMarkdownOptions,
): Promise<AgentHistoryMarkdownResult> {
  const { level } = options;
  if (level !== 1 && level !== 2 && level !== 3 && level !== 4) {
    throw new TypeError('options.level must be 1, 2, 3 or 4');
  }
  const maxLength = options.maxMarkdownLength ?? DEFAULT_MAX_MARKDOWN_LENGTH;
  if (typeof maxLength !== 'number' || !(maxLength > 0)) {
    throw new TypeError('options.maxMarkdownLength must be a positive number');
  }
  const limits = resolveLimits(options.limits);
  const opened = await openInput(input, {
    limits,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.gunzip ? { gunzip: options.gunzip } : {}),
  });
  const reader = createSessionReader({
    mode: { level, minimal: options.minimal === true },
    maxDepth: limits.maxJsonDepth,
    maxLength,
  });
  const splitter = createLineSplitter({
    maxLineBytes: limits.maxLineBytes,
    sink: reader.sink,
    tooLong: reader.skipLine,
  });
  // The tap: every decompressed byte the verifier reads also goes to the renderer's line splitter.
  const tapped = pumpThrough(
    opened.stream,
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        splitter.push(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        splitter.finish();
      },
    }),
  );
  // The opened input with the tapped stream (its other fields, the opened mark included, as they are).
  const report = await verifyAgentHistory({ ...opened, stream: tapped }, options);

  if (report.overall !== 'pass') {
    return refused('not-verified', 'the input failed verification as an agent-history export', report);
  }
  if (report.kind !== 'impl-2.0') {
    return refused(
      'unsupported',
      "a design-1.0 file (the design document's multi-session shape, never written by agent-history): the tool writes markdown for impl-2.0 sessions only",
      report,
    );
  }
  const outcome = reader.finish();
  if (!outcome.ok) {
    return refused(
      outcome.reason === 'too-long' ? 'too-long' : outcome.reason === 'unreadable-line' ? 'unreadable' : 'unsupported',
      outcome.message,
      report,
    );
  }
  return {
    status: outcome.fidelity.exact ? 'exact' : 'reconstructed',
    markdown: outcome.markdown,
    fileName: markdownFileName(outcome.facts.sessionFile, outcome.facts.firstTimestamp),
    missing: outcome.fidelity.missing,
    report,
  };
}

function refused(
  status: AgentHistoryMarkdownRefused['status'],
  message: string,
  report: ReportOf<'agent-history'>,
): AgentHistoryMarkdownRefused {
  return { status, markdown: null, message, report };
}
