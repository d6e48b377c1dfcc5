/**
 * The edge worker's HTTP answer (docs/architecture.md, 'Edge worker'): a web-standard `Request` in,
 * the JSON report out. Runtime-neutral (Workers, Deno, Node's fetch types); makes no network
 * requests. The request body is attacker-controlled and may be huge, slow or endless: it is
 * streamed into the core, which counts it against the body limit while reading, so a 413 goes out
 * before an oversized body has arrived.
 * @module
 */
import { verify } from '../verify.ts';
import type { FindingCode } from '../codes.ts';
import { beginVerification, finishVerification } from '../verifier-lifecycle.ts';
import { RequestBody, startsWithGzipMagic } from './body.ts';
import { DEFAULT_EDGE_LIMITS, DEFAULT_MAX_BODY_BYTES, DEFAULT_LINGER_MS, type EdgeOptions } from './options.ts';
import { isRefusal, readVerifyParams } from './request.ts';
import {
  PREFLIGHT_HEADERS,
  corsHeaders,
  errorResponse,
  jsonResponse,
  lingeringResponse,
  statusForReport,
  textResponse,
} from './response.ts';
import { USAGE } from './usage.ts';
import type { Limits } from '../limits.ts';
import type { Report } from '../report.ts';

/**
 * Answers one HTTP request: `POST` verifies the body, `GET`/`HEAD` describe the endpoint,
 * `OPTIONS` answers a CORS preflight when `options.cors` is set; any other method is 405.
 * The request path is not examined, so the handler can be mounted on any route.
 * @throws TypeError when `options` are misconfigured (operator error, not client input).
 * @example
 * export default { fetch: (request: Request) => handleVerifyRequest(request, { maxBodyBytes: 32 << 20 }) };
 */
export async function handleVerifyRequest(request: Request, options: EdgeOptions = {}): Promise<Response> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0)
    throw new TypeError('options.maxBodyBytes must be a positive integer');
  const lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
  if (!Number.isSafeInteger(lingerMs) || lingerMs < 0)
    throw new TypeError('options.lingerMs must be a non-negative integer');
  const upload = request.body === null ? undefined : new RequestBody(request.body);
  let response: Response;
  try {
    response = await answer(request, options, maxBodyBytes, upload);
  } catch (error) {
    await upload?.discard();
    throw error;
  }
  if (upload === undefined || !upload.unread) return response;
  // Answered before the upload ended (a refusal, a limit): keep reading the rest while the answer
  // goes out, so the client is not reset before it can read it (see RequestBody).
  const declaredLength = Number(request.headers.get('content-length') ?? Number.NaN);
  const maxBytes = Number.isSafeInteger(declaredLength) && declaredLength >= 0 ? declaredLength : maxBodyBytes;
  return lingeringResponse(response, () => upload.linger({ maxBytes, maxMs: lingerMs }));
}

/** The answer to `request`, reading the body from `upload` when it needs to. */
async function answer(
  request: Request,
  options: EdgeOptions,
  maxBodyBytes: number,
  upload: RequestBody | undefined,
): Promise<Response> {
  const cors = corsHeaders(options.cors, request.headers.get('origin'));
  if (request.method === 'GET' || request.method === 'HEAD') {
    return textResponse(200, request.method === 'GET' ? USAGE : '', cors);
  }
  if (request.method === 'OPTIONS' && options.cors)
    return new Response(null, { status: 204, headers: { ...cors, ...PREFLIGHT_HEADERS } });
  if (request.method !== 'POST') {
    const allow = options.cors ? 'GET, HEAD, POST, OPTIONS' : 'GET, HEAD, POST';
    return errorResponse(
      405,
      'method_not_allowed',
      `${request.method} is not supported: POST the artifact, or GET for usage`,
      { ...cors, allow },
    );
  }

  const params = readVerifyParams(request);
  if (isRefusal(params)) return errorResponse(params.status, params.error, params.message, cors);
  const limits = edgeLimits(options, maxBodyBytes);

  // Content-Length first: refuse a declared oversize body without verifying a byte of it.
  const declaredLength = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isSafeInteger(declaredLength) && declaredLength > limits.maxInputBytes) {
    const message = `request body of ${declaredLength} bytes (Content-Length) is larger than the limit (${limits.maxInputBytes} bytes)`;
    return reportResponse(await refusedReport(params.name, 'limit.input_bytes', message), cors);
  }

  let body = upload?.stream ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  if (params.declaredGzip) {
    const peeked = await startsWithGzipMagic(body);
    body = peeked.stream;
    if (!peeked.gzip) {
      return reportResponse(
        await refusedReport(
          params.name,
          'gzip.not_gzip',
          'Content-Encoding: gzip, but the body does not start with the gzip magic 1f 8b',
        ),
        cors,
        400,
      );
    }
  }

  try {
    const report = await verify(body, {
      kind: params.kind,
      ...(params.expectPublicKey === undefined ? {} : { expectPublicKey: params.expectPublicKey }),
      name: params.name,
      strict: params.strict,
      limits,
      ...(options.sha256 ? { sha256: options.sha256 } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return reportResponse(report, cors);
  } catch (error) {
    // Hostile data never throws out of the core; only parameters it rejects as misuse do.
    if (error instanceof TypeError) return errorResponse(400, 'bad_request', error.message, cors);
    throw error;
  }
}

/** The core limits of one request: the edge's defaults, the options' own, and the body cap. */
function edgeLimits(options: EdgeOptions, maxBodyBytes: number): Partial<Limits> & { maxInputBytes: number } {
  return {
    ...DEFAULT_EDGE_LIMITS,
    ...options.limits,
    maxInputBytes: Math.min(options.limits?.maxInputBytes ?? Infinity, maxBodyBytes),
  };
}

function reportResponse(report: Report, cors: Record<string, string>, status = statusForReport(report)): Response {
  return jsonResponse(status, report, cors);
}

/** A report for a request refused before verification (nothing read, nothing verified). */
async function refusedReport(name: string, code: FindingCode, message: string): Promise<Report> {
  const context = await beginVerification(new Uint8Array(0), { name });
  context.collector.add(code, '$', message);
  return finishVerification(context, { format: null, kind: null, checked: {} });
}
