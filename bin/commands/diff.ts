/**
 * `verify-export diff [--compat agentxchain] [--format text|json] <left> <right>`: what changed
 * between two AgentXchain exports, and the governance regressions (docs/agentxchain-diff.md).
 * With `--compat agentxchain`, stdout, stderr and the exit code are those of
 * `agentxchain diff --export <left> <right> [--json]`; without it, the corrected diff, and the exit
 * code says whether it found regressions.
 * @module
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { agentxchainDiffText } from '../../src/formats/agentxchain/diff/index.ts';
import {
  diffAgentxchainSides,
  readAgentxchainDiffSide,
  type AgentxchainDiffOptions,
} from '../../src/formats/agentxchain/diff/diff.ts';
import type { LoadedSide } from '../../src/formats/agentxchain/diff/prepare.ts';
import type { AgentxchainDiffRefusal, AgentxchainDiffResult } from '../../src/formats/agentxchain/diff/types.ts';
import { limitsFromFlags } from '../limit-flags.ts';
import { nodeGunzip } from '../node-gunzip.ts';
import { openFile } from '../open-input.ts';
import { loadStringSkipper } from '../../wasm/string-skip.ts';

export const DIFF_USAGE = `Usage: verify-export diff [--compat agentxchain] [--format text|json] <left> <right>

Compare two AgentXchain exports (run or coordinator, plain or gzip): what changed from <left> (the
older) to <right>, and the governance regressions (status, phase, budget, gates, delegations, child
repos). The exports are not verified: run verify-export on each to know they are intact.

Options:
  --format text|json     text for people (default), or the diff object as JSON (--json works too)
  --compat agentxchain   print exactly what \`agentxchain diff --export <left> <right> [--json]\`
                         prints, with its exit codes and its bugs (a diff whose only news is a
                         regression says "No differences.")
  --max-bytes N, --max-buffered-bytes N, --max-decompressed N, --max-ratio N, --max-depth N
                         limits, as for verify-export
  -h, --help             this text

Exit codes: 0 no regressions, 1 regressions found, 2 an export could not be read or the two cannot
be compared (bad usage too). With --compat agentxchain: 0 diff printed (regressions or not),
1 refused (the message on stderr).
`;

/** Parsed command line. */
interface DiffArgs {
  readonly left: string;
  readonly right: string;
  readonly compat: boolean;
  readonly format: 'text' | 'json';
  readonly options: AgentxchainDiffOptions;
}

export async function diffCommand(argv: readonly string[]): Promise<number> {
  let args: DiffArgs | 'help';
  try {
    args = parseDiffArgs(argv);
  } catch (error) {
    process.stderr.write(`verify-export diff: ${(error as Error).message}\n\n${DIFF_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(DIFF_USAGE);
    return 0;
  }
  const result = await runDiff(args);
  if (!result.ok) return refuse(args, result.refusal);
  process.stdout.write(
    args.format === 'json' ? `${JSON.stringify(result.diff, null, 2)}\n` : agentxchainDiffText(result.diff),
  );
  if (args.compat) return 0;
  return result.diff.has_regressions ? 1 : 0;
}

/** Loads left, then right (only when left loaded, as the reference), then diffs. */
async function runDiff(args: DiffArgs): Promise<AgentxchainDiffResult> {
  const left = await loadSide(args.left, 'left', args.options);
  if (!left.ok) return left;
  const right = await loadSide(args.right, 'right', args.options);
  if (!right.ok) return right;
  return diffAgentxchainSides(left, right, args.options);
}

/**
 * The reference's loader for one path: resolved against the cwd; a path that does not exist is
 * "not found"; one that cannot be read is a parse failure with Node's message (readFileSync throws
 * inside the reference's JSON.parse try).
 */
async function loadSide(ref: string, which: 'left' | 'right', options: AgentxchainDiffOptions): Promise<LoadedSide> {
  const path = resolve(ref);
  if (!existsSync(path)) {
    return { ok: false, refusal: { code: 'read_failed', side: which, message: `Export file not found: ${path}` } };
  }
  let file;
  try {
    file = await openFile(path);
  } catch (error) {
    const message = `Failed to parse export file ${path}: ${(error as Error).message}`;
    return { ok: false, refusal: { code: 'read_failed', side: which, message } };
  }
  try {
    const stringSkipper = await loadStringSkipper();
    const side = await readAgentxchainDiffSide(
      file.input,
      which,
      {
        ...options,
        ...(which === 'left' ? { leftName: path } : { rightName: path }),
        ...(stringSkipper ? { stringSkipper } : {}),
      },
      file.readAgain,
    );
    // A file that changed while it was read is not diffed, as `verify` gives it no verdict.
    const changed = side.ok ? await file.changedSinceOpened?.() : undefined;
    if (changed === undefined) return side;
    return {
      ok: false,
      refusal: { code: 'read_failed', side: which, message: `Failed to parse export file ${path}: ${changed}` },
    };
  } finally {
    await file.close();
  }
}

/** A refusal: the reference's line on stderr and exit 1 (compat), or the kit's, exit 2. */
function refuse(args: DiffArgs, refusal: AgentxchainDiffRefusal): number {
  if (args.compat) {
    process.stderr.write(`${refusal.message}\n`);
    return 1;
  }
  process.stderr.write(`verify-export diff: ${refusal.message}\n`);
  return 2;
}

/** Parses argv; `'help'` for -h, or throws an Error whose message is for the user. */
function parseDiffArgs(argv: readonly string[]): DiffArgs | 'help' {
  const limitFlags = ['max-bytes', 'max-buffered-bytes', 'max-decompressed', 'max-ratio', 'max-depth'] as const;
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      json: { type: 'boolean', default: false },
      compat: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      ...Object.fromEntries(limitFlags.map((flag) => [flag, { type: 'string' } as const])),
    },
  });
  if (values.help) return 'help';
  const format = values.format ?? (values.json ? 'json' : 'text');
  if (format !== 'text' && format !== 'json') throw new Error(`--format must be text or json, not ${format}`);
  if (values.json && format !== 'json') throw new Error('--json contradicts --format text');
  if (values.compat !== undefined && values.compat !== 'agentxchain') {
    throw new Error(`--compat must be agentxchain, not ${values.compat}`);
  }
  if (positionals.length !== 2) throw new Error('expected two exports: <left> <right>');
  const compat = values.compat === 'agentxchain';
  return {
    left: positionals[0]!,
    right: positionals[1]!,
    compat,
    format,
    options: { mode: compat ? 'reference' : 'corrected', limits: limitsFromFlags(values), gunzip: nodeGunzip },
  };
}
