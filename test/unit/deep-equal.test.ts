import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { jsonDeepStrictEqual } from '../../src/json/deep-equal.ts';

test('numbers compare with Object.is: 0 and -0 differ, 5.0 equals 5', () => {
  assert.equal(jsonDeepStrictEqual(0, -0), false);
  assert.equal(jsonDeepStrictEqual(JSON.parse('[-0]'), [0]), false);
  assert.equal(jsonDeepStrictEqual(JSON.parse('5.0'), 5), true);
});

test('key order is irrelevant, key sets are not; undefined-valued keys differ from missing ones', () => {
  assert.equal(jsonDeepStrictEqual({ a: 1, b: 2 }, { b: 2, a: 1 }), true);
  assert.equal(jsonDeepStrictEqual({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(jsonDeepStrictEqual({ a: undefined }, {}), false);
  assert.equal(jsonDeepStrictEqual({ a: undefined }, { a: undefined }), true);
});

test('__proto__ from JSON.parse is an ordinary own key', () => {
  const a = JSON.parse('{"__proto__": {"x": 1}}');
  const b = JSON.parse('{"__proto__": {"x": 2}}');
  assert.equal(jsonDeepStrictEqual(a, b), false);
  assert.equal(jsonDeepStrictEqual(a, JSON.parse('{"__proto__": {"x": 1}}')), true);
  assert.equal(jsonDeepStrictEqual(a, {}), false);
  assert.equal(({} as Record<string, unknown>)['x'], undefined, 'no prototype was polluted');
});

test('arrays and objects are never equal; null only equals null', () => {
  assert.equal(jsonDeepStrictEqual([], {}), false);
  assert.equal(jsonDeepStrictEqual(null, {}), false);
  assert.equal(jsonDeepStrictEqual(null, null), true);
  assert.equal(jsonDeepStrictEqual('1', 1), false);
});

test('agrees with util.isDeepStrictEqual on random JSON values', () => {
  const json = fc.jsonValue({ maxDepth: 4 });
  fc.assert(
    fc.property(json, json, (a, b) => {
      assert.equal(jsonDeepStrictEqual(a, b), isDeepStrictEqual(a, b));
      const copy = JSON.parse(JSON.stringify(a));
      assert.equal(jsonDeepStrictEqual(copy, a), isDeepStrictEqual(copy, a));
    }),
    { numRuns: 2000 },
  );
});

test('survives nesting far deeper than the call stack', () => {
  const deep = (n: number): unknown => JSON.parse('['.repeat(n) + ']'.repeat(n));
  assert.equal(jsonDeepStrictEqual(deep(200_000), deep(200_000)), true);
  assert.equal(jsonDeepStrictEqual(deep(200_000), deep(199_999)), false);
});
