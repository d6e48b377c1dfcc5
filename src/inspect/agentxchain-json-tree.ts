/**
 * A JSON value as a tree of plain view-model nodes, for the AgentXchain file view's JSON tree and
 * JSONL rows: scalars by their lexeme (for values read with `readDisplayJson`, the characters the
 * file holds: `1.50` stays `1.50`, a 2^64 integer stays exact), members in the file's order.
 * Bounded: past a node budget, or a budget of string characters, containers list how many
 * children were left out, so a hostile file cannot make a page unbounded. Iterative, so deep
 * nesting cannot overflow the stack.
 * @module
 */
import { lexeme, type DisplayValue } from './json-text.ts';

/** One node of a JSON tree. */
export interface JsonTreeNode {
  /** The member's key or the element's index ('' for the root). */
  readonly key: string;
  readonly type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
  /** A scalar's text (clipped strings end early; `clipped` says so); '' for containers. */
  readonly value: string;
  readonly clipped: boolean;
  /** Members or elements in all. */
  readonly size: number;
  readonly children: JsonTreeNode[];
  /** Children left out for the budget. */
  more: number;
}

/** Budgets of one tree. */
export interface TreeBudget {
  /** Nodes at most (default 5,000). */
  readonly nodes?: number;
  /** String characters at most, over all nodes (default 200,000). */
  readonly chars?: number;
}

function typeOf(value: DisplayValue): JsonTreeNode['type'] {
  if (value === null) return 'null';
  if (value instanceof Map) return 'object';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return 'number';
}

/**
 * The tree of `value`, within the budget.
 * @example
 * const tree = jsonTree(new Map([['a', { lexeme: '1.50', integer: false }]]));
 * tree.children[0]; // { key: 'a', type: 'number', value: '1.50', … }
 */
export function jsonTree(value: DisplayValue, budget: TreeBudget = {}): JsonTreeNode {
  let nodesLeft = budget.nodes ?? 5000;
  let charsLeft = budget.chars ?? 200_000;
  const make = (key: string, item: DisplayValue): JsonTreeNode => {
    nodesLeft--;
    const type = typeOf(item);
    let text = type === 'object' || type === 'array' ? '' : (lexeme(item) ?? '');
    let clipped = false;
    if (text.length > charsLeft) {
      text = text.slice(0, Math.max(0, charsLeft));
      clipped = true;
    }
    charsLeft -= text.length;
    const size = item instanceof Map ? item.size : Array.isArray(item) ? item.length : 0;
    return { key, type, value: text, clipped, size, children: [], more: 0 };
  };
  const root = make('', value);
  const work: { node: JsonTreeNode; value: DisplayValue }[] = [{ node: root, value }];
  // Breadth first, so a budget spent keeps the top levels whole.
  for (let head = 0; head < work.length; head++) {
    const { node, value: item } = work[head]!;
    const add = (key: string, child: DisplayValue) => {
      if (nodesLeft <= 0) {
        node.more++;
        return;
      }
      const made = make(key, child);
      node.children.push(made);
      if (made.size > 0) work.push({ node: made, value: child });
    };
    if (item instanceof Map) for (const [key, child] of item) add(key, child);
    else if (Array.isArray(item)) item.forEach((child, at) => add(String(at), child));
  }
  return root;
}

/**
 * Whether any node of the tree was left out or clipped (then the view offers the whole file).
 * @example
 * treeIsPartial(jsonTree([1n, 2n], { nodes: 2 })); // true
 */
export function treeIsPartial(root: JsonTreeNode): boolean {
  const work = [root];
  while (work.length > 0) {
    const node = work.pop()!;
    if (node.more > 0 || node.clipped) return true;
    work.push(...node.children);
  }
  return false;
}
