// The WASM SHA-256 loaders in Node against node:crypto on random inputs: hash-wasm from its
// inlined bytes (the default), and initSha256 with the module extracted at build time, given as
// a WebAssembly.Module, as bytes, as a Response and as a URL (served on 127.0.0.1). workerd and
// Deno run the same comparison in their own tests.
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { describe, it } from 'node:test';
import { extractSha256Wasm } from '../../build/wasm.mjs';
import type { Sha256 } from '../../src/crypto/sha256.ts';
import { initSha256, loadSha256 } from '../../wasm/sha256.ts';
import { nodeEntryHasher, nodeSha256 } from '../../bin/node-sha256.ts';
import { merkleRoot } from '../../src/crypto/merkle.ts';

const SIZES = [0, 1, 55, 56, 63, 64, 65, 16383, 16384, 16385, 3 << 20];

function assertHashesLikeNode(sha256: Sha256): void {
  const sizes = [...SIZES, ...Array.from({ length: 40 }, () => randomInt(300_000))];
  for (const size of sizes) {
    const data = randomBytes(size);
    const expected = createHash('sha256').update(data).digest('hex');
    assert.equal(Buffer.from(sha256.digest(data)).toString('hex'), expected, `one-shot, ${size} bytes`);
    // Two hashers interleaved with one-shot digests: none may disturb another's state.
    const first = sha256.create();
    const second = sha256.create();
    let offset = 0;
    while (offset < size) {
      const next = Math.min(size, offset + 1 + randomInt(40_000));
      first.update(data.subarray(offset, next));
      second.update(data.subarray(offset, next));
      sha256.digest(data.subarray(0, 100));
      offset = next;
    }
    assert.equal(Buffer.from(first.digest()).toString('hex'), expected, `incremental, ${size} bytes`);
    assert.equal(Buffer.from(second.digest()).toString('hex'), expected, `second incremental, ${size} bytes`);
  }
}

describe("the CLI's node:crypto SHA-256", () => {
  it("hashes entries on its worker thread: createHash's leaves folded into merkleRoot, id mismatches, in call order, per array", async () => {
    const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    // Two `entries` arrays hashed at once must not mix.
    const arrays = [nodeEntryHasher(), nodeEntryHasher()];
    const leaves: Uint8Array[][] = [[], []];
    const expected: number[][] = [];
    const answers: ReturnType<ReturnType<typeof nodeEntryHasher>['add']>[] = [];
    for (let job = 0; job < 12; job++) {
      const array = job % 2;
      const count = job < 2 ? 0 : randomInt(1, 300);
      const messages = Array.from({ length: count }, () =>
        Buffer.concat([Buffer.from([0]), randomBytes(randomInt(0, 900))]),
      );
      const data = Buffer.concat(messages);
      const starts = new Uint32Array(count);
      const ends = new Uint32Array(count);
      const claims = new Uint8Array(64 * count);
      const claimed = new Uint8Array(count);
      const mismatched: number[] = [];
      let at = 0;
      messages.forEach((message, k) => {
        starts[k] = at;
        at += message.length;
        ends[k] = at;
        leaves[array]!.push(createHash('sha256').update(message).digest());
        const kind = randomInt(3); // 0: no claim, 1: right id, 2: wrong id
        if (kind === 0) return;
        claimed[k] = 1;
        const id = sha256Hex(message.subarray(1));
        claims.set(Buffer.from(kind === 1 ? id : id.toUpperCase()), 64 * k);
        if (kind === 2) mismatched.push(k);
      });
      expected.push(mismatched);
      answers.push(arrays[array]!.add(new Uint8Array(data), starts, ends, claims, claimed));
    }
    const results = await Promise.all(answers);
    results.forEach((answer, job) => {
      assert.ok(!('declined' in answer), `job ${job}: the CLI's hasher hands no batch back`);
      const { mismatched, ids } = answer;
      assert.deepEqual([...mismatched], expected[job], `job ${job}`);
      assert.equal(ids.length, 32 * mismatched.length);
    });
    for (const [array, hasher] of arrays.entries()) {
      const root = await hasher.root();
      assert.deepEqual(root, merkleRoot(leaves[array]!, nodeSha256), `array ${array}`);
    }
    assert.equal(await nodeEntryHasher().root(), undefined, 'no leaves, no root');
  });

  it('equals createHash, one-shot and incremental, with plain Uint8Array digests', () => {
    assertHashesLikeNode(nodeSha256);
    const digest = nodeSha256.digest(new Uint8Array([0x80, 0xff, 0x00]));
    assert.equal(Object.getPrototypeOf(digest), Uint8Array.prototype);
    assert.equal(Object.getPrototypeOf(nodeSha256.create().update(digest).digest()), Uint8Array.prototype);
  });
});

describe('WASM SHA-256 loaders in Node', () => {
  const moduleBytes = readFileSync(extractSha256Wasm());

  it('the default (hash-wasm, compiled from bytes) equals node:crypto', async () => {
    assertHashesLikeNode(await loadSha256());
  });

  it('initSha256(WebAssembly.Module) equals node:crypto and becomes the default', async () => {
    const sha256 = await initSha256(new WebAssembly.Module(moduleBytes));
    assertHashesLikeNode(sha256);
    assert.equal(await loadSha256(), sha256);
  });

  it('initSha256(bytes) and initSha256(Response) equal node:crypto', async () => {
    assertHashesLikeNode(await initSha256(new Uint8Array(moduleBytes)));
    assertHashesLikeNode(await initSha256(new Response(moduleBytes)));
  });

  it('initSha256(URL) fetches the module only when asked to', async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/wasm' }).end(moduleBytes);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address() as { port: number };
      assertHashesLikeNode(await initSha256(new URL(`http://127.0.0.1:${address.port}/sha256.wasm`)));
      assert.equal(requests, 1);
    } finally {
      server.close();
    }
  });

  it('rejects other sources and other modules with TypeError', async () => {
    await assert.rejects(initSha256('sha256.wasm' as never), TypeError);
    const empty = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]); // a valid module with no exports
    await assert.rejects(initSha256(empty), TypeError);
    await assert.rejects(initSha256(new Response('nope', { status: 404 })), TypeError);
    assertHashesLikeNode(await loadSha256()); // a failed init leaves the working default in place
  });
});
