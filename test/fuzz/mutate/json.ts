/**
 * JSON-aware mutations: edit one value, member or item of a JSON text at its source span, so the
 * rest of the document keeps its exact bytes (number lexemes, key order, whitespace).
 * @module
 */
import { parseTree, splice, walk, type JsonNode, type JsonObject, type TreePath, type WalkItem } from '../json-tree.ts';
import type { Rng } from '../rng.ts';
import {
  deepNesting,
  EDGE_NUMBERS,
  hostileValue,
  longString,
  ODD_STRINGS,
  PROTO_KEYS,
  PYTHON_TOKENS,
} from './values.ts';

export interface TextMutation {
  readonly text: string;
  readonly note: string;
}

/** Restricts which nodes a mutation may touch. */
export interface Target {
  /** Only nodes at or below this path (through effective members). */
  readonly under?: TreePath;
  /** Skip nodes shadowed by a later duplicate key (their change is invisible to parsers). */
  readonly effectiveOnly?: boolean;
  /** Never touch the node at exactly this path or below these paths. */
  readonly avoid?: readonly TreePath[];
}

export const JSON_OPS = [
  'delete-member',
  'duplicate-member',
  'insert-member',
  'change-value',
  'swap-items',
  'remove-item',
  'number-edge',
  'string-edit',
  'long-string',
  'deep-nest',
  'proto-key',
  'copy-subtree',
  'empty-container',
  'wrap',
] as const;
export type JsonOp = (typeof JSON_OPS)[number];

function startsWith(path: TreePath, prefix: TreePath): boolean {
  return prefix.length <= path.length && prefix.every((step, i) => path[i] === step);
}

function describe(path: TreePath): string {
  const text = path
    .map((step) => (typeof step === 'number' ? `[${step}]` : `.${step.length > 40 ? step.slice(0, 40) + '…' : step}`))
    .join('');
  return '$' + text;
}

/** Nodes eligible under `target`, sampled down to at most `cap` (reservoir) to bound the cost on big documents. */
export function candidates(root: JsonNode, rng: Rng, target: Target = {}, cap = 4096): WalkItem[] {
  const chosen: WalkItem[] = [];
  let seen = 0;
  for (const item of walk(root)) {
    if (target.under && !startsWith(item.path, target.under)) continue;
    if (target.effectiveOnly && !item.effective) continue;
    if (target.avoid?.some((prefix) => startsWith(item.path, prefix))) continue;
    seen++;
    if (chosen.length < cap) chosen.push(item);
    else {
      const slot = rng.int(seen);
      if (slot < cap) chosen[slot] = item;
    }
  }
  return chosen;
}

function newValueFor(rng: Rng, node: JsonNode): string {
  // Prefer a value of another type (type confusion), sometimes any hostile value.
  if (rng.chance(0.3)) return hostileValue(rng);
  switch (node.t) {
    case 'str':
      return rng.pick(['0', 'null', '[]', '{}', 'true', rng.pick(EDGE_NUMBERS)]);
    case 'num':
      return rng.pick(['"' + node.lexeme + '"', 'null', '[]', 'true', rng.pick(PYTHON_TOKENS)]);
    case 'lit':
      return rng.pick(['"' + node.value + '"', '0', '1', 'null', 'false', 'true', '[]']);
    case 'arr':
      return rng.pick(['{}', 'null', '"[]"', '0', '{"0":null}']);
    case 'obj':
      return rng.pick(['[]', 'null', '"{}"', '0', '[{}]']);
  }
}

function editString(rng: Rng, value: string): string {
  switch (rng.int(7)) {
    case 0:
      return JSON.stringify(value + rng.pick(['x', ' ', '\u0000', 'é', '😀', '\n']));
    case 1:
      return JSON.stringify(value.slice(0, Math.max(0, value.length - 1)));
    case 2: {
      if (value.length === 0) return '"x"';
      const at = rng.int(value.length);
      const ch = String.fromCharCode(value.charCodeAt(at) ^ (1 << rng.int(7)));
      return JSON.stringify(value.slice(0, at) + ch + value.slice(at + 1));
    }
    case 3:
      return JSON.stringify(value.toUpperCase() === value ? value.toLowerCase() : value.toUpperCase());
    case 4:
      // The same string, escaped differently: a semantic no-op for parsers, a byte change on disk.
      return '"' + [...value].map((ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')).join('') + '"';
    case 5:
      return rng.pick(ODD_STRINGS);
    default:
      return JSON.stringify(' ' + value);
  }
}

/**
 * Applies one JSON-aware mutation to `text` (a whole document or one NDJSON line).
 * Answers `undefined` when the text is not JSON or nothing eligible exists.
 * @example
 * mutateJson('{"a":1}', createRng(1, 0), 'number-edge')?.text; // e.g. '{"a":1e400}'
 */
export function mutateJson(
  text: string,
  rng: Rng,
  op: JsonOp = rng.pick(JSON_OPS),
  target: Target = {},
): TextMutation | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  const nodes = candidates(root, rng, target);
  if (nodes.length === 0) return undefined;
  const pickWhere = (test: (item: WalkItem) => boolean): WalkItem | undefined => {
    const matching = nodes.filter(test);
    return matching.length === 0 ? undefined : rng.pick(matching);
  };
  const replace = (node: JsonNode, insert: string, what: string, path: TreePath): TextMutation => ({
    text: splice(text, node.start, node.end, insert),
    note: `${op} ${describe(path)} ${what}`.trim(),
  });

  switch (op) {
    case 'delete-member': {
      const item = pickWhere((i) => i.node.t === 'obj' && i.node.members.length > 0);
      if (!item) return undefined;
      const obj = item.node as JsonObject;
      const index = rng.int(obj.members.length);
      const m = obj.members[index]!;
      const next = obj.members[index + 1];
      const prev = obj.members[index - 1];
      const [start, end] = next
        ? [m.keyStart, next.keyStart]
        : prev
          ? [prev.value.end, m.value.end]
          : [m.keyStart, m.value.end];
      return { text: splice(text, start, end, ''), note: `${op} ${describe([...item.path, m.key])}` };
    }
    case 'duplicate-member': {
      const item = pickWhere((i) => i.node.t === 'obj' && i.node.members.length > 0);
      if (!item) return undefined;
      const obj = item.node as JsonObject;
      const m = obj.members[rng.int(obj.members.length)]!;
      const value = rng.chance(0.5) ? text.slice(m.value.start, m.value.end) : newValueFor(rng, m.value);
      const memberText = `${text.slice(m.keyStart, m.keyEnd)}:${value}`;
      // Before or after the original: first-wins and last-wins parsers then disagree.
      return rng.chance(0.5)
        ? {
            text: splice(text, m.value.end, m.value.end, ',' + memberText),
            note: `${op} ${describe([...item.path, m.key])} after`,
          }
        : {
            text: splice(text, m.keyStart, m.keyStart, memberText + ','),
            note: `${op} ${describe([...item.path, m.key])} before`,
          };
    }
    case 'insert-member':
    case 'proto-key': {
      const item = pickWhere((i) => i.node.t === 'obj');
      if (!item) return undefined;
      const obj = item.node as JsonObject;
      if (op === 'proto-key' && obj.members.length > 0 && rng.chance(0.5)) {
        // Rename an existing key.
        const m = obj.members[rng.int(obj.members.length)]!;
        const key = rng.pick(PROTO_KEYS);
        return {
          text: splice(text, m.keyStart, m.keyEnd, JSON.stringify(key)),
          note: `${op} rename ${describe([...item.path, m.key])} -> ${key}`,
        };
      }
      const key =
        op === 'proto-key'
          ? rng.pick(PROTO_KEYS)
          : rng.pick(['x', '', 'extra_field', 'id', 'type', 'content', '\u0000', '😀']);
      const value =
        op === 'proto-key'
          ? rng.pick(['{"polluted":true}', '{"prototype":{"polluted":true}}', 'null', '1', '[]', '"x"'])
          : hostileValue(rng);
      const memberText = `${JSON.stringify(key)}:${value}`;
      const at = obj.start + 1;
      return {
        text: splice(text, at, at, obj.members.length > 0 ? memberText + ',' : memberText),
        note: `${op} ${describe(item.path)} + ${JSON.stringify(key)}`,
      };
    }
    case 'change-value': {
      const item = rng.pick(nodes);
      const value = newValueFor(rng, item.node);
      return replace(item.node, value, `= ${value.length > 40 ? value.slice(0, 40) + '…' : value}`, item.path);
    }
    case 'number-edge': {
      const item = pickWhere((i) => i.node.t === 'num') ?? rng.pick(nodes);
      const value = rng.chance(0.85) ? rng.pick(EDGE_NUMBERS) : rng.pick(PYTHON_TOKENS);
      return replace(item.node, value, `= ${value}`, item.path);
    }
    case 'string-edit': {
      const item = pickWhere((i) => i.node.t === 'str');
      if (!item || item.node.t !== 'str') return undefined;
      const value = editString(rng, item.node.value);
      return replace(item.node, value, `= ${value.length > 40 ? value.slice(0, 40) + '…' : value}`, item.path);
    }
    case 'long-string': {
      const item = pickWhere((i) => i.node.t === 'str') ?? rng.pick(nodes);
      const length = rng.weighted([4096, 65536, 1 << 20, 4 << 20], [40, 35, 20, 5]);
      return replace(item.node, longString(rng, length), `= <${length}-char string>`, item.path);
    }
    case 'deep-nest': {
      const item = rng.pick(nodes);
      const depth = rng.pick([64, 999, 1000, 1001, 10_000]);
      return replace(item.node, deepNesting(rng, depth), `= <${depth}-deep nesting>`, item.path);
    }
    case 'swap-items':
    case 'remove-item': {
      const item = pickWhere((i) => i.node.t === 'arr' && i.node.items.length >= (op === 'swap-items' ? 2 : 1));
      if (!item || item.node.t !== 'arr') return undefined;
      const items = item.node.items;
      if (op === 'remove-item') {
        const index = rng.int(items.length);
        const it = items[index]!;
        const next = items[index + 1];
        const prev = items[index - 1];
        const [start, end] = next ? [it.start, next.start] : prev ? [prev.end, it.end] : [it.start, it.end];
        return { text: splice(text, start, end, ''), note: `${op} ${describe([...item.path, index])}` };
      }
      const i = rng.int(items.length);
      let j = rng.int(items.length - 1);
      if (j >= i) j++;
      const [a, b] = i < j ? [items[i]!, items[j]!] : [items[j]!, items[i]!];
      const swapped =
        text.slice(0, a.start) +
        text.slice(b.start, b.end) +
        text.slice(a.end, b.start) +
        text.slice(a.start, a.end) +
        text.slice(b.end);
      return { text: swapped, note: `${op} ${describe(item.path)} [${Math.min(i, j)}]<->[${Math.max(i, j)}]` };
    }
    case 'copy-subtree': {
      const item = rng.pick(nodes);
      const source = rng.pick(nodes);
      return replace(
        item.node,
        text.slice(source.node.start, source.node.end),
        `= copy of ${describe(source.path)}`,
        item.path,
      );
    }
    case 'empty-container': {
      const item = pickWhere((i) => i.node.t === 'obj' || i.node.t === 'arr');
      if (!item) return undefined;
      return replace(item.node, item.node.t === 'obj' ? '{}' : '[]', '', item.path);
    }
    case 'wrap': {
      const item = rng.pick(nodes);
      const inner = text.slice(item.node.start, item.node.end);
      return replace(item.node, rng.chance(0.5) ? `[${inner}]` : `{"value":${inner}}`, '', item.path);
    }
  }
}
