/**
 * A lossless JSON reader for the fuzzer: every value keeps its source span, numbers keep their
 * lexeme, duplicate keys stay visible, and Python's extra tokens (`NaN`, `Infinity`,
 * `-Infinity`) are accepted. Mutators edit the text at these spans so every byte they do not
 * target stays exactly as it was; the Zaxy oracle canonicalises from the same tree.
 *
 * It parses fuzzer-made text (attacker-shaped by design): iterative, bounded by `maxDepth`, and
 * answers `undefined` instead of throwing on anything that is not JSON.
 * @module
 */

export type JsonNode = JsonObject | JsonArray | JsonString | JsonNumber | JsonLiteral;

interface Span {
  /** Offset of the first code unit of the value in the text. */
  readonly start: number;
  /** Offset one past its last code unit. */
  end: number;
}

export interface JsonMember {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  value: JsonNode;
}

export interface JsonObject extends Span {
  readonly t: 'obj';
  readonly members: JsonMember[];
}
export interface JsonArray extends Span {
  readonly t: 'arr';
  readonly items: JsonNode[];
}
export interface JsonString extends Span {
  readonly t: 'str';
  /** Decoded value; may hold lone surrogates (`"\ud800"`). */
  readonly value: string;
}
export interface JsonNumber extends Span {
  readonly t: 'num';
  readonly lexeme: string;
}
export interface JsonLiteral extends Span {
  readonly t: 'lit';
  readonly value: 'true' | 'false' | 'null' | 'NaN' | 'Infinity' | '-Infinity';
}

/** One step of a path: an object key (with its member position) or an array index. */
export type TreePath = readonly (string | number)[];

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in strings
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERALS = ['true', 'false', 'null', 'NaN', 'Infinity', '-Infinity'] as const;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * Parses `text` (one complete JSON value, whitespace around allowed) into a span tree.
 * Answers `undefined` for anything else, or when nesting exceeds `maxDepth`.
 * @example
 * parseTree('{"a":[1,2.0]}')?.t; // 'obj'
 */
export function parseTree(text: string, maxDepth = 4096): JsonNode | undefined {
  let pos = 0;
  const skip = (): void => {
    while (pos < text.length && isSpace(text.charCodeAt(pos))) pos++;
  };
  // Containers being filled; `key` is the pending member key of an object frame.
  type Frame = { node: JsonObject | JsonArray; key?: { key: string; start: number; end: number } };
  const stack: Frame[] = [];
  let root: JsonNode | undefined;

  const scalar = (): JsonNode | undefined => {
    const code = text.charCodeAt(pos);
    if (code === 0x22) {
      STRING.lastIndex = pos;
      const match = STRING.exec(text);
      if (!match) return undefined;
      const start = pos;
      pos += match[0].length;
      return { t: 'str', start, end: pos, value: JSON.parse(match[0]) as string };
    }
    for (const literal of LITERALS) {
      if (text.startsWith(literal, pos)) {
        const start = pos;
        pos += literal.length;
        return { t: 'lit', start, end: pos, value: literal };
      }
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (!match) return undefined;
    const start = pos;
    pos += match[0].length;
    return { t: 'num', start, end: pos, lexeme: match[0] };
  };

  // Attaches a finished value to the open container (or makes it the root).
  const attach = (value: JsonNode): void => {
    const top = stack[stack.length - 1];
    if (!top) {
      root = value;
      return;
    }
    if (top.node.t === 'arr') top.node.items.push(value);
    else {
      const key = top.key!;
      top.node.members.push({ key: key.key, keyStart: key.start, keyEnd: key.end, value });
      delete top.key;
    }
  };

  skip();
  for (;;) {
    // Expect a value here.
    skip();
    if (pos >= text.length) return undefined;
    const code = text.charCodeAt(pos);
    if (code === 0x7b || code === 0x5b) {
      if (stack.length >= maxDepth) return undefined;
      const node: JsonObject | JsonArray =
        code === 0x7b ? { t: 'obj', start: pos, end: -1, members: [] } : { t: 'arr', start: pos, end: -1, items: [] };
      pos++;
      skip();
      const close = code === 0x7b ? 0x7d : 0x5d;
      if (text.charCodeAt(pos) === close) {
        pos++;
        node.end = pos;
        attach(node);
      } else {
        stack.push({ node });
        if (node.t === 'obj' && !readKey(stack[stack.length - 1]!)) return undefined;
        continue;
      }
    } else {
      const value = scalar();
      if (!value) return undefined;
      attach(value);
    }
    // After a value: close containers or move to the next element.
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) {
        skip();
        return pos === text.length ? root : undefined;
      }
      skip();
      const next = text.charCodeAt(pos);
      if (next === 0x2c) {
        pos++;
        if (top.node.t === 'obj' && !readKey(top)) return undefined;
        break;
      }
      if ((top.node.t === 'obj' && next === 0x7d) || (top.node.t === 'arr' && next === 0x5d)) {
        pos++;
        top.node.end = pos;
        stack.pop();
        attach(top.node);
        continue;
      }
      return undefined;
    }
  }

  function readKey(frame: Frame): boolean {
    skip();
    if (text.charCodeAt(pos) !== 0x22) return false;
    STRING.lastIndex = pos;
    const match = STRING.exec(text);
    if (!match) return false;
    const start = pos;
    pos += match[0].length;
    frame.key = { key: JSON.parse(match[0]) as string, start, end: pos };
    skip();
    if (text.charCodeAt(pos) !== 0x3a) return false;
    pos++;
    return true;
  }
}

/** A node met by `walk`. `effective` is false below a duplicate key that a later member overrides. */
export interface WalkItem {
  readonly node: JsonNode;
  readonly path: TreePath;
  readonly depth: number;
  readonly effective: boolean;
}

/** Every node of the tree with its path, parents before children (iterative). */
export function* walk(root: JsonNode): Generator<WalkItem> {
  const stack: WalkItem[] = [{ node: root, path: [], depth: 0, effective: true }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    yield item;
    const { node, path, depth, effective } = item;
    if (node.t === 'obj') {
      for (let i = node.members.length - 1; i >= 0; i--) {
        const entry = node.members[i]!;
        stack.push({
          node: entry.value,
          path: [...path, entry.key],
          depth: depth + 1,
          effective: effective && isEffectiveMember(node, i),
        });
      }
    } else if (node.t === 'arr') {
      for (let i = node.items.length - 1; i >= 0; i--)
        stack.push({ node: node.items[i]!, path: [...path, i], depth: depth + 1, effective });
    }
  }
}

/** The effective value of `key` in an object: the last member with that key (JSON.parse and Python agree). */
export function member(node: JsonNode | undefined, key: string): JsonNode | undefined {
  if (!node || node.t !== 'obj') return undefined;
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i]!.key === key) return node.members[i]!.value;
  return undefined;
}

/** True when `node` is the effective (last) member of its key in `parent`. */
export function isEffectiveMember(parent: JsonObject, index: number): boolean {
  const key = parent.members[index]!.key;
  for (let i = index + 1; i < parent.members.length; i++) if (parent.members[i]!.key === key) return false;
  return true;
}

/** Follows a path through effective members and array items. */
export function at(root: JsonNode | undefined, path: TreePath): JsonNode | undefined {
  let node = root;
  for (const step of path) {
    if (!node) return undefined;
    if (typeof step === 'number') node = node.t === 'arr' ? node.items[step] : undefined;
    else node = member(node, step);
  }
  return node;
}

/** Replaces `text[start, end)` with `insert`. */
export function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}
