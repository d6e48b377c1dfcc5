/**
 * The request body as the core's input stream. The body is attacker-controlled and may be
 * endless, slow, or cut off: it is never buffered here (the core counts and limits it while
 * reading), and a transport failure becomes a `StreamProblem` (`input.unreadable`), which the
 * core reports as a finding instead of an internal error.
 * @module
 */
import { peek } from '../stream/peek.ts';
import { StreamProblem } from '../stream/problem.ts';

/**
 * Wraps `body` so read errors become `input.unreadable` problems and cancelling the result
 * cancels the request body.
 * @example
 * const stream = requestBodyStream(request.body ?? new ReadableStream());
 */
export function requestBodyStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        controller.error(new StreamProblem('input.unreadable', `the request body could not be read: ${reason}`));
        return;
      }
      if (result.done) controller.close();
      else controller.enqueue(result.value);
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}

/**
 * Reads the first two bytes of `stream` and tells whether they are the gzip magic `1f 8b`,
 * returning a stream that still yields every byte. Used only when the client declared
 * `Content-Encoding: gzip`, which is then a promise the body must keep.
 */
export async function startsWithGzipMagic(stream: ReadableStream<Uint8Array>): Promise<{ gzip: boolean; stream: ReadableStream<Uint8Array> }> {
  const peeked = await peek(stream, 2);
  return { gzip: peeked.bytes[0] === 0x1f && peeked.bytes[1] === 0x8b, stream: peeked.stream };
}
