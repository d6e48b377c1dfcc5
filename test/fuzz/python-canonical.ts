/**
 * An independent, test-side copy of Zaxy's canonical JSON (docs/zaxy.md, 'Canonical JSON'): Python's
 * `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` over a value read by
 * Python's `json.loads`. The fuzzer's Zaxy oracle uses it to tell whether a mutation changed the
 * bytes a hash or signature covers; it never imports the kit's own writer, so a bug there cannot
 * hide itself. Checked against every id in the fixtures (test/security/fuzz-harness.test.ts).
 * @module
 */
import type { JsonNode } from './json-tree.ts';

/** Python would raise here (lone surrogate on UTF-8 encode, over-long int literal, …). */
export class PythonRaises extends Error {
  override readonly name = 'PythonRaises';
}

/** CPython 3.11 `sys.get_int_max_str_digits()` default. */
const INT_MAX_STR_DIGITS = 4300;

/**
 * Canonical text of a parsed value; the UTF-8 encoding of this string is what Zaxy hashes.
 * @throws PythonRaises where Python's verifier would answer `malformed …`.
 * @example
 * canonical(parseTree('{"b":1.50,"a":[1E2,-0]}')!); // '{"a":[100.0,0],"b":1.5}'
 */
export function canonical(root: JsonNode): string {
  // Iterative: output pieces are pushed in order; containers expand into their parts.
  const out: string[] = [];
  type Work = JsonNode | string;
  const stack: Work[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    switch (item.t) {
      case 'str':
        out.push(pythonString(item.value));
        break;
      case 'num':
        out.push(pythonNumber(item.lexeme));
        break;
      case 'lit':
        out.push(item.value);
        break;
      case 'arr': {
        const parts: Work[] = ['['];
        item.items.forEach((child, i) => {
          if (i > 0) parts.push(',');
          parts.push(child);
        });
        parts.push(']');
        for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
        break;
      }
      case 'obj': {
        // Last duplicate wins (Python dict semantics); keys sorted by code point.
        const byKey = new Map<string, JsonNode>();
        for (const m of item.members) byKey.set(m.key, m.value);
        const keys = [...byKey.keys()].sort(compareCodePoints);
        const parts: Work[] = ['{'];
        keys.forEach((key, i) => {
          if (i > 0) parts.push(',');
          parts.push(pythonString(key) + ':');
          parts.push(byKey.get(key)!);
        });
        parts.push('}');
        for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
        break;
      }
    }
  }
  return out.join('');
}

/** UTF-8 bytes of the canonical text (Python's `.encode('utf-8')`). */
export function canonicalBytes(root: JsonNode): Uint8Array {
  return new TextEncoder().encode(canonical(root));
}

/** Python string order: by code point, not by UTF-16 code unit (docs/zaxy.md, 'Canonical JSON'). */
export function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - i - (b.length - j);
}

function pythonString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += value[i]! + value[i + 1]!;
        i++;
        continue;
      }
      throw new PythonRaises('surrogates not allowed');
    }
    if (code >= 0xdc00 && code <= 0xdfff) throw new PythonRaises('surrogates not allowed');
    if (code === 0x22) out += '\\"';
    else if (code === 0x5c) out += '\\\\';
    else if (code === 0x08) out += '\\b';
    else if (code === 0x09) out += '\\t';
    else if (code === 0x0a) out += '\\n';
    else if (code === 0x0c) out += '\\f';
    else if (code === 0x0d) out += '\\r';
    else if (code < 0x20) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += value[i]!;
  }
  return out + '"';
}

/** An int lexeme prints as the exact integer; any other lexeme is a float printed by `repr`. */
function pythonNumber(lexeme: string): string {
  if (!/[.eE]/.test(lexeme)) {
    const digits = lexeme.replace(/^-/, '');
    if (digits.length > INT_MAX_STR_DIGITS)
      throw new PythonRaises('Exceeds the limit (4300 digits) for integer string conversion');
    return BigInt(lexeme).toString();
  }
  return pythonFloatRepr(Number(lexeme));
}

/**
 * Python `float.__repr__`: JavaScript's shortest round-trip digits, laid out the Python way
 * (positional for decimal exponents in [-4, 16), else `d.ddde+XX`).
 * @example
 * pythonFloatRepr(1e16); // '1e+16'
 * pythonFloatRepr(1);    // '1.0'
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, exponentText] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const whole = digits.padEnd(exponent + 1, '0');
    const intPart = whole.slice(0, exponent + 1);
    const fraction = whole.slice(exponent + 1);
    return `${sign}${intPart}.${fraction === '' ? '0' : fraction}`;
  }
  const rest = digits.slice(1);
  const abs = Math.abs(exponent);
  return `${sign}${digits[0]}${rest === '' ? '' : '.' + rest}e${exponent < 0 ? '-' : '+'}${abs < 10 ? '0' + abs : abs}`;
}
