// pumpThrough (src/stream/pump.ts) stands in for pipeThrough in the core: same chunks, and
// pipeThrough's rules for errors and cancellation in both directions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pumpThrough } from '../../src/stream/pump.ts';

const doubler = (): TransformStream<number, number> =>
  new TransformStream({ transform: (chunk, controller) => controller.enqueue(chunk * 2) });

function sourceOf(
  chunks: number[],
  end: { error?: Error } = {},
): { stream: ReadableStream<number>; cancelled: Promise<unknown> } {
  let onCancel: (reason: unknown) => void = () => undefined;
  const cancelled = new Promise<unknown>((resolve) => (onCancel = resolve));
  const stream = new ReadableStream<number>({
    pull(controller) {
      const next = chunks.shift();
      if (next !== undefined) controller.enqueue(next);
      else if (end.error) controller.error(end.error);
      else controller.close();
    },
    cancel: (reason) => onCancel(reason),
  });
  return { stream, cancelled };
}

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<T>) out.push(chunk);
  return out;
}

test('every chunk goes through the transform, in order, and the end closes the output', async () => {
  const { stream } = sourceOf([1, 2, 3, 4]);
  assert.deepEqual(await readAll(pumpThrough(stream, doubler())), [2, 4, 6, 8]);
});

test('a source error errors the output with the same error, after the chunks before it', async () => {
  const failure = new Error('source broke');
  const output = pumpThrough(sourceOf([1, 2], { error: failure }).stream, doubler());
  const reader = output.getReader();
  assert.deepEqual(await reader.read(), { done: false, value: 2 });
  assert.deepEqual(await reader.read(), { done: false, value: 4 });
  await assert.rejects(reader.read(), (error) => error === failure);
});

test('a transform that throws errors the output and cancels the source with its error', async () => {
  const failure = new Error('limit');
  const { stream, cancelled } = sourceOf([1, 2, 3, 4, 5]);
  const output = pumpThrough(
    stream,
    new TransformStream<number, number>({
      transform(chunk, controller) {
        if (chunk === 3) throw failure;
        controller.enqueue(chunk);
      },
    }),
  );
  await assert.rejects(readAll(output), (error) => error === failure);
  assert.equal(await cancelled, failure);
});

test('cancelling the output cancels the source at once, even while a source read is pending', async () => {
  let onCancel: (reason: unknown) => void = () => undefined;
  const cancelled = new Promise<unknown>((resolve) => (onCancel = resolve));
  // A source that never sends anything (a stalled upload).
  const stalled = new ReadableStream<number>({
    pull: () => new Promise(() => undefined),
    cancel: (reason) => onCancel(reason),
  });
  const output = pumpThrough(stalled, doubler());
  const reason = new Error('enough');
  await output.cancel(reason);
  assert.equal(await cancelled, reason);
});
