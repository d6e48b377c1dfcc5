/**
 * The Node CLI adapter: read the file (or stdin), call the core, print, set the exit code.
 * The only shipped code that uses Node built-ins.
 * @module
 */
import crypto, { createHash } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { Sha256 } from '../src/crypto/sha256.ts';
import { toAgentxchainJson } from '../src/formats/agentxchain/compat.ts';
import { toZaxyJson } from '../src/formats/zaxy/compat.ts';
import type { Report } from '../src/report/types.ts';
import { verify } from '../src/verify.ts';
import { parseCliArgs, USAGE } from './args.ts';
import { nodeGunzip } from './node-gunzip.ts';
import { renderText } from './text-report.ts';

/**
 * node:crypto's SHA-256 (OpenSSL, SHA-NI): several times faster than WASM on large files. One-shot
 * digests use `crypto.hash` (Node ≥ 20.12) when present: a Zaxy bundle hashes 300k small messages,
 * and `createHash` objects cost more than the hashing itself there.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Uint8Array }).hash;
const nodeSha256: Sha256 = {
  digest: oneShot ? (data) => oneShot('sha256', data, 'buffer') : (data) => createHash('sha256').update(data).digest(),
  create() {
    const hash = createHash('sha256');
    const hasher = { update: (data: Uint8Array) => (hash.update(data), hasher), digest: () => hash.digest() as Uint8Array };
    return hasher;
  },
};

/**
 * Files up to this size are read in one call (fastest for small files); larger ones are streamed,
 * so a large NDJSON file never sits in memory whole (the 18 MB gzip of the 108 MB benchmark
 * stream: peak RSS 113 MB instead of 122 MB), and streaming costs nothing measurable there.
 */
const READ_WHOLE_BYTES = 4 * 1024 * 1024;

/**
 * Opens the file first so an unreadable one fails with Node's own message
 * (`ENOENT: no such file or directory, open '<path>'`), as AgentXchain prints it.
 */
async function readInput(path: string): Promise<Uint8Array | Blob> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= READ_WHOLE_BYTES) return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
  return openAsBlob(path);
}

const EXIT: Record<Report['overall'], number> = { pass: 0, fail: 1, error: 2 };

async function main(argv: readonly string[]): Promise<number> {
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
  const fromStdin = args.file === '-';
  const label = fromStdin ? 'stdin' : resolve(args.file);
  let input;
  try {
    input = fromStdin ? (Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>) : await readInput(label);
  } catch (error) {
    return printUnreadable(args, label, (error as Error).message);
  }
  const report = await verify(input, { ...args.options, name: label, sha256: nodeSha256, gunzip: nodeGunzip });
  return print(args, report);
}

function print(args: Exclude<ReturnType<typeof parseCliArgs>, 'help'>, report: Report): number {
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
function printUnreadable(args: Exclude<ReturnType<typeof parseCliArgs>, 'help'>, label: string, message: string): number {
  if (args.compat === 'agentxchain' && args.format === 'json') {
    process.stdout.write(`${JSON.stringify({ overall: 'error', input: label, message }, null, 2)}\n`);
  } else if (args.format === 'json') {
    process.stdout.write(`${JSON.stringify({ overall: 'error', input: label, message }, null, 2)}\n`);
  } else {
    process.stderr.write(`verify-export: cannot read ${label}: ${message}\n`);
  }
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`verify-export: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
