/**
 * The Node CLI adapter (docs/architecture.md, 'Command line'): the first word picks a subcommand,
 * anything else is `verify`. Each subcommand reads its inputs through open-input.ts, calls the
 * core, prints, and returns the exit code. The only shipped code that uses Node built-ins.
 * @module
 */
import { verifyCommand } from './commands/verify.ts';

/** A subcommand: its arguments after the subcommand's name in, the exit code out. */
type Command = (argv: readonly string[]) => Promise<number>;

/** Subcommands other than `verify`, loaded when named. A file called like one is still verified as `./report`. */
const SUBCOMMANDS: Record<string, () => Promise<Command>> = {
  markdown: async () => (await import('./commands/markdown.ts')).markdownCommand,
  report: async () => (await import('./commands/report.ts')).reportCommand,
  diff: async () => (await import('./commands/diff.ts')).diffCommand,
};

async function main(argv: readonly string[]): Promise<number> {
  const load = Object.hasOwn(SUBCOMMANDS, argv[0] ?? '') ? SUBCOMMANDS[argv[0]!] : undefined;
  if (load) return (await load())(argv.slice(1));
  return verifyCommand(argv);
}

// A reader that stops early (`verify-export … | head`) ends the run quietly: nothing more can be
// shown. The exit code is the run's as far as it is known: each command sets it before printing.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

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
