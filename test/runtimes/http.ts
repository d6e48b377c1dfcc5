// Raw HTTP for the runtime tests, where fetch cannot express the case: a body that is sent
// slowly and never finished, or a client that disappears mid-upload.
import { request as httpRequest, type IncomingMessage, type ClientRequest } from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/**
 * Starts a POST and returns the request (to write to, slowly), `answered`, which resolves when
 * the answer's status line arrives, whether or not the body was finished, and the whole
 * `response`. Write errors after the answer (the server closed its side) are ignored.
 */
export function openUpload(
  url: string,
  headers: Record<string, string | number> = {},
): { request: ClientRequest; answered: Promise<void>; response: Promise<RawResponse> } {
  const request = httpRequest(url, { method: 'POST', headers });
  const answered = new Promise<void>((resolve) => request.on('response', () => resolve()));
  const response = new Promise<RawResponse>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (message) => {
      const chunks: Buffer[] = [];
      message.on('data', (chunk: Buffer) => chunks.push(chunk));
      message.on('error', reject);
      message.on('end', () =>
        resolve({
          status: message.statusCode ?? 0,
          headers: message.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
  });
  response.catch(() => undefined);
  return { request, answered, response };
}

/**
 * Writes `bytes` in `chunkBytes` pieces, `delayMs` apart, until all is sent or `answered`
 * settles: a server that has answered may stop reading, and a write then never completes.
 * @returns how many bytes were handed to the socket
 */
export async function trickle(
  request: ClientRequest,
  bytes: Uint8Array,
  chunkBytes: number,
  delayMs: number,
  answered?: Promise<unknown>,
): Promise<number> {
  let done = false;
  const stopped = (answered ?? new Promise<never>(() => undefined)).then(
    () => (done = true),
    () => (done = true),
  );
  let sent = 0;
  while (sent < bytes.byteLength && !done && !request.destroyed) {
    const chunk = bytes.subarray(sent, Math.min(bytes.byteLength, sent + chunkBytes));
    await Promise.race([new Promise<void>((resolve) => request.write(chunk, () => resolve())), stopped]);
    if (done) break;
    sent += chunk.byteLength;
    if (delayMs > 0) await Promise.race([new Promise((resolve) => setTimeout(resolve, delayMs)), stopped]);
  }
  return sent;
}

/** Rejects after `ms` so a hung server fails the test instead of stalling the run. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
