/**
 * Deno entry: serves `handleVerifyRequest` with `Deno.serve`.
 * `deno run --allow-net=127.0.0.1:8787 --allow-env src/edge/deno.ts` (LISTEN_HOST, default
 * 127.0.0.1; PORT, default 8787; MAX_BODY_BYTES, MAX_BUFFERED_BYTES, MAX_RETAINED_BYTES,
 * CORS_ORIGINS: read from the environment when allowed).
 * Deno compiles WASM from bytes, so the default SHA-256 loader works unchanged.
 * @module
 */
import { handleVerifyRequest } from './handler.ts';
import { optionsFromEnv, type EdgeEnv } from './options.ts';

/** The slice of the Deno namespace this entry uses (the core is typed for the web platform). */
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen?: (address: { hostname: string; port: number }) => void },
    handler: (request: Request) => Promise<Response>,
  ): { finished: Promise<void> };
};

const NAMES = [
  'LISTEN_HOST',
  'PORT',
  'MAX_BODY_BYTES',
  'MAX_BUFFERED_BYTES',
  'MAX_RETAINED_BYTES',
  'CORS_ORIGINS',
] as const;

/** Reads the environment, tolerating a run without `--allow-env` (then everything is default). */
function readEnv(): Partial<Record<(typeof NAMES)[number], string>> {
  const env: Partial<Record<(typeof NAMES)[number], string>> = {};
  for (const name of NAMES) {
    try {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    } catch {
      // PermissionDenied: keep the default.
    }
  }
  return env;
}

const env = readEnv();
const options = optionsFromEnv(env as EdgeEnv);
const port = Number(env.PORT ?? 8787);
Deno.serve(
  {
    hostname: env.LISTEN_HOST ?? '127.0.0.1',
    port: Number.isInteger(port) && port >= 0 && port < 65536 ? port : 8787,
    onListen: ({ hostname, port }) => console.log(`verify-export listening on http://${hostname}:${port}/`),
  },
  (request) => handleVerifyRequest(request, options),
);
