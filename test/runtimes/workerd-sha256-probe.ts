// A probe Worker for the runtime tests. `POST /sigver` runs a Zaxy signature-vector file through
// the kit's signature verifier. Any other path hashes the request body with the SHA-256 the
// workerd loader gives (the imported .wasm module), one-shot and incrementally at the `cuts`
// offsets (interleaved with a second hasher to prove hashers do not share state), plus WebCrypto's.
import { loadSha256 } from '../../wasm/sha256.workerd.ts';
import { toHex } from '../../src/encoding/hex.ts';
import { sigverMismatches } from './sigver.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === '/sigver') return Response.json(await sigverMismatches(await request.json()));
    const sha256 = await loadSha256();
    const body = new Uint8Array(await request.arrayBuffer());
    const cuts = (new URL(request.url).searchParams.get('cuts') ?? '').split(',').filter(Boolean).map(Number);
    const hasher = sha256.create();
    const decoy = sha256.create();
    let start = 0;
    for (const cut of [...cuts, body.byteLength]) {
      hasher.update(body.subarray(start, cut));
      decoy.update(body.subarray(0, 7));
      start = cut;
    }
    return Response.json({
      oneShot: toHex(sha256.digest(body)),
      incremental: toHex(hasher.digest()),
      webCrypto: toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', body))),
    });
  },
};
