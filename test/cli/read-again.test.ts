// A large uncompressed file the CLI verifies, reports on or diffs is not kept in memory: the
// AgentXchain reader reads its file entries' strings again from the file (`OpenedFile.readAgain`,
// the core's `readInputAgain`). Reports and diffs must be exactly those of the bytes in memory, and
// a file that changes while it is read must never give a verdict, a report or a diff.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { openFile } from '../../bin/open-input.ts';
import { verifyFile } from '../../bin/verify-file.ts';
import { readAgentxchainDiffSide } from '../../src/formats/agentxchain/diff/diff.ts';
import {
  agentxchainDiffText,
  diffAgentxchain,
  reportAgentxchain,
  verifyAgentxchain,
  verifyZaxy,
} from '../../src/index.ts';
import type { Report } from '../../src/report.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { runCliAsync, runCliWith, temporaryFolder } from './run.ts';

const folder = temporaryFolder();

/** A real run export with `count` large text entries added: past the 4 MiB the CLI reads whole. */
function largeExport(count: number): { bytes: Uint8Array; paths: string[] } {
  const document = JSON.parse(readFileSync(fixturePath('agentxchain', 'real-full.json'), 'utf8')) as {
    files: Record<string, unknown>;
  };
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = `# note ${i}\n${'a line of text, é and \\ and "quotes"\n'.repeat(4000 + i)}`;
    const bytes = Buffer.from(text);
    const path = `.planning/notes/note-${i}.md`;
    paths.push(path);
    document.files[path] = {
      format: 'text',
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      content_base64: bytes.toString('base64'),
      data: text,
    };
  }
  return { bytes: new TextEncoder().encode(JSON.stringify(document, null, 2)), paths };
}

/** What a report says, without its timing. */
function verdictOf(report: Report): unknown {
  const { stats, ...rest } = report;
  return { ...rest, bytes_read: stats.bytes_read };
}

describe('large uncompressed files, read again from the file', () => {
  const { bytes, paths } = largeExport(40);

  it('opening one gives positional reads of its bytes, each answer overwriting the last', async () => {
    const path = join(folder, 'large-open.json');
    writeFileSync(path, bytes);
    assert.ok(bytes.byteLength > 4 * 1024 * 1024);
    const file = await openFile(path);
    try {
      assert.ok(file.readAgain !== undefined);
      for (const [start, end] of [
        [0, 10],
        [1_000_000, 1_300_000],
        [bytes.byteLength - 5, bytes.byteLength],
        [7, 7],
      ] as const) {
        assert.deepEqual(file.readAgain(start, end), bytes.subarray(start, end));
      }
      const first = file.readAgain(100, 200);
      const second = file.readAgain(300, 350);
      assert.equal(first.buffer, second.buffer, 'answers share one buffer');
      assert.equal(await file.changedSinceOpened!(), undefined);
      truncateSync(path, 1000);
      assert.throws(() => file.readAgain!(500, 2000), /large-open\.json is shorter than when it was read/);
      assert.match((await file.changedSinceOpened!())!, /large-open\.json changed while it was verified/);
    } finally {
      await file.close();
    }
  });

  it('the file stays open to be read again after the reading stopped early (cancelled) or ended', async () => {
    const path = join(folder, 'large-cancel.json');
    writeFileSync(path, bytes);
    for (const stop of ['cancel', 'end'] as const) {
      const file = await openFile(path);
      const reader = (file.input as Blob).stream().getReader();
      if (stop === 'cancel') {
        await reader.read();
        await reader.cancel();
      } else while (!(await reader.read()).done);
      assert.deepEqual(file.readAgain!(5_000_000, 5_000_100), bytes.subarray(5_000_000, 5_000_100), stop);
      assert.equal(await file.changedSinceOpened!(), undefined, stop);
      await file.close();
    }
  });

  it('a small file is read whole, with nothing to read again', async () => {
    const path = join(folder, 'small.json');
    writeFileSync(path, readFileSync(fixturePath('agentxchain', 'real-full.json')));
    const file = await openFile(path);
    assert.equal(file.readAgain, undefined);
    assert.ok(file.input instanceof Uint8Array);
    await file.close();
  });

  it('the verdict is that of the bytes in memory, intact and tampered', async () => {
    const tampered = bytes.slice();
    // One character in the middle of the 20th entry's content (byte offsets: the text has é).
    const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = raw.indexOf('"content_base64"', raw.indexOf(`"${paths[20]}"`)) + 5000;
    tampered[at] = tampered[at] === 0x41 ? 0x42 : 0x41;
    for (const [name, content, overall] of [
      ['intact.json', bytes, 'pass'],
      ['tampered.json', tampered, 'fail'],
    ] as const) {
      const path = join(folder, name);
      writeFileSync(path, content);
      const outcome = await verifyFile(path, { kind: 'auto' });
      assert.ok('report' in outcome, JSON.stringify(outcome));
      const inMemory = await verifyAgentxchain(content, { name: path });
      assert.equal(outcome.report.overall, overall);
      assert.deepEqual(verdictOf(outcome.report), verdictOf(inMemory));
      if (overall === 'fail')
        assert.deepEqual(
          outcome.report.findings.filter((finding) => finding.severity === 'error').map((finding) => finding.path),
          [`$.files["${paths[20]}"].sha256`, `$.files["${paths[20]}"].data`],
        );
    }
  });

  it('a large file that is not JSON gets the message of the bytes in memory, reading stopped early or not', async () => {
    // An impossible byte early stops the reading (the stream is cancelled), then the first bytes are
    // read again for V8's message; one that parses only to the end is read again whole.
    const early = new TextEncoder().encode(`{"export_kind": #${' '.repeat(5_000_000)}}`);
    const late = new TextEncoder().encode(`{"files": {"a": {"data": "${'x'.repeat(5_000_000)}"}}`);
    for (const [name, content] of [
      ['early.json', early],
      ['late.json', late],
    ] as const) {
      const path = join(folder, name);
      writeFileSync(path, content);
      const outcome = await verifyFile(path, { kind: 'agentxchain' });
      assert.ok('report' in outcome, JSON.stringify(outcome));
      assert.equal(outcome.report.findings[0]?.code, 'input.not_json');
      // How much was read before stopping depends on the chunks (1 MiB reads here): not compared.
      const { stats: _ours, ...ours } = outcome.report;
      const { stats: _theirs, ...inMemory } = await verifyAgentxchain(content, { name: path });
      assert.deepEqual(ours, inMemory);
    }
  });

  it('a file that changes while it is verified gives no verdict', async () => {
    const path = join(folder, 'growing.json');
    writeFileSync(path, bytes);
    let appended = false;
    const outcome = await verifyFile(
      path,
      { kind: 'auto' },
      {
        onProgress: (read) => {
          if (appended || read < 2 * 1024 * 1024) return;
          appended = true;
          appendFileSync(path, '\n');
        },
      },
    );
    assert.ok(appended);
    assert.ok('unreadable' in outcome, JSON.stringify(outcome).slice(0, 300));
    assert.match(outcome.unreadable, /growing\.json changed while it was verified/);
  });
});

describe('report and diff of large uncompressed files, read again from the file', () => {
  const { bytes, paths } = largeExport(40);
  const tampered = bytes.slice();
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = raw.indexOf('"content_base64"', raw.indexOf(`"${paths[7]}"`)) + 3000;
  tampered[at] = tampered[at] === 0x41 ? 0x42 : 0x41;
  const now = '2026-11-25T00:00:00Z';

  it('the core reads the contents the report needs from the source, and reports as from memory', async () => {
    let reads = 0;
    const readInputAgain = (start: number, end: number): Uint8Array => {
      reads++;
      return bytes.slice(start, end);
    };
    // A stream, as the CLI's large files are: the core keeps none of it with `readInputAgain`.
    const stream = (): ReadableStream<Uint8Array> => new Blob([bytes.slice()]).stream();
    const fromSource = await reportAgentxchain(stream(), { name: 'large.json', now, readInputAgain });
    assert.ok(reads > 0, 'contents were read again from the source');
    assert.deepEqual(fromSource, await reportAgentxchain(bytes, { name: 'large.json', now }));
    // The diff reads no file entry: nothing is read again, and the side is the one from memory.
    reads = 0;
    const side = await readAgentxchainDiffSide(stream(), 'left', {}, readInputAgain);
    assert.equal(reads, 0);
    assert.deepEqual(side, await readAgentxchainDiffSide(bytes, 'left'));
  });

  it('the CLI report and diff are those of the bytes in memory, intact and tampered', async () => {
    const intact = join(folder, 'report-intact.json');
    const changed = join(folder, 'report-tampered.json');
    writeFileSync(intact, bytes);
    writeFileSync(changed, tampered);
    for (const [path, content, status] of [
      [intact, bytes, 0],
      [changed, tampered, 1],
    ] as const) {
      const result = runCliWith(['report', '--format', 'json', '--now', now, path]);
      assert.equal(result.status, status, result.stderr);
      const inMemory = await reportAgentxchain(content, { name: path, now, mode: 'corrected' });
      assert.equal(result.stdout, `${JSON.stringify(inMemory, null, 2)}\n`);
    }
    const result = runCliWith(['diff', intact, changed]);
    assert.equal(result.status, 0, result.stderr);
    const inMemory = await diffAgentxchain(bytes, tampered, {
      leftName: intact,
      rightName: changed,
      mode: 'corrected',
    });
    assert.ok(inMemory.ok);
    assert.equal(result.stdout, agentxchainDiffText(inMemory.diff));
  });

  it('a file written to while it is reported on or diffed gets no report and no diff', async () => {
    const path = join(folder, 'growing-report.json');
    const other = join(folder, 'steady.json');
    writeFileSync(other, bytes);
    for (const args of [
      ['report', path],
      ['diff', path, other],
      ['diff', other, path],
    ]) {
      writeFileSync(path, bytes);
      // Appended to every few milliseconds from the start: it grows while the CLI reads it.
      const writer = setInterval(() => appendFileSync(path, '\n'), 2);
      const result = await runCliAsync(args).finally(() => clearInterval(writer));
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stdout + result.stderr, /growing-report\.json changed while it was verified/, args.join(' '));
    }
  });
});

describe('a large Zaxy document, read again from the file instead of kept', () => {
  // A real disclosed subset, with 5 MB of blanks before its closing brace: past the 4 MiB the CLI
  // reads whole, so it is streamed. A subset is read a second time; the CLI keeps none of it.
  const pin = '235274396125169ca046a1f1f076d39cb450fdb7d850f0da4539f54bdd2eaa0c';
  const subset = readFileSync(fixturePath('zaxy', 'subset-ed25519-n5-single0.json'), 'utf8');
  const padded = new TextEncoder().encode(`${subset.trimEnd().slice(0, -1)}${' '.repeat(5_000_000)}}`);

  it('a subset larger than --max-retained-bytes gets the verdict of the bytes in memory', async () => {
    const path = join(folder, 'large-subset.json');
    writeFileSync(path, padded);
    const limits = { maxRetainedBytes: 64 };
    const outcome = await verifyFile(path, { kind: 'auto', expectPublicKey: pin, limits });
    assert.ok('report' in outcome, JSON.stringify(outcome));
    const inMemory = await verifyZaxy(padded, { name: path, expectPublicKey: pin });
    assert.equal(outcome.report.overall, 'pass');
    assert.deepEqual(verdictOf(outcome.report), verdictOf(inMemory));
    // The command line, as Zaxy answers (the fixture's expected answer).
    const result = runCliWith([
      '--compat',
      'zaxy',
      '--format',
      'json',
      '--expect-public-key',
      pin,
      '--max-retained-bytes',
      '64',
      path,
    ]);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { ok: true, reason: null });
  });

  it('a syntax error past the 1 MiB kept is placed by reading the file again: the message of the bytes in memory', async () => {
    // The padded subset with the blank before its closing brace replaced by a stray character, 5 MB in.
    const broken = padded.slice();
    broken[broken.length - 2] = 0x78;
    for (const [name, bytes] of [
      ['broken-subset.json', broken],
      ['broken-subset.json.gz', gzipSync(broken)],
    ] as const) {
      const path = join(folder, name);
      writeFileSync(path, bytes);
      const outcome = await verifyFile(path, { kind: 'zaxy', expectPublicKey: pin });
      assert.ok('report' in outcome, JSON.stringify(outcome));
      const inMemory = await verifyZaxy(bytes, { name: path, expectPublicKey: pin });
      assert.equal(outcome.report.overall, 'error');
      assert.match(
        outcome.report.findings[0]!.message,
        /Expecting ',' delimiter: line \d+ column \d+ \(char 50\d{5}\)/,
      );
      assert.deepEqual(verdictOf(outcome.report), verdictOf(inMemory));
    }
  });

  it('a subset that changes before it is read again gives no verdict', async () => {
    const path = join(folder, 'shrinking-subset.json');
    writeFileSync(path, padded);
    let cut = false;
    const outcome = await verifyFile(
      path,
      { kind: 'auto', expectPublicKey: pin, limits: { maxRetainedBytes: 64 } },
      {
        onProgress: (read, total) => {
          if (cut || read < total!) return;
          cut = true;
          truncateSync(path, padded.byteLength - 10);
        },
      },
    );
    assert.ok(cut);
    assert.ok('unreadable' in outcome, JSON.stringify(outcome).slice(0, 300));
    assert.match(outcome.unreadable, /shrinking-subset\.json changed while it was verified/);
  });
});
