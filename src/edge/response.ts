/**
 * HTTP answers of the edge handler (docs/architecture.md, 'Edge worker'): the status a report maps
 * to, JSON and text responses, and opt-in CORS headers.
 * @module
 */
import type { FindingCode } from '../codes.ts';
import type { Report } from '../report.ts';

/** Limits that mean "the upload is too large for this endpoint": answered with 413. */
const TOO_LARGE: ReadonlySet<FindingCode> = new Set<FindingCode>([
  'limit.input_bytes',
  'limit.buffered_bytes',
  'limit.retained_bytes',
  'limit.line_bytes',
  'limit.decompressed_bytes',
  'limit.compression_ratio',
]);

/**
 * The status for a report: 200 pass, 422 verification failed, 413 a size limit was reached,
 * 503 the host gave the kit no SHA-256 (a deployment without the `.wasm` module), 500 the kit itself
 * failed, 400 anything else unreadable or not a known format.
 * @example
 * statusForReport(report); // 200 when report.overall === 'pass'
 */
export function statusForReport(report: Report): number {
  if (report.overall === 'pass') return 200;
  if (report.overall === 'fail') return 422;
  const codes = report.findings.filter((finding) => finding.severity === 'error').map((finding) => finding.code);
  if (codes.some((code) => TOO_LARGE.has(code))) return 413;
  if (codes.includes('kit.sha256_unavailable')) return 503;
  if (codes.includes('kit.internal_error')) return 500;
  return 400;
}

/**
 * Headers as `new Headers(…)` takes them (the DOM library's `HeadersInit`, spelled so that a
 * project typed without the DOM library, Node's types only, can read these declarations).
 */
type HeaderFields = ConstructorParameters<typeof Headers>[0];

/** Base headers of every answer: never cached (reports describe one upload), never sniffed. */
function baseHeaders(contentType: string, extra: HeaderFields = {}): Headers {
  const headers = new Headers(extra);
  headers.set('content-type', contentType);
  headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  return headers;
}

/** A JSON answer (the report, or `{ error, message }` for misuse). */
export function jsonResponse(status: number, body: unknown, headers: HeaderFields = {}): Response {
  return new Response(`${JSON.stringify(body)}\n`, {
    status,
    headers: baseHeaders('application/json; charset=utf-8', headers),
  });
}

/**
 * `response` with its body sent at once but ended only when the lingering `linger` starts (at
 * once) has settled (see `RequestBody.linger`): workerd refuses to read the request once the
 * answer is complete, so the rest of the upload can only be read while the answer is still open.
 * A body-less answer (HEAD) cannot stay open: it is given after the lingering instead.
 */
export async function lingeringResponse(response: Response, linger: () => Promise<void>): Promise<Response> {
  const body = response.body;
  if (body === null) {
    await linger();
    return response;
  }
  const lingering = linger();
  const reader = body.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) return controller.enqueue(value);
      await lingering;
      controller.close();
    },
  });
  return new Response(stream, { status: response.status, headers: response.headers });
}

/** A misuse answer (405, 415, 400 for bad parameters): not a report, since nothing was verified. */
export function errorResponse(status: number, error: string, message: string, headers: HeaderFields = {}): Response {
  return jsonResponse(status, { error, message }, headers);
}

/** A plain-text answer (the usage text of `GET /`). */
export function textResponse(status: number, text: string, headers: HeaderFields = {}): Response {
  return new Response(text, { status, headers: baseHeaders('text/plain; charset=utf-8', headers) });
}

/**
 * CORS headers for `origin` under `cors` (off unless configured). A list echoes only an allowed
 * origin; `true` answers `*` (no credentials are ever involved).
 */
export function corsHeaders(
  cors: boolean | readonly string[] | undefined,
  origin: string | null,
): Record<string, string> {
  if (cors === undefined || cors === false) return {};
  if (cors === true) return { 'access-control-allow-origin': '*' };
  if (origin !== null && cors.includes(origin)) return { 'access-control-allow-origin': origin, vary: 'Origin' };
  return { vary: 'Origin' };
}

/** The extra headers of a CORS preflight answer. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Content-Encoding, X-Expect-Public-Key',
  'access-control-max-age': '600',
});
