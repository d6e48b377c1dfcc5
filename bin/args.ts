/**
 * Command-line parsing for `verify-export` (docs/architecture.md, 'Command line'), with
 * `node:util`'s parseArgs.
 * @module
 */
import { parseArgs } from 'node:util';
import type { AutoVerifyOptions } from '../src/verify.ts';
import type { FormatId } from '../src/report/types.ts';
import type { Limits } from '../src/limits.ts';

export const USAGE = `Usage: verify-export [options] <file|->

Verify an AI-agent export artifact offline: AgentXchain run/coordinator exports, Zaxy bundles and
disclosed subsets, agent-history NDJSON, codex-orchestrator exec JSONL (plain or gzip).

Options:
  --format text|json        output for people (default) or the JSON report
  --kind auto|agentxchain|zaxy|agent-history|codex-exec
                            skip format detection (default auto)
  --compat agentxchain|zaxy print exactly what the reference tool prints (with --format json)
  --expect-public-key HEX   Zaxy: the signer's public key must be this one (pinning)
  --strict                  treat the kit's extra checks (warnings) as errors
  --max-bytes N             limits.maxInputBytes        --max-buffered-bytes N  limits.maxBufferedBytes
  --max-decompressed N      limits.maxDecompressedBytes --max-ratio N           limits.maxCompressionRatio
  --max-line-bytes N        limits.maxLineBytes         --max-depth N           limits.maxJsonDepth
  --max-findings N          limits.maxFindings          --max-retained-bytes N  limits.maxRetainedBytes
  -h, --help                this text
  -v, --version             the version of verify-export

Exit codes: 0 pass, 1 verification failed, 2 input unreadable / not JSON / unknown format.
`;

export interface CliArgs {
  readonly file: string;
  readonly format: 'text' | 'json';
  readonly compat?: 'agentxchain' | 'zaxy';
  readonly options: AutoVerifyOptions;
}

const LIMIT_FLAGS: Record<string, keyof Limits> = {
  'max-bytes': 'maxInputBytes',
  'max-buffered-bytes': 'maxBufferedBytes',
  'max-decompressed': 'maxDecompressedBytes',
  'max-ratio': 'maxCompressionRatio',
  'max-line-bytes': 'maxLineBytes',
  'max-depth': 'maxJsonDepth',
  'max-findings': 'maxFindings',
  'max-retained-bytes': 'maxRetainedBytes',
};

/**
 * Parses argv; returns `'help'` for -h and `'version'` for -v, or throws an Error whose message
 * is for the user.
 */
export function parseCliArgs(argv: readonly string[]): CliArgs | 'help' | 'version' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      kind: { type: 'string', default: 'auto' },
      compat: { type: 'string' },
      'expect-public-key': { type: 'string' },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'v', default: false },
      ...Object.fromEntries(Object.keys(LIMIT_FLAGS).map((flag) => [flag, { type: 'string' as const }])),
    },
  });
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (positionals.length !== 1) throw new Error('expected exactly one <file> (or - for stdin)');
  const format = values.format;
  if (format !== 'text' && format !== 'json') throw new Error(`--format must be text or json, not ${String(format)}`);
  const kind = values.kind as string;
  if (!['auto', 'agentxchain', 'zaxy', 'agent-history', 'codex-exec'].includes(kind))
    throw new Error(`unknown --kind ${kind}`);
  const compat = values.compat as string | undefined;
  if (compat !== undefined && compat !== 'agentxchain' && compat !== 'zaxy')
    throw new Error('--compat must be agentxchain or zaxy');

  const limits: Partial<Record<keyof Limits, number>> = {};
  for (const [flag, key] of Object.entries(LIMIT_FLAGS)) {
    const raw = (values as Record<string, unknown>)[flag];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${flag} must be a positive number`);
    limits[key] = n;
  }
  const expectPublicKey = values['expect-public-key'] as string | undefined;
  // --compat names the format too: the reference tool only reads its own format.
  const effectiveKind = (kind === 'auto' && compat ? compat : kind) as FormatId | 'auto';
  return {
    file: positionals[0]!,
    format,
    ...(compat ? { compat } : {}),
    options: {
      kind: effectiveKind,
      strict: values.strict as boolean,
      limits,
      ...(expectPublicKey !== undefined ? { expectPublicKey } : {}),
    },
  };
}
