/**
 * The nesting limit over a parsed JSON value (docs/architecture.md, 'Limits': `maxJsonDepth`), for
 * the readers that parse with the native `JSON.parse`, which takes any depth (V8's parser is
 * iterative) but whose values the kit's walkers and serialisers then recurse into. The lossless
 * reader (`reader.ts`) bounds depth while it reads instead.
 *
 * The value is attacker-controlled: the walk is iterative, visits each container once, stops at
 * the first container past the limit, and reads own data properties only (a getter is never
 * called, so deferred strings stay deferred).
 * @module
 */

/** A key or an index on the way down to a value. */
export type JsonStep = string | number;

/** A container and how it was reached (parent links, so a path is built only when one is needed). */
interface Visit {
  readonly value: object;
  readonly depth: number;
  readonly step: JsonStep | undefined;
  readonly parent: Visit | undefined;
}

/**
 * Where `value` first nests deeper than `maxDepth` containers (the root container is depth 1, a
 * scalar is depth 0): the keys and indices from the root to the first container past the limit, or
 * undefined when the whole value is within it.
 * @example
 * findNestingPastLimit(JSON.parse('{"a":[[1]]}'), 2); // ['a', 0]
 * findNestingPastLimit(JSON.parse('{"a":[1]}'), 2); // undefined
 */
export function findNestingPastLimit(value: unknown, maxDepth: number): JsonStep[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Visit[] = [{ value, depth: 1, step: undefined, parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (visit.depth > maxDepth) return stepsTo(visit);
    const container = visit.value;
    const depth = visit.depth + 1;
    if (Array.isArray(container)) {
      for (let index = 0; index < container.length; index++) {
        const child: unknown = container[index];
        if (typeof child === 'object' && child !== null)
          stack.push({ value: child, depth, step: index, parent: visit });
      }
      continue;
    }
    for (const key of Object.keys(container)) {
      const child: unknown = Object.getOwnPropertyDescriptor(container, key)?.value;
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth, step: key, parent: visit });
    }
  }
  return undefined;
}

function stepsTo(visit: Visit): JsonStep[] {
  const steps: JsonStep[] = [];
  for (let at: Visit | undefined = visit; at?.step !== undefined; at = at.parent) steps.push(at.step);
  return steps.reverse();
}

/** About how long the start of a path to a too-deep value may be when a finding names it. */
const NAMED_PATH_CHARACTERS = 512;

/**
 * The leading steps of `steps` that a finding names: as many as fit in about 512 characters (a
 * path past the limit has at least `maxDepth` steps, and an artifact's keys may be long).
 * @example
 * namedSteps(['repos', 'a', 'export']); // ['repos', 'a', 'export']
 */
export function namedSteps(steps: readonly JsonStep[]): JsonStep[] {
  let characters = 0;
  let count = 0;
  while (count < steps.length) {
    characters += String(steps[count]).length + 3; // a separator and quotes or brackets
    if (characters > NAMED_PATH_CHARACTERS && count > 0) break;
    count++;
  }
  return steps.slice(0, count);
}
