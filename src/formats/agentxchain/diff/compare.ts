/**
 * The diff's change entries (docs/agentxchain-diff.md §3): a field, a counter, an id list, a map
 * key. Each is built with the reference's key order; `changed` is JSON inequality
 * (`JSON.stringify(a) !== JSON.stringify(b)`), except for lists, which compare item by item.
 * @module
 */
import type { FieldChange, ListChange, MapChange, NumericChange, NumericMapChange } from './types.ts';
import { inheritedMember, own, sameJson, stringList, type DiffContext } from './values.ts';

/** `[field, label]` pairs, in the order the entries appear. */
export type Fields<F extends string> = readonly (readonly [F, string])[];

/** `{field: {label, left, right, changed}}` for each field. */
export function fieldChanges<F extends string>(
  left: Readonly<Record<F, unknown>>,
  right: Readonly<Record<F, unknown>>,
  fields: Fields<F>,
): Record<F, FieldChange> {
  return Object.fromEntries(
    fields.map(([field, label]) => [
      field,
      { label, left: left[field], right: right[field], changed: !sameJson(left[field], right[field]) },
    ]),
  ) as Record<F, FieldChange>;
}

/** `{field: {label, left, right, changed, delta}}` for each counter. */
export function numericChanges<F extends string>(
  left: Readonly<Record<F, number | null>>,
  right: Readonly<Record<F, number | null>>,
  fields: Fields<F>,
): Record<F, NumericChange> {
  return Object.fromEntries(
    fields.map(([field, label]) => [field, numericEntry({ label }, left[field], right[field])]),
  ) as Record<F, NumericChange>;
}

function numericEntry<H extends object>(head: H, left: number | null, right: number | null): H & NumericChange {
  return {
    ...head,
    left,
    right,
    changed: !sameJson(left, right),
    delta: typeof left === 'number' && typeof right === 'number' ? right - left : null,
  } as H & NumericChange;
}

/** Added (right items not in left), removed (left items not in right), changed when any position differs. */
export function listChange(label: string, left: readonly string[], right: readonly string[]): ListChange {
  const leftSet = new Set(left);
  const rightSet = new Set(right);
  return {
    label,
    left,
    right,
    added: right.filter((item) => !leftSet.has(item)),
    removed: left.filter((item) => !rightSet.has(item)),
    changed: left.length !== right.length || left.some((item, index) => item !== right[index]),
  };
}

/**
 * One entry per key of either map, keys as a string list (trimmed, de-duplicated, sorted
 * `localeCompare(…, 'en')`); a side without the key holds `null`, or in reference mode the
 * inherited member a key like `toString` reads there (`inheritedMember`).
 */
export function mapChanges(
  context: DiffContext,
  label: string,
  left: Readonly<Record<string, unknown>>,
  right: Readonly<Record<string, unknown>>,
): MapChange[] {
  const read = (map: Readonly<Record<string, unknown>>, key: string): unknown => {
    if (Object.hasOwn(map, key)) return map[key] ?? null;
    const inherited = context.mode === 'reference' ? inheritedMember(key) : undefined;
    return inherited ? inherited.value : null;
  };
  return stringList([...Object.keys(left), ...Object.keys(right)]).map((key) => {
    const l = read(left, key);
    const r = read(right, key);
    return { label, key, left: l, right: r, changed: !sameJson(l, r) };
  });
}

/** `mapChanges` for counts: non-numbers read as `null`, and a `delta`. */
export function numericMapChanges(
  label: string,
  left: Readonly<Record<string, unknown>>,
  right: Readonly<Record<string, unknown>>,
): NumericMapChange[] {
  return stringList([...Object.keys(left), ...Object.keys(right)]).map((key) => {
    const l = own(left, key);
    const r = own(right, key);
    return numericEntry({ label, key }, typeof l === 'number' ? l : null, typeof r === 'number' ? r : null);
  });
}

/** Some entry of the given groups changed. */
export function anyChanged(
  ...groups: readonly (Readonly<Record<string, { changed: boolean }>> | readonly { changed: boolean }[])[]
): boolean {
  return groups.some((group) => Object.values(group).some((entry) => entry.changed));
}

/** How many entries of the given groups changed. */
export function countChanged(
  ...groups: readonly (Readonly<Record<string, { changed: boolean }>> | readonly { changed: boolean }[])[]
): number {
  let count = 0;
  for (const group of groups) for (const entry of Object.values(group)) if (entry.changed) count++;
  return count;
}
