/**
 * Deep-strict equality of JSON values with Node's `util.isDeepStrictEqual` semantics, which
 * AgentXchain uses to compare claimed and re-derived data (docs/agentxchain.md §4):
 * numbers compare with `Object.is` (so `0` and `-0` differ), arrays element-wise, objects by the
 * set of own enumerable keys (order irrelevant) and their values; a key holding `undefined`
 * differs from a missing key; `__proto__` is an ordinary own key.
 *
 * Iterative (explicit stack), so hostile nesting depth cannot overflow the call stack.
 * @module
 */

/**
 * Compares two JSON-like values (see module doc).
 * @example
 * jsonDeepStrictEqual({ a: [1, 2] }, { a: [1, 2] }); // true
 * jsonDeepStrictEqual(0, -0);                       // false
 * jsonDeepStrictEqual({ a: undefined }, {});        // false
 */
export function jsonDeepStrictEqual(a: unknown, b: unknown): boolean {
  const left: unknown[] = [a];
  const right: unknown[] = [b];
  while (left.length > 0) {
    const x = left.pop();
    const y = right.pop();
    if (Object.is(x, y)) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;
    if (Array.isArray(x)) {
      const yArray = y as unknown[];
      if (x.length !== yArray.length) return false;
      for (let i = 0; i < x.length; i++) {
        left.push(x[i]);
        right.push(yArray[i]);
      }
      continue;
    }
    const xKeys = Object.keys(x);
    if (xKeys.length !== Object.keys(y).length) return false;
    for (const key of xKeys) {
      if (!Object.hasOwn(y, key)) return false;
      left.push((x as Record<string, unknown>)[key]);
      right.push((y as Record<string, unknown>)[key]);
    }
  }
  return true;
}
