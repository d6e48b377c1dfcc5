// Property: skimming a JSON text (src/json/skim.ts) and parsing the skeleton gives what
// JSON.parse gives on the whole text, except that the profile's strings read "" — for any JSON
// value, any way of cutting the bytes into pieces, and texts broken by random byte edits (then
// both agree on validity and on UTF-8 validity). With the CLI's WebAssembly string skip
// (`VerifyOptions.stringSkipper`), every piece gives the same skeleton and findings as without it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createJsonSkimmer, type SkimProfile } from '../../src/json/skim.ts';
import { loadStringSkipper } from '../../wasm/string-skip.ts';

const skipper = await loadStringSkipper();
assert.ok(skipper, 'Node compiles the SIMD string skip');

const PROFILE: SkimProfile = { opaque: ['text', 'output', 'input'], stringOnly: ['content'] };
const KEYS = ['text', 'output', 'input', 'content', 'type', 'id', 'messages', 'a', 'te"xt', 'tëxt'];

/** What the skeleton should parse to: profile strings replaced by "". */
function expected(value: unknown, opaque = false, stringOnly = false): unknown {
  if (typeof value === 'string') return opaque || stringOnly ? '' : value;
  if (Array.isArray(value)) return value.map((item) => expected(item, opaque, false));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = expected(
        item,
        opaque || PROFILE.opaque.includes(key),
        PROFILE.stringOnly.includes(key) && typeof item === 'string',
      );
    }
    return out;
  }
  return value;
}

const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'binary' }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** Splits bytes at the given cut points (sorted, deduplicated). */
function pieces(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.byteLength + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    out.push(bytes.subarray(start, point));
    start = point;
  }
  out.push(bytes.subarray(start));
  return out;
}

function skim(bytes: Uint8Array, cuts: number[]): { value?: unknown; valid: boolean; invalidUtf8: boolean } {
  const skimmer = createJsonSkimmer(PROFILE);
  const skipping = createJsonSkimmer(PROFILE, skipper);
  for (const piece of pieces(bytes, cuts)) {
    skimmer.write(piece);
    skipping.write(piece);
  }
  const result = skimmer.end();
  const skipped = skipping.end();
  assert.deepEqual(skipped.skeleton, result.skeleton, 'the same skeleton with the string skip');
  assert.equal(skipped.invalidUtf8, result.invalidUtf8, 'the same UTF-8 finding with the string skip');
  assert.equal(skipped.syntaxError, result.syntaxError, 'the same syntax finding with the string skip');
  let invalidUtf8 = result.invalidUtf8;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(result.skeleton);
  } catch {
    invalidUtf8 = true;
    text = new TextDecoder('utf-8').decode(result.skeleton);
  }
  if (result.syntaxError !== undefined) return { valid: false, invalidUtf8 };
  try {
    return { value: JSON.parse(text), valid: true, invalidUtf8 };
  } catch {
    return { valid: false, invalidUtf8 };
  }
}

function whole(bytes: Uint8Array): { value?: unknown; valid: boolean; invalidUtf8: boolean } {
  let invalidUtf8 = false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    invalidUtf8 = true;
    text = new TextDecoder('utf-8').decode(bytes);
  }
  try {
    return { value: JSON.parse(text), valid: true, invalidUtf8 };
  } catch {
    return { valid: false, invalidUtf8 };
  }
}

const cutsArb = fc.array(fc.nat(), { maxLength: 12 });

describe('JSON skimming', () => {
  it('equals JSON.parse with the profile strings emptied, for any value and any chunking', () => {
    fc.assert(
      fc.property(jsonValue, cutsArb, fc.boolean(), (value, cuts, pretty) => {
        const bytes = new TextEncoder().encode(JSON.stringify(value, null, pretty ? 1 : undefined));
        const result = skim(bytes, cuts);
        assert.ok(result.valid);
        assert.equal(result.invalidUtf8, false);
        assert.deepEqual(result.value, expected(JSON.parse(JSON.stringify(value))));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with JSON.parse on validity and UTF-8 validity of damaged texts', () => {
    const edit = fc.record({
      at: fc.nat(),
      byte: fc.constantFrom(
        0x22,
        0x5c,
        0x00,
        0x0a,
        0x7b,
        0x7d,
        0x2c,
        0x3a,
        0x75,
        0x80,
        0xc3,
        0xe2,
        0xed,
        0xf0,
        0xff,
        0x41,
      ),
      remove: fc.boolean(),
    });
    fc.assert(
      fc.property(jsonValue, fc.array(edit, { minLength: 1, maxLength: 3 }), cutsArb, (value, edits, cuts) => {
        const bytes = Array.from(
          new TextEncoder().encode(JSON.stringify({ text: value, content: 'x', input: [value] })),
        );
        for (const { at, byte, remove } of edits) {
          const position = at % (bytes.length + 1);
          if (remove && bytes.length > 0) bytes.splice(Math.min(position, bytes.length - 1), 1);
          else bytes.splice(position, 0, byte);
        }
        const input = Uint8Array.from(bytes);
        const a = skim(input, cuts);
        const b = whole(input);
        assert.equal(a.valid, b.valid, 'validity');
        if (a.valid) assert.deepEqual(a.value, expected(b.value));
        // UTF-8 problems inside dropped strings are found by the skimmer, elsewhere by the decoder.
        if (b.valid) assert.equal(a.invalidUtf8, b.invalidUtf8, 'UTF-8 validity');
      }),
      { numRuns: 3000 },
    );
  });

  it("long dropped strings: the string skip's sixteen-byte steps give what the JavaScript skip gives", () => {
    const unit = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('a', ' ', '/', '~', '\u007f') },
      { weight: 2, arbitrary: fc.constantFrom('\n', '"', '\\', 'é', '😀', '\u0000', '\ud800') },
    );
    const text = fc.array(unit, { maxLength: 400, size: 'max' }).map((units) => units.join(''));
    fc.assert(
      fc.property(text, cutsArb, fc.boolean(), (value, cuts, raw) => {
        // As JSON.stringify writes it, or with its characters raw (controls, quotes, lone halves).
        const json = JSON.stringify({ text: value, id: 1 });
        const bytes = new TextEncoder().encode(raw ? `{"text":"${value}","id":1}` : json);
        const result = skim(bytes, cuts);
        if (!raw) assert.deepEqual(result.value, { text: '', id: 1 });
      }),
      { numRuns: 2000 },
    );
  });

  it('handles escapes and multi-byte characters split across pieces', () => {
    const text = '{"text":"a\\"b\\\\c\\u00e9\\n é 😀 \\ud83d\\ude00","id":"k\\"ey"}';
    const bytes = new TextEncoder().encode(text);
    for (let cut = 0; cut <= bytes.byteLength; cut++) {
      const result = skim(bytes, [cut]);
      assert.deepEqual(result.value, { text: '', id: 'k"ey' });
    }
  });

  it('ends on every piece length when a dropped string breaks off in a partial word (fuzz regression)', () => {
    for (const tail of ['\u00e9', '\\n', '\\u00e9', '"', '\u00e9"}']) {
      for (let length = 60; length < 76; length++) {
        const text = `{"text":"${'a'.repeat(length)}${tail}`;
        const bytes = new TextEncoder().encode(text);
        for (const cut of [0, 1, 2, 3, bytes.byteLength - 1]) skim(bytes, [cut]); // must return
      }
    }
  });

  it('keeps the value of a key spelled with escapes (conservative: nothing is lost)', () => {
    const result = skim(new TextEncoder().encode('{"\\u0074ext":"kept","text":"dropped"}'), []);
    assert.deepEqual(result.value, { text: '' }); // JSON.parse: the later duplicate wins
    const single = skim(new TextEncoder().encode('{"\\u0074ext":"kept"}'), []);
    assert.deepEqual(single.value, { text: 'kept' });
  });
});
