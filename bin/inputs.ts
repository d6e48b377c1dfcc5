/**
 * The inputs named on the command line, as a list of things to verify: `-` is standard input, a
 * file (or FIFO, or device) is itself whatever its name, and a folder stands for every artifact
 * under it.
 *
 * In a folder, searched recursively in code-point order of names, only files whose name ends in
 * `.json`, `.ndjson` or `.jsonl`, each optionally followed by `.gz` (any case), are taken: regular
 * files, and symbolic links to regular files (a link that leads nowhere is an input that cannot be
 * read). Skipped: every other name, symbolic links to folders (a walk cannot loop), FIFOs, sockets
 * and devices. A folder that cannot be read, or holds no artifact at all, is an input that failed
 * (exit 2): an empty folder must not pass a CI job.
 * @module
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The names a folder walk takes. */
export const ARTIFACT_NAME = /\.(json|ndjson|jsonl)(\.gz)?$/i;

/** One thing to verify, or one named thing that yields nothing to verify. */
export type InputTarget =
  | { readonly kind: 'stdin'; readonly label: 'stdin' }
  /** `size`: a regular file's size, for progress; unknown for anything else. */
  | { readonly kind: 'file'; readonly label: string; readonly size?: number }
  | { readonly kind: 'failed'; readonly label: string; readonly message: string };

export interface ExpandedInputs {
  readonly targets: readonly InputTarget[];
  /** More than one argument, or a folder: the output is one line (or one JSON line) per input. */
  readonly many: boolean;
}

/**
 * Expands the command line's input arguments (see the module). A path that cannot be examined
 * is kept as a file, so opening it fails with the system's own message.
 * @throws Error when `-` is given twice (standard input can be read once)
 */
export async function expandInputs(args: readonly string[]): Promise<ExpandedInputs> {
  if (args.filter((arg) => arg === '-').length > 1) throw new Error('- (standard input) can be given only once');
  const targets: InputTarget[] = [];
  const seen = new Set<string>();
  const add = (target: InputTarget): void => {
    if (target.kind === 'file' && seen.has(target.label)) return;
    seen.add(target.label);
    targets.push(target);
  };
  let folders = 0;
  for (const arg of args) {
    if (arg === '-') {
      add({ kind: 'stdin', label: 'stdin' });
      continue;
    }
    const path = resolve(arg);
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) {
      folders++;
      const before = targets.length;
      await walk(path, add);
      if (targets.length === before)
        add({
          kind: 'failed',
          label: path,
          message: 'no *.json, *.ndjson or *.jsonl file (plain or .gz) in this folder',
        });
    } else {
      add({ kind: 'file', label: path, ...(info?.isFile() ? { size: info.size } : {}) });
    }
  }
  return { targets, many: args.length > 1 || folders > 0 };
}

/** Adds every artifact under `folder` (see the module), and a failed input for each unreadable folder. */
async function walk(folder: string, add: (target: InputTarget) => void): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    add({ kind: 'failed', label: folder, message: (error as Error).message });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await walk(path, add);
    else if ((entry.isFile() || entry.isSymbolicLink()) && ARTIFACT_NAME.test(entry.name)) {
      const info = await stat(path).catch(() => undefined);
      if (info === undefined)
        add({ kind: 'file', label: path }); // opening it says why it cannot be read
      else if (info.isFile()) add({ kind: 'file', label: path, size: info.size });
    }
  }
}
