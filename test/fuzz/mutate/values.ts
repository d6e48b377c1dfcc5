/**
 * Replacement values for JSON-aware mutations, as JSON text: edge numbers, odd strings,
 * prototype keys, and size bombs (very long strings, 10,000-deep nesting).
 * @module
 */
import type { Rng } from '../rng.ts';

/** Numbers that break naive code: -0, overflow to Infinity, underflow, beyond 2^53, float/int look-alikes. */
export const EDGE_NUMBERS = [
  '0',
  '-0',
  '-0.0',
  '0.0',
  '1',
  '-1',
  '1.0',
  '1.00',
  '1E2',
  '2e0',
  '0.1e1',
  '1e400',
  '-1e400',
  '1e-400',
  '5e-324',
  '1.7976931348623157e308',
  '9007199254740993',
  '-9007199254740993',
  '18446744073709551616',
  '123456789012345678901234567890',
  '1e16',
  '1e21',
  '0.30000000000000004',
  '4294967296',
  '2147483648',
  '-2147483649',
] as const;

/** Python-only tokens that JSON.parse rejects but Zaxy files may hold. */
export const PYTHON_TOKENS = ['NaN', 'Infinity', '-Infinity'] as const;

/** Strings that test escaping, surrogates, separators and look-alikes (JSON text, quoted). */
export const ODD_STRINGS = [
  '""',
  '" "',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udc00"',
  '"a\\ud83dz"',
  '"\\ud83d\\ude00"',
  '"😀"',
  '"\\u2028\\u2029"',
  '"\\u007f"',
  '"\\r\\n"',
  '"e\\u0301"',
  '"\\u00e9"',
  '"\\/"',
  '"\\\\"',
  '"\\""',
  '"0"',
  '"-0"',
  '"true"',
  '"null"',
  '"NaN"',
  '"2026-13-45T99:99:99Z"',
  '"0000-00-00T00:00:00.000Z"',
  '"__proto__"',
  '"constructor"',
  '"toString"',
  '"\\ufeff"',
  '"\\ufffd"',
  '"%s%n"',
  '"${x}"',
  '"<script>alert(1)</script>"',
  '"../../etc/passwd"',
] as const;

/** Keys that target prototype pollution and inherited-name lookups. */
export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'then',
] as const;

/** Small structures. */
export const SMALL_STRUCTURES = [
  'null',
  'true',
  'false',
  '[]',
  '{}',
  '[null]',
  '[[]]',
  '{"":null}',
  '[1,"1",true]',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"toString":1,"valueOf":2}',
] as const;

/** A string literal of `length` characters (quoted JSON text). */
export function longString(rng: Rng, length: number): string {
  const unit = rng.pick(['A', 'é', '😀', '\\n', '\\u0000', ' ', '\\"', '=']);
  const out = unit.repeat(Math.ceil(length / Math.max(1, unit.length)));
  return `"${out}"`;
}

/** `depth` nested arrays or objects around a scalar (JSON text). */
export function deepNesting(rng: Rng, depth: number): string {
  if (rng.chance(0.5)) return '['.repeat(depth) + '0' + ']'.repeat(depth);
  const key = rng.pick(['a', '__proto__', 'constructor', 'content']);
  return `{"${key}":`.repeat(depth) + 'null' + '}'.repeat(depth);
}

/** An integer literal of `digits` digits (Python refuses over 4300). */
export function longInteger(rng: Rng, digits: number): string {
  let out = String(rng.range(1, 9));
  while (out.length < digits) out += String(rng.int(10)).repeat(Math.min(digits - out.length, rng.range(1, 64)));
  return out;
}

/**
 * A random hostile JSON value.
 * @example
 * hostileValue(createRng(1, 2)); // e.g. '1e400'
 */
export function hostileValue(rng: Rng): string {
  switch (rng.int(9)) {
    case 0:
    case 1:
      return rng.pick(EDGE_NUMBERS);
    case 2:
      return rng.pick(PYTHON_TOKENS);
    case 3:
    case 4:
      return rng.pick(ODD_STRINGS);
    case 5:
      return rng.pick(SMALL_STRUCTURES);
    case 6:
      return longString(rng, rng.weighted([1024, 65536, 1 << 20, 3 << 20], [40, 35, 20, 5]));
    case 7:
      return deepNesting(rng, rng.pick([100, 1001, 10_000]));
    default:
      return rng.chance(0.5) ? longInteger(rng, rng.pick([20, 400, 4301, 10_000])) : `-${longInteger(rng, 30)}.5e-7`;
  }
}
