/**
 * Command-line parsing for `verify-export` (docs/architecture.md, 'Command line'), with
 * `node:util`'s parseArgs.
 * @module
 */
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import type { AutoVerifyOptions } from '../src/verify.ts';
import type { FormatId } from '../src/report/types.ts';
import { parseLimitText } from '../src/limit-text.ts';
import { LIMIT_FLAGS, limitsFromFlags } from './limit-flags.ts';

export const USAGE = `Usage: verify-export [options] <file|dir|->...

Verify AI-agent export artifacts offline: AgentXchain run/coordinator exports, Zaxy bundles and
disclosed subsets, agent-history NDJSON, codex-orchestrator exec JSONL (plain or gzip). A folder
is searched for *.json, *.ndjson, *.jsonl and each with .gz; several inputs are verified in
parallel, one line each and a summary.

Options:
  --format text|json|junit  output for people (default), the JSON report (one per line with
                            several inputs), or JUnit XML
  --kind auto|agentxchain|zaxy|agent-history|codex-exec
                            skip format detection (default auto)
  --compat agentxchain|zaxy print exactly what the reference tool prints (one input only)
  --expect-public-key HEX   Zaxy: the signer's public key must be this one (pinning)
  --strict                  treat the kit's extra checks (warnings) as errors
  -j, --jobs N              inputs verified at once (default: the number of cores)
  --timeout SECONDS         give up on an input after this long (exit 2)
  --annotations github|none GitHub workflow commands for error findings, on stderr
                            (default github when GITHUB_ACTIONS=true)
  -q, --quiet               print nothing but errors (on stderr); the exit code tells
  --max-bytes N             limits.maxInputBytes        --max-buffered-bytes N  limits.maxBufferedBytes
  --max-decompressed N      limits.maxDecompressedBytes --max-ratio N           limits.maxCompressionRatio
  --max-line-bytes N        limits.maxLineBytes         --max-depth N           limits.maxJsonDepth
  --max-findings N          limits.maxFindings          --max-retained-bytes N  limits.maxRetainedBytes
                            (N: decimal digits; sizes may end in KiB, MiB, GiB or TiB)
  -h, --help                this text
  -v, --version             the version of verify-export

Exit codes (the worst over all inputs): 0 pass, 1 verification failed,
2 input unreadable / not JSON / unknown format.
`;

export type OutputFormat = 'text' | 'json' | 'junit';

export interface CliArgs {
  /** The arguments naming inputs, as given: paths, folders, `-` for stdin. */
  readonly inputs: readonly string[];
  readonly format: OutputFormat;
  readonly compat?: 'agentxchain' | 'zaxy';
  /** Options for the core (cloneable: sent to worker threads as they are). */
  readonly options: AutoVerifyOptions;
  /** Inputs verified at once. */
  readonly jobs: number;
  /** Per input, in milliseconds. */
  readonly timeoutMs?: number;
  readonly quiet: boolean;
  readonly annotations: 'github' | 'none';
}

/** Options that take a value: the value is always the next argument, even when it starts with `-`. */
const VALUE_OPTIONS = new Set([
  'format',
  'kind',
  'compat',
  'expect-public-key',
  'jobs',
  'timeout',
  'annotations',
  ...Object.keys(LIMIT_FLAGS),
]);
const SHORT_VALUE_OPTIONS: Readonly<Record<string, string>> = { '-j': 'jobs' };

/** The longest `--timeout`: Node's timers hold at most 2^31 − 1 ms (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Joins each value-taking option with the argument after it (`--max-bytes -1` becomes
 * `--max-bytes=-1`), so a value that starts with `-` reaches the flag's own check, and its
 * message, instead of parseArgs' "argument is ambiguous".
 */
function attachValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      joined.push(...argv.slice(i));
      break;
    }
    const name = arg.startsWith('--') ? arg.slice(2) : SHORT_VALUE_OPTIONS[arg];
    if (name !== undefined && VALUE_OPTIONS.has(name) && i + 1 < argv.length) joined.push(`--${name}=${argv[++i]}`);
    else joined.push(arg);
  }
  return joined;
}

/** The default of `--jobs`: the cores Node may use. */
function defaultJobs(): number {
  return typeof availableParallelism === 'function' ? availableParallelism() : Math.max(1, cpus().length);
}

/**
 * Parses argv; returns `'help'` for -h and `'version'` for -v, or throws an Error whose message
 * is for the user. `env` decides the default of `--annotations` (`GITHUB_ACTIONS=true`).
 */
export function parseCliArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): CliArgs | 'help' | 'version' {
  const { values, positionals } = parseArgs({
    args: attachValues(argv),
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      kind: { type: 'string', default: 'auto' },
      compat: { type: 'string' },
      'expect-public-key': { type: 'string' },
      strict: { type: 'boolean', default: false },
      jobs: { type: 'string' },
      timeout: { type: 'string' },
      annotations: { type: 'string' },
      quiet: { type: 'boolean', short: 'q', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'v', default: false },
      ...Object.fromEntries(Object.keys(LIMIT_FLAGS).map((flag) => [flag, { type: 'string' as const }])),
    },
  });
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (positionals.length === 0) throw new Error('expected at least one <file|dir> (or - for stdin)');
  const format = values.format;
  if (format !== 'text' && format !== 'json' && format !== 'junit')
    throw new Error(`--format must be text, json or junit, not ${JSON.stringify(format)}`);
  const kind = values.kind as string;
  if (!['auto', 'agentxchain', 'zaxy', 'agent-history', 'codex-exec'].includes(kind))
    throw new Error(`unknown --kind ${JSON.stringify(kind)}`);
  const compat = values.compat as string | undefined;
  if (compat !== undefined && compat !== 'agentxchain' && compat !== 'zaxy')
    throw new Error('--compat must be agentxchain or zaxy');
  if (compat !== undefined && positionals.length !== 1)
    throw new Error('--compat takes exactly one input, as the reference tool does');
  if (compat !== undefined && format === 'junit') throw new Error('--compat prints text or json, not junit');
  const annotations = values.annotations ?? (env['GITHUB_ACTIONS'] === 'true' && !values.quiet ? 'github' : 'none');
  if (annotations !== 'github' && annotations !== 'none')
    throw new Error(`--annotations must be github or none, not ${JSON.stringify(annotations)}`);

  const limits = limitsFromFlags(values as Record<string, unknown>);
  const jobs = values.jobs === undefined ? defaultJobs() : parseLimitText(values.jobs);
  if (jobs === undefined) throw new Error(`--jobs takes a positive whole number; not ${JSON.stringify(values.jobs)}`);
  const timeoutMs = values.timeout === undefined ? undefined : parseSeconds(values.timeout);
  const expectPublicKey = values['expect-public-key'] as string | undefined;
  // --compat names the format too: the reference tool only reads its own format.
  const effectiveKind = (kind === 'auto' && compat ? compat : kind) as FormatId | 'auto';
  return {
    inputs: positionals,
    format,
    ...(compat ? { compat } : {}),
    options: {
      kind: effectiveKind,
      strict: values.strict as boolean,
      limits,
      ...(expectPublicKey !== undefined ? { expectPublicKey } : {}),
    },
    jobs,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    quiet: values.quiet as boolean,
    annotations,
  };
}

/** `--timeout`: seconds in decimal digits, a fraction allowed (`0.5`), as milliseconds. */
function parseSeconds(text: string): number {
  const ms = /^[0-9]+(\.[0-9]+)?$/.test(text) ? Math.ceil(Number(text) * 1000) : NaN;
  if (ms > 0 && ms <= MAX_TIMEOUT_MS) return ms;
  throw new Error(
    `--timeout takes a positive number of seconds in decimal digits (30, 0.5), at most ${MAX_TIMEOUT_MS / 1000}; not ${JSON.stringify(text)}`,
  );
}
