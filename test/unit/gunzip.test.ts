// Streaming gunzip (src/stream/gunzip/) and the Node decompressor (bin/node-gunzip.ts): the same
// error contract for both — every member read, CRC-32 / ISIZE checked, truncation, trailing
// garbage and bad headers reported with their byte offset, limits enforced — with the output
// decoded before a problem always delivered first, whatever the chunking.
import assert from 'node:assert/strict';
import { crc32 as zlibCrc32, deflateRawSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { nodeGunzip } from '../../bin/node-gunzip.ts';
import { DEFAULT_LIMITS, resolveLimits, type Limits } from '../../src/limits.ts';
import { crc32, littleEndianWords } from '../../src/stream/gunzip/crc32.ts';
import { gunzipStream, type GunzipFactory } from '../../src/stream/gunzip/index.ts';
import { isStreamProblem } from '../../src/stream/problem.ts';
import { ndjsonBomb } from '../helpers/bomb.ts';

interface Outcome {
  readonly bytes: Uint8Array;
  readonly code?: string;
  readonly message?: string;
  readonly bytesOut: number;
}

async function gunzip(
  factory: GunzipFactory,
  input: Uint8Array,
  chunk: number,
  limits: Limits = DEFAULT_LIMITS,
): Promise<Outcome> {
  let offset = 0;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= input.byteLength) return controller.close();
      controller.enqueue(input.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
  const counters = { bytesIn: 0, bytesOut: 0 };
  const reader = source.pipeThrough(factory({ limits, counters })).getReader();
  const parts: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
  } catch (error) {
    assert.ok(isStreamProblem(error), `expected a StreamProblem, got ${String(error)}`);
    return {
      bytes: new Uint8Array(Buffer.concat(parts)),
      code: error.code,
      message: error.message,
      bytesOut: counters.bytesOut,
    };
  }
  return { bytes: new Uint8Array(Buffer.concat(parts)), bytesOut: counters.bytesOut };
}

const text = (n: number, seed = 'line'): Uint8Array =>
  new TextEncoder().encode(Array.from({ length: n }, (_, i) => `${seed} ${i} ${'x'.repeat(i % 37)}\n`).join(''));
const memberA = text(400, 'alpha');
const memberB = text(50, 'beta');
const gzA = new Uint8Array(gzipSync(memberA));
const gzB = new Uint8Array(gzipSync(memberB));
const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

/** A member with FEXTRA, FNAME, FCOMMENT and FHCRC, built by hand (RFC 1952 §2.3). */
function fancyMember(data: Uint8Array, corruptHeaderCrc = false): Uint8Array {
  const head = [
    0x1f,
    0x8b,
    8,
    4 | 8 | 16 | 2,
    0,
    0,
    0,
    0,
    0,
    3,
    5,
    0,
    1,
    2,
    3,
    4,
    5,
    ...new TextEncoder().encode('name.ndjson'),
    0,
    ...new TextEncoder().encode('a comment'),
    0,
  ];
  const headerCrc = crc32(Uint8Array.from(head)) & 0xffff;
  const trailer = new Uint8Array(8);
  new DataView(trailer.buffer).setUint32(0, zlibCrc32(data), true);
  new DataView(trailer.buffer).setUint32(4, data.byteLength, true);
  return concat(
    Uint8Array.from(head),
    Uint8Array.from([(headerCrc ^ (corruptHeaderCrc ? 1 : 0)) & 0xff, headerCrc >> 8]),
    deflateRawSync(data),
    trailer,
  );
}

const ENGINES: [string, GunzipFactory][] = [
  ['fflate (default)', gunzipStream],
  ['node:zlib (CLI)', nodeGunzip],
];
const CHUNKS = [1, 3, 64, 4096, 1 << 20];

describe('crc32', () => {
  it('matches zlib on the check value and random data, also when continued', () => {
    assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
    for (let n = 0; n < 300; n += 7) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff);
      assert.equal(crc32(data), zlibCrc32(data));
      const cut = n >> 1;
      assert.equal(crc32(data, crc32(data.subarray(0, cut)), cut), zlibCrc32(data));
    }
  });

  it('matches zlib at any alignment, length and split (16 bytes a step, in place or copied)', () => {
    const buffer = new Uint8Array(70_000).map((_, i) => (Math.imul(i, 2654435761) >>> 13) & 0xff);
    for (let offset = 0; offset < 8; offset++) {
      for (const length of [0, 1, 3, 15, 16, 17, 31, 33, 64, 1000, 65_536]) {
        const data = buffer.subarray(offset, offset + length);
        assert.equal(crc32(data), zlibCrc32(data), `offset ${offset}, length ${length}`);
        for (const cut of [1, 5, 16, length >> 1]) {
          if (cut > length) continue;
          const continued = crc32(data, crc32(data, 0, 0, cut), cut);
          assert.equal(continued, zlibCrc32(data), `offset ${offset}, length ${length}, cut at ${cut}`);
        }
      }
    }
  });

  it('reads words little-endian where the host does not (the big-endian path)', () => {
    const bytes = Uint8Array.from({ length: 37 }, (_, i) => (i * 97 + 11) & 0xff);
    for (const from of [0, 1, 2, 3, 5]) {
      const count = (bytes.byteLength - from) >>> 2;
      const view = new DataView(bytes.buffer, bytes.byteOffset + from);
      const expected = Int32Array.from({ length: count }, (_, w) => view.getInt32(4 * w, true));
      assert.deepEqual(littleEndianWords(bytes, from, count), expected);
    }
  });
});

for (const [engine, factory] of ENGINES) {
  describe(`gunzip: ${engine}`, () => {
    it('decompresses one member, and concatenated members (any chunking)', async () => {
      for (const chunk of CHUNKS) {
        assert.deepEqual((await gunzip(factory, gzA, chunk)).bytes, memberA);
        const two = await gunzip(factory, concat(gzA, gzB, gzA), chunk);
        assert.equal(two.code, undefined);
        assert.deepEqual(two.bytes, concat(memberA, memberB, memberA));
        assert.equal(two.bytesOut, memberA.byteLength * 2 + memberB.byteLength);
      }
    });

    it('reads FEXTRA, FNAME, FCOMMENT and FHCRC, and rejects a wrong header CRC', async () => {
      for (const chunk of [1, 5, 4096]) {
        assert.deepEqual((await gunzip(factory, fancyMember(memberB), chunk)).bytes, memberB);
        assert.equal((await gunzip(factory, fancyMember(memberB, true), chunk)).code, 'gzip.bad_header');
      }
    });

    it('reports a CRC-32 mismatch after delivering the member, with its offset', async () => {
      const bad = Uint8Array.from(gzA);
      bad[bad.byteLength - 8]! ^= 0xff;
      for (const chunk of CHUNKS) {
        const outcome = await gunzip(factory, bad, chunk);
        assert.equal(outcome.code, 'gzip.crc_mismatch');
        assert.deepEqual(outcome.bytes, memberA);
        assert.match(outcome.message!, new RegExp(`byte ${bad.byteLength - 8}\\b`));
      }
    });

    it('reports an ISIZE mismatch', async () => {
      const bad = Uint8Array.from(gzA);
      bad[bad.byteLength - 1]! ^= 0x01;
      for (const chunk of CHUNKS) {
        const outcome = await gunzip(factory, concat(gzB, bad), chunk);
        assert.equal(outcome.code, 'gzip.size_mismatch');
        assert.deepEqual(outcome.bytes, concat(memberB, memberA));
      }
    });

    it('reports truncation in the header, the DEFLATE data and the trailer', async () => {
      for (const cut of [5, 20, gzA.byteLength - 20, gzA.byteLength - 3]) {
        for (const chunk of [1, 4096]) {
          const outcome = await gunzip(factory, gzA.subarray(0, cut), chunk);
          assert.equal(outcome.code, 'gzip.truncated', `cut at ${cut}`);
          assert.ok(
            memberA.subarray(0, outcome.bytes.byteLength).every((b, i) => b === outcome.bytes[i]),
            'a prefix of the data',
          );
        }
      }
      assert.equal((await gunzip(factory, concat(gzA, gzB.subarray(0, 4)), 7)).code, 'gzip.truncated');
    });

    it('reports trailing garbage (text, zero padding) after the last member, data first', async () => {
      for (const tail of [
        new TextEncoder().encode('garbage'),
        new Uint8Array(16),
        Uint8Array.from([0x1f, 0x00, 1, 2]),
      ]) {
        for (const chunk of CHUNKS) {
          const outcome = await gunzip(factory, concat(gzA, gzB, tail), chunk);
          assert.equal(outcome.code, 'gzip.trailing_garbage');
          assert.deepEqual(outcome.bytes, concat(memberA, memberB));
          assert.match(outcome.message!, new RegExp(`${gzA.byteLength + gzB.byteLength}`));
        }
      }
    });

    it('reports a bad header in a later member, and corrupt DEFLATE data', async () => {
      const badMethod = Uint8Array.from(gzB);
      badMethod[2] = 7;
      assert.equal((await gunzip(factory, concat(gzA, badMethod), 64)).code, 'gzip.bad_header');
      const reserved = Uint8Array.from(gzB);
      reserved[3] = 0x20;
      assert.equal((await gunzip(factory, concat(gzA, reserved), 64)).code, 'gzip.bad_header');
      const corrupt = Uint8Array.from(gzA);
      corrupt[10] = 0xff; // BTYPE 11 (reserved) in the first block header
      assert.equal((await gunzip(factory, corrupt, 64)).code, 'gzip.bad_data');
    });

    it('stops exactly at limits.maxDecompressedBytes', async () => {
      const limits = resolveLimits({ maxDecompressedBytes: 1000 });
      for (const chunk of [1, 4096]) {
        const outcome = await gunzip(factory, gzA, chunk, limits);
        assert.equal(outcome.code, 'limit.decompressed_bytes');
        assert.deepEqual(outcome.bytes, memberA.subarray(0, 1000));
      }
    });

    it('stops a highly compressible stream at the ratio limit', async () => {
      const zeros = new Uint8Array(gzipSync(new Uint8Array(64 << 20), { level: 9 }));
      const limits = resolveLimits({ ratioGraceBytes: 1 << 20, maxCompressionRatio: 100 });
      const outcome = await gunzip(factory, zeros, 1 << 16, limits);
      assert.equal(outcome.code, 'limit.compression_ratio');
      assert.ok(
        outcome.bytes.byteLength >= 1 << 20 && outcome.bytes.byteLength < 4 << 20,
        `stopped after ${outcome.bytes.byteLength} bytes`,
      );
    });

    it('stops the 4 GiB NDJSON bomb at the default limits within a few MB', async () => {
      const outcome = await gunzip(factory, ndjsonBomb(), 1 << 20);
      assert.equal(outcome.code, 'limit.compression_ratio');
      assert.ok(
        outcome.bytesOut <= DEFAULT_LIMITS.ratioGraceBytes + (4 << 20),
        `stopped after ${outcome.bytesOut} bytes`,
      );
    });
  });
}
