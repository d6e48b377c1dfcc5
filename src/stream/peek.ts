/**
 * Look at the first bytes of a stream without consuming them: used to recognise gzip by its
 * magic and to detect the format from the first decompressed bytes, reading the input once.
 * @module
 */
import { concatBytes } from '../encoding/bytes.ts';

export interface Peeked {
  /** The first bytes read (at least `count` unless the stream ended or failed first; may be more). */
  readonly bytes: Uint8Array;
  /** The error met while peeking, if any; `stream` errors with it after replaying `bytes`. */
  readonly problem?: unknown;
  /** Every byte of the original stream again, starting with the peeked ones. Read it once. */
  readonly stream: ReadableStream<Uint8Array>;
}

/**
 * Reads whole chunks from `stream` until at least `count` bytes are seen (or it ends or fails),
 * then hands back those bytes and a stream that replays them followed by the rest.
 * Never rejects: a read error is kept in `problem` and surfaces from `stream`.
 * @example
 * const { bytes, stream } = await peek(body, 2);
 * const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
 */
export async function peek(stream: ReadableStream<Uint8Array>, count: number): Promise<Peeked> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let done = false;
  let problem: unknown;
  try {
    while (length < count) {
      const result = await reader.read();
      if (result.done) {
        done = true;
        break;
      }
      if (result.value.byteLength === 0) continue;
      chunks.push(result.value);
      length += result.value.byteLength;
    }
  } catch (error) {
    problem = error;
  }
  const bytes = concatBytes(chunks);
  return {
    bytes,
    ...(problem === undefined ? {} : { problem }),
    stream: replay(chunks, reader, done, problem),
  };
}

const EMPTY = new Uint8Array(0);

/** A stream that yields `buffered` first, then the rest of `reader` (or its stored outcome). */
function replay(
  buffered: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
  done: boolean,
  problem: unknown,
): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index < buffered.length) {
        controller.enqueue(buffered[index]!);
        buffered[index++] = EMPTY; // let the chunk be collected once handed on
        return;
      }
      if (problem !== undefined) {
        controller.error(problem);
        return;
      }
      if (done) {
        controller.close();
        return;
      }
      try {
        const result = await reader.read();
        if (result.done) controller.close();
        else controller.enqueue(result.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}
