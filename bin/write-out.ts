/**
 * Writing a large text to stdout completely, whatever is reading it.
 * @module
 */
import { once } from 'node:events';

/** Characters written at a time: the whole text as one write would also be encoded as one buffer. */
const SLICE = 1 << 20;

/**
 * Writes text to stdout in slices (never splitting a surrogate pair), waiting whenever the pipe is
 * full, so every byte arrives also through a pipe (a process that exits right after one large write
 * can lose its tail there).
 */
export async function writeInSlices(text: string): Promise<void> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + SLICE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    if (!process.stdout.write(text.slice(start, end))) await once(process.stdout, 'drain');
    start = end;
  }
}
