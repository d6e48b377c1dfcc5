/**
 * `verify-export [options] <file|->`: verify one artifact, print the report, return the exit code.
 * @module
 */
import { resolve } from 'node:path';
import { toAgentxchainJson } from '../../src/formats/agentxchain/compat.ts';
import { toZaxyJson } from '../../src/formats/zaxy/compat.ts';
import { verify } from '../../src/verify.ts';
import { parseCliArgs, USAGE } from '../args.ts';
import { nodeGunzip } from '../node-gunzip.ts';
import { nodeEntryHasher, nodeSha256 } from '../node-sha256.ts';
import { type OpenedFile, openFile, openStdin } from '../open-input.ts';
import { packageVersion } from '../package-version.ts';
import { renderText } from '../text-report.ts';
import type { Report } from '../../src/report.ts';

const EXIT: Record<Report['overall'], number> = { pass: 0, fail: 1, error: 2 };

export async function verifyCommand(argv: readonly string[]): Promise<number> {
  let args;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`verify-export: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const fromStdin = args.file === '-';
  const label = fromStdin ? 'stdin' : resolve(args.file);
  let file: OpenedFile;
  try {
    file = fromStdin ? openStdin() : await openFile(label);
  } catch (error) {
    return printUnreadable(args, label, (error as Error).message);
  }
  try {
    const report = await verify(file.input, {
      ...args.options,
      name: label,
      sha256: nodeSha256,
      entryHasher: nodeEntryHasher,
      gunzip: nodeGunzip,
    });
    return print(args, report);
  } finally {
    await file.close();
  }
}

type ParsedArgs = Exclude<ReturnType<typeof parseCliArgs>, 'help' | 'version'>;

function print(args: ParsedArgs, report: Report): number {
  if (args.compat === 'agentxchain') {
    const compat = toAgentxchainJson(report);
    if (args.format === 'json') process.stdout.write(`${JSON.stringify(compat, null, 2)}\n`);
    else process.stdout.write(renderText(report, process.stdout.isTTY === true));
    return EXIT[compat['overall'] as Report['overall']] ?? 2;
  }
  if (args.compat === 'zaxy') {
    const compat = toZaxyJson(report);
    if (args.format === 'json') process.stdout.write(`${JSON.stringify(compat, null, 2)}\n`);
    else process.stdout.write(compat['ok'] ? 'verify: OK\n' : `verify: FAIL - ${String(compat['reason'])}\n`);
    return compat['ok'] ? 0 : report.overall === 'error' ? 2 : 1;
  }
  if (args.format === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(renderText(report, process.stdout.isTTY === true));
  return EXIT[report.overall];
}

/** A file that cannot be opened: AgentXchain's command-error shape in compat mode, else a message. */
function printUnreadable(args: ParsedArgs, label: string, message: string): number {
  if (args.compat === 'agentxchain' && args.format === 'json') {
    process.stdout.write(`${JSON.stringify({ overall: 'error', input: label, message }, null, 2)}\n`);
  } else if (args.format === 'json') {
    process.stdout.write(`${JSON.stringify({ overall: 'error', input: label, message }, null, 2)}\n`);
  } else {
    process.stderr.write(`verify-export: cannot read ${label}: ${message}\n`);
  }
  return 2;
}
