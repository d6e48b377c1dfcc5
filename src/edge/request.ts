/**
 * Reads what a verification request asks for (docs/architecture.md, 'Edge worker'): query
 * parameters, the pinned key header, and whether the body's type and encoding are ones the kit can
 * read. Everything here is client-controlled; a malformed value answers 400/415, never a guess.
 * @module
 */
import type { FormatId } from '../report/types.ts';

/** What a valid request asks the core to do. */
export interface VerifyParams {
  readonly kind: FormatId | 'auto';
  readonly expectPublicKey?: string;
  /** `report.input`: `?name=`, else `request`. */
  readonly name: string;
  readonly strict: boolean;
  /** The client declared `Content-Encoding: gzip`: the body must then carry the gzip magic. */
  readonly declaredGzip: boolean;
}

/** A request the handler refuses before reading its body. */
export interface Refusal {
  readonly status: 400 | 415;
  readonly error: 'bad_request' | 'unsupported_media_type';
  readonly message: string;
}

const KINDS: readonly (FormatId | 'auto')[] = ['auto', 'agentxchain', 'zaxy', 'agent-history', 'codex-exec'];

/** Media types an artifact may be sent as (besides none, `*+json`, and the form type explained below). */
const MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'application/jsonlines',
  'application/gzip',
  'application/x-gzip',
  'application/octet-stream',
  'text/plain',
]);

/** Longest `name` accepted: it is only a label. */
const MAX_NAME_LENGTH = 1024;

/**
 * Validates a POST request's parameters and headers.
 * `application/x-www-form-urlencoded` (curl's default for `--data-binary`) is accepted, since
 * the body is read as raw bytes anyway; `multipart/form-data` is refused (415): the artifact
 * would be wrapped in form boundaries.
 * @example
 * readVerifyParams(new Request('http://h/?kind=zaxy', { method: 'POST' })); // { kind: 'zaxy', name: 'request', … }
 */
export function readVerifyParams(request: Request): VerifyParams | Refusal {
  const query = new URL(request.url).searchParams;
  const kind = query.get('kind') ?? 'auto';
  if (!(KINDS as readonly string[]).includes(kind)) {
    return badRequest(`kind must be one of ${KINDS.join(', ')}`);
  }
  const keyFromQuery = query.get('expect_public_key') ?? undefined;
  const keyFromHeader = request.headers.get('x-expect-public-key') ?? undefined;
  if (keyFromQuery !== undefined && keyFromHeader !== undefined && keyFromQuery.trim() !== keyFromHeader.trim()) {
    return badRequest('expect_public_key and X-Expect-Public-Key disagree');
  }
  const expectPublicKey = (keyFromQuery ?? keyFromHeader)?.trim();
  const name = query.get('name') ?? 'request';
  if (name.length === 0 || name.length > MAX_NAME_LENGTH)
    return badRequest(`name must be 1 to ${MAX_NAME_LENGTH} characters`);
  const strictText = query.get('strict') ?? 'false';
  if (!['1', 'true', '0', 'false'].includes(strictText)) return badRequest('strict must be 1, true, 0 or false');

  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (
    mediaType !== '' &&
    mediaType !== 'application/x-www-form-urlencoded' &&
    !MEDIA_TYPES.has(mediaType) &&
    !mediaType.endsWith('+json')
  ) {
    return unsupported(
      `Content-Type ${mediaType} is not accepted: send the artifact itself as the body (application/json, application/x-ndjson, application/gzip or application/octet-stream)`,
    );
  }
  const encodings = (request.headers.get('content-encoding') ?? '')
    .split(',')
    .map((encoding) => encoding.trim().toLowerCase())
    .filter((encoding) => encoding !== '' && encoding !== 'identity');
  if (encodings.length > 1 || (encodings.length === 1 && encodings[0] !== 'gzip' && encodings[0] !== 'x-gzip')) {
    return unsupported(`Content-Encoding ${encodings.join(', ')} is not supported (gzip only)`);
  }
  return {
    kind: kind as FormatId | 'auto',
    ...(expectPublicKey ? { expectPublicKey } : {}),
    name,
    strict: strictText === '1' || strictText === 'true',
    declaredGzip: encodings.length === 1,
  };
}

/** True for a refusal (as opposed to valid parameters). */
export function isRefusal(value: VerifyParams | Refusal): value is Refusal {
  return 'status' in value;
}

function badRequest(message: string): Refusal {
  return { status: 400, error: 'bad_request', message };
}

function unsupported(message: string): Refusal {
  return { status: 415, error: 'unsupported_media_type', message };
}
