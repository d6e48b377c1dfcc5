/**
 * View models of Zaxy entries (docs/zaxy.md, 'Entry schema'): one card per entry, typed by grain.
 * An event gets its documented layout (`zaxy-layouts.ts`) or key and value; an entity its name,
 * type, summary and properties; an edge the parts of the sentence `source —relation→ target` and
 * its confidence and evidence. Entries are read with `readDisplayJsonAt` (`json-text.ts`), so every
 * number is shown by its lexeme, the characters the bundle holds (`1.0` stays `1.0`, `1.50` stays
 * `1.50`, a 2^64 integer stays exact), in fields, lists and JSON blocks alike, and search finds it
 * so. Strings stay plain strings; the view draws them as text.
 * @module
 */
import { lexeme, prettyJson, type DisplayValue } from './json-text.ts';
import { EVENT_LAYOUTS } from './zaxy-layouts.ts';

/** Longest text of one field a page carries (UTF-16 code units); the view offers the whole entry as a download. */
export const MAX_FIELD_CHARS = 200_000;
/** Most elements of a list field a page carries. */
const MAX_LIST_ITEMS = 1000;

/** One labelled value of a card. */
export interface ZaxyField {
  /** The artifact's key ('' for none). */
  readonly key: string;
  /** The layout's label, or the key itself. */
  readonly label: string;
  /** `text` a string, `scalar` a number, boolean or null, `list` an array of scalars, `json` anything else. */
  readonly shape: 'text' | 'scalar' | 'list' | 'json';
  /** The text (`json`: pretty-printed), clipped to `MAX_FIELD_CHARS`. */
  readonly text: string;
  /** The elements of a `list`, each by its text or lexeme. */
  readonly items: readonly string[];
  /** Length of the whole text (more than `text.length` when clipped). */
  readonly fullLength: number;
}

/** The parts of an edge's sentence. */
export interface ZaxyEdge {
  readonly source: string;
  readonly relation: string;
  readonly target: string;
  readonly confidence: string;
  readonly inferred: string;
  readonly inferenceMethod: string;
}

/** The grain-specific part of a card. */
export interface ZaxyCard {
  readonly shape: 'event' | 'entity' | 'edge' | 'other';
  /** The card's headline: a documented event's main field, an entity's name; '' when none. */
  readonly headline: string;
  /** A documented layout was applied. */
  readonly typed: boolean;
  readonly actor: string;
  readonly thread: string;
  /** An entity's type. */
  readonly entityType: string;
  readonly edge: ZaxyEdge | undefined;
  readonly fields: readonly ZaxyField[];
  /** Some field was clipped for the page. */
  readonly clipped: boolean;
}

/** A member of an object, or undefined. */
export function member(value: DisplayValue | undefined, key: string): DisplayValue | undefined {
  return value instanceof Map ? value.get(key) : undefined;
}

/**
 * A scalar's display text ('' for a missing value or a container).
 * @example
 * scalarText({ lexeme: '1.50', integer: false }); // '1.50'
 */
export function scalarText(value: DisplayValue | undefined): string {
  return lexeme(value) ?? '';
}

function clip(text: string): string {
  return text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;
}

/**
 * A field for any value: strings as text, scalars by lexeme, arrays of scalars as lists, the rest
 * as pretty JSON.
 * @example
 * field('rationale', 'Rationale', ['a', 'b']).items; // ['a', 'b']
 */
export function field(key: string, label: string, value: DisplayValue): ZaxyField {
  if (typeof value === 'string')
    return { key, label, shape: 'text', text: clip(value), items: [], fullLength: value.length };
  const scalar = lexeme(value);
  if (scalar !== undefined)
    return { key, label, shape: 'scalar', text: clip(scalar), items: [], fullLength: scalar.length };
  if (Array.isArray(value) && value.every((item) => lexeme(item) !== undefined)) {
    let length = 0;
    const items: string[] = [];
    for (const item of value) {
      const text = lexeme(item)!;
      length += text.length;
      if (items.length < MAX_LIST_ITEMS && length <= MAX_FIELD_CHARS) items.push(text);
    }
    const shown = items.reduce((sum, item) => sum + item.length, 0);
    return { key, label, shape: 'list', text: '', items, fullLength: items.length < value.length ? shown + 1 : shown };
  }
  const json = prettyJson(value);
  return { key, label, shape: 'json', text: clip(json), items: [], fullLength: json.length };
}

/** Fields for every member of an object (or the value itself when it is not one), skipping `skip`. */
function memberFields(value: DisplayValue | undefined, skip: ReadonlySet<string> = new Set()): ZaxyField[] {
  if (value === undefined) return [];
  if (!(value instanceof Map)) return [field('', 'value', value)];
  const fields: ZaxyField[] = [];
  for (const [key, item] of value) if (!skip.has(key)) fields.push(field(key, key, item));
  return fields;
}

function isClipped(fields: readonly ZaxyField[]): boolean {
  return fields.some((item) =>
    item.shape === 'list' ? item.items.join('').length < item.fullLength : item.text.length < item.fullLength,
  );
}

/**
 * The card of an entry (`entry` is the whole entry object of docs/zaxy.md, 'Entry schema'; any
 * shape is accepted, an unexpected one is shown as key and value).
 * @example
 * card(entry).edge; // { source: 'claude', relation: 'created', target: 'goal 1', … } for an edge entry
 */
export function card(entry: DisplayValue | undefined): ZaxyCard {
  const grain = member(entry, 'grain');
  const content = member(entry, 'content');
  if (grain === 'event' && content instanceof Map) return eventCard(content);
  if (grain === 'semantic' && content instanceof Map) {
    if (content.has('relation_type')) return edgeCard(content);
    if (content.has('entity_type')) return entityCard(content);
  }
  const fields = memberFields(content);
  return {
    shape: 'other',
    headline: '',
    typed: false,
    actor: '',
    thread: '',
    entityType: '',
    edge: undefined,
    fields,
    clipped: isClipped(fields),
  };
}

function eventCard(content: Map<string, DisplayValue>): ZaxyCard {
  const type = content.get('type');
  const payload = content.get('payload');
  const layout = typeof type === 'string' ? EVENT_LAYOUTS.get(type) : undefined;
  const fields: ZaxyField[] = [];
  let headline = '';
  const used = new Set<string>();
  if (layout !== undefined && payload instanceof Map) {
    for (const key of layout.headline) {
      const value = payload.get(key);
      if (typeof value === 'string') {
        headline = clip(value);
        used.add(key);
        break;
      }
    }
    for (const [key, label] of layout.fields) {
      const value = payload.get(key);
      if (value === undefined) continue;
      fields.push(field(key, label, value));
      used.add(key);
    }
  }
  fields.push(...memberFields(payload, used));
  // Members of the event's content besides the four documented ones (docs/zaxy.md, 'Entry schema').
  for (const [key, value] of content)
    if (key !== 'type' && key !== 'actor' && key !== 'thread' && key !== 'payload') fields.push(field(key, key, value));
  return {
    shape: 'event',
    headline,
    typed: layout !== undefined && payload instanceof Map,
    actor: scalarText(content.get('actor')),
    thread: scalarText(content.get('thread')),
    entityType: '',
    edge: undefined,
    fields,
    clipped: isClipped(fields),
  };
}

const ENTITY_KEYS: ReadonlySet<string> = /* @__PURE__ */ new Set(['name', 'entity_type', 'summary', 'properties']);

function entityCard(content: Map<string, DisplayValue>): ZaxyCard {
  const fields: ZaxyField[] = [];
  const summary = content.get('summary');
  if (summary !== undefined && summary !== null) fields.push(field('summary', 'Summary', summary));
  const properties = content.get('properties');
  if (properties instanceof Map) for (const [key, value] of properties) fields.push(field(key, key, value));
  else if (properties !== undefined && properties !== null) fields.push(field('properties', 'properties', properties));
  for (const [key, value] of content) if (!ENTITY_KEYS.has(key)) fields.push(field(key, key, value));
  return {
    shape: 'entity',
    headline: clip(scalarText(content.get('name'))),
    typed: true,
    actor: '',
    thread: '',
    entityType: scalarText(content.get('entity_type')),
    edge: undefined,
    fields,
    clipped: isClipped(fields),
  };
}

const EDGE_KEYS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'source',
  'target',
  'relation_type',
  'confidence',
  'inferred',
  'inference_method',
  'evidence',
]);

function edgeCard(content: Map<string, DisplayValue>): ZaxyCard {
  const fields: ZaxyField[] = [];
  const evidence = content.get('evidence');
  if (evidence instanceof Map) for (const [key, value] of evidence) fields.push(field(key, key, value));
  else if (evidence !== undefined) fields.push(field('evidence', 'evidence', evidence));
  for (const [key, value] of content) if (!EDGE_KEYS.has(key)) fields.push(field(key, key, value));
  return {
    shape: 'edge',
    headline: '',
    typed: true,
    actor: '',
    thread: '',
    entityType: '',
    edge: {
      source: clip(textOrJson(content.get('source'))),
      relation: clip(textOrJson(content.get('relation_type'))),
      target: clip(textOrJson(content.get('target'))),
      confidence: scalarText(content.get('confidence')),
      inferred: scalarText(content.get('inferred')),
      inferenceMethod: scalarText(content.get('inference_method')),
    },
    fields,
    clipped: isClipped(fields),
  };
}

function textOrJson(value: DisplayValue | undefined): string {
  if (value === undefined) return '';
  return lexeme(value) ?? prettyJson(value);
}
