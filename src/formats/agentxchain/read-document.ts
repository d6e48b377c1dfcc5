/**
 * Reads and parses the whole artifact as the reference does: `readFileSync(path, 'utf8')` (invalid
 * bytes → U+FFFD, a BOM kept) then `JSON.parse` (docs/agentxchain.md §1). Native `JSON.parse` gives
 * the reference's semantics (last duplicate key wins, `__proto__` as an own key, `1e400` → Infinity)
 * and, in V8, its exact error messages.
 * @module
 */
import { StreamProblem } from '../../stream/problem.ts';
import { ExportSkimmer } from './deferred-strings.ts';
import { createDocumentDecoder } from './document-text.ts';
import type { ParsedValue } from './js-semantics.ts';

/** The parsed document, or V8's `JSON.parse` message for the decoded text. */
export type ParsedDocument =
  | { readonly ok: true; readonly value: ParsedValue; readonly byteLength: number }
  | { readonly ok: false; readonly message: string; readonly byteLength: number };

/**
 * Reads `stream` to the end, then parses it. The bulk strings of file entries are left in the raw
 * bytes and read when a check asks for them (`deferred-strings.ts`); the rest is decoded as Node
 * decodes it (`document-text.ts`) and parsed with `JSON.parse`. A document that does not parse is
 * decoded whole, exactly, for V8's message about the real text. More than `maxBytes` bytes
 * rejects with a `limit.buffered_bytes` StreamProblem; an abort with `input.aborted`; a stream
 * error (gzip damage) is rethrown.
 */
export async function readDocument(
  stream: ReadableStream<Uint8Array>,
  options: { maxBytes: number; signal?: AbortSignal },
): Promise<ParsedDocument> {
  const skimmer = new ExportSkimmer();
  const reader = stream.getReader();
  let byteLength = 0;
  try {
    for (;;) {
      if (options.signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
      const { done, value } = await reader.read();
      if (done) break;
      byteLength += value.byteLength;
      if (byteLength > options.maxBytes) {
        throw new StreamProblem(
          'limit.buffered_bytes',
          `document is larger than limits.maxBufferedBytes (${options.maxBytes} bytes)`,
        );
      }
      skimmer.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  const skimmed = skimmer.finish();
  if (skimmed.skeleton !== undefined) {
    const parsed = parseDecoded([skimmed.skeleton]);
    if (parsed.ok) {
      skimmed.install(parsed.value);
      return { ok: true, value: parsed.value, byteLength };
    }
  }
  // Not JSON: decode and parse the whole text, for V8's message about it.
  const whole = parseDecoded(skimmed.chunks);
  return whole.ok ? { ok: true, value: whole.value, byteLength } : { ok: false, message: whole.message, byteLength };
}

/** Decodes `chunks` as Node does and parses the text; V8's message about the exact text on failure. */
function parseDecoded(
  chunks: readonly Uint8Array[],
): { ok: true; value: ParsedValue } | { ok: false; message: string } {
  const decoder = createDocumentDecoder();
  for (const chunk of chunks) decoder.push(chunk);
  const document = decoder.finish();
  try {
    return { ok: true, value: JSON.parse(document.text) as ParsedValue };
  } catch (error) {
    if (document.exact) return { ok: false, message: (error as Error).message };
  }
  // The escaped text failed: parse the exact text, for V8's message about the real document.
  try {
    return { ok: true, value: JSON.parse(document.exactText()) as ParsedValue };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
