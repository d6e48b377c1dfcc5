/**
 * valibot schemas of the unsigned envelope (`zaxy.export.unsigned.v1`) and of an entry
 * (`zaxy.export.v1`), docs/zaxy.md, 'Entry schema' and 'Unsigned envelope'. Unknown extra fields
 * are tolerated (`looseObject`): the export contract lets additive changes through without a
 * version bump. Values come from the lossless reader (`toPlain`): integers are `bigint`, floats
 * `number`, so `seq: 1.0` is refused.
 * @module
 */
import * as v from 'valibot';
import type { JsonValue } from '../../json/value.ts';

/** Entry shape version (docs/zaxy.md, 'Versions'). */
export const ENTRY_SCHEMA_VERSION = 'zaxy.export.v1';
/** Unsigned envelope version (docs/zaxy.md, 'Versions'). */
export const UNSIGNED_VERSION = 'zaxy.export.unsigned.v1';

/**
 * The citation Zaxy's own regex reads back (docs/zaxy.md, 'Entry schema'): a thread without `/` or
 * whitespace, a positive seq, and the sealed event's full lowercase SHA-256.
 */
export const CITATION = /^eventloom:\/\/([^/\s]+)\/events\/([1-9][0-9]*)#([0-9a-f]{64})$/;

const object = <T extends v.ObjectEntries>(entries: T) => v.looseObject(entries, 'must be an object');
const string = () => v.string('must be a string');
const nullableString = () => v.nullable(v.string('must be a string or null'));
const positiveInt = () => v.pipe(v.bigint('must be an integer'), v.minValue(1n, 'must be a positive integer'));

const eventContent = object({ type: string(), actor: string(), thread: string(), payload: v.unknown() });
const entityContent = object({
  name: string(),
  entity_type: string(),
  summary: nullableString(),
  properties: v.unknown(),
});
const edgeContent = object({
  source: string(),
  target: string(),
  relation_type: string(),
  confidence: v.pipe(
    v.number('must be a float'),
    v.minValue(0, 'must be in [0.0, 1.0]'),
    v.maxValue(1, 'must be in [0.0, 1.0]'),
  ),
  inferred: v.boolean('must be a boolean'),
  inference_method: nullableString(),
  evidence: object({}),
});

const common = {
  schema_version: v.literal(ENTRY_SCHEMA_VERSION, `must be '${ENTRY_SCHEMA_VERSION}'`),
  kind: string(),
  citation: v.pipe(string(), v.regex(CITATION, 'must be eventloom://<thread>/events/<seq>#<64 lowercase hex>')),
  seq: positiveInt(),
  valid_from: nullableString(),
  valid_to: nullableString(),
  source: string(),
};

/** One entry of `zaxy.export.v1`: an event-grain or a semantic-grain entry. */
export const entrySchema = v.variant(
  'grain',
  [
    object({
      ...common,
      grain: v.literal('event'),
      valid_to: v.null('must be null for an event entry'),
      source: v.literal('eventloom', "must be 'eventloom'"),
      content: eventContent,
    }),
    object({
      ...common,
      grain: v.literal('semantic'),
      kind: v.pipe(string(), v.regex(/^(entity|edge):./, "must be 'entity:<type>' or 'edge:<relation>'")),
      source: v.literal('extraction', "must be 'extraction'"),
      content: v.union(
        [entityContent, edgeContent],
        'must be an entity {name, entity_type, summary, properties} or an edge {source, target, relation_type, confidence, inferred, inference_method, evidence}',
      ),
    }),
  ],
  "grain must be 'event' or 'semantic'",
);

/** The unsigned envelope without its entries (they are checked one by one as they stream). */
export const envelopeSchema = object({
  version: v.literal(UNSIGNED_VERSION, `must be '${UNSIGNED_VERSION}'`),
  schema_version: v.literal(ENTRY_SCHEMA_VERSION, `must be '${ENTRY_SCHEMA_VERSION}'`),
  session_id: string(),
  signed: v.literal(false, 'must be false'),
});

/**
 * A lossless JSON value as plain data for valibot: objects become null-prototype records (so keys
 * such as `__proto__` stay data), integers stay `bigint`, floats `number`.
 * @example
 * toPlain(new Map([['seq', 1n]])); // { seq: 1n }
 */
export function toPlain(value: JsonValue): unknown {
  const convert = (item: JsonValue, depth: number): unknown => {
    if (item instanceof Map) {
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      // Depth is bounded by the reader; the deep remainder (payloads) is not inspected by the schema.
      for (const [key, inner] of item) out[key] = depth > 4 ? inner : convert(inner, depth + 1);
      return out;
    }
    if (Array.isArray(item)) return depth > 4 ? item : item.map((inner) => convert(inner, depth + 1));
    return item;
  };
  return convert(value, 0);
}
