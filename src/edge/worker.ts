/**
 * Cloudflare Workers / workerd module: `export default { fetch }` around `handleVerifyRequest`.
 * SHA-256 comes from the `.wasm` module import (workerd cannot compile WASM from bytes); options
 * come from the Worker's `[vars]` (see `EdgeEnv`). Nothing runs at module top level: workerd
 * forbids timers and random values there.
 * @module
 */
import { loadSha256 } from '#sha256';
import { handleVerifyRequest } from './handler.ts';
import { optionsFromEnv, type EdgeEnv } from './options.ts';

export default {
  /**
   * Answers one request (see `handleVerifyRequest`).
   * @example
   * await worker.fetch(new Request('http://x/', { method: 'POST', body: '{}' }), {});
   */
  async fetch(request: Request, env: EdgeEnv = {}): Promise<Response> {
    return handleVerifyRequest(request, { ...optionsFromEnv(env), sha256: await loadSha256() });
  },
};
