// The JS-isms the AgentXchain reference relies on (docs/agentxchain.md §2, §11, crash site 10 of §9):
// ICU collation, String() of JSON values, Date.parse, optional-chaining reads, and how artifact
// keys become JSON paths (escaped) and compat paths (raw, as the reference concatenates them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  compareDefaultLocale,
  compareEn,
  describeValue,
  isParsableDate,
  jsString,
  path,
  prop,
} from '../../src/formats/agentxchain/js-semantics.ts';
import { referencePath } from '../../src/formats/agentxchain/unprocessable.ts';

test('compareEn is localeCompare(…, "en"): ICU order, not code points', () => {
  const ids = ['turn_b', 'turn_B', 'turn_a', 'Turn_a', 'turn_10', 'turn_9', 'turn-x', 'turn_ä', 'turn_z'];
  assert.deepEqual(
    [...ids].sort(compareEn),
    [...ids].sort((a, b) => a.localeCompare(b, 'en')),
  );
  assert.ok(compareEn('a', 'B') < 0, 'case-insensitive first: a before B');
  assert.ok('a' > 'B', 'while code points put B first');
  fc.assert(
    fc.property(fc.string(), fc.string(), (a, b) => Math.sign(compareEn(a, b)) === Math.sign(a.localeCompare(b, 'en'))),
    { numRuns: 2000 },
  );
});

test('compareDefaultLocale is the reference host\'s localeCompare (en-US): "_" sorts before digits', () => {
  assert.ok(compareDefaultLocale('evt_z', 'evt0a') < 0);
  assert.ok('evt_z' > 'evt0a', 'code-point order disagrees');
  fc.assert(
    fc.property(
      fc.string(),
      fc.string(),
      (a, b) => Math.sign(compareDefaultLocale(a, b)) === Math.sign(a.localeCompare(b, 'en-US')),
    ),
    { numRuns: 2000 },
  );
});

test('jsString is String() of a JSON value, undefined where String() throws', () => {
  assert.equal(jsString(2 ** 64), '18446744073709552000');
  assert.equal(jsString(1e21), '1e+21');
  assert.equal(jsString(JSON.parse('1e400')), 'Infinity');
  assert.equal(jsString(-0), '0');
  assert.equal(jsString(0.1 + 0.2), '0.30000000000000004');
  assert.equal(jsString(null), 'null');
  assert.equal(jsString(undefined), 'undefined');
  assert.equal(jsString([1, [2, [3, null]], 'x']), '1,2,3,,x');
  assert.equal(jsString({ a: 1 }), '[object Object]');
  assert.equal(jsString(JSON.parse('{"toString":"x"}')), undefined);
  assert.equal(jsString(JSON.parse('[1,{"toString":1}]')), undefined);
  assert.equal(jsString(JSON.parse('{"valueOf":1}')), '[object Object]', 'only an own toString breaks ToPrimitive');
  assert.equal(
    jsString(JSON.parse('{"__proto__":{"toString":1}}')),
    '[object Object]',
    '__proto__ from JSON.parse is an own key, not a prototype',
  );
  let deep: unknown = [];
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.doesNotThrow(() => jsString(deep));
  assert.equal(describeValue(JSON.parse('{"toString":"x"}')), 'an object with its own "toString" key');
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      let expected: string | undefined;
      try {
        expected = String(value);
      } catch {
        expected = undefined; // an own toString key somewhere: String() throws, jsString says undefined
      }
      return jsString(value) === expected;
    }),
    { numRuns: 2000 },
  );
});

test('isParsableDate is typeof string plus engine Date.parse (lenient, as in the reference)', () => {
  for (const ok of ['2026-01-01', '2026-11-22T01:45:14.055Z', '2026-11-22T01:45:14+02:00', 'Sun Nov 22 2026'])
    assert.equal(isParsableDate(ok), true, ok);
  for (const bad of ['yesterday', '', '2026-13-45T99:00:00Z', 0, null, ['2026-01-01'], { toString: '2026' }])
    assert.equal(isParsableDate(bad), false, String(JSON.stringify(bad)));
});

test('prop and path read like optional chaining: null-safe, but primitives and arrays keep their properties', () => {
  assert.equal(prop(null, 'a'), undefined);
  assert.equal(prop(undefined, 'a'), undefined);
  assert.equal(prop('abc', 'length'), 3);
  assert.equal(prop([], 'project'), undefined);
  assert.equal(typeof prop({}, 'constructor'), 'function', 'inherited names are found (docs/agentxchain.md §6.2)');
  assert.equal(path({ a: { b: [5] } }, 'a', 'b', '0'), 5);
  assert.equal(path({ a: null }, 'a', 'b', 'c'), undefined);
  assert.throws(
    () => prop({}, JSON.parse('{"toString":1}')),
    TypeError,
    'ToPropertyKey of an unprintable key throws, as in the reference',
  );
});

test('referencePath joins keys with dots (no escaping) and indices as [n], like the reference', () => {
  assert.equal(
    referencePath(['files', '.agentxchain/history.jsonl', 'data', 0]),
    'files..agentxchain/history.jsonl.data[0]',
  );
  assert.equal(referencePath(['summary', 'workflow_phase_order', 3]), 'summary.workflow_phase_order[3]');
  assert.equal(referencePath(['repos', 'a.b', 'export']), 'repos.a.b.export');
});
