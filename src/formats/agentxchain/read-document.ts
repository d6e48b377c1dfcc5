/**
 * Reads and parses the whole artifact as the reference does: `readFileSync(path, 'utf8')` (invalid
 * bytes → U+FFFD, a BOM kept) then `JSON.parse` (docs/agentxchain.md §1). Native `JSON.parse` gives
 * the reference's semantics (last duplicate key wins, `__proto__` as an own key, `1e400` → Infinity)
 * and, in V8, its exact error messages.
 * @module
 */
import { findNestingPastLimit, namedSteps } from '../../json/depth.ts';
import { DEFAULT_LIMITS } from '../../limits.ts';
import { jsonPath } from '../../report/path.ts';
import { StreamProblem } from '../../stream/problem.ts';
import type { StringSkipper } from '../../json/_grammar.ts';
import { ExportSkimmer, type ReadAgain } from './deferred-strings.ts';
import { createDocumentDecoder } from './document-text.ts';
import { isJsonObject, type ParsedValue } from './js-semantics.ts';

/** The parsed document, or V8's `JSON.parse` message for the decoded text. */
export type ParsedDocument =
  | { readonly ok: true; readonly value: ParsedValue; readonly byteLength: number }
  | { readonly ok: false; readonly message: string; readonly byteLength: number };

/** `readDocument`'s options (see there); the reading itself (`readAndParse`) leaves `maxDepth` to it. */
interface ReadDocumentOptions {
  readonly maxBytes: number;
  readonly maxDepth?: number;
  readonly signal?: AbortSignal;
  readonly readAgain?: ReadAgain | undefined;
  readonly stringSkipper?: StringSkipper | undefined;
}

/**
 * Reads `stream` to the end, then parses it. The bulk strings of file entries are left in the raw
 * bytes and read when a check asks for them (`deferred-strings.ts`), from the bytes kept or, given
 * `readAgain`, from the stream's source again; the rest is decoded as Node
 * decodes it (`document-text.ts`) and parsed with `JSON.parse`. A document that does not parse is
 * decoded whole, exactly, for V8's message about the real text. More than `maxBytes` bytes
 * rejects with a `limit.buffered_bytes` StreamProblem, nesting deeper than `maxDepth` (default
 * `DEFAULT_LIMITS.maxJsonDepth`) with `limit.json_depth` and the path it is under; an abort with
 * `input.aborted`; a stream error (gzip damage) is rethrown.
 */
export async function readDocument(
  stream: ReadableStream<Uint8Array>,
  options: ReadDocumentOptions,
): Promise<ParsedDocument> {
  const parsed = await readAndParse(stream, options);
  // The checks, the report's echoes and the views walk an object artifact: nesting past
  // limits.maxJsonDepth stops verification, as a limit, before any check. Any other value is only
  // reported as not an object (docs/agentxchain.md §1), at any depth, as the reference does.
  const maxDepth = options.maxDepth ?? DEFAULT_LIMITS.maxJsonDepth;
  const tooDeep = parsed.ok && isJsonObject(parsed.value) ? findNestingPastLimit(parsed.value, maxDepth) : undefined;
  if (tooDeep !== undefined) {
    const path = jsonPath(namedSteps(tooDeep));
    throw new StreamProblem(
      'limit.json_depth',
      `JSON nesting is deeper than limits.maxJsonDepth (${maxDepth}) under ${path}`,
      undefined,
      path,
    );
  }
  return parsed;
}

/**
 * Bytes kept past the first byte that cannot continue the document, for V8's error message: it
 * quotes at most 10 characters after the error (4 bytes each at most), and a shorter text than
 * the whole one would change its wording only within the last 10 characters.
 */
const NOT_JSON_CONTEXT_BYTES = 64;

async function readAndParse(stream: ReadableStream<Uint8Array>, options: ReadDocumentOptions): Promise<ParsedDocument> {
  const skimmer = new ExportSkimmer(options.readAgain, options.stringSkipper);
  const reader = stream.getReader();
  let byteLength = 0;
  /** Bytes to read once the document is known not to parse: up to a little past its first bad byte. */
  let enough = Infinity;
  try {
    for (;;) {
      if (options.signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
      if (byteLength >= enough) {
        await reader.cancel().catch(() => undefined);
        break;
      }
      const { done, value } = await reader.read();
      if (done) break;
      // The skimmer lexes every byte as it arrives: at the first one no JSON text could hold
      // there, the document is known not to parse, and only a little more is read (for V8's message).
      skimmer.push(value);
      if (enough === Infinity && skimmer.firstInvalidByte >= 0)
        enough = skimmer.firstInvalidByte + NOT_JSON_CONTEXT_BYTES;
      byteLength += value.byteLength;
      if (byteLength > options.maxBytes && enough === Infinity) {
        throw new StreamProblem(
          'limit.buffered_bytes',
          `document is larger than limits.maxBufferedBytes (${options.maxBytes} bytes)`,
        );
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  const skimmed = skimmer.finish();
  if (enough !== Infinity) {
    // Not JSON, seen before its end: V8's message looks at most 10 characters past the error.
    const cut = parseDecoded(skimmed.firstBytes(enough));
    if (cut.ok)
      throw new Error('a document refused as not JSON parsed (the skimmer refused a byte a JSON text can hold)');
    return { ok: false, message: cut.message, byteLength };
  }
  if (skimmed.skeleton !== undefined) {
    const parsed = parseDecoded([skimmed.skeleton]);
    if (parsed.ok) {
      skimmed.install(parsed.value);
      return { ok: true, value: parsed.value, byteLength };
    }
  }
  // Not JSON: decode and parse the whole text, for V8's message about it.
  const whole = parseDecoded(skimmed.firstBytes(byteLength));
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
