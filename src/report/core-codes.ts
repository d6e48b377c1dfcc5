/**
 * Finding codes shared by every format: input handling, limits, container (gzip) problems.
 * @module
 */
import type { DimensionTable, SummaryTable } from './code-table.ts';

/** The verdict dimension an error with each code fails. */
export const CORE_CODES = /* @__PURE__ */ Object.freeze({
  'input.unreadable': 'input',
  'input.empty': 'input',
  'input.not_json': 'input',
  'input.unknown_format': 'input',
  'input.aborted': 'input',
  'limit.input_bytes': 'input',
  'limit.buffered_bytes': 'input',
  'limit.retained_bytes': 'input',
  'limit.decompressed_bytes': 'input',
  'limit.compression_ratio': 'input',
  'limit.line_bytes': 'input',
  'limit.json_depth': 'input',
  'limit.findings': 'input',
  'gzip.bad_header': 'structure',
  'gzip.not_gzip': 'structure',
  'gzip.bad_data': 'integrity',
  'gzip.crc_mismatch': 'integrity',
  'gzip.size_mismatch': 'integrity',
  'gzip.truncated': 'integrity',
  'gzip.trailing_garbage': 'integrity',
  'kit.internal_error': 'input',
  'kit.sha256_unavailable': 'input',
  'kit.unsigned_format': 'authenticity',
} satisfies DimensionTable);

/** A finding code of the core (input, limits, gzip, the kit itself). */
export type CoreCode = keyof typeof CORE_CODES;

/** What each code means, one line (the README's table; `CODES` joins them with the dimensions). */
export const CORE_CODE_SUMMARIES = /* @__PURE__ */ Object.freeze({
  'input.unreadable': 'The input could not be read (I/O error, aborted, or not valid as text).',
  'input.empty': 'The input holds no bytes.',
  'input.not_json': 'The input is not a JSON document.',
  'input.unknown_format': 'The input matches none of the formats the kit verifies.',
  'input.aborted': 'Verification was cancelled through the AbortSignal.',
  'limit.input_bytes': 'The input is larger than limits.maxInputBytes.',
  'limit.buffered_bytes': 'A whole-document format exceeded limits.maxBufferedBytes.',
  'limit.retained_bytes':
    'A Zaxy document needed a second reading after more than limits.maxRetainedBytes were dropped.',
  'limit.decompressed_bytes': 'Decompressed output exceeded limits.maxDecompressedBytes.',
  'limit.compression_ratio': 'Decompressed/compressed ratio exceeded limits.maxCompressionRatio (gzip bomb?).',
  'limit.line_bytes': 'A line is longer than limits.maxLineBytes.',
  'limit.json_depth': 'JSON nesting is deeper than limits.maxJsonDepth.',
  'limit.findings': 'More findings than limits.maxFindings; the rest were not recorded.',
  'gzip.bad_header': 'A gzip member header is malformed.',
  'gzip.not_gzip': 'The name says .gz but the bytes do not start with the gzip magic 1f 8b.',
  'gzip.bad_data': 'The deflate data of a gzip member is corrupt.',
  'gzip.crc_mismatch': 'A gzip member CRC32 does not match its data.',
  'gzip.size_mismatch': 'A gzip member ISIZE does not match its data length.',
  'gzip.truncated': 'The gzip stream ends inside a member.',
  'gzip.trailing_garbage': 'Bytes after the last gzip member are not another member.',
  'kit.internal_error': 'The kit itself failed on this input (a bug: please report it with the input).',
  'kit.sha256_unavailable':
    'No SHA-256 could be loaded on this host (WebAssembly refused): pass options.sha256 or call initSha256.',
  'kit.unsigned_format': 'The format carries no signature: a re-sealed edit cannot be detected.',
} satisfies SummaryTable<typeof CORE_CODES>);
