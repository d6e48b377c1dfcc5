// Runtime-neutral generator of a well-formed codex-exec JSONL stream (one exec:begin, then
// exec:chunk events of ~1 KB), for uploads that must be large or endless without producing a
// finding per line: the only finding such a stream earns is the one under test (a limit), or
// at its end the missing exec:end.

const CORRELATION_ID = 'b582175f-f313-43ce-a964-7f5af0464ad8';
const DATA = 'lorem ipsum dolor sit amet '.repeat(37);
const encoder = new TextEncoder();

function beginLine(): string {
  return JSON.stringify({
    type: 'exec:begin',
    timestamp: '2026-11-22T01:36:37.731Z',
    payload: {
      attempt: 1,
      correlationId: CORRELATION_ID,
      command: 'cat big',
      args: [],
      cwd: '/tmp',
      sessionId: CORRELATION_ID,
      sandboxState: 'sandboxed',
      persisted: false,
    },
  });
}

function chunkLine(sequence: number): string {
  return JSON.stringify({
    type: 'exec:chunk',
    timestamp: '2026-11-22T01:36:37.741Z',
    payload: { attempt: 1, correlationId: CORRELATION_ID, stream: 'stdout', sequence, bytes: DATA.length, data: DATA },
  });
}

/** The first `lines` lines of the stream as bytes (exec:begin, then chunks). */
export function execLines(lines: number): Uint8Array {
  const out = [beginLine()];
  for (let sequence = 1; sequence < lines; sequence++) out.push(chunkLine(sequence));
  return encoder.encode(`${out.join('\n')}\n`);
}

/** An endless stream (or one of about `totalBytes`), generated as it is read. */
export function execStream(totalBytes = Number.POSITIVE_INFINITY): ReadableStream<Uint8Array> {
  let sent = 0;
  let sequence = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const lines = sequence === 0 ? [beginLine()] : [];
      for (let i = 0; i < 64; i++) lines.push(chunkLine(++sequence));
      const chunk = encoder.encode(`${lines.join('\n')}\n`);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}
