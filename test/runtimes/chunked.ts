// Runtime-neutral test helper (imported by Node tests and by the Deno runner): bytes as a stream
// of small chunks of unknown total size, as an HTTP body arrives. Small chunks make
// `bytes_read` comparable: "the whole input was read" then means the verifier asked for it all.

/** Bytes per chunk of the reference input. */
export const REFERENCE_CHUNK = 1024;

/** `bytes` as a stream of `chunkBytes`-byte chunks. */
export function chunkedStream(bytes: Uint8Array, chunkBytes = REFERENCE_CHUNK): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  });
}
