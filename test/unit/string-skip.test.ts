// The WebAssembly SIMD skip over long strings' plain bytes (wasm/string-skip.ts), which the CLI
// passes as `VerifyOptions.stringSkipper`: for any bytes, window and sequence of offsets, it stops
// where the definition below stops, and never past where the kit's JavaScript skip stops but on a
// backslash that begins a two-character escape. Asked to stop at non-ASCII bytes too (the NDJSON
// skimmer), it stops where the skimmer's own JavaScript skip does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import * as grammar from '../../src/json/_grammar.ts';
import { skipPlain } from '../../src/json/skim.ts';
import { createStringSkipper, loadStringSkipper, type StringSkipper } from '../../wasm/string-skip.ts';

const ESCAPE_LETTERS = new Set([...'"\\/bfnrt'].map((letter) => letter.charCodeAt(0)));

/**
 * From `at`, past plain bytes and two-character escapes that end within `bytes`; with `nonAscii`,
 * a byte >= 0x80 is not plain.
 */
function definition(bytes: Uint8Array, at: number, nonAscii = false): number {
  while (at < bytes.length) {
    const byte = bytes[at]!;
    if (byte === 0x5c && at + 1 < bytes.length && ESCAPE_LETTERS.has(bytes[at + 1]!)) at += 2;
    else if (byte === 0x5c || byte === 0x22 || byte < 0x20 || (nonAscii && byte >= 0x80)) return at;
    else at++;
  }
  return at;
}

/** Bytes of strings as they come: mostly plain, with quotes, escapes good and bad, controls, UTF-8. */
const stringBytes = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(0x41, 0x7a, 0x20, 0x2f, 0x3d) },
      { weight: 3, arbitrary: fc.constantFrom(0x5c, 0x6e, 0x75, 0x78, 0x71, 0x30, 0x22, 0x74, 0x62) },
      { weight: 1, arbitrary: fc.constantFrom(0x00, 0x0a, 0x1f, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xc3, 0xff) },
    ),
    { maxLength: 300, size: 'max' },
  )
  .map((list) => Uint8Array.from(list));

const windows = [2, 3, 5, 16, 17, 31, 64, 1 << 20];
const skippers = new Map<number, StringSkipper>();
for (const window of windows) {
  const skipper = await createStringSkipper(window);
  assert.ok(skipper, `Node compiles the SIMD string skip (window ${window})`);
  skippers.set(window, skipper);
}

/** `bytes` at an odd offset of a larger buffer, as a chunk of a stream may be. */
function offsetView(bytes: Uint8Array, offset: number): Uint8Array {
  const view = new Uint8Array(new ArrayBuffer(bytes.length + offset + 3), offset, bytes.length);
  view.set(bytes);
  return view;
}

test('the skip stops where the definition stops, from every offset the lexer would ask, whatever the window', () => {
  fc.assert(
    fc.property(
      stringBytes,
      fc.constantFrom(...windows),
      fc.integer({ min: 0, max: 7 }),
      fc.array(fc.nat(), { maxLength: 6 }),
      fc.boolean(),
      (plain, window, offset, jumps, nonAscii) => {
        const bytes = offsetView(plain, offset);
        const skip = skippers.get(window)!.over(bytes, nonAscii);
        // As the skimmer asks: from a stop, on past it (1 or 2 bytes), sometimes further ahead.
        let at = 0;
        for (let step = 0; at <= bytes.length; step++) {
          const stop = skip(at);
          assert.equal(stop, definition(bytes, at, nonAscii), `from ${at}, window ${window}, nonAscii ${nonAscii}`);
          // The NDJSON skimmer's own JavaScript skip stops there too.
          if (nonAscii) assert.equal(stop, skipPlain(bytes, at, grammar.wordView(bytes)));
          else {
            // The kit's JavaScript skip stops there, or sooner on a backslash that begins an escape.
            const js = grammar.skipLongStringBytes(bytes, at, grammar.wordView(bytes), grammar.STOP_MUST_ESCAPE);
            assert.ok(js === stop || (js < stop && bytes[js] === 0x5c));
          }
          if (stop === bytes.length) break;
          at = stop + 1 + ((jumps[step % Math.max(1, jumps.length)] ?? 0) % 3);
        }
      },
    ),
    { numRuns: 3000 },
  );
});

test('a chunk read again after another chunk was skipped gives its own answers', () => {
  fc.assert(
    fc.property(stringBytes, stringBytes, fc.constantFrom(...windows), fc.boolean(), (first, second, window, mixed) => {
      const skipper = skippers.get(window)!;
      const overFirst = skipper.over(first);
      const answer = overFirst(0);
      // The second chunk stops at non-ASCII bytes too, or not: either way the first is its own.
      const overSecond = skipper.over(second, mixed);
      assert.equal(overSecond(0), definition(second, 0, mixed));
      // The first chunk's function reloads its bytes: the memory now holds the second's.
      assert.equal(overFirst(0), answer);
      assert.equal(answer, definition(first, 0));
      if (answer < first.length) assert.equal(overFirst(answer + 1), definition(first, answer + 1));
    }),
    { numRuns: 1000 },
  );
});

test('long runs: the sixteen-byte steps find a stop at every position of a step, across windows', async () => {
  const plain = new Uint8Array(4096).fill(0x61);
  for (const window of [2, 17, 1000, 1 << 20]) {
    const skipper = skippers.get(window) ?? (await createStringSkipper(window))!;
    for (const at of [0, 1, 15, 16, 17, 999, 1000, 1001, 2047, 4095]) {
      for (const stop of [0x22, 0x0a]) {
        const bytes = plain.slice();
        bytes[at] = stop;
        assert.equal(skipper.over(bytes)(0), at, `stop 0x${stop.toString(16)} at ${at}, window ${window}`);
        assert.equal(skipper.over(bytes, true)(0), at, `stop 0x${stop.toString(16)} at ${at}, window ${window}`);
      }
      // Non-ASCII stops only when asked.
      for (const byte of [0x80, 0xc3, 0xff]) {
        const bytes = plain.slice();
        bytes[at] = byte;
        assert.equal(skipper.over(bytes)(0), 4096, `0x${byte.toString(16)} at ${at}, window ${window}`);
        assert.equal(skipper.over(bytes, true)(0), at, `0x${byte.toString(16)} at ${at}, window ${window}`);
      }
      // An escape across the window's edge is stepped over; a bad one stops at its backslash.
      const escaped = plain.slice();
      escaped.set([0x5c, 0x6e], Math.min(at, 4094));
      assert.equal(skipper.over(escaped)(0), 4096, `escape at ${at}, window ${window}`);
      escaped[Math.min(at, 4094) + 1] = 0x71;
      assert.equal(skipper.over(escaped)(0), Math.min(at, 4094), `bad escape at ${at}, window ${window}`);
    }
  }
});

test('loadStringSkipper loads once', async () => {
  const skipper = await loadStringSkipper();
  assert.ok(skipper);
  assert.equal(await loadStringSkipper(), skipper);
});
