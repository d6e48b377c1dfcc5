/**
 * `verify-export [options] <file|dir|->...`: verify the inputs, print the reports, return the
 * worst exit code. One input (a file or `-`) prints its report as it always has; several, or a
 * folder, print one line (or one JSON line) per input and a summary.
 * @module
 */
import { toAgentxchainJson } from '../../src/formats/agentxchain/compat.ts';
import { toZaxyJson } from '../../src/formats/zaxy/compat.ts';
import type { Report } from '../../src/report.ts';
import { type CliArgs, parseCliArgs, USAGE } from '../args.ts';
import { githubAnnotations } from '../github-annotations.ts';
import { expandInputs, type InputTarget } from '../inputs.ts';
import { renderJunit } from '../junit.ts';
import { hasAbandonedReads } from '../open-input.ts';
import { packageVersion } from '../package-version.ts';
import { verifyAll } from '../pool.ts';
import { type Progress, startProgress } from '../progress.ts';
import { safeText } from '../safe-text.ts';
import { renderOutcomeLine, renderSummary, renderText } from '../text-report.ts';
import { type Outcome, verifyFile } from '../verify-file.ts';

const EXIT: Record<Report['overall'], number> = { pass: 0, fail: 1, error: 2 };

export async function verifyCommand(argv: readonly string[]): Promise<number> {
  let args;
  let targets: readonly InputTarget[];
  let many: boolean;
  try {
    args = parseCliArgs(argv);
    if (args === 'help') {
      process.stdout.write(USAGE);
      return 0;
    }
    if (args === 'version') {
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    ({ targets, many } = await expandInputs(args.inputs));
  } catch (error) {
    process.stderr.write(`verify-export: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const code = many ? await verifyMany(args, targets) : await verifyOne(args, targets[0]!);
  // A device abandoned at --timeout may hold a thread of Node's pool in a read that cannot be
  // cancelled, and with it the process (a FIFO's is released at once): say why it does not end.
  if (hasAbandonedReads())
    setTimeout(() => {
      if (hasAbandonedReads())
        process.stderr.write('verify-export: waiting for a read abandoned at --timeout to return (a device?)\n');
    }, 1000).unref();
  return code;
}

/** One input: its report exactly as before there were several (text, JSON, compat). */
async function verifyOne(args: CliArgs, target: InputTarget): Promise<number> {
  const progress = startProgress(
    process.stderr,
    { bytesRead: 0, totalBytes: undefined, filesDone: 0, filesTotal: 1 },
    !args.quiet,
  );
  let outcome: Outcome;
  try {
    outcome = await verifyFile(target.label, args.options, {
      ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
      ...(progress.drawing
        ? {
            onProgress: (bytesRead: number, totalBytes?: number) => {
              progress.state.bytesRead = bytesRead;
              progress.state.totalBytes = totalBytes;
            },
          }
        : {}),
    });
  } finally {
    progress.stop();
  }
  reportTimeout(args, outcome);
  if (args.annotations === 'github') process.stderr.write(githubAnnotations(outcome, workspace()));
  if ('unreadable' in outcome) return printUnreadable(args, outcome.label, outcome.unreadable);
  const code = print(args, outcome.report);
  if (args.format === 'junit' && !args.quiet)
    process.stdout.write(renderJunit([outcome], outcome.report.stats.duration_ms));
  return code;
}

/** The report, in the format asked for (nothing with --quiet); returns the exit code. */
function print(args: CliArgs, report: Report): number {
  const { text, code } = rendered(args, report);
  // Known before writing: a reader that stops early (`| head`) still gets it (bin/cli.ts).
  process.exitCode = code;
  if (!args.quiet && text !== undefined) process.stdout.write(text);
  return code;
}

/** The report's text in the format asked for (none for junit, printed by the caller), and the exit code. */
function rendered(args: CliArgs, report: Report): { text: string | undefined; code: number } {
  if (args.compat === 'agentxchain') {
    const compat = toAgentxchainJson(report);
    return {
      text:
        args.format === 'json'
          ? `${JSON.stringify(compat, null, 2)}\n`
          : renderText(report, process.stdout.isTTY === true),
      code: EXIT[compat['overall'] as Report['overall']] ?? 2,
    };
  }
  if (args.compat === 'zaxy') {
    const compat = toZaxyJson(report);
    return {
      text:
        args.format === 'json'
          ? `${JSON.stringify(compat, null, 2)}\n`
          : compat['ok']
            ? 'verify: OK\n'
            : `verify: FAIL - ${safeText(String(compat['reason']))}\n`,
      code: compat['ok'] ? 0 : report.overall === 'error' ? 2 : 1,
    };
  }
  const text =
    args.format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : args.format === 'text'
        ? renderText(report, process.stdout.isTTY === true)
        : undefined;
  return { text, code: EXIT[report.overall] };
}

/** A file that cannot be opened: AgentXchain's command-error shape with JSON, else a message on stderr. */
function printUnreadable(args: CliArgs, label: string, message: string): number {
  process.exitCode = 2;
  if (args.format === 'json' && !args.quiet) {
    process.stdout.write(`${JSON.stringify({ overall: 'error', input: label, message }, null, 2)}\n`);
  } else {
    if (args.format === 'junit' && !args.quiet) process.stdout.write(renderJunit([{ label, unreadable: message }], 0));
    process.stderr.write(`verify-export: cannot read ${safeText(label)}: ${safeText(message)}\n`);
  }
  return 2;
}

/** Several inputs: one line each as they finish (in input order), then the summary; the worst exit code. */
async function verifyMany(args: CliArgs, targets: readonly InputTarget[]): Promise<number> {
  const started = performance.now();
  const sizes = targets.map((target) => (target.kind === 'file' ? target.size : undefined));
  const progress = startProgress(
    process.stderr,
    {
      bytesRead: 0,
      totalBytes: sizes.every((size) => size !== undefined) ? sizes.reduce((a, b) => a + b, 0) : undefined,
      filesDone: 0,
      filesTotal: targets.length,
    },
    !args.quiet,
  );
  const bytesRead = new Array<number>(targets.length).fill(0);
  const finished: (Outcome | undefined)[] = new Array<Outcome | undefined>(targets.length);
  const kept: Outcome[] = [];
  let printed = 0;
  let worst = 0;
  let emitted = 0;
  const emit = (outcome: Outcome): void => {
    worst = Math.max(worst, 'report' in outcome ? EXIT[outcome.report.overall] : 2);
    // For a reader that stops early (bin/cli.ts): the worst verdict once every input is shown;
    // before that, inputs are left unverified, which is never a pass.
    emitted++;
    process.exitCode = emitted === targets.length ? worst : Math.max(worst, 2);
    reportTimeout(args, outcome);
    if (args.annotations === 'github') process.stderr.write(githubAnnotations(outcome, workspace()));
    if (args.quiet) {
      if ('unreadable' in outcome)
        process.stderr.write(
          `verify-export: cannot read ${safeText(outcome.label)}: ${safeText(outcome.unreadable)}\n`,
        );
      return;
    }
    if (args.format === 'junit') kept.push(outcome);
    else if (args.format === 'json') progress.around(() => process.stdout.write(`${jsonLine(outcome)}\n`));
    else {
      kept.push(slim(outcome));
      progress.around(() => process.stdout.write(renderOutcomeLine(outcome, process.stdout.isTTY === true)));
    }
  };
  try {
    await verifyAll(targets, {
      jobs: args.jobs,
      options: args.options,
      ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
      ...(progress.drawing ? { onProgress: (index, bytes) => track(progress, bytesRead, index, bytes) } : {}),
      onOutcome: (index, outcome) => {
        if (sizes[index] !== undefined) track(progress, bytesRead, index, sizes[index]);
        progress.state.filesDone++;
        finished[index] = outcome;
        for (; printed < targets.length && finished[printed] !== undefined; printed++) {
          emit(finished[printed]!);
          finished[printed] = undefined;
        }
      },
    });
  } finally {
    progress.stop();
  }
  const elapsed = performance.now() - started;
  if (!args.quiet && args.format === 'junit') process.stdout.write(renderJunit(kept, elapsed));
  if (!args.quiet && args.format === 'text') process.stdout.write(renderSummary(kept, elapsed));
  return worst;
}

/** An input's report as one JSON line, or AgentXchain's command-error shape when it could not be read. */
function jsonLine(outcome: Outcome): string {
  return 'report' in outcome
    ? JSON.stringify(outcome.report)
    : JSON.stringify({ overall: 'error', input: outcome.label, message: outcome.unreadable });
}

/** What the summary needs of an outcome (its verdict), without its findings and details. */
function slim(outcome: Outcome): Outcome {
  if ('unreadable' in outcome) return outcome;
  return { label: outcome.label, report: { overall: outcome.report.overall } as Report };
}

/** Records the bytes read so far by input `index`. */
function track(progress: Progress, bytesRead: number[], index: number, bytes: number): void {
  progress.state.bytesRead += bytes - bytesRead[index]!;
  bytesRead[index] = bytes;
}

/** Says on stderr that an input was given up at --timeout (its report says it too, as `input.aborted`). */
function reportTimeout(args: CliArgs, outcome: Outcome): void {
  if (!outcome.timedOut || (args.format === 'text' && 'unreadable' in outcome && !args.quiet)) return;
  process.stderr.write(
    `verify-export: ${safeText(outcome.label)}: gave up after --timeout ${args.timeoutMs! / 1000} s\n`,
  );
}

/** Where GitHub's annotations are relative to: the workflow's workspace, else the current folder. */
function workspace(): string {
  return process.env['GITHUB_WORKSPACE'] ?? process.cwd();
}
