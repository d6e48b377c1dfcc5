// Artifacts of a chosen size for the edge's memory test and benchmark (test/runtimes/edge-memory.test.ts,
// bench/edge.bench.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../helpers/fixtures.ts';

/**
 * A real run export (real-fresh.json, which passes) with one added text file of `textBytes`
 * bytes, its `content_base64` and its `data`: about 2.4 × `textBytes` of JSON, and still a pass.
 */
export function exportWithFile(textBytes: number): Uint8Array<ArrayBuffer> {
  const document = JSON.parse(readFileSync(fixturePath('agentxchain', 'real-fresh.json'), 'utf8')) as {
    files: Record<string, unknown>;
  };
  const text = Buffer.alloc(Math.round(textBytes), 'abcdefghij\n');
  document.files['big.txt'] = {
    format: 'text',
    bytes: text.byteLength,
    sha256: createHash('sha256').update(text).digest('hex'),
    content_base64: text.toString('base64'),
    data: text.toString('latin1'),
  };
  return new Uint8Array(Buffer.from(JSON.stringify(document)));
}
