/**
 * The AgentXchain file inspector: the export's file table, and the content of one file read from
 * the verified bytes (docs/agentxchain.md §4). A file's content is its `content_base64`, decoded as
 * the reference decodes it (Node's lenient base64, §4.7) and hashed again here, so its badge says
 * what these bytes show: "bytes match SHA-256" when the decoded length equals `bytes` and the
 * SHA-256 equals `sha256` (§4.8, §4.9), "not verified" for `content_base64: null` (§4.5: no
 * content check at all; the view then shows the entry's `data`). Text files are shown as text
 * (UTF-8 with U+FFFD for invalid sequences, as the reference reads them), `json` files as a tree,
 * `jsonl` files as rows (non-blank lines, §4.10), numbers by their lexeme (the characters the
 * artifact holds: `1.50` stays `1.50`), read with `readDisplayJson`.
 *
 * The index is built once: one scan of the document notes where each file entry starts (the
 * files of nested repository exports too, §8); a page reads its entries again. Every byte is
 * attacker-controlled and the export may have failed verification: nothing is assumed about a
 * field's type, and nothing throws.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { decodeUtf8Lenient, encodeUtf8 } from '../encoding/utf8.ts';
import { toHex } from '../encoding/hex.ts';
import { skipWhitespace } from '../json/_grammar.ts';
import { decodeString } from '../json/reader.ts';
import { childCount, firstChild, isObjectNode, memberValue, nextSlot, valueOffset } from '../json/tape-read.ts';
import { createScanContext, scanValue } from '../json/tape.ts';
import { DEFAULT_LIMITS } from '../limits.ts';
import { jsonPath, type PathSegment } from '../report/path.ts';
import { decodeContentBase64 } from '../formats/agentxchain/base64-fast-path.ts';
import { jsonTree, treeIsPartial, type JsonTreeNode } from './agentxchain-json-tree.ts';
import {
  isNumberLexeme,
  lexeme,
  numberValue,
  prettyJson,
  readDisplayJson,
  readDisplayJsonAt,
  type DisplayValue,
} from './json-text.ts';
import { indexLines, lineBytes, type LineIndex } from './line-index.ts';
import { createTextSearch, findOccurrences, pageWindow } from './text-search.ts';
import type { InspectPage, InspectRequest, InspectSource, Inspector } from './types.ts';

export type { JsonTreeNode } from './agentxchain-json-tree.ts';

/** Longest text a page carries (UTF-16 code units); the view offers the whole file as a download. */
export const MAX_TEXT_CHARS = 200_000;
/** Nested repository exports followed at most this deep. */
const MAX_NESTING = 16;
const MAX_MARKS = 100_000;

/** What the content's badge says. */
export type FileStatus = 'match' | 'mismatch' | 'not-verified' | 'no-content';

/** A row of the file table. */
export interface AgentxchainFileItem {
  readonly kind: 'file';
  readonly position: number;
  /** The nested repository exports holding it, outermost first ([] for the artifact's own files). */
  readonly repos: readonly string[];
  /** The file's key in `files` (its relative path). */
  readonly name: string;
  /** JSON path of the entry, the prefix of the findings about it. */
  readonly path: string;
  readonly format: string;
  /** `bytes` by lexeme. */
  readonly bytes: string;
  readonly sha256: string;
  readonly status: FileStatus;
  /** The badge: "bytes match SHA-256", "not verified", … */
  readonly statusText: string;
  readonly truncated: boolean;
  readonly skipped: boolean;
  readonly hit: boolean;
}

/** The `content` view: one file's content. */
export interface AgentxchainFileContent {
  readonly kind: 'content';
  readonly file: AgentxchainFileItem;
  /** How it is shown: `jsonl` content is paged with the `rows` view. */
  readonly display: 'text' | 'json' | 'jsonl' | 'none';
  /** The text (clipped to `MAX_TEXT_CHARS`); for `json`, the text when it does not parse. */
  readonly text: string;
  /** Length of the whole text. */
  readonly fullLength: number;
  readonly tree: JsonTreeNode | undefined;
  /** The tree left nodes out or clipped strings. */
  readonly partial: boolean;
  /** Why the JSON does not parse ('' when it does). */
  readonly error: string;
  /** `jsonl`: non-blank lines. */
  readonly rowCount: number;
  /** Occurrences of the search in the whole text (exact). */
  readonly occurrences: number;
  /** Offsets of the first occurrences, within the clipped text. */
  readonly offsets: readonly number[];
}

/** A JSONL row (a non-blank line). */
export interface AgentxchainRow {
  readonly kind: 'row';
  /** 1-based among the non-blank lines, as the reference counts them (§4.10). */
  readonly row: number;
  readonly text: string;
  readonly fullLength: number;
  readonly tree: JsonTreeNode | undefined;
  readonly error: string;
  readonly hit: boolean;
}

/** The `marks` view: positions matching the search (files in the table, or rows of the open file). */
export interface AgentxchainMarks {
  readonly kind: 'marks';
  readonly matches: readonly number[];
}

/** The `locate` view: the position of the file whose entry path `filter.path` starts with (-1: none). */
export interface AgentxchainLocation {
  readonly kind: 'location';
  readonly position: number;
}

/** The `download` view: the whole content (decoded bytes, or `data` when there are none). */
export interface AgentxchainDownload {
  readonly kind: 'download';
  readonly name: string;
  readonly bytes: Uint8Array;
}

export type AgentxchainFilesItem =
  | AgentxchainFileItem
  | AgentxchainFileContent
  | AgentxchainRow
  | AgentxchainMarks
  | AgentxchainLocation
  | AgentxchainDownload;

/** A file entry noted by the index. */
interface FileFacts {
  readonly repos: readonly string[];
  readonly name: string;
  readonly path: string;
  readonly offset: number;
}

/** The decoded content of the file opened last, kept for its row pages. */
interface OpenFile {
  readonly position: number;
  readonly bytes: Uint8Array;
  readonly lines: LineIndex;
  /** Line numbers of the non-blank lines. */
  readonly rows: Uint32Array;
}

/** What the inspector notes once per export. */
export interface AgentxchainFilesIndex {
  readonly files: readonly FileFacts[];
  readonly unreadable: string;
  /** Table rows by position, once computed (their badge costs a decode and a hash). */
  readonly rows: Map<number, AgentxchainFileItem>;
  open: OpenFile | undefined;
}

/**
 * Builds the index of an AgentXchain export and pages its file table and file contents.
 * @example
 * const index = agentxchainFilesInspector.buildIndex(source);
 * agentxchainFilesInspector.page(source, index, { from: 0, count: 1, filter: { view: 'content', file: '0' } });
 */
export const agentxchainFilesInspector: Inspector<AgentxchainFilesItem, AgentxchainFilesIndex> = {
  buildIndex,
  page(source, index, request) {
    switch (request.filter?.['view']) {
      case 'content':
        return single(contentOf(source, index, request));
      case 'rows':
        return rowsPage(source, index, request);
      case 'row-marks':
        return single({ kind: 'marks', matches: rowMatches(source, index, request) });
      case 'marks':
        return single({ kind: 'marks', matches: fileMatches(source, index, request.search).slice(0, MAX_MARKS) });
      case 'locate':
        return single(locate(index, request.filter?.['path'] ?? ''));
      case 'download':
        return single(download(source, index, request));
      default:
        return filesPage(source, index, request);
    }
  },
};

function single(item: AgentxchainFilesItem): InspectPage<AgentxchainFilesItem> {
  return { items: [item], total: 1, matches: 1, firstIndex: 0 };
}

const utf8 = /* @__PURE__ */ new TextEncoder();
const KEY = { files: utf8.encode('files'), repos: utf8.encode('repos'), export: utf8.encode('export') };

function buildIndex(source: InspectSource): AgentxchainFilesIndex {
  const bytes = source.bytes;
  const context = createScanContext(bytes, DEFAULT_LIMITS.maxJsonDepth);
  const start = skipWhitespace(bytes, 0);
  const files: FileFacts[] = [];
  const incomplete = source.complete ? '' : 'only the first part of the export was kept for viewing (maxInspectBytes)';
  if (scanValue(context, start, 0) < 0)
    return { files, unreadable: incomplete || 'the export is not valid JSON', rows: new Map(), open: undefined };
  const tape = context.tape.data;
  // Exports to visit: the artifact, then each nested repository export (§8), outermost first.
  const work: { slot: number; repos: string[]; prefix: PathSegment[] }[] = [{ slot: 0, repos: [], prefix: [] }];
  for (let head = 0; head < work.length; head++) {
    const { slot, repos, prefix } = work[head]!;
    if (!isObjectNode(tape, slot)) continue;
    const filesSlot = memberValue(bytes, tape, slot, KEY.files);
    if (filesSlot >= 0 && isObjectNode(tape, filesSlot)) {
      let key = firstChild(filesSlot);
      for (let k = 0; k < childCount(tape, filesSlot); k++) {
        const name = decodeString(bytes, tape, key);
        const value = nextSlot(tape, key);
        files.push({ repos, name, path: jsonPath([...prefix, 'files', name]), offset: valueOffset(tape, value) });
        key = nextSlot(tape, value);
      }
    }
    const reposSlot = memberValue(bytes, tape, slot, KEY.repos);
    if (repos.length >= MAX_NESTING || reposSlot < 0 || !isObjectNode(tape, reposSlot)) continue;
    let key = firstChild(reposSlot);
    for (let k = 0; k < childCount(tape, reposSlot); k++) {
      const id = decodeString(bytes, tape, key);
      const value = nextSlot(tape, key);
      if (isObjectNode(tape, value)) {
        const child = memberValue(bytes, tape, value, KEY.export);
        if (child >= 0) work.push({ slot: child, repos: [...repos, id], prefix: [...prefix, 'repos', id, 'export'] });
      }
      key = nextSlot(tape, value);
    }
  }
  return { files, unreadable: incomplete, rows: new Map(), open: undefined };
}

// ---------------------------------------------------------------------------------------------
// One entry

function member(value: DisplayValue | undefined, key: string): DisplayValue | undefined {
  return value instanceof Map ? value.get(key) : undefined;
}

function entryAt(source: InspectSource, facts: FileFacts): DisplayValue | undefined {
  const read = readDisplayJsonAt(source.bytes, facts.offset);
  return read.ok ? read.value : undefined;
}

/** The decoded `content_base64` (§4.7), or undefined when it is not a string. */
function decodedContent(entry: DisplayValue | undefined): Uint8Array | undefined {
  const base64 = member(entry, 'content_base64');
  return typeof base64 === 'string' ? decodeContentBase64(base64) : undefined;
}

function sameCount(declared: DisplayValue | undefined, length: number): boolean {
  if (!isNumberLexeme(declared)) return false;
  const value = numberValue(declared);
  return typeof value === 'bigint' ? value === BigInt(length) : value === length;
}

function fileItem(source: InspectSource, index: AgentxchainFilesIndex, position: number): AgentxchainFileItem {
  const cached = index.rows.get(position);
  if (cached !== undefined) return cached;
  const facts = index.files[position]!;
  const entry = entryAt(source, facts);
  const declaredSha = member(entry, 'sha256');
  const base64 = member(entry, 'content_base64');
  let status: FileStatus;
  let statusText: string;
  if (base64 === null) {
    status = 'not-verified';
    statusText = 'not verified';
  } else if (typeof base64 !== 'string') {
    status = 'no-content';
    statusText = 'no content';
  } else {
    const decoded = decodeContentBase64(base64);
    const bytesMatch = sameCount(member(entry, 'bytes'), decoded.length);
    const shaMatch = typeof declaredSha === 'string' && toHex(sha256(decoded)) === declaredSha;
    status = bytesMatch && shaMatch ? 'match' : 'mismatch';
    statusText =
      status === 'match'
        ? 'bytes match SHA-256'
        : !shaMatch
          ? 'bytes do not match SHA-256'
          : 'length does not match bytes';
  }
  const item: AgentxchainFileItem = {
    kind: 'file',
    position,
    repos: facts.repos,
    name: facts.name,
    path: facts.path,
    format: lexeme(member(entry, 'format')) ?? '',
    bytes: lexeme(member(entry, 'bytes')) ?? '',
    sha256: lexeme(declaredSha) ?? '',
    status,
    statusText,
    truncated: member(entry, 'truncated') === true,
    skipped: member(entry, 'content_base64_skipped') === true,
    hit: false,
  };
  if (index.rows.size < 100_000) index.rows.set(position, item);
  return item;
}

// ---------------------------------------------------------------------------------------------
// The file table

function fileTexts(item: AgentxchainFileItem): string[] {
  return [item.name, item.format, item.statusText, item.sha256, ...item.repos];
}

function fileMatches(source: InspectSource, index: AgentxchainFilesIndex, search: string | undefined): number[] {
  const compiled = createTextSearch(search);
  if (compiled === undefined) return [];
  const found: number[] = [];
  for (let position = 0; position < index.files.length; position++)
    if (compiled.test(fileTexts(fileItem(source, index, position)))) found.push(position);
  return found;
}

function filesPage(
  source: InspectSource,
  index: AgentxchainFilesIndex,
  request: InspectRequest,
): InspectPage<AgentxchainFilesItem> {
  const compiled = createTextSearch(request.search);
  const matches = compiled === undefined ? undefined : new Set(fileMatches(source, index, request.search));
  const { start, end } = pageWindow(index.files.length, request.from, request.count);
  const items: AgentxchainFileItem[] = [];
  for (let position = start; position < end; position++) {
    const item = fileItem(source, index, position);
    items.push(matches?.has(position) ? { ...item, hit: true } : item);
  }
  return {
    items,
    total: index.files.length,
    matches: matches === undefined ? index.files.length : matches.size,
    firstIndex: start,
    ...(index.unreadable === '' ? {} : { notViewable: index.unreadable }),
  };
}

function locate(index: AgentxchainFilesIndex, path: string): AgentxchainLocation {
  // The longest entry path that is a whole-step prefix of the finding's path.
  let best = -1;
  for (let position = 0; position < index.files.length; position++) {
    const prefix = index.files[position]!.path;
    if (!path.startsWith(prefix)) continue;
    const next = path.charAt(prefix.length);
    if (next !== '' && next !== '.' && next !== '[') continue;
    if (best < 0 || prefix.length > index.files[best]!.path.length) best = position;
  }
  return { kind: 'location', position: best };
}

// ---------------------------------------------------------------------------------------------
// One file's content

function filePosition(index: AgentxchainFilesIndex, request: InspectRequest): number {
  const position = Number(request.filter?.['file'] ?? '-1');
  return Number.isInteger(position) && position >= 0 && position < index.files.length ? position : -1;
}

/** The bytes shown for a file: the decoded content, or for an entry without it its `data` as text. */
function shownBytes(entry: DisplayValue | undefined): Uint8Array {
  const decoded = decodedContent(entry);
  if (decoded !== undefined) return decoded;
  const data = member(entry, 'data');
  if (data === undefined || data === null) return new Uint8Array(0);
  if (typeof data === 'string') return encodeUtf8(data);
  if (member(entry, 'format') === 'jsonl' && Array.isArray(data))
    return encodeUtf8(data.map((row) => prettyJson(row).replace(/\n\s*/g, ' ')).join('\n'));
  return encodeUtf8(prettyJson(data));
}

function openFile(source: InspectSource, index: AgentxchainFilesIndex, position: number): OpenFile {
  if (index.open?.position === position) return index.open;
  const bytes = shownBytes(entryAt(source, index.files[position]!));
  const lines = indexLines(bytes);
  const rows: number[] = [];
  for (let line = 1; line <= lines.count; line++) {
    const text = lineBytes(bytes, lines, line);
    if (!isBlank(text)) rows.push(line);
  }
  index.open = { position, bytes, lines, rows: Uint32Array.from(rows) };
  return index.open;
}

/** JavaScript's `trim()` is empty: ASCII whitespace only is checked byte-wise, the rest decoded. */
function isBlank(line: Uint8Array): boolean {
  for (const byte of line)
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0b && byte !== 0x0c) {
      return byte < 0x80 ? false : decodeUtf8Lenient(line).trim() === '';
    }
  return true;
}

function contentOf(
  source: InspectSource,
  index: AgentxchainFilesIndex,
  request: InspectRequest,
): AgentxchainFileContent {
  const position = filePosition(index, request);
  if (position < 0) {
    const file: AgentxchainFileItem = {
      kind: 'file',
      position,
      repos: [],
      name: '',
      path: '',
      format: '',
      bytes: '',
      sha256: '',
      status: 'no-content',
      statusText: 'no such file',
      truncated: false,
      skipped: false,
      hit: false,
    };
    return emptyContent(file);
  }
  const file = fileItem(source, index, position);
  const open = openFile(source, index, position);
  const text = decodeUtf8Lenient(open.bytes);
  const compiled = createTextSearch(request.search);
  const shown = text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
  const occurrences = compiled === undefined ? [] : findOccurrences(text, compiled.needle, Number.MAX_SAFE_INTEGER);
  const base = {
    kind: 'content' as const,
    file,
    text: shown,
    fullLength: text.length,
    tree: undefined,
    partial: false,
    error: '',
    rowCount: 0,
    occurrences: occurrences.length,
    offsets: occurrences.filter((at) => at < shown.length).slice(0, MAX_MARKS),
  };
  if (file.format === 'jsonl') return { ...base, display: 'jsonl', text: '', rowCount: open.rows.length };
  if (file.format === 'json') {
    const read = readDisplayJson(open.bytes);
    if (read.ok) {
      const tree = jsonTree(read.value);
      return { ...base, display: 'json', text: '', tree, partial: treeIsPartial(tree) };
    }
    return { ...base, display: 'text', error: read.error.message };
  }
  return { ...base, display: open.bytes.length === 0 && file.status === 'no-content' ? 'none' : 'text' };
}

function emptyContent(file: AgentxchainFileItem): AgentxchainFileContent {
  return {
    kind: 'content',
    file,
    display: 'none',
    text: '',
    fullLength: 0,
    tree: undefined,
    partial: false,
    error: '',
    rowCount: 0,
    occurrences: 0,
    offsets: [],
  };
}

function rowItem(open: OpenFile, at: number, hit: boolean): AgentxchainRow {
  const line = lineBytes(open.bytes, open.lines, open.rows[at]!);
  const text = decodeUtf8Lenient(line);
  const read = readDisplayJson(encodeUtf8(text.trim()));
  const tree = read.ok ? jsonTree(read.value, { nodes: 500, chars: 20_000 }) : undefined;
  return {
    kind: 'row',
    row: at + 1,
    text: text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text,
    fullLength: text.length,
    tree,
    error: read.ok ? '' : read.error.message,
    hit,
  };
}

function rowMatches(source: InspectSource, index: AgentxchainFilesIndex, request: InspectRequest): number[] {
  const position = filePosition(index, request);
  const compiled = createTextSearch(request.search);
  if (position < 0 || compiled === undefined) return [];
  const open = openFile(source, index, position);
  const found: number[] = [];
  for (let at = 0; at < open.rows.length && found.length < MAX_MARKS; at++)
    if (compiled.test([decodeUtf8Lenient(lineBytes(open.bytes, open.lines, open.rows[at]!))])) found.push(at);
  return found;
}

function rowsPage(
  source: InspectSource,
  index: AgentxchainFilesIndex,
  request: InspectRequest,
): InspectPage<AgentxchainFilesItem> {
  const position = filePosition(index, request);
  if (position < 0) return { items: [], total: 0, matches: 0, firstIndex: 0 };
  const open = openFile(source, index, position);
  const compiled = createTextSearch(request.search);
  const matches = compiled === undefined ? undefined : new Set(rowMatches(source, index, request));
  const { start, end } = pageWindow(open.rows.length, request.from, request.count);
  const items: AgentxchainRow[] = [];
  for (let at = start; at < end; at++) items.push(rowItem(open, at, matches?.has(at) ?? false));
  return {
    items,
    total: open.rows.length,
    matches: matches === undefined ? open.rows.length : matches.size,
    firstIndex: start,
  };
}

function download(source: InspectSource, index: AgentxchainFilesIndex, request: InspectRequest): AgentxchainDownload {
  const position = filePosition(index, request);
  if (position < 0) return { kind: 'download', name: 'file', bytes: new Uint8Array(0) };
  const bytes = shownBytes(entryAt(source, index.files[position]!));
  const name = index.files[position]!.name.split('/').pop() || 'file';
  return { kind: 'download', name, bytes };
}
