/**
 * `verify-export/edge`: verify uploaded artifacts in an edge worker (Cloudflare Workers /
 * workerd, Deno, or any runtime with web-standard `Request`/`Response`); see docs/architecture.md,
 * 'Edge worker'.
 * @module
 */
export { handleVerifyRequest } from './handler.ts';
export {
  DEFAULT_EDGE_LIMITS,
  DEFAULT_LINGER_MS,
  EDGE_REQUEST_BUDGET_BYTES,
  DEFAULT_MAX_BODY_BYTES,
  optionsFromEnv,
  type EdgeEnv,
  type EdgeOptions,
} from './options.ts';
export { statusForReport } from './response.ts';
