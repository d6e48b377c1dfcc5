// agent-history's own markdown in Chromium: every `exact` golden of
// test/fixtures/agent-history/markdown/ rendered by the core from its NDJSON (plain and gzip, the
// gzip made by the browser's CompressionStream) must equal the tool's file byte for byte; the
// lossy goldens come back as reconstructions.
//
// Bytes come through the test runner's readFile command (base64), not fetch: the dev server turns
// text responses into strings, which would hide a difference in the bytes.
import { readFile } from '@web/test-runner-commands';
import { agentHistoryMarkdown, type MarkdownLevel } from '../../src/formats/agent-history/markdown/index.ts';
import { fixtureManifest } from './fixtures.ts';

interface MarkdownCase {
  readonly fixture: string;
  readonly level: MarkdownLevel;
  readonly minimal: boolean;
  readonly md_file: string;
  readonly parity: 'exact' | 'lossy';
}

/** A file of test/fixtures/agent-history/markdown/ (or `../` for the NDJSON), byte for byte. */
async function markdownFolderBytes(relative: string): Promise<Uint8Array<ArrayBuffer>> {
  const base64 = await readFile({ path: `../fixtures/agent-history/markdown/${relative}`, encoding: 'base64' });
  if (base64 === undefined) throw new Error(`fixture ${relative} not found`);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

describe('agent-history markdown goldens in Chromium', () => {
  it('renders every exact golden (34) byte for byte, plain and gzip', async () => {
    const cases = await fixtureManifest<MarkdownCase[]>('agent-history/markdown');
    const exact = cases.filter((c) => c.parity === 'exact');
    assert(exact.length === 34, `found ${exact.length} exact cases, expected 34`);
    const failures: string[] = [];
    for (const c of exact) {
      const ndjson = await markdownFolderBytes(c.fixture);
      const expected = await markdownFolderBytes(c.md_file);
      for (const [label, input] of [
        ['plain', ndjson],
        ['gzip', await gzip(ndjson)],
      ] as const) {
        const result = await agentHistoryMarkdown(input, { level: c.level, minimal: c.minimal });
        if (result.markdown === null) failures.push(`${c.md_file} (${label}): ${result.status}: ${result.message}`);
        else if (result.status !== 'exact') failures.push(`${c.md_file} (${label}): ${result.status}`);
        else if (!sameBytes(new TextEncoder().encode(result.markdown), expected))
          failures.push(`${c.md_file} (${label}): bytes differ`);
      }
    }
    assert(failures.length === 0, failures.join('\n'));
  });

  it('renders every lossy golden (6) as a reconstruction that names what is missing', async () => {
    const cases = await fixtureManifest<MarkdownCase[]>('agent-history/markdown');
    const lossy = cases.filter((c) => c.parity === 'lossy');
    assert(lossy.length === 6, `found ${lossy.length} lossy cases, expected 6`);
    for (const c of lossy) {
      const result = await agentHistoryMarkdown(await markdownFolderBytes(c.fixture), {
        level: c.level,
        minimal: c.minimal,
      });
      assert(result.status === 'reconstructed', `${c.md_file}: ${result.status}`);
      assert(result.missing.length > 0, `${c.md_file}: nothing named missing`);
    }
  });
});
