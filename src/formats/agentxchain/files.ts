/**
 * The `files` map and its entries (docs/agentxchain.md §4): shape of each entry, then the
 * integrity of its content: decoded length, SHA-256, and the `data` it claims to hold.
 *
 * Every field of an entry is attacker-controlled. `content_base64` is decoded with Node's lenient
 * rules (`base64-fast-path.ts` in front of `src/encoding/base64.ts`) (never throws: junk is skipped, decoding stops at
 * `=`) because that is what the reference
 * accepts; decoding strictly would fail artifacts the reference passes.
 * @module
 */
import { BULK_DIGEST_MIN_BYTES, type BulkDigest } from '../../crypto/bulk-digest.ts';
import { toHex } from '../../encoding/hex.ts';
import { decodeUtf8Lenient } from '../../encoding/utf8.ts';
import { jsonDeepStrictEqual } from '../../json/deep-equal.ts';
import { tokenEqualsUtf8 } from '../../json/string-token.ts';
import type { PathSegment } from '../../report/path.ts';
import { decodeContentBase64, decodeContentBase64Token } from './base64-fast-path.ts';
import { deferredToken } from './deferred-strings.ts';
import { reportError, reportWarning, throwIfAborted, type CheckContext, type Scope } from './context.ts';
import { describeValue, isJsonObject, isNonNegativeInteger, jsString, type ParsedValue } from './js-semantics.ts';

const VALID_FORMATS: ReadonlySet<unknown> = new Set(['json', 'jsonl', 'text']);
const SHA256_HEX = /^[a-f0-9]{64}$/;

/** How one entry fared, for `report.details.files`. */
export type FileStatus = 'verified' | 'mismatch' | 'skipped' | 'invalid';

/** One row of `report.details.files`. */
export interface FileRow {
  readonly path: string;
  readonly format: string | null;
  readonly bytes: number | null;
  readonly sha256: string | null;
  readonly status: FileStatus;
}

/**
 * §4: checks the `files` map of one export, entry by entry in JS own-key order.
 * Returns one row per entry (empty when `files` is not an object).
 */
export function verifyFilesMap(context: CheckContext, scope: Scope, files: ParsedValue): FileRow[] {
  if (!isJsonObject(files)) {
    reportError(
      context,
      scope,
      'agentxchain.field_invalid',
      'files',
      ['files'],
      'must be an object keyed by relative path',
    );
    return [];
  }
  const rows: FileRow[] = [];
  for (const [relPath, entry] of Object.entries(files)) {
    throwIfAborted(context);
    rows.push(verifyFileEntry(context, scope, relPath, entry));
  }
  return rows;
}

/** Emits errors for one entry, remembering whether any was about shape or about content. */
function entryReporter(context: CheckContext, scope: Scope, relPath: string) {
  const refPath = `files.${relPath}`;
  const state = { invalid: false, mismatch: false };
  return {
    state,
    /** A shape problem of the entry (structure). */
    invalid(field: PathSegment | null, message: string): void {
      state.invalid = true;
      reportError(
        context,
        scope,
        'agentxchain.file_entry_invalid',
        refPath,
        field === null ? ['files', relPath] : ['files', relPath, field],
        message,
      );
    },
    /** The content disagrees with a claim (integrity). */
    mismatch(
      code:
        | 'agentxchain.file_bytes_mismatch'
        | 'agentxchain.file_sha256_mismatch'
        | 'agentxchain.file_content_invalid'
        | 'agentxchain.file_data_mismatch',
      field: PathSegment,
      message: string,
      extras: { expected?: string; actual?: string } = {},
    ): void {
      state.mismatch = true;
      reportError(context, scope, code, refPath, ['files', relPath, field], message, extras);
    },
  };
}

function verifyFileEntry(context: CheckContext, scope: Scope, relPath: string, entry: ParsedValue): FileRow {
  const report = entryReporter(context, scope, relPath);
  const row = (status: FileStatus): FileRow => ({
    path: relPath,
    format: isJsonObject(entry) && typeof entry['format'] === 'string' ? entry['format'] : null,
    // Only what JSON can carry: 1e400 parses to Infinity, and -0 would print as 0.
    bytes: isJsonObject(entry) && Number.isFinite(entry['bytes']) ? (entry['bytes'] as number) + 0 : null,
    sha256: isJsonObject(entry) && typeof entry['sha256'] === 'string' ? entry['sha256'] : null,
    status: report.state.invalid ? 'invalid' : report.state.mismatch ? 'mismatch' : status,
  });

  // §4.1–4.4: the entry's shape.
  if (!isJsonObject(entry)) {
    report.invalid(null, 'file entry must be an object');
    return row('invalid');
  }
  const format = entry['format'];
  if (!VALID_FORMATS.has(format)) {
    // Crash site 10 (§9): an object with its own toString key crashes the reference's interpolation.
    const shown = jsString(format);
    report.invalid(
      'format',
      shown === undefined ? `unsupported format (${describeValue(format)})` : `unsupported format "${shown}"`,
    );
    return row('invalid');
  }
  const bytes = entry['bytes'];
  if (!isNonNegativeInteger(bytes)) report.invalid('bytes', 'bytes must be a non-negative integer');
  const sha256 = entry['sha256'];
  // §4.4: a string, matched with JS `$` semantics (a trailing "\n" fails).
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256))
    report.invalid('sha256', 'sha256 must be a 64-character lowercase hex digest');

  // §4.7–4.10 for a large content were done ahead (`checkLargeContents`): its string was one, so
  // its token is not read again.
  const ahead = context.checkedAhead.get(entry);
  // §4.5: null content is allowed for truncated or skipped entries, and then nothing is verified.
  // A large export's content strings stay in the raw document until read (deferred-strings.ts):
  // decode those from their bytes instead of building each string first.
  const content = ahead === undefined ? contentOf(entry) : undefined;
  if (content === null) {
    verifyNullContentEntry(entry, format as string, report);
    const why =
      entry['truncated'] === true
        ? 'truncated'
        : entry['content_base64_skipped'] === true
          ? 'content_base64_skipped'
          : null;
    if (why !== null) {
      reportWarning(
        context,
        scope,
        'agentxchain.file_integrity_skipped',
        ['files', relPath, 'content_base64'],
        `content_base64 is null (${why}): the bytes, sha256 and data of this entry were not checked`,
      );
    }
    return row('skipped');
  }
  if (ahead === undefined && typeof content !== 'string' && !(content instanceof Uint8Array)) {
    report.invalid('content_base64', 'content_base64 must be a string');
    return row('invalid');
  }

  // §4.7–4.10: decode, then every content check runs, whatever the earlier ones found.
  const checked =
    ahead ??
    checkContent(entry, format as DataFormat, relPath, decode(context, content as string | Uint8Array), (decoded) =>
      typeof sha256 === 'string' ? toHex(context.sha256.digest(decoded)) : undefined,
    );
  if (checked.length !== bytes) {
    const expected = jsString(bytes) ?? describeValue(bytes);
    report.mismatch(
      'agentxchain.file_bytes_mismatch',
      'bytes',
      `bytes mismatch: expected ${expected}, got ${checked.length}`,
      {
        expected,
        actual: String(checked.length),
      },
    );
  }
  // A non-string sha256 can never equal a hex digest: no hashing, the verdict is the same.
  const digest = checked.digest;
  if (digest === undefined || digest !== sha256) {
    report.mismatch('agentxchain.file_sha256_mismatch', 'sha256', 'sha256 does not match content_base64', {
      ...(typeof sha256 === 'string' ? { expected: sha256 } : {}),
      ...(digest !== undefined ? { actual: digest } : {}),
    });
  }
  if (checked.data) report.mismatch(...checked.data);
  return row('verified');
}

type DataFormat = 'json' | 'jsonl' | 'text';

/** Contents of at least this many base64 characters, times 3, may decode to `BULK_DIGEST_MIN_BYTES`. */
const MIN_CHARS_3 = 4 * BULK_DIGEST_MIN_BYTES;
/** Decoded bytes that may wait to be hashed by WebCrypto at once (each is a copy of its own). */
const MAX_HASHING_BYTES = 8 << 20;

/** An entry's `content_base64`: its raw token when the string was deferred (deferred-strings.ts). */
function contentOf(entry: Record<string, ParsedValue>): ParsedValue | Uint8Array {
  return deferredToken(entry, 'content_base64') ?? entry['content_base64'];
}

/** What a decoded content says against its entry's claims (§4.7–4.10), before anything is reported. */
export interface ContentCheck {
  /** Bytes decoded. */
  readonly length: number;
  /** Their SHA-256 in hex; undefined when the entry's sha256 is not a string (it cannot match). */
  readonly digest: string | undefined;
  /** How `data` disagrees with the content, if it does. */
  readonly data: DataMismatch | undefined;
}

type DataMismatch = readonly [
  'agentxchain.file_content_invalid' | 'agentxchain.file_data_mismatch',
  'content_base64' | 'data',
  string,
];

/**
 * §4.7: the bytes `content_base64` (its string, or its raw token when deferred) decodes to; a raw
 * token by the host's decoder first, when it has one. Those of a raw token may be overwritten by
 * the next call: every use here hashes them (a digest of its own copy) and compares them, then
 * lets them go.
 */
function decode(context: CheckContext, content: string | Uint8Array): Uint8Array {
  return typeof content === 'string'
    ? decodeContentBase64(content)
    : decodeContentBase64Token(content, context.decodeBase64, true);
}

/** Checks `decoded` against `entry`; `hash` gives its digest (called first, so it may run meanwhile). */
function checkContent<D>(
  entry: Record<string, ParsedValue>,
  format: DataFormat,
  relPath: string,
  decoded: Uint8Array,
  hash: (decoded: Uint8Array) => D,
): { length: number; digest: D; data: DataMismatch | undefined } {
  const digest = hash(decoded);
  return { length: decoded.byteLength, digest, data: dataMismatch(entry, format, relPath, decoded) };
}

/**
 * Decodes, checks and hashes the large contents of the export's file entries, and of its child
 * exports' up to `maxNesting` levels, before the synchronous checks run, with WebCrypto (`bulk`,
 * src/crypto/bulk-digest.ts), into `context.checkedAhead` (by entry), where `verifyFileEntry` takes
 * the outcome instead of decoding and hashing itself. Only contents long enough for
 * `BULK_DIGEST_MIN_BYTES` decoded bytes; each decoded content is let go as soon as its data is
 * checked (WebCrypto hashes its own copy), and at most `MAX_HASHING_BYTES` wait to be hashed. The
 * others, and any content WebCrypto refused, are decoded and hashed by the checks.
 */
export async function checkLargeContents(
  context: CheckContext,
  artifact: ParsedValue,
  bulk: BulkDigest | undefined,
): Promise<void> {
  const hashing: [Promise<void>, number][] = [];
  let waiting = 0;
  const exports: [ParsedValue, number][] = [[artifact, 0]];
  for (const [exported, level] of exports) {
    if (!bulk || !isJsonObject(exported)) continue;
    // Only objects are walked (the entries of a string would be one per character).
    const { files, repos } = exported;
    for (const [relPath, entry] of isJsonObject(files) ? Object.entries(files) : []) {
      throwIfAborted(context);
      if (!isJsonObject(entry) || typeof entry['sha256'] !== 'string' || !VALID_FORMATS.has(entry['format'])) continue;
      const content = contentOf(entry);
      // Base64 decodes to at most 3 bytes per 4 characters.
      const large = (typeof content === 'string' || content instanceof Uint8Array) && content.length * 3 >= MIN_CHARS_3;
      if (!large) continue;
      const { length, digest, data } = checkContent(
        entry,
        entry['format'] as DataFormat,
        relPath,
        decode(context, content),
        bulk,
      );
      hashing.push([
        digest.then(
          (hashed) => void context.checkedAhead.set(entry, { length, digest: toHex(new Uint8Array(hashed)), data }),
          () => {},
        ),
        length,
      ]);
      waiting += length;
      while (waiting > MAX_HASHING_BYTES) {
        const [hashed, bytes] = hashing.shift()!;
        await hashed;
        waiting -= bytes;
      }
    }
    if (level < context.maxNesting && isJsonObject(repos))
      for (const repo of Object.values(repos)) if (isJsonObject(repo)) exports.push([repo['export'], level + 1]);
  }
  await Promise.all(hashing.map(([hashed]) => hashed));
}

/** §4.5: what a null-content entry must still satisfy. */
function verifyNullContentEntry(
  entry: Record<string, ParsedValue>,
  format: string,
  report: ReturnType<typeof entryReporter>,
): void {
  const data = entry['data'];
  if (entry['truncated'] === true) {
    if (format === 'jsonl') {
      const total = entry['total_entries'];
      const retained = entry['retained_entries'];
      if (!Array.isArray(data)) report.invalid('data', 'truncated JSONL data must be an array');
      if (!isNonNegativeInteger(total))
        report.invalid('total_entries', 'total_entries must be a non-negative integer when truncated');
      if (!isNonNegativeInteger(retained))
        report.invalid('retained_entries', 'retained_entries must be a non-negative integer when truncated');
      if (Array.isArray(data) && retained !== data.length)
        report.invalid('retained_entries', 'retained_entries must match truncated data length');
      if (Number.isInteger(total) && Number.isInteger(retained) && (retained as number) > (total as number)) {
        report.invalid('retained_entries', 'retained_entries must not exceed total_entries');
      }
    } else if (format === 'text' && typeof data !== 'string') {
      report.invalid('data', 'truncated text data must be a string');
    }
    return;
  }
  if (entry['content_base64_skipped'] === true) {
    if (format === 'jsonl' && !Array.isArray(data)) report.invalid('data', 'skipped JSONL data must be an array');
    else if (format === 'text' && typeof data !== 'string')
      report.invalid('data', 'skipped text data must be a string');
    return;
  }
  report.invalid('content_base64', 'content_base64 may be null only when truncated or content_base64_skipped is true');
}

/**
 * §4.10: `data` against the decoded text. Parse errors carry V8's own `JSON.parse` message, as in
 * the reference (native `JSON.parse`, so Node and Chromium word it the same way).
 */
function dataMismatch(
  entry: Record<string, ParsedValue>,
  format: DataFormat,
  relPath: string,
  content: Uint8Array,
): DataMismatch | undefined {
  if (format === 'text') {
    // A deferred data string is compared on bytes first (no string built when they agree).
    const token = deferredToken(entry, 'data');
    if (token !== undefined && tokenEqualsUtf8(token, content)) return;
    return decodeUtf8Lenient(content) !== entry['data']
      ? ['agentxchain.file_data_mismatch', 'data', 'data does not match decoded text content']
      : undefined;
  }
  const data = entry['data'];
  const raw = decodeUtf8Lenient(content);
  let parsed: ParsedValue;
  try {
    parsed = format === 'json' ? JSON.parse(raw) : parseJsonl(raw, relPath);
  } catch (error) {
    return ['agentxchain.file_content_invalid', 'content_base64', (error as Error).message];
  }
  return jsonDeepStrictEqual(parsed, data)
    ? undefined
    : [
        'agentxchain.file_data_mismatch',
        'data',
        `data does not match decoded ${format === 'json' ? 'JSON' : 'JSONL'} content`,
      ];
}

/**
 * The reference's JSONL reader: split on `\n`, drop lines whose `trim()` is empty, parse the rest.
 * Line numbers count the non-blank lines (§4.10: the first bad line stops parsing).
 * @throws Error `<relPath>: invalid JSONL at line <k>: <V8 message>`
 */
export function parseJsonl(raw: string, relPath: string): ParsedValue[] {
  if (!raw.trim()) return [];
  const out: ParsedValue[] = [];
  let index = 0;
  for (const line of raw.split('\n')) {
    if (!line.trim()) continue;
    index++;
    try {
      out.push(JSON.parse(line));
    } catch (error) {
      throw new Error(`${relPath}: invalid JSONL at line ${index}: ${(error as Error).message}`);
    }
  }
  return out;
}
