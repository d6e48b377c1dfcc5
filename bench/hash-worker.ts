// workerd side of hash.bench.ts: `GET /?method=…&size=…&reps=…` hashes and answers; the bench
// times the round trip (workerd's clock does not advance while a request computes).
import { BULK_DIGEST_MIN_BYTES } from '../src/crypto/bulk-digest.ts';
import { bufferOf, run, type Method } from './hash-measure.ts';

const buffers = new Map<number, Uint8Array>();

export default {
  async fetch(request: Request): Promise<Response> {
    const query = new URL(request.url).searchParams;
    const size = Number(query.get('size'));
    if (!buffers.has(size)) buffers.set(size, bufferOf(size));
    const sink = await run(query.get('method') as Method, buffers.get(size)!, Number(query.get('reps')));
    return Response.json({
      sink,
      webCrypto: typeof crypto.subtle?.digest === 'function',
      threshold: BULK_DIGEST_MIN_BYTES,
    });
  },
};
