/**
 * Options of the edge handler (docs/architecture.md, 'Edge worker') and how a deployment's
 * environment sets them.
 * @module
 */
import type { Sha256 } from '../crypto/sha256.ts';
import type { Limits } from '../limits.ts';
import { parseLimitText } from '../limit-text.ts';

export interface EdgeOptions {
  /**
   * Largest request body accepted, in bytes (default 100 MiB, the smallest Cloudflare plan's
   * request limit). Checked against `Content-Length` first, then counted while streaming.
   */
  readonly maxBodyBytes?: number;
  /**
   * Core limits (`DEFAULT_EDGE_LIMITS` otherwise, then `DEFAULT_LIMITS`); `maxInputBytes` is
   * capped by `maxBodyBytes`.
   */
  readonly limits?: Partial<Limits>;
  /** SHA-256 to verify with (the Workers entry passes the imported `.wasm` module's). */
  readonly sha256?: Sha256;
  /**
   * Cross-origin access, off by default: `true` allows any origin (`*`); a list allows exactly
   * those origins (echoed back, with `Vary: Origin`).
   */
  readonly cors?: boolean | readonly string[];
  /**
   * How long to keep reading, and discarding, an upload answered before its end (default
   * `DEFAULT_LINGER_MS`), up to its declared Content-Length (without one, `maxBodyBytes` more
   * bytes); 0 closes at once, and a client still sending may then lose the answer.
   */
  readonly lingerMs?: number;
}

/**
 * The edge's default `limits.maxRetainedBytes`: a Zaxy document keeps at most this much of what it
 * has read, so a signed bundle of any size fits Workers' 128 MB per isolate (the 56 MB,
 * 100k-entry benchmark bundle verifies in workerd under an 8 MB V8 old space). Subsets are read
 * twice, so larger ones (over about 2,000 disclosed entries) are refused with 413.
 */
export const DEFAULT_EDGE_RETAINED_BYTES = 4 * 1024 * 1024;

/**
 * What one request may hold at most under the edge's default limits, in bytes: Workers give an
 * isolate 128 MB, shared by the requests it serves at once. `npm run bench -- edge` measures it
 * (the workerd process's peak above idle, workerd's own share of a request included).
 */
export const EDGE_REQUEST_BUDGET_BYTES = 32 * 1024 * 1024;

/**
 * The core limits the edge uses unless `EdgeOptions.limits` says otherwise, chosen so that no
 * request outgrows `EDGE_REQUEST_BUDGET_BYTES`: a whole document (AgentXchain) is held with its
 * parsed skeleton and one file's decoded content, a line (NDJSON) with its parsed value, so each
 * is capped well below the budget; a Zaxy document keeps `DEFAULT_EDGE_RETAINED_BYTES`. Larger
 * inputs are refused with 413 and the `limit.*` finding that stopped them.
 */
export const DEFAULT_EDGE_LIMITS: Readonly<Partial<Limits>> = Object.freeze({
  maxBufferedBytes: 8 * 1024 * 1024,
  maxRetainedBytes: DEFAULT_EDGE_RETAINED_BYTES,
  maxLineBytes: 8 * 1024 * 1024,
});

/** Default of `EdgeOptions.maxBodyBytes`. */
export const DEFAULT_MAX_BODY_BYTES = 100 * 1024 * 1024;

/**
 * Default of `EdgeOptions.lingerMs`: how long the handler keeps reading, and discarding, an
 * upload it answered before its end (see `EdgeOptions.lingerMs`): long enough for a
 * client that sends at full speed, short enough that a slow or endless one cannot hold the worker.
 */
export const DEFAULT_LINGER_MS = 5_000;

/** Environment variables a deployment may set (Workers `[vars]`, Deno `--allow-env`). */
export interface EdgeEnv {
  /** `maxBodyBytes`, a positive integer. */
  readonly MAX_BODY_BYTES?: string;
  /** `limits.maxBufferedBytes`: largest whole JSON document held in memory. */
  readonly MAX_BUFFERED_BYTES?: string;
  /** `limits.maxRetainedBytes`: how much of a Zaxy document is kept for a second reading. */
  readonly MAX_RETAINED_BYTES?: string;
  /** `*` for any origin, or a comma-separated list of allowed origins; unset = no CORS. */
  readonly CORS_ORIGINS?: string;
}

/**
 * Reads `EdgeOptions` from environment strings; unset or malformed values keep the defaults
 * (a typo must not silently lift a limit, so a bad number is ignored rather than parsed loosely).
 * @example
 * optionsFromEnv({ MAX_BODY_BYTES: '1048576', CORS_ORIGINS: 'https://example.org' });
 * // { maxBodyBytes: 1048576, cors: ['https://example.org'] }
 */
export function optionsFromEnv(env: EdgeEnv): EdgeOptions {
  const maxBodyBytes = positiveInteger(env.MAX_BODY_BYTES);
  const maxBufferedBytes = positiveInteger(env.MAX_BUFFERED_BYTES);
  const maxRetainedBytes = positiveInteger(env.MAX_RETAINED_BYTES);
  const limits = {
    ...(maxBufferedBytes === undefined ? {} : { maxBufferedBytes }),
    ...(maxRetainedBytes === undefined ? {} : { maxRetainedBytes }),
  };
  const origins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return {
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    ...(Object.keys(limits).length === 0 ? {} : { limits }),
    ...(origins.length === 0 ? {} : { cors: origins.includes('*') ? true : origins }),
  };
}

/**
 * A byte count as the CLI's limit flags read it (`64MiB` too); the blanks around a value typed
 * into a dashboard are ignored.
 */
function positiveInteger(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseLimitText(text.trim(), { units: true });
}
