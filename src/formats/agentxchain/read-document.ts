/**
 * Reads and parses the whole artifact as the reference does: `readFileSync(path, 'utf8')` (invalid
 * bytes → U+FFFD, a BOM kept) then `JSON.parse` (specs/agentxchain.md §1). Native `JSON.parse` gives
 * the reference's semantics (last duplicate key wins, `__proto__` as an own key, `1e400` → Infinity)
 * and, in V8, its exact error messages.
 * @module
 */
import { StreamProblem } from '../../stream/problem.ts';
import { createDocumentDecoder } from './document-text.ts';
import type { JsonValue } from './js-semantics.ts';

/** The parsed document, or V8's `JSON.parse` message for the decoded text. */
export type ParsedDocument =
  | { readonly ok: true; readonly value: JsonValue; readonly byteLength: number }
  | { readonly ok: false; readonly message: string; readonly byteLength: number };

/**
 * Reads `stream` to the end, decoding as it goes (see `document-text.ts`: the raw bytes are never
 * held whole), then parses. More than `maxBytes` bytes rejects with a `limit.buffered_bytes`
 * StreamProblem; an abort with `input.aborted`; a stream error (gzip damage) is rethrown.
 */
export async function readDocument(stream: ReadableStream<Uint8Array>, options: { maxBytes: number; signal?: AbortSignal }): Promise<ParsedDocument> {
  const decoder = createDocumentDecoder();
  const reader = stream.getReader();
  let byteLength = 0;
  try {
    for (;;) {
      if (options.signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
      const { done, value } = await reader.read();
      if (done) break;
      byteLength += value.byteLength;
      if (byteLength > options.maxBytes) {
        throw new StreamProblem('limit.buffered_bytes', `document is larger than limits.maxBufferedBytes (${options.maxBytes} bytes)`);
      }
      decoder.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  const document = decoder.finish();
  try {
    return { ok: true, value: JSON.parse(document.text) as JsonValue, byteLength };
  } catch (error) {
    if (document.exact) return { ok: false, message: (error as Error).message, byteLength };
  }
  // The escaped text failed: parse the exact text, for V8's message about the real document.
  try {
    return { ok: true, value: JSON.parse(document.exactText()) as JsonValue, byteLength };
  } catch (error) {
    return { ok: false, message: (error as Error).message, byteLength };
  }
}
