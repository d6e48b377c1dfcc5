/**
 * `node --import tsx test/fuzz/minimize.ts <crasher.json>…`: shrinks stored crashers in place
 * while the same oracle keeps failing the same way: removes JSON members and array items (largest
 * first), then NDJSON lines, then byte ranges. In-process, so not for hangs (kept as found).
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { FuzzCase } from './case.ts';
import type { CrasherSidecar } from './crashers.ts';
import { checkCase, type Failure } from './execute.ts';
import { parseTree, walk } from './json-tree.ts';

const MAX_TRIALS = 3000;

/** Same oracle, and the same first line of detail with numbers blurred. */
function sameFailure(a: Failure, b: Failure): boolean {
  const blur = (f: Failure): string =>
    `${f.oracle} ${f.detail
      .split('\n')[0]!
      .replace(/[0-9]+/g, '#')
      .replace(/"[^"]*"/g, '"…"')}`;
  return blur(a) === blur(b);
}

/**
 * Shrinks `c.bytes` while `target` still fails.
 * @example
 * const smaller = await minimize(c, failure); // smaller.length <= c.bytes.length
 */
export async function minimize(
  c: FuzzCase,
  target: Failure,
  log: (line: string) => void = () => {},
): Promise<Uint8Array> {
  let best = c.bytes;
  let trials = 0;
  const fails = async (bytes: Uint8Array): Promise<boolean> => {
    trials++;
    const result = await checkCase({ ...c, bytes }, { differentials: false });
    return result.failures.some((f) => sameFailure(f, target));
  };
  if (!(await fails(best))) throw new Error('the crasher does not reproduce in-process');

  const encoder = new TextEncoder();
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const asText = (bytes: Uint8Array): string | undefined => {
    try {
      return decoder.decode(bytes);
    } catch {
      return undefined;
    }
  };

  // JSON (a whole document, or each NDJSON line): remove members and items, largest first.
  for (let progress = true; progress && trials < MAX_TRIALS;) {
    progress = false;
    const text = asText(best);
    if (text === undefined) break;
    const lines = text.split('\n');
    const documents = parseTree(text)
      ? [{ offset: 0, text }]
      : lines.map((line, i) => ({ offset: lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0), text: line }));
    const spans: [number, number][] = [];
    for (const doc of documents) {
      const root = parseTree(doc.text);
      if (!root) continue;
      for (const { node } of walk(root)) {
        if (node.t === 'obj') {
          node.members.forEach((m, i) => {
            const next = node.members[i + 1];
            const prev = node.members[i - 1];
            const [start, end] = next
              ? [m.keyStart, next.keyStart]
              : prev
                ? [prev.value.end, m.value.end]
                : [m.keyStart, m.value.end];
            spans.push([doc.offset + start, doc.offset + end]);
          });
        } else if (node.t === 'arr') {
          node.items.forEach((it, i) => {
            const next = node.items[i + 1];
            const prev = node.items[i - 1];
            const [start, end] = next ? [it.start, next.start] : prev ? [prev.end, it.end] : [it.start, it.end];
            spans.push([doc.offset + start, doc.offset + end]);
          });
        } else if (node.t === 'str' && node.end - node.start > 12) {
          spans.push([doc.offset + node.start + 1, doc.offset + node.end - 1]); // empty the string
        }
      }
    }
    spans.sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
    for (const [start, end] of spans.slice(0, 400)) {
      if (trials >= MAX_TRIALS) break;
      const candidate = encoder.encode(text.slice(0, start) + text.slice(end));
      if (await fails(candidate)) {
        best = candidate;
        progress = true;
        log(`  json: ${best.length} bytes`);
        break;
      }
    }
  }

  // Lines, then byte ranges (halving).
  for (let size = Math.max(1, best.length >> 1); size >= 1 && trials < MAX_TRIALS; size >>= 1) {
    for (let at = 0; at + size <= best.length && trials < MAX_TRIALS;) {
      const candidate = new Uint8Array([...best.subarray(0, at), ...best.subarray(at + size)]);
      if (await fails(candidate)) {
        best = candidate;
        log(`  bytes: ${best.length} bytes`);
      } else at += size;
    }
  }
  log(`  ${trials} trials`);
  return best;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const sidecarPath of process.argv.slice(2)) {
    const sidecar = JSON.parse(readFileSync(sidecarPath, 'utf8')) as CrasherSidecar;
    const binPath = sidecarPath.replace(/\.json$/, '.bin');
    const bytes = new Uint8Array(readFileSync(binPath));
    const c: FuzzCase = {
      seed: sidecar.seed,
      index: sidecar.index,
      format: sidecar.format,
      file: sidecar.fixture,
      bytes,
      steps: sidecar.steps,
      call: sidecar.call,
      control: false,
    };
    console.log(`${binPath}: ${bytes.length} bytes`);
    const smaller = await minimize(c, { oracle: sidecar.oracle, detail: sidecar.observed }, console.log);
    writeFileSync(binPath, smaller);
    writeFileSync(
      sidecarPath,
      JSON.stringify(
        {
          ...sidecar,
          steps: [
            ...sidecar.steps,
            `minimised from ${bytes.length} to ${smaller.length} bytes (test/fuzz/minimize.ts)`,
          ],
        },
        null,
        2,
      ) + '\n',
    );
    console.log(`  -> ${smaller.length} bytes`);
  }
}
