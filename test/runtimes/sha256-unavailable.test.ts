// A host that refuses WebAssembly (a page whose CSP lacks 'wasm-unsafe-eval', a Workers bundle made
// without the `.wasm` module) is told what to do: every verifier reports `kit.sha256_unavailable`
// naming `options.sha256` and `initSha256`, disclosure answers the same reason, and the edge
// answers 503, never a 500 or `kit.internal_error`. The refusal is simulated by
// test/helpers/refused-wasm.ts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { discloseSubset, verify, type Report, type Sha256 } from '../../src/index.ts';
import { handleVerifyRequest } from '../../src/edge/index.ts';
import { refuseDefaultSha256 } from '../helpers/refused-wasm.ts';
import { PROJECT_ROOT } from '../helpers/fixtures.ts';

await refuseDefaultSha256();

const sample = (name: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(readFileSync(join(PROJECT_ROOT, 'demo/samples', name)));

function assertToldWhatToDo(report: Report): void {
  assert.equal(report.overall, 'error');
  assert.deepEqual(
    report.findings.filter((finding) => finding.severity === 'error').map((finding) => finding.code),
    ['kit.sha256_unavailable'],
  );
  const message = report.findings[0]!.message;
  assert.match(message, /Wasm code generation disallowed by embedder/);
  assert.match(message, /options\.sha256/);
  assert.match(message, /initSha256/);
}

const nodeSha256: Sha256 = {
  digest: (data) => new Uint8Array(createHash('sha256').update(data).digest()),
  create() {
    const hash = createHash('sha256');
    const hasher = {
      update(data: Uint8Array) {
        hash.update(data);
        return hasher;
      },
      digest: () => new Uint8Array(hash.digest()),
    };
    return hasher;
  },
};

test('both hashing formats report kit.sha256_unavailable when WebAssembly is refused', async () => {
  assertToldWhatToDo(await verify(sample('agentxchain-pass.json'), { name: 'agentxchain-pass.json' }));
  assertToldWhatToDo(await verify(sample('zaxy-signed-pass.json'), { name: 'zaxy-signed-pass.json' }));
});

test('options.sha256 is the way out: the same artifacts then pass', async () => {
  assert.equal((await verify(sample('agentxchain-pass.json'), { sha256: nodeSha256 })).overall, 'pass');
  assert.equal((await verify(sample('zaxy-signed-pass.json'), { sha256: nodeSha256 })).overall, 'pass');
});

test('discloseSubset answers the same reason', async () => {
  const result = await discloseSubset(sample('zaxy-signed-pass.json'), [0]);
  assert.equal(result.ok, false);
  assert.ok(!result.ok && /options\.sha256/.test(result.reason) && /initSha256/.test(result.reason));
});

test('the edge answers 503 with the report, not 500', async () => {
  const response = await handleVerifyRequest(
    new Request('http://edge.test/?name=zaxy.json', { method: 'POST', body: sample('zaxy-signed-pass.json') }),
  );
  assert.equal(response.status, 503);
  assertToldWhatToDo((await response.json()) as Report);
});
