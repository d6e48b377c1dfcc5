/**
 * The progress bar on stderr: drawn only when stderr is a terminal, never before the run has
 * taken `DELAY_MS`, never on stdout, and not at all with `--quiet`. It shows the bytes read, the
 * total when known, the speed and the time left, and with several inputs how many are done.
 * @module
 */

/** A run shorter than this shows no bar at all. */
const DELAY_MS = 500;
/** Redraws per second, at most. */
const REDRAW_MS = 100;

/** What the bar shows; the caller updates it as bytes are read and inputs finish. */
export interface ProgressState {
  bytesRead: number;
  /** Total bytes, when every input's size is known. */
  totalBytes: number | undefined;
  filesDone: number;
  /** Inputs in all; the file count is shown when this is above 1. */
  filesTotal: number;
}

export interface Progress {
  readonly state: ProgressState;
  /** Runs `write` (to stdout) with the bar off the line, so the two never share a line. */
  around(write: () => void): void;
  /** Removes the bar for good. */
  stop(): void;
}

/** Where the bar is drawn: a terminal's write stream (process.stderr). */
export interface ProgressTerminal {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

const MB = 1e6;

/** `bytes` for people, in decimal megabytes (as MB/s is). */
const megabytes = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;

/** `seconds` as `42 s`, `3 min 05 s` or `1 h 02 min`. */
function duration(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor(s / 60) % 60).padStart(2, '0')} min`;
}

/**
 * The bar's text for `state` after `elapsedMs`.
 * @example
 * progressLine({ bytesRead: 50e6, totalBytes: 100e6, filesDone: 0, filesTotal: 1 }, 2000);
 * // '[##########----------]  50%  50.0 MB / 100.0 MB  25.0 MB/s  ETA 2 s'
 */
export function progressLine(state: ProgressState, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? state.bytesRead / (elapsedMs / 1000) : 0;
  const parts: string[] = [];
  if (state.filesTotal > 1) parts.push(`${state.filesDone}/${state.filesTotal} files`);
  if (state.totalBytes !== undefined && state.totalBytes > 0) {
    const fraction = Math.min(1, state.bytesRead / state.totalBytes);
    const filled = Math.round(fraction * 20);
    parts.push(`[${'#'.repeat(filled)}${'-'.repeat(20 - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%`);
    parts.push(`${megabytes(state.bytesRead)} / ${megabytes(state.totalBytes)}`);
    parts.push(`${(rate / MB).toFixed(1)} MB/s`);
    if (rate > 0) parts.push(`ETA ${duration(Math.max(0, state.totalBytes - state.bytesRead) / rate)}`);
  } else {
    parts.push(megabytes(state.bytesRead), `${(rate / MB).toFixed(1)} MB/s`);
  }
  return parts.join('  ');
}

/**
 * Starts the bar on `terminal` when it is a terminal and `enabled`; otherwise the returned
 * progress draws nothing (and costs nothing).
 */
export function startProgress(
  terminal: ProgressTerminal,
  initial: ProgressState,
  enabled: boolean,
  now: () => number = () => performance.now(),
): Progress & { readonly drawing: boolean } {
  const state = { ...initial };
  const active = enabled && terminal.isTTY === true;
  const started = now();
  let shown = false;
  const clear = (): void => {
    if (shown) terminal.write('\r\u001b[K');
    shown = false;
  };
  const draw = (): void => {
    const elapsed = now() - started;
    if (elapsed < DELAY_MS) return;
    const width = Math.max(20, (terminal.columns ?? 80) - 1);
    terminal.write(`\r\u001b[K${progressLine(state, elapsed).slice(0, width)}`);
    shown = true;
  };
  const timer = active ? setInterval(draw, REDRAW_MS) : undefined;
  timer?.unref();
  return {
    state,
    drawing: active,
    around(write) {
      clear();
      write();
      if (active) draw();
    },
    stop() {
      clearInterval(timer);
      clear();
    },
  };
}
