// The CLI's argument parsing: limit flags read strictly, with messages naming the flag (issue 15,
// item 9); the many-inputs options (issue 18).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs } from '../../bin/args.ts';
import { parseLimitText } from '../../src/limit-text.ts';

const parse = (argv: string[], env: Record<string, string> = {}) => {
  const args = parseCliArgs(argv, env);
  assert.ok(typeof args === 'object');
  return args;
};

describe('limit flags', () => {
  for (const bad of ['0x10', '1.5', ' 7 ', '7 ', '9007199254740993', '1e3', '+5', '0', '', '٣', '1_000', 'Infinity']) {
    it(`--max-bytes ${JSON.stringify(bad)} is refused with a message naming the flag`, () => {
      assert.throws(
        () => parseCliArgs(['--max-bytes', bad, 'x.json'], {}),
        /^Error: --max-bytes takes a positive whole number/,
      );
    });
  }

  it('-1 is refused by the flag itself, not as an ambiguous argument', () => {
    assert.throws(
      () => parseCliArgs(['--max-findings', '-1', 'x.json'], {}),
      (error: Error) => {
        assert.match(error.message, /^--max-findings takes a positive whole number/);
        assert.doesNotMatch(error.message, /ambiguous/);
        return true;
      },
    );
  });

  it('decimal digits are read exactly, up to Number.MAX_SAFE_INTEGER', () => {
    assert.equal(parse(['--max-bytes', '9007199254740991', 'x'])?.options.limits?.maxInputBytes, 9007199254740991);
    assert.equal(parse(['--max-depth=12', 'x']).options.limits?.maxJsonDepth, 12);
    assert.equal(parse(['--max-ratio', '007', 'x']).options.limits?.maxCompressionRatio, 7);
  });

  it('sizes take a binary unit; counts do not', () => {
    assert.equal(parse(['--max-bytes', '64MiB', 'x']).options.limits?.maxInputBytes, 64 * 1024 * 1024);
    assert.equal(parse(['--max-line-bytes', '2KiB', 'x']).options.limits?.maxLineBytes, 2048);
    assert.equal(parse(['--max-decompressed', '1TiB', 'x']).options.limits?.maxDecompressedBytes, 1024 ** 4);
    for (const bad of ['64MB', '64mib', '64 MiB', '1.5GiB', 'MiB'])
      assert.throws(() => parseCliArgs(['--max-bytes', bad, 'x'], {}), /--max-bytes takes/);
    assert.throws(
      () => parseCliArgs(['--max-depth', '1KiB', 'x'], {}),
      /^Error: --max-depth takes a positive whole number, in decimal digits/,
    );
  });

  it('the shared parser refuses what a typo could spell', () => {
    assert.equal(parseLimitText('1048576'), 1048576);
    assert.equal(parseLimitText('64MiB'), undefined);
    assert.equal(parseLimitText('64MiB', { units: true }), 67108864);
    assert.equal(parseLimitText('8388608TiB', { units: true }), undefined); // 2^63: not a safe integer
    for (const bad of ['0x10', '1.5', ' 7 ', '9007199254740992', '-1', '0'])
      assert.equal(parseLimitText(bad), undefined);
  });
});

describe('inputs and modes', () => {
  it('takes several inputs; --compat takes exactly one', () => {
    assert.deepEqual(parse(['a.json', 'dir', '-']).inputs, ['a.json', 'dir', '-']);
    assert.throws(() => parseCliArgs(['--compat', 'zaxy', 'a.json', 'b.json'], {}), /--compat takes exactly one input/);
    assert.throws(() => parseCliArgs([], {}), /expected at least one/);
  });

  it('--jobs defaults to the cores and is read strictly; --timeout in seconds', () => {
    assert.ok(parse(['x']).jobs >= 1);
    assert.equal(parse(['-j', '3', 'x']).jobs, 3);
    assert.equal(parse(['--jobs', '1', 'x']).jobs, 1);
    for (const bad of ['0', '-2', '1.5', 'two'])
      assert.throws(() => parseCliArgs(['--jobs', bad, 'x'], {}), /^Error: --jobs takes a positive whole number/);
    assert.equal(parse(['--timeout', '0.5', 'x']).timeoutMs, 500);
    assert.equal(parse(['--timeout', '30', 'x']).timeoutMs, 30_000);
    for (const bad of ['0', '-1', '1e3', ' 2', '3000000'])
      assert.throws(() => parseCliArgs(['--timeout', bad, 'x'], {}), /^Error: --timeout takes/);
  });

  it('annotations follow GITHUB_ACTIONS unless chosen, and --quiet silences the automatic ones', () => {
    assert.equal(parse(['x']).annotations, 'none');
    assert.equal(parse(['x'], { GITHUB_ACTIONS: 'true' }).annotations, 'github');
    assert.equal(parse(['--annotations', 'none', 'x'], { GITHUB_ACTIONS: 'true' }).annotations, 'none');
    assert.equal(parse(['-q', 'x'], { GITHUB_ACTIONS: 'true' }).annotations, 'none');
    assert.equal(parse(['-q', '--annotations', 'github', 'x']).annotations, 'github');
    assert.throws(() => parseCliArgs(['--annotations', 'gitlab', 'x'], {}), /--annotations must be github or none/);
  });

  it('--format takes junit too, but not with --compat', () => {
    assert.equal(parse(['--format', 'junit', 'x']).format, 'junit');
    assert.throws(
      () => parseCliArgs(['--compat', 'zaxy', '--format', 'junit', 'x'], {}),
      /--compat prints text or json/,
    );
  });
});
