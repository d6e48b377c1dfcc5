import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeBase64Lenient } from '../../src/encoding/base64.ts';

// Differential: Node's Buffer.from(s, 'base64') is the reference AgentXchain runs (docs/agentxchain.md §4.7).
const nodeDecode = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

test('decodes standard, url-safe and unpadded base64 as Node does', () => {
  for (const text of ['', 'aGk=', 'aGk', 'aGVsbG8gd29ybGQ=', '-_-_', '+/+/', 'YQ', 'YQ==', 'Y', 'YWJj', 'YWJjZA']) {
    assert.deepEqual(decodeBase64Lenient(text), nodeDecode(text), JSON.stringify(text));
  }
});

test('skips junk, stops at the first "=" and drops a lone trailing character', () => {
  const cases = [
    'aG k=',
    'a G\nk',
    'aGk=junk',
    'aG!*k',
    'YQ=YQ',
    '=aGk',
    'aGk\u00e9',
    'aGk\ud83d\ude00',
    'YQ\u0141\u0141',
    'YW\u01ffJj',
    'YWJjZ',
    'Y\tW\rJ\nj',
  ];
  for (const text of cases) assert.deepEqual(decodeBase64Lenient(text), nodeDecode(text), JSON.stringify(text));
});

test('matches Node on random strings over a base64-heavy alphabet', () => {
  const alphabet = 'ABCxyz019+/-_= \n\t!*.é\u0100\u0141\u01ff\ud83d\ude00';
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet.split('')), { maxLength: 40 }), (chars) => {
      const text = chars.join('');
      assert.deepEqual(decodeBase64Lenient(text), nodeDecode(text));
    }),
    { numRuns: 2000 },
  );
});

test('round-trips random bytes encoded by Node', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const encoded = Buffer.from(bytes).toString('base64');
      assert.deepEqual(decodeBase64Lenient(encoded), bytes);
      assert.deepEqual(decodeBase64Lenient(Buffer.from(bytes).toString('base64url')), bytes);
    }),
  );
});
