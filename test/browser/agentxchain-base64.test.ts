/// <reference types="mocha" />
// The AgentXchain base64 fast path in Chromium, which has the platform's decoder
// (`Uint8Array.prototype.setFromBase64`): every `content_base64` token decodes to what the kit's
// definition of Node's lenient decoding (`decodeBase64Lenient`) gives, with the platform's decoder
// and without it; plain contents up to 1 MiB of text really are decoded by it; and every AgentXchain
// fixture gives the same report either way. (Node 20, where the unit tests run, has no such decoder.)
import fc from 'fast-check';
import { decodeBase64Lenient } from '../../src/encoding/base64.ts';
import { decodeContentBase64Token } from '../../src/formats/agentxchain/base64-fast-path.ts';
import { verifyAgentxchain } from '../../src/index.ts';
import { comparable } from '../runtimes/bulk-digest-cases.ts';
import { fixtureBytes, fixtureManifest } from './fixtures.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

type Decode = (this: Uint8Array, text: string) => { read: number; written: number };
const prototype = Uint8Array.prototype as Uint8Array & { setFromBase64?: Decode | undefined };
const platformDecode = prototype.setFromBase64;

/** Runs `body` with the platform's decoder counted, or (`'missing'`) as on a platform without it. */
async function withDecoder<T>(mode: 'counted' | 'missing', body: () => T | Promise<T>): Promise<[T, number]> {
  let calls = 0;
  prototype.setFromBase64 =
    mode === 'missing'
      ? undefined
      : function (this: Uint8Array, text: string) {
          calls++;
          return platformDecode!.call(this, text);
        };
  try {
    return [await body(), calls];
  } finally {
    prototype.setFromBase64 = platformDecode;
  }
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** What the platform's decoder treats apart: padding, whitespace, base64url, junk, beyond ASCII. */
const oddChars = ['=', '==', '-', '_', ' ', '\t', '\n', '\f', '\r', '!', 'é', '\u0080', '\u00ff', '\u0100', '\\'];

/** Mostly-valid base64 with odd characters sprinkled in, or the encoding of random bytes. */
const base64ish = fc.oneof(
  fc
    .array(
      fc.oneof(
        { weight: 30, arbitrary: fc.constantFrom(...alphabet) },
        { weight: 1, arbitrary: fc.constantFrom(...oddChars) },
      ),
      { maxLength: 200 },
    )
    .map((chars) => chars.join('')),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => btoa(String.fromCharCode(...bytes))),
);

/** The JSON token of `text` (a writer may escape '/'), at any byte offset in its buffer. */
function tokenOf(text: string, escapeSlash: boolean, offset: number): Uint8Array {
  const json = JSON.stringify(text);
  const encoded = new TextEncoder().encode(escapeSlash ? json.replaceAll('/', '\\/') : json);
  const token = new Uint8Array(new ArrayBuffer(encoded.byteLength + offset), offset);
  token.set(encoded);
  return token;
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);

describe('AgentXchain base64 with the platform decoder (Chromium)', () => {
  it('Chromium has setFromBase64, and plain contents are decoded by it', async () => {
    assert(typeof platformDecode === 'function', 'Chromium should have Uint8Array.prototype.setFromBase64');
    const bytes = new Uint8Array(3000).map((_, i) => (i * 7919) >>> 3);
    const text = btoa(String.fromCharCode(...bytes));
    for (const transient of [false, true]) {
      const [decoded, calls] = await withDecoder('counted', () =>
        decodeContentBase64Token(tokenOf(text, false, 0), undefined, transient),
      );
      assert(same(decoded, bytes), `transient ${transient}: decoded bytes`);
      assert(calls === 1, `transient ${transient}: the platform's decoder was called ${calls} times`);
    }
    // A content of more than 1 MiB of text is decoded by the kit: the platform's decoder needs it as
    // a string beside the bytes, memory an edge worker's request does not have to spare.
    const large = new Uint8Array(900_000).map((_, i) => (i * 2654435761) >>> 24);
    let binary = '';
    for (let i = 0; i < large.length; i += 0x8000) binary += String.fromCharCode(...large.subarray(i, i + 0x8000));
    const [decoded, calls] = await withDecoder('counted', () =>
      decodeContentBase64Token(tokenOf(btoa(binary), false, 0), undefined, true),
    );
    assert(same(decoded, large), 'a large content: decoded bytes');
    assert(calls === 0, `a large content: the platform's decoder was called ${calls} times`);
  });

  it('any token decodes as the lenient definition says, with the platform decoder and without', async () => {
    for (const mode of ['counted', 'missing'] as const) {
      await withDecoder(mode, () =>
        fc.assert(
          fc.property(base64ish, fc.boolean(), fc.nat(7), fc.boolean(), (text, escapeSlash, offset, transient) => {
            // Within Latin-1 the kit's definition is Node's (test/unit/agentxchain-base64.test.ts).
            fc.pre([...text].every((c) => c.charCodeAt(0) < 256));
            const decoded = decodeContentBase64Token(tokenOf(text, escapeSlash, offset), undefined, transient);
            assert(same(decoded, decodeBase64Lenient(text)), `${mode}: ${JSON.stringify(text)}`);
          }),
          { numRuns: 3000 },
        ),
      );
    }
  });

  it('every AgentXchain fixture gives the same report with the platform decoder and without', async () => {
    const manifest = await fixtureManifest<{ cases: { file: string }[] }>('agentxchain');
    const different: string[] = [];
    let platformCalls = 0;
    for (const { file } of manifest.cases) {
      const bytes = await fixtureBytes(`agentxchain/${file}`);
      const [withPlatform, calls] = await withDecoder('counted', () => verifyAgentxchain(bytes, { name: file }));
      platformCalls += calls;
      const [without] = await withDecoder('missing', () => verifyAgentxchain(bytes, { name: file }));
      if (comparable(withPlatform) !== comparable(without)) different.push(file);
    }
    assert(manifest.cases.length > 100, `${manifest.cases.length} fixtures`);
    assert(different.length === 0, `reports differ: ${different.join(', ')}`);
    assert(platformCalls > 1000, `the platform's decoder decoded ${platformCalls} contents`);
  });
});
