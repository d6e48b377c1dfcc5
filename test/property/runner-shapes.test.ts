// The runner checks' shapes (src/formats/agentxchain/runner/shape.ts) report what valibot 1.x
// reports for the same schema, issue for issue, with the same path and wording: random schemas
// built both ways from one description, checked on random values (conforming or not). The runner's
// own schemas (schemas.ts) are then checked on a few artifacts with their expected issues.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import * as v from 'valibot';
import {
  AssignmentSchema,
  DispatchIndexSchema,
  StagedTurnResultSchema,
} from '../../src/formats/agentxchain/runner/schemas.ts';
import * as shape from '../../src/formats/agentxchain/runner/shape.ts';

/** A schema, described once and built with either library. */
type Spec =
  | { readonly t: 'string' | 'number' | 'boolean' | 'integer' | 'either' }
  | { readonly t: 'matching'; readonly pattern: RegExp; readonly message: string }
  | { readonly t: 'oneOf'; readonly options: readonly string[]; readonly message: string | null }
  | { readonly t: 'array'; readonly item: Spec; readonly empty: string | null }
  | { readonly t: 'record'; readonly item: Spec }
  | {
      readonly t: 'object';
      readonly entries: readonly (readonly [string, 'required' | 'optional' | 'nullish', Spec])[];
    };

const KEYS = ['a', 'b', 'run_id', 'path'] as const;
const WORDS = ['', ' ', '\t\u00a0', 'a', 'b', '1.0', 'DEC-1', 'x y'];

const { spec } = fc.letrec<{ spec: Spec }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<Spec>({ t: 'string' }, { t: 'number' }, { t: 'boolean' }, { t: 'integer' }, { t: 'either' }),
    fc.record({
      t: fc.constant('matching' as const),
      pattern: fc.constantFrom(/\S/, /^[a-z]+$/, /^DEC-\d+$/),
      message: fc.constantFrom('must be a non-empty string', 'must match'),
    }),
    fc.record({
      t: fc.constant('oneOf' as const),
      options: fc.uniqueArray(fc.constantFrom('a', 'b', '1.0'), { minLength: 1, maxLength: 3 }),
      message: fc.constantFrom(null, 'must be one of them'),
    }),
    fc.record({
      t: fc.constant('array' as const),
      item: tie('spec'),
      empty: fc.constantFrom(null, 'must be non-empty'),
    }),
    fc.record({ t: fc.constant('record' as const), item: tie('spec') }),
    fc.record({
      t: fc.constant('object' as const),
      entries: fc.uniqueArray(
        fc.tuple(
          fc.constantFrom(...KEYS),
          fc.constantFrom('required', 'optional', 'nullish') as fc.Arbitrary<'required'>,
          tie('spec'),
        ),
        { maxLength: 3, selector: ([key]) => key },
      ),
    }),
  ),
}));

function valibotOf(s: Spec): v.GenericSchema {
  switch (s.t) {
    case 'string':
      return v.string();
    case 'number':
      return v.number();
    case 'boolean':
      return v.boolean();
    case 'integer':
      return v.pipe(v.number(), v.integer());
    case 'either':
      return v.union([v.string(), v.looseObject({ path: v.string() })]);
    case 'matching':
      return v.pipe(v.string(), v.regex(s.pattern, s.message));
    case 'oneOf':
      return s.message === null ? v.picklist(s.options) : v.picklist(s.options, s.message);
    case 'array':
      return s.empty === null
        ? v.array(valibotOf(s.item))
        : v.pipe(v.array(valibotOf(s.item)), v.minLength(1, s.empty));
    case 'record':
      return v.pipe(
        v.custom((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be keyed'),
        v.record(v.string(), valibotOf(s.item)),
      );
    case 'object':
      return v.looseObject(
        Object.fromEntries(
          s.entries.map(([key, presence, item]) => {
            const inner = valibotOf(item);
            return [
              key,
              presence === 'required' ? inner : presence === 'optional' ? v.optional(inner) : v.nullish(inner),
            ];
          }),
        ),
      );
  }
}

function shapeOf(s: Spec): shape.Shape {
  switch (s.t) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'integer':
      return shape[s.t];
    case 'either':
      return shape.either(shape.string, shape.object({ path: shape.string }), '(string | Object)');
    case 'matching':
      return shape.matching(s.pattern, s.message);
    case 'oneOf':
      return shape.oneOf(s.options, s.message ?? undefined);
    case 'array':
      return shape.array(shapeOf(s.item), s.empty ?? undefined);
    case 'record':
      return shape.record(shapeOf(s.item), 'must be keyed');
    case 'object':
      return shape.object(
        Object.fromEntries(
          s.entries.map(([key, presence, item]) => {
            const inner = shapeOf(item);
            return [
              key,
              presence === 'required' ? inner : presence === 'optional' ? shape.optional(inner) : shape.nullish(inner),
            ];
          }),
        ),
      );
  }
}

/** Parsed JSON as an artifact holds it: `__proto__` an own key, `-0` and `1e400` (Infinity) possible. */
const leaf = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -0, 1, 1.5, -2, Infinity, ...WORDS),
  fc.string({ maxLength: 4 }),
);

/** Values near `s` (most conform, in part or whole) and anything else. */
function valueNear(s: Spec, depth = 0): fc.Arbitrary<unknown> {
  const anything = depth > 3 ? leaf : fc.oneof(leaf, fc.constantFrom<unknown>([], {}, [1], { path: 'p' }, { path: 1 }));
  let near: fc.Arbitrary<unknown>;
  switch (s.t) {
    case 'array':
      near = fc.array(valueNear(s.item, depth + 1), { maxLength: 3 });
      break;
    case 'record':
      near = fc
        .array(
          fc.tuple(fc.constantFrom('t', 'u', '__proto__', 'constructor', 'prototype'), valueNear(s.item, depth + 1)),
          {
            maxLength: 3,
          },
        )
        .map((pairs) => keyed(pairs));
      break;
    case 'object':
      near = fc
        .tuple(
          ...s.entries.map(([key, , item]) =>
            fc.option(fc.tuple(fc.constant(key), valueNear(item, depth + 1)), { nil: undefined }),
          ),
          fc.option(fc.tuple(fc.constant('extra'), leaf), { nil: undefined }),
        )
        .map((pairs) => keyed(pairs.filter((pair) => pair !== undefined) as [string, unknown][]));
      break;
    default:
      near = leaf;
  }
  return fc.oneof({ weight: 4, arbitrary: near }, { weight: 1, arbitrary: anything });
}

/** An object with these own keys in this order, as JSON.parse makes it (`__proto__` included). */
function keyed(pairs: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of pairs)
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

const issuesOf = (s: shape.Shape, value: unknown): string[] => {
  const issues: shape.ShapeIssue[] = [];
  s(value, [], issues);
  return issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

test('every shape reports what valibot reports for the same schema', () => {
  fc.assert(
    fc.property(
      spec.chain((s) => fc.tuple(fc.constant(s), valueNear(s))),
      ([s, value]) => {
        const expected = v.safeParse(valibotOf(s), value, { abortEarly: false });
        const wanted = expected.success
          ? []
          : expected.issues.map((issue) => `${(issue.path ?? []).map((item) => item.key).join('.')}: ${issue.message}`);
        assert.deepEqual(issuesOf(shapeOf(s), value), wanted);
      },
    ),
    { numRuns: 3000 },
  );
});

test('a non-empty string is one that trim() leaves something of (valibot: trim, then minLength 1)', () => {
  const valibot = v.pipe(v.string(), v.trim(), v.minLength(1, 'must be a non-empty string'));
  const ours = shape.matching(/\S/, 'must be a non-empty string');
  const white = fc.constantFrom(
    ' ',
    '\t',
    '\n',
    '\r',
    '\v',
    '\f',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u2028',
    '\u3000',
    '\ufeff',
    '\u180e',
    'a',
  );
  fc.assert(
    fc.property(fc.array(white, { maxLength: 4 }), (units) => {
      const text = units.join('');
      const expected = v.safeParse(valibot, text, { abortEarly: false });
      assert.deepEqual(
        issuesOf(ours, text),
        expected.success ? [] : expected.issues.map((issue) => `: ${issue.message}`),
      );
    }),
  );
});

test("the runner's schemas on a few artifacts", () => {
  assert.deepEqual(issuesOf(AssignmentSchema, { run_id: 'r', turn_id: 't', role: 'dev', attempt: 1 }), []);
  assert.deepEqual(issuesOf(StagedTurnResultSchema, {}), [
    'schema_version: Invalid key: Expected "schema_version" but received undefined',
    'run_id: Invalid key: Expected "run_id" but received undefined',
    'turn_id: Invalid key: Expected "turn_id" but received undefined',
    'role: Invalid key: Expected "role" but received undefined',
  ]);
  assert.deepEqual(
    issuesOf(StagedTurnResultSchema, {
      schema_version: '2.0',
      run_id: ' ',
      turn_id: 5,
      role: 'A B',
      decisions: [{ durability: 'x', overrides: 'D' }],
      objections: [{ severity: 'critical', status: 'x' }],
      files_changed: [1, { path: 2 }],
      verification: { status: 'y', machine_evidence: [{ command: '', exit_code: 1.5 }] },
      artifact: { type: 'z', ref: 3 },
      cost: [],
      delegations: [{ id: 'del-1', to_role: 'qa', charter: 'x', acceptance_contract: [], required_decision_ids: [] }],
      run_completion_request: 'x',
    }),
    [
      'schema_version: Invalid type: Expected "1.0" but received "2.0"',
      'run_id: must be a non-empty string',
      'turn_id: Invalid type: Expected string but received 5',
      'role: must match ^[a-z0-9_-]+$',
      'decisions.0.durability: must be "run" or "repo"',
      'decisions.0.overrides: must match DEC-NNN',
      'objections.0.severity: must be one of: low, medium, high, blocking',
      'objections.0.status: Invalid type: Expected ("raised" | "acknowledged" | "resolved" | "escalated" | "resolved_by_human" | "resolved_by_director") but received "x"',
      'files_changed.0: Invalid type: Expected (string | Object) but received 1',
      'files_changed.1: Invalid type: Expected (string | Object) but received Object',
      'verification.status: must be one of: pass, fail, skipped',
      'verification.machine_evidence.0.command: must be a non-empty string',
      'verification.machine_evidence.0.exit_code: Invalid integer: Received 1.5',
      'artifact.type: Invalid type: Expected ("workspace" | "patch" | "commit" | "review") but received "z"',
      'artifact.ref: Invalid type: Expected string but received 3',
      'run_completion_request: Invalid type: Expected boolean but received "x"',
      'delegations.0.id: must match del-NNN',
      'delegations.0.acceptance_contract: must be a non-empty array',
      'delegations.0.required_decision_ids: must be a non-empty array when provided',
    ],
  );
  assert.deepEqual(issuesOf(DispatchIndexSchema, { run_id: 'r', active_turns: [] }), [
    'active_turns: must be an object keyed by turn id',
  ]);
  assert.deepEqual(
    issuesOf(DispatchIndexSchema, {
      run_id: 'r',
      active_turns: { t: { turn_id: 't', role: 'r', attempt: 1.5 }, u: 5 },
    }),
    [
      'active_turns.t.attempt: Invalid integer: Received 1.5',
      'active_turns.u: Invalid type: Expected Object but received 5',
    ],
  );
});
