/**
 * Finding codes shared by every format: input handling, limits, container (gzip) problems.
 * @module
 */
import type { CodeTable } from './code-table.ts';

export const CORE_CODES = /* @__PURE__ */ Object.freeze({
  'input.unreadable': { dimension: 'input', summary: 'The input could not be read (I/O error, aborted, or not valid as text).' },
  'input.empty': { dimension: 'input', summary: 'The input holds no bytes.' },
  'input.not_json': { dimension: 'input', summary: 'The input is not a JSON document.' },
  'input.unknown_format': { dimension: 'input', summary: 'The input matches none of the formats the kit verifies.' },
  'input.aborted': { dimension: 'input', summary: 'Verification was cancelled through the AbortSignal.' },
  'limit.input_bytes': { dimension: 'input', summary: 'The input is larger than limits.maxInputBytes.' },
  'limit.buffered_bytes': { dimension: 'input', summary: 'A whole-document format exceeded limits.maxBufferedBytes.' },
  'limit.retained_bytes': { dimension: 'input', summary: 'A Zaxy document needed a second reading after more than limits.maxRetainedBytes were dropped.' },
  'limit.decompressed_bytes': { dimension: 'input', summary: 'Decompressed output exceeded limits.maxDecompressedBytes.' },
  'limit.compression_ratio': { dimension: 'input', summary: 'Decompressed/compressed ratio exceeded limits.maxCompressionRatio (gzip bomb?).' },
  'limit.line_bytes': { dimension: 'input', summary: 'A line is longer than limits.maxLineBytes.' },
  'limit.json_depth': { dimension: 'input', summary: 'JSON nesting is deeper than limits.maxJsonDepth.' },
  'limit.findings': { dimension: 'input', summary: 'More findings than limits.maxFindings; the rest were not recorded.' },
  'gzip.bad_header': { dimension: 'structure', summary: 'A gzip member header is malformed.' },
  'gzip.not_gzip': { dimension: 'structure', summary: 'The name says .gz but the bytes do not start with the gzip magic 1f 8b.' },
  'gzip.bad_data': { dimension: 'integrity', summary: 'The deflate data of a gzip member is corrupt.' },
  'gzip.crc_mismatch': { dimension: 'integrity', summary: 'A gzip member CRC32 does not match its data.' },
  'gzip.size_mismatch': { dimension: 'integrity', summary: 'A gzip member ISIZE does not match its data length.' },
  'gzip.truncated': { dimension: 'integrity', summary: 'The gzip stream ends inside a member.' },
  'gzip.trailing_garbage': { dimension: 'integrity', summary: 'Bytes after the last gzip member are not another member.' },
  'kit.internal_error': { dimension: 'input', summary: 'The kit itself failed on this input (a bug: please report it with the input).' },
  'kit.sha256_unavailable': { dimension: 'input', summary: 'No SHA-256 could be loaded on this host (WebAssembly refused): pass options.sha256 or call initSha256.' },
  'kit.unsigned_format': { dimension: 'authenticity', summary: 'The format carries no signature: a re-sealed edit cannot be detected.' },
} satisfies CodeTable);
