/**
 * The Zaxy inspector: pages of entry cards read from the verified bundle, subset or unsigned
 * envelope (docs/zaxy.md, 'Shapes'). The index is built once, in one pass of the lossless reader
 * that streams `entries` (or `disclosed`) element by element: where each element starts, and the
 * few facts the filters read (grain, kind, actor, `valid_from`, `seq`). A page reads its own
 * elements again from the bytes, keeping each number's lexeme (`readDisplayJsonAt`): a card shows
 * `1.50` as `1.50`, and a search for `1.50` finds it.
 *
 * The filters are the axes of Zaxy's disclosure selector (docs/zaxy.md, 'Selectors and
 * disclosure': `grains`, `kinds` matched against each entry's own `kind`, time bounds inclusive on
 * `valid_from` compared code point by code point, an entry whose `valid_from` is not a string
 * failing any time bound) plus the event's actor, so the same filter can tick the entries a
 * subset discloses. Search is plain text over everything a card shows.
 *
 * Every byte is attacker-controlled and the document may have failed verification: no field is
 * assumed to have its type, and nothing throws. A document that does not read keeps the elements
 * read before the error.
 * @module
 */
import { compareCodePoints } from '../json/canonical.ts';
import { materialize, readJsonDocument, type StreamedArray } from '../json/reader.ts';
import { valueOffset } from '../json/tape-read.ts';
import type { JsonValue } from '../json/value.ts';
import { jsonPath } from '../report/path.ts';
import { lexeme, prettyJson, readDisplayJsonAt, type DisplayValue } from './json-text.ts';
import { createTextSearch, pageWindow } from './text-search.ts';
import type { InspectPage, InspectRequest, InspectSource, Inspector } from './types.ts';
import { card, member, scalarText, type ZaxyCard } from './zaxy-model.ts';

export type { ZaxyCard, ZaxyEdge, ZaxyField } from './zaxy-model.ts';

/** Positions returned by the `marks` and `positions` views. */
const MAX_POSITIONS = 1_000_000;
const UNSIGNED_VERSION = 'zaxy.export.unsigned.v1';

/** One entry card. */
export interface ZaxyEntryItem extends ZaxyCard {
  readonly kind: 'entry';
  /** Position in the document's `entries` or `disclosed` list. */
  readonly position: number;
  /** The entry's number in the signed bundle: its position there, or a subset element's `index` (by lexeme). */
  readonly bundleIndex: string;
  /** JSON path of the element, the prefix of the findings about it. */
  readonly path: string;
  /** A signed bundle's `id` ('' otherwise). */
  readonly id: string;
  readonly grain: string;
  readonly entryKind: string;
  readonly seq: string;
  readonly citation: string;
  readonly validFrom: string;
  readonly validTo: string;
  readonly source: string;
  /** The entry matches the request's search. */
  readonly hit: boolean;
}

/** The `overview` view's one item: the document's header and the filter facets with their counts. */
export interface ZaxyOverview {
  readonly kind: 'overview';
  readonly shape: 'bundle' | 'subset' | 'unsigned' | 'unknown';
  readonly count: number;
  /** Header fields in the signing header's order, then the others, `[key, text]`. */
  readonly header: readonly (readonly [string, string])[];
  /** The bundle's `anchor` as text ('' when there is none): shown as not covered by the signature. */
  readonly anchor: string;
  readonly kinds: readonly (readonly [string, number])[];
  readonly grains: readonly (readonly [string, number])[];
  readonly actors: readonly (readonly [string, number])[];
  /** Earliest and latest string `valid_from`. */
  readonly firstTime: string;
  readonly lastTime: string;
  /** Why the document could not be read to the end ('' when it was). */
  readonly unreadable: string;
}

/** The `marks` view: filtered positions of the entries matching the search. */
export interface ZaxyMarks {
  readonly kind: 'marks';
  readonly matches: readonly number[];
}

/** The `locate` view: the filtered position of document position `filter.position` (-1 when filtered out). */
export interface ZaxyLocation {
  readonly kind: 'location';
  readonly position: number;
}

/** The `positions` view: document positions of the filtered entries (what disclosure selects by). */
export interface ZaxyPositions {
  readonly kind: 'positions';
  readonly positions: readonly number[];
}

/** The `entry-json` view: one whole element as pretty JSON, for "download full". */
export interface ZaxyEntryJson {
  readonly kind: 'entry-json';
  readonly position: number;
  readonly text: string;
}

export type ZaxyItem = ZaxyEntryItem | ZaxyOverview | ZaxyMarks | ZaxyLocation | ZaxyPositions | ZaxyEntryJson;

/** What the inspector notes once per document. */
export interface ZaxyIndex {
  readonly shape: ZaxyOverview['shape'];
  readonly listKey: 'entries' | 'disclosed' | '';
  readonly count: number;
  readonly offsets: Uint32Array;
  readonly grains: readonly string[];
  readonly kinds: readonly string[];
  readonly actors: readonly string[];
  /** `valid_from` when it is a string, else undefined (fails any time bound). */
  readonly times: readonly (string | undefined)[];
  readonly header: readonly (readonly [string, string])[];
  readonly anchor: string;
  readonly unreadable: string;
  /** Filtered positions by filter key (a few kept). */
  readonly filtered: Map<string, Uint32Array>;
  /** The last search: its key and which filtered positions match. */
  search: { readonly key: string; readonly positions: Uint32Array } | undefined;
}

/** The signing header's fields (docs/zaxy.md, 'Signing header'), shown first. */
const HEADER_ORDER = ['version', 'algorithm', 'public_key', 'session_id', 'created_at', 'nonce', 'merkle_root'];

/**
 * Builds the index of a Zaxy document and pages entry cards out of it.
 * @example
 * const index = zaxyInspector.buildIndex(source);
 * zaxyInspector.page(source, index, { from: 0, count: 50, filter: { grain: 'event' } }).items;
 */
export const zaxyInspector: Inspector<ZaxyItem, ZaxyIndex> = {
  buildIndex,
  page(source, index, request) {
    switch (request.filter?.['view']) {
      case 'overview':
        return single(overview(index));
      case 'marks':
        return single({ kind: 'marks', matches: [...(searchPositions(source, index, request) ?? [])] });
      case 'locate':
        return single(locate(index, request));
      case 'positions':
        return single(positions(index, request));
      case 'entry-json':
        return single(entryJson(source, index, request));
      default:
        return entriesPage(source, index, request);
    }
  },
};

function single(item: ZaxyItem): InspectPage<ZaxyItem> {
  return { items: [item], total: 1, matches: 1, firstIndex: 0 };
}

/** Interns the few distinct values of a column (kinds, grains, actors repeat across entries). */
function interner(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    const found = seen.get(text);
    if (found !== undefined) return found;
    seen.set(text, text);
    return text;
  };
}

function buildIndex(source: InspectSource): ZaxyIndex {
  const bytes = source.bytes;
  let offsets = new Uint32Array(256);
  const grains: string[] = [];
  const kinds: string[] = [];
  const actors: string[] = [];
  const times: (string | undefined)[] = [];
  const intern = interner();
  let listKey: ZaxyIndex['listKey'] = '';
  let unsigned = false;
  let count = 0;
  /** Where each other root member's value starts (the last of a repeated key, as in Python). */
  const memberOffsets = new Map<string, number>();
  const result = readJsonDocument(bytes, {
    streamKeys: ['entries', 'disclosed'],
    member(key, node) {
      memberOffsets.set(key, valueOffset(node.tape, node.node));
    },
    startArray(key, root) {
      // The last `disclosed` or `entries` list wins, as in Python; a subset's is `disclosed`.
      if (listKey === 'disclosed' && key === 'entries') return;
      listKey = key as 'entries' | 'disclosed';
      unsigned = root.get('version') === UNSIGNED_VERSION;
      count = 0;
      grains.length = kinds.length = actors.length = times.length = 0;
    },
    element(key, _index, node) {
      if (key !== listKey) return;
      if (count === offsets.length) {
        const grown = new Uint32Array(offsets.length * 2);
        grown.set(offsets);
        offsets = grown;
      }
      const element = materialize(node.bytes, node.tape, node.node);
      offsets[count++] = valueOffset(node.tape, node.node);
      const entry = unsigned ? element : member(element, 'content');
      grains.push(intern(scalarText(member(entry, 'grain'))));
      kinds.push(intern(scalarText(member(entry, 'kind'))));
      actors.push(intern(scalarText(member(member(entry, 'content'), 'actor'))));
      const time = member(entry, 'valid_from');
      times.push(typeof time === 'string' ? time : undefined);
    },
  });
  const root = result.ok && result.root instanceof Map ? result.root : undefined;
  let shape: ZaxyIndex['shape'] = 'unknown';
  if (root !== undefined) {
    if (root.has('disclosed')) shape = 'subset';
    else if (root.has('entries')) shape = root.get('version') === UNSIGNED_VERSION ? 'unsigned' : 'bundle';
  } else if (listKey !== '') shape = listKey === 'disclosed' ? 'subset' : unsigned ? 'unsigned' : 'bundle';
  let unreadable = '';
  if (!result.ok) unreadable = result.error.message;
  else if (root === undefined) unreadable = 'the document is not a JSON object';
  if (!source.complete) unreadable = 'only the first part of the document was kept for viewing (maxInspectBytes)';
  return {
    shape,
    listKey,
    count,
    offsets: offsets.subarray(0, count),
    grains,
    kinds,
    actors,
    times,
    header: root === undefined ? [] : headerFields(root, (key) => memberText(bytes, memberOffsets, key)),
    anchor: root?.has('anchor') && root.get('anchor') !== null ? memberText(bytes, memberOffsets, 'anchor') : '',
    unreadable,
    filtered: new Map(),
    search: undefined,
  };
}

/** A value that may be `null` (shown as nothing). */
function optionalText(value: DisplayValue | undefined): string {
  return value === null ? '' : scalarText(value);
}

function textOf(value: DisplayValue): string {
  return lexeme(value) ?? prettyJson(value);
}

/** A root member's value as text, re-read from the bytes so its numbers keep their lexemes. */
function memberText(bytes: Uint8Array, offsets: ReadonlyMap<string, number>, key: string): string {
  const offset = offsets.get(key);
  const read = offset === undefined ? undefined : readDisplayJsonAt(bytes, offset);
  return read?.ok === true ? textOf(read.value) : '';
}

function headerFields(
  root: ReadonlyMap<string, JsonValue | StreamedArray>,
  text: (key: string) => string,
): [string, string][] {
  const fields: [string, string][] = [];
  const add = (key: string) => {
    const value = root.get(key);
    if (value === undefined || isStreamed(value)) return;
    fields.push([key, text(key)]);
  };
  for (const key of HEADER_ORDER) add(key);
  for (const key of root.keys())
    if (!HEADER_ORDER.includes(key) && key !== 'anchor' && key !== 'entries' && key !== 'disclosed') add(key);
  return fields;
}

function isStreamed(value: JsonValue | StreamedArray): value is StreamedArray {
  return typeof value === 'object' && value !== null && !(value instanceof Map) && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Filters

interface Filter {
  readonly key: string;
  readonly grain: string;
  readonly kinds: readonly string[];
  readonly actor: string;
  readonly since: string;
  readonly until: string;
}

function readFilter(filter: InspectRequest['filter']): Filter {
  const grain = filter?.['grain'] ?? '';
  const kinds = (filter?.['kind'] ?? '')
    .split(',')
    .map((kind) => kind.trim())
    .filter((kind) => kind !== '');
  const actor = filter?.['actor'] ?? '';
  const since = (filter?.['since'] ?? '').trim();
  const until = (filter?.['until'] ?? '').trim();
  return { key: JSON.stringify([grain, kinds, actor, since, until]), grain, kinds, actor, since, until };
}

function passes(index: ZaxyIndex, position: number, filter: Filter): boolean {
  if (filter.grain !== '' && index.grains[position] !== filter.grain) return false;
  if (filter.kinds.length > 0 && !filter.kinds.includes(index.kinds[position]!)) return false;
  if (filter.actor !== '' && index.actors[position] !== filter.actor) return false;
  if (filter.since !== '' || filter.until !== '') {
    const time = index.times[position];
    if (time === undefined) return false;
    if (filter.since !== '' && compareCodePoints(time, filter.since) < 0) return false;
    if (filter.until !== '' && compareCodePoints(time, filter.until) > 0) return false;
  }
  return true;
}

function filteredPositions(index: ZaxyIndex, filter: Filter): Uint32Array {
  const cached = index.filtered.get(filter.key);
  if (cached !== undefined) return cached;
  const kept = new Uint32Array(index.count);
  let n = 0;
  for (let position = 0; position < index.count; position++) if (passes(index, position, filter)) kept[n++] = position;
  const result = kept.slice(0, n);
  if (index.filtered.size > 16) index.filtered.clear();
  index.filtered.set(filter.key, result);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Pages

/** The element at `position`, read again from the bytes (numbers as their lexemes). */
function elementAt(source: InspectSource, index: ZaxyIndex, position: number): DisplayValue | undefined {
  const read = readDisplayJsonAt(source.bytes, index.offsets[position]!);
  return read.ok ? read.value : undefined;
}

function entryItem(source: InspectSource, index: ZaxyIndex, position: number, hit: boolean): ZaxyEntryItem {
  const element = elementAt(source, index, position);
  const entry = index.shape === 'unsigned' ? element : member(element, 'content');
  const bundleIndex = index.shape === 'subset' ? (lexeme(member(element, 'index')) ?? '') : String(position);
  return {
    kind: 'entry',
    position,
    bundleIndex,
    path: jsonPath([index.listKey === '' ? 'entries' : index.listKey, position]),
    id: index.shape === 'bundle' ? scalarText(member(element, 'id')) : '',
    grain: scalarText(member(entry, 'grain')),
    entryKind: scalarText(member(entry, 'kind')),
    seq: scalarText(member(entry, 'seq')),
    citation: scalarText(member(entry, 'citation')),
    validFrom: optionalText(member(entry, 'valid_from')),
    validTo: optionalText(member(entry, 'valid_to')),
    source: scalarText(member(entry, 'source')),
    hit,
    ...card(entry),
  };
}

function searchTexts(item: ZaxyEntryItem): string[] {
  const texts = [
    item.bundleIndex,
    item.id,
    item.grain,
    item.entryKind,
    item.seq,
    item.citation,
    item.validFrom,
    item.validTo,
    item.source,
    item.headline,
    item.actor,
    item.thread,
    item.entityType,
  ];
  if (item.edge !== undefined) {
    const edge = item.edge;
    texts.push(edge.source, edge.relation, edge.target, edge.confidence, edge.inferred, edge.inferenceMethod);
  }
  for (const field of item.fields) texts.push(field.label, field.text, ...field.items);
  return texts;
}

/** Which filtered positions match `search` (cached for the last search); undefined without a search. */
function searchPositions(source: InspectSource, index: ZaxyIndex, request: InspectRequest): Uint32Array | undefined {
  const compiled = createTextSearch(request.search);
  if (compiled === undefined) return undefined;
  const filter = readFilter(request.filter);
  const key = `${filter.key}|${compiled.needle}`;
  if (index.search?.key === key) return index.search.positions;
  const ids = filteredPositions(index, filter);
  const found: number[] = [];
  for (let at = 0; at < ids.length; at++)
    if (compiled.test(searchTexts(entryItem(source, index, ids[at]!, false)))) found.push(at);
  const positions = Uint32Array.from(found.slice(0, MAX_POSITIONS));
  index.search = { key, positions };
  return positions;
}

function entriesPage(source: InspectSource, index: ZaxyIndex, request: InspectRequest): InspectPage<ZaxyItem> {
  const ids = filteredPositions(index, readFilter(request.filter));
  const matches = searchPositions(source, index, request);
  const { start, end } = pageWindow(ids.length, request.from, request.count);
  const items: ZaxyEntryItem[] = [];
  for (let at = start; at < end; at++)
    items.push(entryItem(source, index, ids[at]!, matches !== undefined && sortedHas(matches, at)));
  return {
    items,
    total: ids.length,
    matches: matches === undefined ? ids.length : matches.length,
    firstIndex: start,
    ...(index.unreadable === ''
      ? {}
      : { notViewable: `entries past this point are not viewable: ${index.unreadable}` }),
  };
}

/** Whether ascending `values` hold `wanted` (binary search). */
function sortedHas(values: Uint32Array, wanted: number): boolean {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < wanted) low = mid + 1;
    else high = mid;
  }
  return low < values.length && values[low] === wanted;
}

function counts(values: readonly string[]): [string, number][] {
  const tally = new Map<string, number>();
  for (const value of values) tally.set(value, (tally.get(value) ?? 0) + 1);
  return [...tally].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]));
}

function overview(index: ZaxyIndex): ZaxyOverview {
  let firstTime = '';
  let lastTime = '';
  for (const time of index.times) {
    if (time === undefined) continue;
    if (firstTime === '' || compareCodePoints(time, firstTime) < 0) firstTime = time;
    if (lastTime === '' || compareCodePoints(time, lastTime) > 0) lastTime = time;
  }
  return {
    kind: 'overview',
    shape: index.shape,
    count: index.count,
    header: index.header,
    anchor: index.anchor,
    kinds: counts(index.kinds),
    grains: counts(index.grains),
    actors: counts(index.actors.filter((actor) => actor !== '')),
    firstTime,
    lastTime,
    unreadable: index.unreadable,
  };
}

function locate(index: ZaxyIndex, request: InspectRequest): ZaxyLocation {
  const ids = filteredPositions(index, readFilter(request.filter));
  const wanted = Number(request.filter?.['position'] ?? '-1');
  // Filtered positions ascend: binary search.
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ids[mid]! < wanted) low = mid + 1;
    else high = mid;
  }
  return { kind: 'location', position: low < ids.length && ids[low] === wanted ? low : -1 };
}

function positions(index: ZaxyIndex, request: InspectRequest): ZaxyPositions {
  const ids = filteredPositions(index, readFilter(request.filter));
  return { kind: 'positions', positions: [...ids.subarray(0, MAX_POSITIONS)] };
}

function entryJson(source: InspectSource, index: ZaxyIndex, request: InspectRequest): ZaxyEntryJson {
  const position = Number(request.filter?.['position'] ?? '-1');
  if (!(Number.isInteger(position) && position >= 0 && position < index.count))
    return { kind: 'entry-json', position, text: '' };
  const element = elementAt(source, index, position);
  return { kind: 'entry-json', position, text: element === undefined ? '' : prettyJson(element) };
}
