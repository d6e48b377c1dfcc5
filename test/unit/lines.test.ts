// The NDJSON line splitter (src/stream/lines.ts): CRLF, BOM, invalid UTF-8 (also split across
// chunks), blank and unterminated lines, the line-length limit, and identical results for every
// chunking of the same bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectLines, createLineSplitter, isBlankLine, lineStream, type Line } from '../../src/stream/lines.ts';

interface Split {
  readonly lines: Line[];
  readonly tooLong: number[];
  readonly count: number;
}

function split(input: Uint8Array | string, chunk: number, maxLineBytes = 1 << 20): Split {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const lines: Line[] = [];
  const tooLong: number[] = [];
  const splitter = createLineSplitter({
    maxLineBytes,
    sink: collectLines((line) => lines.push(line)),
    tooLong: (n) => tooLong.push(n),
  });
  for (let offset = 0; offset < bytes.byteLength; offset += chunk)
    splitter.push(bytes.subarray(offset, offset + chunk));
  splitter.finish();
  return { lines, tooLong, count: splitter.lineCount };
}

/** Splits with every chunk size from 1 to the length, asserting all agree; returns one result. */
function splitEveryWay(input: Uint8Array | string, maxLineBytes?: number): Split {
  const size = typeof input === 'string' ? new TextEncoder().encode(input).byteLength : input.byteLength;
  const reference = split(input, size + 1, maxLineBytes);
  for (let chunk = 1; chunk <= size; chunk++)
    assert.deepEqual(split(input, chunk, maxLineBytes), reference, `chunk size ${chunk}`);
  return reference;
}

describe('line splitter', () => {
  it('numbers lines from 1 and flags an unterminated last line', () => {
    const { lines, count } = splitEveryWay('{"a":1}\n{"b":2}\n{"c":3}');
    assert.deepEqual(
      lines.map((l) => [l.number, l.text, l.terminated]),
      [
        [1, '{"a":1}', true],
        [2, '{"b":2}', true],
        [3, '{"c":3}', false],
      ],
    );
    assert.equal(count, 3);
  });

  it('removes and flags CR LF; a lone CR stays in the text', () => {
    const { lines } = splitEveryWay('a\r\nb\rc\n\r\n');
    assert.deepEqual(
      lines.map((l) => [l.text, l.crlf]),
      [
        ['a', true],
        ['b\rc', false],
        ['', true],
      ],
    );
  });

  it('flags and removes a BOM on line 1 only, even split across chunks', () => {
    const bom = '\uFEFF';
    const { lines } = splitEveryWay(`${bom}{"a":1}\n${bom}x\n`);
    assert.equal(lines[0]!.bom, true);
    assert.equal(lines[0]!.text, '{"a":1}');
    assert.equal(lines[1]!.bom, false);
    assert.equal(lines[1]!.text, `${bom}x`);
    assert.deepEqual(
      splitEveryWay(`${bom}\n`).lines.map((l) => [l.text, l.bom]),
      [['', true]],
    );
    assert.deepEqual(
      splitEveryWay('\xef').lines.map((l) => l.bom),
      [false],
    );
  });

  it('flags invalid UTF-8 (also split across chunks) and decodes with U+FFFD', () => {
    const bytes = Uint8Array.from([
      0x61, 0xc3, 0x28, 0x0a, 0xe2, 0x82, 0xac, 0x0a, 0xf0, 0x9f, 0x98, 0x0a, 0xed, 0xa0, 0x80, 0x0a,
    ]);
    const { lines } = splitEveryWay(bytes);
    assert.deepEqual(
      lines.map((l) => l.invalidUtf8),
      [true, false, true, true],
    );
    assert.equal(lines[0]!.text, 'a\uFFFD(');
    assert.equal(lines[1]!.text, '€');
  });

  it('reports blank lines as lines', () => {
    const { lines } = splitEveryWay('{}\n\n  \t\n{}\n');
    assert.deepEqual(
      lines.map((l) => isBlankLine(l.text)),
      [false, true, true, false],
    );
  });

  it('skips a line over maxLineBytes in bounded memory, once, and keeps counting', () => {
    const long = 'x'.repeat(25);
    const { lines, tooLong, count } = splitEveryWay(`ok\n${long}\n${'y'.repeat(20)}\nlast${long}`, 20);
    assert.deepEqual(
      lines.map((l) => [l.number, l.text]),
      [
        [1, 'ok'],
        [3, 'y'.repeat(20)],
      ],
    );
    assert.deepEqual(tooLong, [2, 4]);
    assert.equal(count, 4);
  });

  it('counts a CR against the limit (so chunking cannot change the verdict)', () => {
    assert.deepEqual(splitEveryWay('abc\r\n', 3).tooLong, [1]);
    assert.deepEqual(splitEveryWay('abc\n', 3).tooLong, []);
  });

  it('rejects a nonsensical limit as API misuse', () => {
    assert.throws(
      () => createLineSplitter({ maxLineBytes: 0, sink: collectLines(() => {}), tooLong: () => {} }),
      TypeError,
    );
  });

  it('works as a TransformStream', async () => {
    const texts: string[] = [];
    const source = new Response('a\nb\r\nc').body!;
    const reader = source.pipeThrough(lineStream({ maxLineBytes: 100, tooLong: () => {} })).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) texts.push(next.value.text);
    assert.deepEqual(texts, ['a', 'b', 'c']);
  });
});
