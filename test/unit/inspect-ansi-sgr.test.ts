// The ANSI SGR parser and the small terminal behind the codex-exec replay (src/inspect/ansi-sgr.ts,
// src/inspect/terminal.ts): escape sequences read as data (ECMA-48 §5.4, §8.3.117; xterm's
// 256-colour and direct-colour forms), `\r` overwriting, stream tags, and bounds on hostile input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySgr, paletteRgb, PLAIN, readEscape } from '../../src/inspect/ansi-sgr.ts';
import { createTerminal, MAX_LINE_CHARS, type TerminalLine } from '../../src/inspect/terminal.ts';

const ESC = '\u001b';

test('readEscape: SGR, other control sequences, two-character escapes, unfinished ones', () => {
  assert.deepEqual(readEscape(`${ESC}[1;31mx`, 0), { kind: 'sgr', end: 7, params: [1, 31] });
  assert.deepEqual(readEscape(`${ESC}[m`, 0), { kind: 'sgr', end: 3, params: [-1] });
  assert.deepEqual(readEscape(`${ESC}[38:5:196m`, 0), { kind: 'sgr', end: 11, params: [38, 5, 196] });
  assert.deepEqual(readEscape(`${ESC}[2K`, 0), { kind: 'other', end: 4, final: 'K', params: [2] });
  // A private sequence (`?`) is never SGR, even with final `m`.
  assert.equal(readEscape(`${ESC}[?25m`, 0).kind, 'other');
  assert.deepEqual(readEscape(`${ESC}(B`, 0), { kind: 'other', end: 3, final: '', params: [] });
  assert.deepEqual(readEscape(`${ESC}7x`, 0), { kind: 'other', end: 2, final: '', params: [] });
  // An OSC 8 hyperlink is consumed whole, up to BEL or ST: its URL is never drawn.
  assert.deepEqual(readEscape(`${ESC}]8;;javascript:alert(1)\u0007link`, 0), {
    kind: 'other',
    end: 25,
    final: '',
    params: [],
  });
  assert.deepEqual(readEscape(`${ESC}]0;title${ESC}\\x`, 0), { kind: 'other', end: 11, final: '', params: [] });
  assert.deepEqual(readEscape(`${ESC}]8;;http`, 0), { kind: 'incomplete' });
  assert.deepEqual(readEscape(`${ESC}[1;3`, 0), { kind: 'incomplete' });
  assert.deepEqual(readEscape(ESC, 0), { kind: 'incomplete' });
  // A character that cannot be inside a control sequence ends it unfinished; the text goes on there.
  assert.deepEqual(readEscape(`${ESC}[1\nx`, 0), { kind: 'other', end: 3, final: '', params: [] });
});

test('readEscape: a sequence that never ends is cut at a bound, parameters are capped', () => {
  const long = `${ESC}[${'1;'.repeat(10_000)}`;
  const read = readEscape(long, 0);
  assert.equal(read.kind, 'other');
  assert.ok(read.kind === 'other' && read.end <= 256);
  const many = readEscape(`${ESC}[${'9'.repeat(100)};${'1;'.repeat(60)}m`, 0);
  assert.ok(many.kind !== 'incomplete');
});

test('applySgr: attributes, resets, the 16, 256 and direct colours', () => {
  assert.deepEqual(applySgr(PLAIN, [1, 31]), { bold: true, fg: 1 });
  assert.deepEqual(applySgr({ bold: true, fg: 1 }, [0]), {});
  assert.deepEqual(applySgr({ bold: true, fg: 1 }, [-1]), {});
  assert.deepEqual(applySgr(PLAIN, [92, 104]), { fg: 10, bg: 12 });
  assert.deepEqual(applySgr(PLAIN, [38, 5, 196, 48, 2, 1, 2, 3]), { fg: 196, bg: '#010203' });
  assert.deepEqual(applySgr({ bold: true, dim: true, fg: 3, bg: 4 }, [22, 39, 49]), {});
  assert.deepEqual(applySgr(PLAIN, [38, 5, 999]), {});
  assert.deepEqual(applySgr(PLAIN, [38, 2, 1, 300, 3, 4]), { underline: true });
  assert.deepEqual(applySgr(PLAIN, [3, 4, 7, 9, 8]), {
    italic: true,
    underline: true,
    inverse: true,
    strike: true,
    hidden: true,
  });
  assert.deepEqual(paletteRgb(196), [255, 0, 0]);
  assert.deepEqual(paletteRgb(232), [8, 8, 8]);
  assert.equal(paletteRgb(7), undefined);
});

function run(writes: readonly (readonly ['stdout' | 'stderr', string])[]): TerminalLine[] {
  const lines: TerminalLine[] = [];
  const terminal = createTerminal({ collect: () => true, onLine: (line) => lines.push(line) });
  writes.forEach(([stream, text], i) => terminal.write(text, stream, i + 1));
  terminal.finish();
  return lines;
}

const plain = (line: TerminalLine) => line.spans.map((span) => span.text).join('');

test('terminal: lines, \\r overwrites in place, backspace, erase to end of line', () => {
  assert.deepEqual(run([['stdout', 'a\nbc\n']]).map(plain), ['a', 'bc']);
  assert.deepEqual(run([['stdout', '10%\r50%\r100%\n']]).map(plain), ['100%']);
  assert.deepEqual(run([['stdout', 'abcdef\rxy\n']]).map(plain), ['xycdef']);
  assert.deepEqual(run([['stdout', 'abc\bX\n']]).map(plain), ['abX']);
  assert.deepEqual(run([['stdout', 'abcdef\r12' + ESC + '[K\n']]).map(plain), ['12']);
  assert.deepEqual(
    run([['stdout', 'a\r\nb']]).map(plain),
    ['a', 'b'],
    'CR LF ends a line; a last line without LF counts',
  );
});

test('terminal: styles and streams as spans; an escape split across chunks; line sources', () => {
  const lines = run([
    ['stdout', `x ${ESC}[3`],
    ['stdout', `1mred${ESC}[0m `],
    ['stderr', 'err\n'],
  ]);
  assert.equal(lines.length, 1);
  assert.deepEqual(lines[0]!.spans, [
    { text: 'x ', style: {}, stream: 'stdout' },
    { text: 'red', style: { fg: 1 }, stream: 'stdout' },
    { text: ' ', style: {}, stream: 'stdout' },
    { text: 'err', style: {}, stream: 'stderr' },
  ]);
  assert.equal(lines[0]!.source, 1, 'the record that started the line');
  // Overwriting across a stream change keeps both tags in place.
  const mixed = run([
    ['stdout', 'aaaa\r'],
    ['stderr', 'bb\n'],
  ]);
  assert.deepEqual(mixed[0]!.spans, [
    { text: 'bb', style: {}, stream: 'stderr' },
    { text: 'aa', style: {}, stream: 'stdout' },
  ]);
});

test('terminal: a line past MAX_LINE_CHARS keeps its start and its length', () => {
  const lines = run([['stdout', 'z'.repeat(MAX_LINE_CHARS + 5000) + '\nnext\n']]);
  assert.equal(plain(lines[0]!).length, MAX_LINE_CHARS);
  assert.equal(lines[0]!.fullLength, MAX_LINE_CHARS + 5000);
  assert.equal(plain(lines[1]!), 'next');
});

test('terminal: counting mode follows styles and gives each line start for checkpoints', () => {
  const starts: [number, number][] = [];
  const terminal = createTerminal({
    collect: () => false,
    onLine: () => assert.fail('nothing is collected'),
    onLineStart: (line, offset) => starts.push([line, offset]),
  });
  terminal.write(`${ESC}[1ma\nbb\n`, 'stdout', 1);
  terminal.say('status', 'done', 2);
  terminal.finish();
  assert.equal(terminal.lines, 3);
  assert.deepEqual(starts.slice(0, 2), [
    [1, 6],
    [2, 9],
  ]);
  // Starting again from a checkpoint (line 1, offset 6, bold) gives the same line 1.
  const again: TerminalLine[] = [];
  const resumed = createTerminal({
    collect: () => true,
    onLine: (line) => again.push(line),
    startLine: 1,
    startStyle: { bold: true },
  });
  resumed.write(`${ESC}[1ma\nbb\n`.slice(6), 'stdout', 1);
  assert.deepEqual(again[0], {
    kind: 'output',
    number: 1,
    source: 1,
    spans: [{ text: 'bb', style: { bold: true }, stream: 'stdout' }],
  });
});
