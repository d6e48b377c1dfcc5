/**
 * Cloudflare Workers / workerd module: `export default { fetch }` around `handleVerifyRequest`.
 * SHA-256 is the core's default, which a Workers bundle takes from the `.wasm` module import
 * (the `workerd` condition of `#sha256`; workerd cannot compile WASM from bytes), and a bundle
 * made without it answers 503 `kit.sha256_unavailable`; options come from the Worker's `[vars]`
 * (see `EdgeEnv`). Nothing runs at module top level: workerd forbids timers and random values there.
 * @module
 */
import { handleVerifyRequest } from './handler.ts';
import { optionsFromEnv, type EdgeEnv } from './options.ts';

export default {
  /**
   * Answers one request (see `handleVerifyRequest`).
   * @example
   * await worker.fetch(new Request('http://x/', { method: 'POST', body: '{}' }), {});
   */
  fetch(request: Request, env: EdgeEnv = {}): Promise<Response> {
    return handleVerifyRequest(request, optionsFromEnv(env));
  },
};
