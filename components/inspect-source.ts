/**
 * The bytes the views read (`inspect-job.ts`): the input the last verification kept
 * (`verified-bytes.ts`), decompressed when it is gzip, at most `limits.maxInspectBytes` of them.
 * gzip cannot seek, so it is decompressed once, on the first `inspect`, by the core's own opening
 * path (the same gunzip, caps and checks as verification); a decompression problem keeps what was
 * decoded before it.
 * @module
 */
import type { InspectSource } from '../src/inspect/types.ts';
import type { FormatId } from '../src/report/types.ts';
import type { KeptInput } from './verified-bytes.ts';
import { openInput } from '../src/stream/open.ts';

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * The bytes a view reads (see the module doc).
 * @example
 * const source = await inspectSourceOf(kept);
 * source.complete; // false when only the start is viewable
 */
export async function inspectSourceOf(
  kept: KeptInput,
): Promise<InspectSource & { readonly notViewable?: string | undefined }> {
  const cap = kept.limits.maxInspectBytes;
  const format = inspectFormat(kept.format);
  const head = await firstBytes(kept.input, 2);
  if (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) {
    const size = kept.input instanceof Blob ? kept.input.size : kept.input.byteLength;
    const bytes =
      kept.input instanceof Blob
        ? new Uint8Array(await kept.input.slice(0, cap).arrayBuffer())
        : kept.input.subarray(0, cap);
    const complete = kept.complete && size <= cap;
    return { bytes, complete, format, ...(complete ? {} : { notViewable: notViewable(cap) }) };
  }
  // The core's own opening path (the worker has it already for verification; it loads gunzip).
  const opened = await openInput(kept.input, { limits: kept.limits });
  const reader = opened.stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let complete = kept.complete;
  let problem: string | undefined;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (size + next.value.byteLength > cap) {
        parts.push(next.value.subarray(0, cap - size));
        size = cap;
        complete = false;
        void reader.cancel().catch(() => {});
        break;
      }
      parts.push(next.value);
      size += next.value.byteLength;
    }
  } catch (error) {
    complete = false;
    problem = `the gzip data could not be read to its end (${error instanceof Error ? error.message : String(error)}); what was decoded before is shown`;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return {
    bytes,
    complete,
    format,
    ...(complete ? {} : { notViewable: problem ?? notViewable(cap) }),
  };
}

function notViewable(cap: number): string {
  return `only the first ${(cap / 1024 ** 2).toFixed(0)} MiB (limits.maxInspectBytes) were kept for viewing; the rest is not viewable here`;
}

function inspectFormat(format: FormatId | null): InspectSource['format'] {
  if (format === null) throw new Error('the input was not recognised as a known format: nothing to view');
  return format;
}

async function firstBytes(input: Blob | Uint8Array, count: number): Promise<Uint8Array> {
  return input instanceof Blob ? new Uint8Array(await input.slice(0, count).arrayBuffer()) : input.subarray(0, count);
}
