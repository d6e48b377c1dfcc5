/**
 * Event-loop timing: yielding to the event loop (a macrotask, not a microtask) from a loop that
 * reads a stream, and the clock that says when a loop has worked long enough to yield.
 *
 * A reader whose chunks are already queued gets each one as a microtask, so it can run for the
 * whole input without letting the event loop turn. Work that other threads finished meanwhile
 * then waits: node:zlib inflates on the thread pool, but its results, and the start of its next
 * slice, come back only as event-loop callbacks (in the CLI the parser sat idle about 65 ms over
 * a 56 MB bundle, waiting on slices that could have been started long before); and a timer-driven
 * abort (a Cancel click) cannot fire.
 * @module
 */

/**
 * Resolves on a later turn of the event loop, after the I/O callbacks already pending. A
 * `MessageChannel` message (everywhere the core runs: browsers, Node, Deno, workerd): unlike
 * `setTimeout(…, 0)`, no clamping to a millisecond or more.
 * @example
 * await nextTurn();
 */
export function nextTurn(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Monotonic milliseconds where available (workerd freezes Date during a request).
 * @example
 * const started = now();
 * if (now() - started > 50) await nextTurn();
 */
export function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}
