/**
 * `verify-export markdown --level 1|2|3|4 [--minimal] <file|->`: agent-history's own markdown of
 * a verified impl-2.0 session on stdout (docs/agent-history-markdown.md), byte for byte what
 * `agent-history session export --markdown-level <level> [--minimal]` writes, in every mode the
 * NDJSON determines. A reconstructed mode is printed with a note on stderr; a file that fails
 * verification prints its report on stderr and no markdown.
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { agentHistoryMarkdown, type MarkdownLevel } from '../../src/formats/agent-history/markdown/index.ts';
import { nodeGunzip } from '../node-gunzip.ts';
import { type OpenedFile, openFile, openStdin } from '../open-input.ts';
import { renderText } from '../text-report.ts';
import { writeInSlices } from '../write-out.ts';

export const MARKDOWN_USAGE = `Usage: verify-export markdown --level 1|2|3|4 [--minimal] <file|->

Verify an agent-history NDJSON session (plain or gzip) and print agent-history's own markdown of it,
as \`agent-history session export --markdown-level <level> [--minimal]\` writes it.

Options:
  --level 1|2|3|4   the markdown detail level (1 and 2 cut long messages, 4 is per agent);
                    default 4, as the tool's
  --minimal         leave out the header and times, as the tool's --minimal
  -h, --help        this text

Levels 1 to 3 and level 4 with --minimal are the tool's file byte for byte (Gemini: without system
messages, and at level 4 without tool calls). Otherwise the tool prints data the NDJSON does not
hold: the markdown is printed as reconstructed, with a note on stderr.

Exit codes: 0 markdown printed, 1 the file failed verification (report on stderr),
2 unreadable input, bad usage, or no markdown for this file (design-1.0, over a limit).
`;

export async function markdownCommand(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseMarkdownArgs(argv);
  } catch (error) {
    process.stderr.write(`verify-export markdown: ${(error as Error).message}\n\n${MARKDOWN_USAGE}`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(MARKDOWN_USAGE);
    return 0;
  }
  const fromStdin = parsed.file === '-';
  const label = fromStdin ? 'stdin' : resolve(parsed.file);
  let file: OpenedFile;
  try {
    file = fromStdin ? openStdin() : await openFile(label);
  } catch (error) {
    process.stderr.write(`verify-export markdown: cannot read ${label}: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    const result = await agentHistoryMarkdown(file.input, {
      level: parsed.level,
      minimal: parsed.minimal,
      name: label,
      gunzip: nodeGunzip,
    });
    if (result.markdown !== null) {
      await writeInSlices(result.markdown);
      if (result.status === 'reconstructed') {
        process.stderr.write(
          `verify-export markdown: reconstructed, not agent-history's own file: the NDJSON does not hold ${result.missing.join('; ')}\n`,
        );
      }
      return 0;
    }
    if (result.status === 'not-verified') {
      process.stderr.write(renderText(result.report, process.stderr.isTTY === true));
      process.stderr.write(`verify-export markdown: no markdown: ${result.message}\n`);
      return result.report.overall === 'error' ? 2 : 1;
    }
    process.stderr.write(`verify-export markdown: no markdown: ${result.message}\n`);
    return 2;
  } finally {
    await file.close();
  }
}

/** Parses argv; `'help'` for -h, or throws an Error whose message is for the user. */
function parseMarkdownArgs(argv: readonly string[]): { file: string; level: MarkdownLevel; minimal: boolean } | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      level: { type: 'string', default: '4' },
      minimal: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  const level = ['1', '2', '3', '4'].indexOf(values.level) + 1;
  if (level === 0) throw new Error(`--level must be 1, 2, 3 or 4, not ${values.level}`);
  if (positionals.length !== 1) throw new Error('expected exactly one <file> (or - for stdin)');
  return { file: positionals[0]!, level: level as MarkdownLevel, minimal: values.minimal };
}
