/**
 * `verify-export report [--compat agentxchain] [--format text|json|markdown] [--now ISO] <file|->`:
 * the governance report of an AgentXchain export (docs/agentxchain-report.md), as
 * `agentxchain report` prints it. With `--compat agentxchain` the output and exit codes are the
 * reference's (its recorded bugs included); without it the report is the corrected one.
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { agentxchainReportMarkdown, agentxchainReportText } from '../../src/formats/agentxchain/report/render.ts';
import {
  agentxchainReportExitCode,
  reportAgentxchain,
  type AgentxchainReport,
} from '../../src/formats/agentxchain/report/report.ts';
import { nodeBase64 } from '../node-base64.ts';
import { nodeGunzip } from '../node-gunzip.ts';
import { nodeSha256 } from '../node-sha256.ts';
import { type OpenedFile, openFile, openStdin } from '../open-input.ts';
import { writeInSlices } from '../write-out.ts';
import { loadStringSkipper } from '../../wasm/string-skip.ts';

export const REPORT_USAGE = `Usage: verify-export report [--compat agentxchain] [--format text|json|markdown] [--now ISO] <file|->

Verify an AgentXchain run or coordinator export (plain or gzip) and print its governance report, as
\`agentxchain report\` prints it.

Options:
  --format text|json|markdown   the report's form (default text)
  --compat agentxchain          exactly the reference's output and exit codes, its recorded bugs
                                included (a turn's cost read only from cost.total_usd, ...)
  --now ISO                     the report's clock, an ISO 8601 instant (2026-11-25T00:00:00Z);
                                default the current time. It sets generated_at and which events
                                count as recent (the last 15 minutes)
  -h, --help                    this text

Exit codes: 0 the export verified and the report was printed, 1 the export failed verification
(the fail report lists why), 2 unreadable input or bad usage.
`;

const FORMATS = ['text', 'json', 'markdown'] as const;
type ReportFormat = (typeof FORMATS)[number];

interface ReportArgs {
  readonly file: string;
  readonly format: string;
  readonly compat: boolean;
  readonly now: number | undefined;
}

export async function reportCommand(argv: readonly string[]): Promise<number> {
  let args: ReportArgs | 'help';
  try {
    args = parseReportArgs(argv);
  } catch (error) {
    process.stderr.write(`verify-export report: ${(error as Error).message}\n\n${REPORT_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(REPORT_USAGE);
    return 0;
  }
  const fromStdin = args.file === '-';
  const label = fromStdin ? 'stdin' : resolve(args.file);
  let report: AgentxchainReport;
  let output: string | undefined;
  let file: OpenedFile | undefined;
  try {
    file = fromStdin ? openStdin() : await openFile(label);
  } catch (error) {
    // The reference's loader: Node's own message in the error report (exit 2).
    report = { overall: 'error', input: label, message: (error as Error).message };
  }
  if (file !== undefined) {
    try {
      const stringSkipper = await loadStringSkipper();
      report = await reportAgentxchain(file.input, {
        name: label,
        mode: args.compat ? 'reference' : 'corrected',
        sha256: nodeSha256,
        decodeBase64: nodeBase64,
        ...(stringSkipper ? { stringSkipper } : {}),
        gunzip: nodeGunzip,
        // A large file's contents are read again from it when the report needs them, not kept.
        ...(file.readAgain ? { readInputAgain: file.readAgain } : {}),
        ...(args.now === undefined ? {} : { now: args.now }),
      });
      // Rendered while the file is open, since rendering may still read it; a file that changed
      // meanwhile gets no report, as `verify` gives it no verdict.
      output = render(args, report);
      const changed = await file.changedSinceOpened?.();
      if (changed !== undefined) {
        report = { overall: 'error', input: label, message: changed };
        output = render(args, report);
      }
    } finally {
      await file.close();
    }
  }
  return print(args, report!, output ?? render(args, report!));
}

/** The report in `args.format` (undefined for a format the reference does not print). */
function render(args: ReportArgs, report: AgentxchainReport): string | undefined {
  if (!(FORMATS as readonly string[]).includes(args.format)) return undefined;
  const format = args.format as ReportFormat;
  if (format === 'json') return JSON.stringify(report, null, 2);
  if (format === 'markdown') return agentxchainReportMarkdown(report);
  const text = agentxchainReportText(report);
  // The reference colours a failing or unreadable report red on a terminal (chalk).
  return report.overall !== 'pass' && process.stdout.isTTY === true && !process.env['NO_COLOR']
    ? `\u001b[31m${text}\u001b[39m`
    : text;
}

async function print(args: ReportArgs, report: AgentxchainReport, output: string | undefined): Promise<number> {
  if (output === undefined) {
    // Compat only (a bad format is a usage error otherwise): the reference loads and verifies
    // first, then refuses to print, with exit 1 whatever the verdict.
    process.stderr.write(`Unsupported report format "${args.format}". Use "text", "json", "markdown", or "html".\n`);
    return 1;
  }
  // Known before writing: a reader that stops early (`| head`) still gets it (bin/cli.ts).
  const code = agentxchainReportExitCode(report);
  process.exitCode = code;
  // Every byte, also through a pipe (the reference can lose the tail of a large report there).
  await writeInSlices(`${output}\n`);
  return code;
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `--now`: an ISO 8601 instant with a date, a time and a zone (`Z` or `±hh:mm`), every field in
 * range (no 24:00, no 30 February), as ms since the epoch; throws with a message for the user.
 */
export function parseNow(value: string): number {
  const match = ISO_INSTANT.exec(value);
  const ms = Date.parse(value);
  if (match && Number.isFinite(ms)) {
    const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
    const asUtc = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
    const inRange =
      asUtc.getUTCFullYear() === year &&
      asUtc.getUTCMonth() === month! - 1 &&
      asUtc.getUTCDate() === day &&
      asUtc.getUTCHours() === hour &&
      asUtc.getUTCMinutes() === minute &&
      asUtc.getUTCSeconds() === second;
    if (inRange) return ms;
  }
  throw new Error(`--now must be an ISO 8601 instant such as 2026-11-25T00:00:00Z, not ${JSON.stringify(value)}`);
}

/** Parses argv; `'help'` for -h, or throws an Error whose message is for the user. */
function parseReportArgs(argv: readonly string[]): ReportArgs | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      compat: { type: 'string' },
      now: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  if (values.compat !== undefined && values.compat !== 'agentxchain')
    throw new Error(`--compat must be agentxchain, not ${values.compat}`);
  const compat = values.compat === 'agentxchain';
  // html is a format of the reference that the kit does not render (docs/agentxchain-report.md).
  if (values.format === 'html') throw new Error('--format html is not supported; use text, json or markdown');
  if (!compat && !(FORMATS as readonly string[]).includes(values.format))
    throw new Error(`--format must be text, json or markdown, not ${values.format}`);
  if (positionals.length !== 1) throw new Error('expected exactly one <file> (or - for stdin)');
  return {
    file: positionals[0]!,
    format: values.format,
    compat,
    now: values.now === undefined ? undefined : parseNow(values.now),
  };
}
