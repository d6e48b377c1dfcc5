/**
 * Shapes of parsed JSON for the runner checks (`schemas.ts`): each shape is one function that
 * checks a value and pushes its issues, as plain data with a path. Issues are worded as valibot 1.x
 * words its own (`Invalid type: Expected string but received 5`, `Invalid key: Expected "run_id"
 * but received undefined`, `Invalid integer: Received 1.5`), so the runner findings read as they
 * did when these shapes were valibot schemas; the kit's other formats still use valibot. Kept to
 * what the runner's files need, so an AgentXchain page loads no validation library.
 *
 * Like valibot, a shape answers whether the value had its type ("typed"): a check that only failed
 * a refinement (a pattern, a non-empty array) still has its type, and a container's refinement runs
 * only when everything in it had its type.
 * @module
 */
import type { PathSegment } from '../../../report/path.ts';

/** One disagreement: where in the checked value, and what. */
export interface ShapeIssue {
  readonly path: readonly PathSegment[];
  readonly message: string;
}

/** Checks `value`, found at `path`, pushing to `issues`; false when it does not have the shape's type. */
export type Shape = (value: unknown, path: readonly PathSegment[], issues: ShapeIssue[]) => boolean;

/** A shape whose key may be missing from its object. */
type Optional = Shape & { readonly optional: true };

/** How a value is named in a message: a string quoted, an object by its kind. */
function received(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value !== 'object') return String(value);
  return value === null ? 'null' : Array.isArray(value) ? 'Array' : 'Object';
}

/** Records an issue; false, for shapes that fail on type. */
function fail(issues: ShapeIssue[], path: readonly PathSegment[], message: string): false {
  issues.push({ path, message });
  return false;
}

/** A type issue: `expected` as valibot names it (`string`, `Object`, `("a" | "b")`). */
function typeIssue(issues: ShapeIssue[], path: readonly PathSegment[], expected: string, value: unknown): false {
  return fail(issues, path, `Invalid type: Expected ${expected} but received ${received(value)}`);
}

/** A value of a `typeof` type (JSON values are never NaN). */
const primitive =
  (type: 'string' | 'number' | 'boolean'): Shape =>
  (value, path, issues) =>
    typeof value === type || typeIssue(issues, path, type, value);

export const string = primitive('string');
export const number = primitive('number');
export const boolean = primitive('boolean');

/** A number that is an integer. */
export const integer: Shape = (value, path, issues) => {
  if (!number(value, path, issues)) return false;
  if (!Number.isInteger(value)) fail(issues, path, `Invalid integer: Received ${received(value)}`);
  return true;
};

/** A string that `pattern` matches, else `message`. */
export function matching(pattern: RegExp, message: string): Shape {
  return (value, path, issues) => {
    if (!string(value, path, issues)) return false;
    if (!pattern.test(value as string)) fail(issues, path, message);
    return true;
  };
}

/** One of `options` (strings), else `message`, or the type issue naming them all. */
export function oneOf(options: readonly string[], message?: string): Shape {
  const quoted = options.map(received);
  const expected = quoted.length > 1 ? `(${quoted.join(' | ')})` : quoted[0]!;
  return (value, path, issues) =>
    options.includes(value as string) ||
    (message === undefined ? typeIssue(issues, path, expected, value) : fail(issues, path, message));
}

/** An array of `item`s; when every item has its type, at least one of them if `emptyMessage` is given. */
export function array(item: Shape, emptyMessage?: string): Shape {
  return (value, path, issues) => {
    if (!Array.isArray(value)) return typeIssue(issues, path, 'Array', value);
    let typed = true;
    value.forEach((element, index) => {
      typed = item(element, [...path, index], issues) && typed;
    });
    if (typed && emptyMessage !== undefined && value.length === 0) fail(issues, path, emptyMessage);
    return typed;
  };
}

/**
 * An object (arrays count, as in valibot) with a value of each entry's shape, in the entries'
 * order; keys not listed are allowed. A missing key is an issue unless its shape is `optional`.
 */
export function object(entries: Readonly<Record<string, Shape>>): Shape {
  return (value, path, issues) => {
    if (typeof value !== 'object' || value === null) return typeIssue(issues, path, 'Object', value);
    let typed = true;
    for (const [key, shape] of Object.entries(entries)) {
      typed =
        (key in value
          ? shape((value as Record<string, unknown>)[key], [...path, key], issues)
          : (shape as Partial<Optional>).optional ||
            fail(issues, [...path, key], `Invalid key: Expected "${key}" but received undefined`)) && typed;
    }
    return typed;
  };
}

/**
 * A plain object whose every own key holds an `item` (`__proto__`, `prototype` and `constructor`
 * are skipped, as valibot's record skips them), else `message`.
 */
export function record(item: Shape, message: string): Shape {
  return (value, path, issues) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(issues, path, message);
    let typed = true;
    for (const [key, element] of Object.entries(value)) {
      if (key !== '__proto__' && key !== 'prototype' && key !== 'constructor')
        typed = item(element, [...path, key], issues) && typed;
    }
    return typed;
  };
}

/** `first` or `second`, whichever the value has without an issue; else one type issue naming both. */
export function either(first: Shape, second: Shape, expected: string): Shape {
  return (value, path, issues) =>
    [first, second].some((shape) => {
      const scratch: ShapeIssue[] = [];
      return shape(value, path, scratch) && scratch.length === 0;
    }) || typeIssue(issues, path, expected, value);
}

/** `shape`, or missing. */
export function optional(shape: Shape): Optional {
  return Object.assign(
    (value: unknown, path: readonly PathSegment[], issues: ShapeIssue[]) =>
      value === undefined || shape(value, path, issues),
    { optional: true as const },
  );
}

/** `shape`, `null`, or missing. */
export function nullish(shape: Shape): Optional {
  return optional((value, path, issues) => value === null || shape(value, path, issues));
}
