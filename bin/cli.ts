/**
 * The Node CLI adapter: read the file (or stdin), call the core, print, set the exit code.
 * The only shipped code that uses Node built-ins.
 * @module
 */
import { type FileHandle, open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { toAgentxchainJson } from '../src/formats/agentxchain/compat.ts';
import { toZaxyJson } from '../src/formats/zaxy/compat.ts';
import { verify } from '../src/verify.ts';
import { parseCliArgs, USAGE } from './args.ts';
import { nodeGunzip } from './node-gunzip.ts';
import { nodeEntryHasher, nodeSha256 } from './node-sha256.ts';
import { renderText } from './text-report.ts';
import type { Report } from '../src/report.ts';

/**
 * Files up to this size are read in one call (fastest for small files); larger ones are streamed,
 * so a large NDJSON file never sits in memory whole (the 18 MB gzip of the 108 MB benchmark
 * stream: peak RSS 113 MB instead of 122 MB), and streaming costs nothing measurable there.
 */
const READ_WHOLE_BYTES = 4 * 1024 * 1024;

/**
 * Bytes per read of a streamed file. node:zlib inflates each piece it is given as one task on the
 * thread pool, and the next piece is handed over only when the main thread is free between two
 * chunks it parses; with a Blob's 64 KiB reads, zlib sat idle most of the time and the parser
 * then waited for it (10% of the 100k Zaxy bundle's wall time). 1 MiB pieces keep it ahead.
 */
const READ_CHUNK_BYTES = 1024 * 1024;

/** The input to verify, and what to call once verification is over. */
interface OpenedFile {
  readonly input: Uint8Array | Blob | ReadableStream<Uint8Array>;
  /** Closes the file (a no-op when it was read whole): the core may stop reading early. */
  close(): Promise<void>;
}

/**
 * Opens the file first so an unreadable one fails with Node's own message
 * (`ENOENT: no such file or directory, open '<path>'`), as AgentXchain prints it. A large file
 * comes back as a Blob that streams it, whose size tells the core how much to expect (for
 * progress and for sizing its buffers).
 */
async function openFile(path: string): Promise<OpenedFile> {
  const handle = await open(path, 'r');
  let size: number;
  try {
    size = (await handle.stat()).size;
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (size <= READ_WHOLE_BYTES) {
    try {
      return { input: new Uint8Array(await handle.readFile()), close: async () => undefined };
    } finally {
      await handle.close();
    }
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= handle.close());
  return { input: new FileBlob(fileChunks(handle, close), size), close };
}

/**
 * A file as a Blob that streams in READ_CHUNK_BYTES reads (Node's `openAsBlob` reads 64 KiB at a
 * time). A Blob, not a Response with a content-length: the core takes the size from either, and
 * Node loads its whole fetch implementation (about 20 ms) at the first use of Response. The core
 * reads a Blob only through `size` and `stream()`.
 */
class FileBlob extends Blob {
  readonly #stream: ReadableStream<Uint8Array<ArrayBuffer>>;
  readonly #size: number;

  constructor(stream: ReadableStream<Uint8Array<ArrayBuffer>>, size: number) {
    super();
    this.#stream = stream;
    this.#size = size;
  }

  override get size(): number {
    return this.#size;
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return this.#stream;
  }
}

/** The file's bytes in READ_CHUNK_BYTES pieces; the file is closed at the end or on cancel. */
function fileChunks(handle: FileHandle, close: () => Promise<void>): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      try {
        const chunk = new Uint8Array(READ_CHUNK_BYTES);
        const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, null);
        if (bytesRead > 0) return controller.enqueue(chunk.subarray(0, bytesRead));
        controller.close();
      } catch (error) {
        controller.error(error);
      }
      await close();
    },
    cancel: close,
  });
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
  if (args === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const fromStdin = args.file === '-';
  const label = fromStdin ? 'stdin' : resolve(args.file);
  let file: OpenedFile;
  try {
    file = fromStdin
      ? { input: Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, close: async () => undefined }
      : await openFile(label);
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

/** The package's version, from its package.json: one folder up from bin/cli.ts and from dist/cli.js alike. */
function packageVersion(): string {
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `verify-export: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
