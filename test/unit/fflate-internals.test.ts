// fflate has no public answer to "where did the DEFLATE stream end", so the gzip member parser's
// fflate adapter (src/stream/gunzip/fflate-inflater.ts) reads it from the private state of
// fflate's `Inflate`: `p` (the pending input), `s.f` (final block seen), `s.l` (a Huffman block in
// progress) and `s.p` (the bit position inside `p`). package.json pins the fflate version this
// was proven on; these tests fail if the installed fflate no longer has those fields, or if they
// no longer tell the exact end of the stream (stored, fixed and dynamic blocks, any split).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { constants, deflateRawSync } from 'node:zlib';
import { Inflate } from 'fflate';
import { bytesAfterDeflateEnd, fflateInflater } from '../../src/stream/gunzip/fflate-inflater.ts';

const installed = (createRequire(import.meta.url)('fflate/package.json') as { version: string }).version;
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** The failure message: what changed, and what to do about it. */
const changed = (what: string): string =>
  `fflate ${installed}: ${what}. src/stream/gunzip/fflate-inflater.ts reads Inflate's private state (p, s.f, s.l, s.p) ` +
  'to find where a DEFLATE stream ends; re-prove it on this fflate before changing the version pinned in package.json.';

/** Deterministic text that compresses into dynamic Huffman blocks (several, when long). */
function text(bytes: number, seed: number): Uint8Array {
  const words = ['gzip', 'member', 'trailer', 'deflate', 'block', 'huffman', 'stored', 'fixed', 'dynamic', 'crc'];
  let state = seed >>> 0;
  let out = '';
  while (out.length < bytes) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += `${words[state % words.length]}${state % 7 === 0 ? '\n' : ' '}${(state >>> 8) % 1000}`;
  }
  return new TextEncoder().encode(out.slice(0, bytes));
}

const deflate = (data: Uint8Array, options: { level?: number; strategy?: number } = {}): Uint8Array =>
  new Uint8Array(deflateRawSync(data, options));

/** Streams of each block type: stored (level 0), fixed Huffman, one dynamic block, several. */
const STREAMS: readonly { readonly name: string; readonly data: Uint8Array; readonly deflated: Uint8Array }[] = [
  { name: 'stored blocks', data: text(70_000, 1), options: { level: 0 } },
  { name: 'a fixed Huffman block', data: new TextEncoder().encode('a\n'), options: { strategy: constants.Z_FIXED } },
  { name: 'one dynamic Huffman block', data: text(3_000, 2), options: {} },
  { name: 'several dynamic Huffman blocks', data: text(400_000, 3), options: {} },
].map(({ name, data, options }) => ({ name, data, deflated: deflate(data, options) }));

/** What follows a DEFLATE stream in a gzip member: the trailer, here 8 marker bytes and more. */
const TAIL = Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 0x1f, 0x8b, 8]);

const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
};

/** Split points: every byte near both ends, a stride in between. */
function splits(length: number): number[] {
  const points = new Set<number>();
  for (let k = 1; k < Math.min(length, 64); k++) points.add(k);
  for (let k = Math.max(1, length - 64); k < length; k++) points.add(k);
  for (let k = 64; k < length - 64; k += Math.max(1, Math.floor(length / 97))) points.add(k);
  return [...points].sort((a, b) => a - b);
}

describe('fflate internals the gunzip adapter reads', () => {
  it('package.json pins fflate to one exact version, and that version is installed', () => {
    const pinned = manifest.dependencies['fflate'];
    assert.match(
      pinned ?? '',
      /^\d+\.\d+\.\d+$/,
      changed(`package.json asks for fflate "${pinned}", not one exact version`),
    );
    assert.equal(installed, pinned, changed(`package.json pins fflate ${pinned}, but ${installed} is installed`));
  });

  it('Inflate has the fields: p a Uint8Array, s an object with f, l and p', () => {
    const { deflated } = STREAMS[2]!;
    const inflater = new Inflate(() => undefined);
    inflater.push(deflated.subarray(0, deflated.byteLength >> 1), false);
    const internals = inflater as unknown as { p?: unknown; s?: { f?: unknown; l?: unknown; p?: unknown } };
    assert.ok(internals.p instanceof Uint8Array, changed('Inflate has no Uint8Array field `p` (the pending input)'));
    assert.equal(typeof internals.s, 'object', changed('Inflate has no state object `s`'));
    // Half-way through the only (so final) block: final block seen, a Huffman block in progress.
    assert.equal(internals.s!.f, 1, changed('`s.f` is not 1 inside the final block'));
    assert.ok(internals.s!.l, changed('`s.l` is not set while a Huffman block is in progress'));
    assert.equal(typeof internals.s!.p, 'number', changed('`s.p` (the bit position) is not a number'));
    assert.equal(
      bytesAfterDeflateEnd(inflater),
      undefined,
      changed('the stream reads as ended half-way through its final block'),
    );
  });

  for (const { name, data, deflated } of STREAMS) {
    it(`tell the exact end of a stream of ${name}, however the input is split`, () => {
      const input = concat(deflated, TAIL);
      for (const k of splits(input.byteLength)) {
        const inflater = new Inflate(() => undefined);
        inflater.push(input.subarray(0, k), false);
        if (k < deflated.byteLength) {
          assert.equal(
            bytesAfterDeflateEnd(inflater),
            undefined,
            changed(`a stream of ${name} reads as ended after ${k} of its ${deflated.byteLength} bytes`),
          );
          inflater.push(input.subarray(k), false);
          assert.equal(
            bytesAfterDeflateEnd(inflater),
            TAIL.byteLength,
            changed(`the end of a stream of ${name} is misplaced (input split at ${k})`),
          );
        } else {
          assert.equal(
            bytesAfterDeflateEnd(inflater),
            k - deflated.byteLength,
            changed(`the end of a stream of ${name} is misplaced (input cut at ${k})`),
          );
        }
      }
    });

    it(`give the adapter the output and the used bytes of a stream of ${name}`, () => {
      const parts: Uint8Array[] = [];
      const inflater = fflateInflater((bytes) => parts.push(bytes.slice()));
      const step = inflater.push(concat(deflated, TAIL));
      assert.deepEqual(
        step,
        { used: deflated.byteLength, ended: true },
        changed(`the adapter misreads the end of a stream of ${name}`),
      );
      assert.deepEqual(concat(...parts), data, changed(`the output of a stream of ${name} differs from its input`));
    });
  }
});
