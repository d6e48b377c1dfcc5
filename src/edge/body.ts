/**
 * The request body as the core's input stream. The body is attacker-controlled and may be
 * endless, slow, or cut off: it is never buffered here (the core counts and limits it while
 * reading), and a transport failure becomes a `StreamProblem` (`input.unreadable`), which the
 * core reports as a finding instead of an internal error.
 * @module
 */
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
  const reader = stream.getReader();
  const seen: Uint8Array[] = [];
  let length = 0;
  let done = false;
  let problem: unknown;
  try {
    while (length < 2) {
      const result = await reader.read();
      if (result.done) {
        done = true;
        break;
      }
      seen.push(result.value);
      length += result.value.byteLength;
    }
  } catch (error) {
    problem = error;
  }
  const first = seen.flatMap((chunk) => [...chunk.subarray(0, 2)]).slice(0, 2);
  const gzip = first[0] === 0x1f && first[1] === 0x8b;
  let index = 0;
  const replayed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index < seen.length) controller.enqueue(seen[index++]!);
      else if (problem !== undefined) controller.error(problem);
      else if (done) controller.close();
      else {
        try {
          const result = await reader.read();
          if (result.done) controller.close();
          else controller.enqueue(result.value);
        } catch (error) {
          controller.error(error);
        }
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
    },
  });
  return { gzip, stream: replayed };
}
