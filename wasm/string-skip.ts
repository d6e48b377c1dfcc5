/**
 * A `StringSkipper` (src/json/_grammar.ts) sixteen bytes a step with WebAssembly SIMD
 * (WebAssembly Core Specification 2.0, 'Vector Instructions'): three byte compares, one bitmask,
 * one count of trailing zeros, up to the next byte the lexer must see (RFC 8259 §7: a `"`, a
 * control byte, a `\` that begins no two-character escape). A `\n` or `\"` is stepped over here,
 * not handed back: the text contents of an AgentXchain export hold one every ~80 bytes. For the
 * long strings of an export's file entries (tens of MB of base64 and text), where the kit's
 * four-byte JavaScript skip was a fifth of the CLI's time (`ExportSkimmer`,
 * `VerifyOptions.stringSkipper`): the CLI verifies the 54 MB export 13% faster with it. Asked to
 * (`over(bytes, true)`), it stops at non-ASCII bytes too, for the NDJSON skimmer, which checks
 * their UTF-8 itself (`src/json/skim.ts`).
 *
 * The module is generated here at load time (`wasm/emit/`), as `sha256-lanes.ts` is, so a host
 * that refuses to compile WebAssembly from bytes (Cloudflare workerd, a CSP without
 * 'wasm-unsafe-eval') or lacks SIMD gets undefined from `loadStringSkipper()`, and the caller
 * skips in JavaScript. The bytes are copied into the module's memory a window at a time (1 MiB),
 * only when a skip first reads them, so the memory never grows.
 * @module
 */
import * as grammar from '../src/json/_grammar.ts';
import type { StringSkipper } from '../src/json/_grammar.ts';
import { encodeModule } from './emit/module.ts';
import { code, control, I32, i32, i8x16, local, V128, v128 } from './emit/instructions.ts';

export type { StringSkipper };

/** Bytes copied into the module's memory at a time; the memory is this plus a page. */
const WINDOW_BYTES = 1 << 20;
const PAGE_BYTES = 1 << 16;

const splat = (byte: number) => v128.const(new Array<number>(16).fill(byte));

/** The letters of the two-character escapes (`"` `\` `/` b f n r t), as the grammar defines them. */
const ESCAPE_LETTERS = /* @__PURE__ */ Array.from({ length: 128 }, (_, byte) => byte).filter(
  (byte) => grammar.escapedByte(byte) !== 0,
);
/** Bytes below this are control characters, which a string must not hold raw. */
const FIRST_PLAIN_BYTE = 0x20;

// Locals of `skip`.
const AT = 0;
const END = 1;
const BYTES = 2; // sixteen bytes (v128)
const MASK = 3; // their stops' bitmask, or one byte

/** Bytes from this one on are not ASCII. */
const FIRST_NON_ASCII_BYTE = 0x80;

/**
 * `stop(byte)` for the byte on the stack: `"`, `\`, a control character, or non-ASCII when
 * `nonAscii`, as an i32 0 or 1.
 */
const isStop = (nonAscii: boolean) => [
  local.tee(MASK),
  [i32.const(FIRST_PLAIN_BYTE), i32.ltU],
  [local.get(MASK), i32.const(grammar.Byte.Quote), i32.eq, i32.or],
  [local.get(MASK), i32.const(grammar.Byte.Backslash), i32.eq, i32.or],
  nonAscii ? [local.get(MASK), i32.const(FIRST_NON_ASCII_BYTE), i32.geU, i32.or] : [],
];

/**
 * `skip(at, end)`: from `at`, past plain bytes and two-character escapes, to the first byte in
 * [at, end) of memory that is `"`, a control byte, or a `\` that does not begin a two-character
 * escape before `end`; or to `end`. `skipAscii`, the body with `nonAscii`, stops at a byte >= 0x80
 * too: it is the bitmask's own bit, the byte's top bit. Branch depths are written at each branch
 * (§5.4.1: 0 is the innermost enclosing block).
 */
const skipBody = (nonAscii: boolean) =>
  code(
    control.block, // done
    control.loop, // again: after an escape
    control.block, // stopped: AT is on a stop byte
    control.block, // short: fewer than sixteen bytes left
    control.loop, // sixteen bytes a step
    [local.get(AT), i32.const(16), i32.add, local.get(END), i32.gtU, control.brIf(1)], // short
    [local.get(AT), v128.load(0), local.set(BYTES)],
    [local.get(BYTES), splat(grammar.Byte.Quote), i8x16.eq],
    [local.get(BYTES), splat(grammar.Byte.Backslash), i8x16.eq, v128.or],
    [local.get(BYTES), splat(FIRST_PLAIN_BYTE), i8x16.ltU, v128.or],
    nonAscii ? [local.get(BYTES), v128.or] : [],
    [i8x16.bitmask, local.tee(MASK)],
    // stopped:
    [control.if, local.get(AT), local.get(MASK), i32.ctz, i32.add, local.set(AT), control.br(3), control.end],
    [local.get(AT), i32.const(16), i32.add, local.set(AT), control.br(0)],
    control.end,
    control.end, // short:
    control.loop, // a byte a step
    [local.get(AT), local.get(END), i32.geU, control.brIf(3)], // done
    [local.get(AT), i32.load8U(0), isStop(nonAscii), control.brIf(1)], // stopped
    [local.get(AT), i32.const(1), i32.add, local.set(AT), control.br(0)],
    control.end,
    control.end, // stopped: an escape of two characters before END is stepped over, anything else ends
    [local.get(AT), i32.load8U(0), i32.const(grammar.Byte.Backslash), i32.ne, control.brIf(1)], // done
    [local.get(AT), i32.const(1), i32.add, local.get(END), i32.geU, control.brIf(1)], // done
    [local.get(AT), i32.load8U(1), local.set(MASK), i32.const(0)],
    ESCAPE_LETTERS.map((letter) => [local.get(MASK), i32.const(letter), i32.eq, i32.or]),
    [i32.eqz, control.brIf(1)], // done
    [local.get(AT), i32.const(2), i32.add, local.set(AT), control.br(0)], // again
    control.end,
    control.end, // done:
    local.get(AT),
  );

/**
 * The module's bytes.
 * @example
 * WebAssembly.validate(stringSkipModule()); // true where WebAssembly SIMD is supported
 */
export function stringSkipModule(windowBytes = WINDOW_BYTES): Uint8Array<ArrayBuffer> {
  return encodeModule({
    functions: [
      { params: [I32, I32], results: [I32], locals: [V128, I32], body: skipBody(false), export: 'skip' },
      { params: [I32, I32], results: [I32], locals: [V128, I32], body: skipBody(true), export: 'skipAscii' },
    ],
    globals: [],
    memory: { minPages: Math.ceil(windowBytes / PAGE_BYTES) + 1 },
  });
}

interface SkipExports {
  readonly memory: WebAssembly.Memory;
  skip(at: number, end: number): number;
  skipAscii(at: number, end: number): number;
}

let loading: Promise<StringSkipper | undefined> | undefined;

/**
 * Loads (once) the SIMD skip. Resolves to undefined where it cannot run: no WebAssembly, no SIMD,
 * a host that refuses to compile WebAssembly from bytes, or a module that fails its self-test.
 * Never rejects.
 * @example
 * const skipper = await loadStringSkipper();
 * const bytes = new TextEncoder().encode('"plain text", 1');
 * skipper?.over(bytes)(1); // 11, as grammar.skipStringBytes(bytes, 1, …, STOP_MUST_ESCAPE)
 */
export function loadStringSkipper(): Promise<StringSkipper | undefined> {
  loading ??= createStringSkipper();
  return loading;
}

/**
 * A new SIMD skip copying `windowBytes` at a time (tests take small windows), or undefined where
 * it cannot run (see `loadStringSkipper`). Never rejects.
 */
export async function createStringSkipper(windowBytes = WINDOW_BYTES): Promise<StringSkipper | undefined> {
  // Two bytes at least: a window that starts on a backslash then holds the whole escape.
  windowBytes = Math.max(2, Math.floor(windowBytes));
  try {
    if (typeof WebAssembly !== 'object') return undefined;
    const bytes = stringSkipModule(windowBytes);
    if (!WebAssembly.validate(bytes)) return undefined;
    const { instance } = await WebAssembly.instantiate(bytes, {});
    const skipper = windowedSkipper(instance.exports as unknown as SkipExports, windowBytes);
    return passesSelfTest(skipper) ? skipper : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The module behind the `StringSkipper` interface: a chunk's bytes are copied in a window at a
 * time, from the first offset asked for. Offsets asked for only grow within a chunk (the
 * skimmer's), so each byte is copied once, but for a backslash on a window's last byte, which
 * starts the next window. One memory serves every chunk: `over` starts a new one, and a function
 * of an earlier chunk reloads its window before reading.
 */
function windowedSkipper(exports: SkipExports, windowBytes: number): StringSkipper {
  const memory = new Uint8Array(exports.memory.buffer);
  let current = 0;
  return {
    over(bytes, stopAtNonAscii = false) {
      const skip = stopAtNonAscii ? exports.skipAscii : exports.skip;
      const chunk = ++current;
      const end = bytes.length;
      // The window [from, to) of `bytes` in memory, from offset 0; none yet.
      let from = 0;
      let to = -1;
      const load = (at: number): void => {
        current = chunk;
        from = at;
        to = Math.min(end, at + windowBytes);
        memory.set(bytes.subarray(from, to));
      };
      return (at) => {
        if (chunk !== current || at < from || at >= to) load(at);
        for (;;) {
          const stop = skip(at - from, to - from) + from;
          // The window ran out, or ends on a backslash whose escape goes on past it: read on from there.
          if (to >= end || stop < to - 1 || (stop === to - 1 && bytes[stop] !== grammar.Byte.Backslash)) return stop;
          load(stop);
          at = stop;
        }
      };
    },
  };
}

/**
 * Every stop at every place in a step, escapes whole, cut and bad, and bytes that are no stops: an
 * engine that miscompiles the module must not skip for the kit.
 */
function passesSelfTest(skipper: StringSkipper): boolean {
  const plain = new Uint8Array(40).fill(0x41);
  const skipFrom = (edit: (bytes: Uint8Array) => void, nonAscii = false): number => {
    const bytes = plain.slice();
    edit(bytes);
    return skipper.over(bytes, nonAscii)(0);
  };
  if (skipFrom(() => {}) !== 40 || skipper.over(plain)(39) !== 40) return false;
  for (let at = 0; at < 40; at++) {
    for (const nonAscii of [false, true]) {
      for (const stop of [0x00, 0x1f, 0x22]) if (skipFrom((bytes) => (bytes[at] = stop), nonAscii) !== at) return false;
      // `\n` is stepped over, unless the bytes end after its backslash; `\x` is a stop.
      const end = at < 39 ? 40 : 39;
      if (skipFrom((bytes) => bytes.set([0x5c, 0x6e].slice(0, 40 - at), at), nonAscii) !== end) return false;
      if (skipFrom((bytes) => bytes.set([0x5c, 0x78].slice(0, 40 - at), at), nonAscii) !== at) return false;
    }
    for (const byte of [0x80, 0xff]) {
      if (skipFrom((bytes) => (bytes[at] = byte)) !== 40) return false;
      if (skipFrom((bytes) => (bytes[at] = byte), true) !== at) return false;
    }
  }
  // No stops: a blank, the bytes around the stops, DEL and non-ASCII (ASCII only: DEL); then every
  // escape letter.
  const others = Uint8Array.of(0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xff, 0x22);
  const escapes = Uint8Array.from([...ESCAPE_LETTERS.flatMap((letter) => [0x5c, letter]), 0x22]);
  return (
    skipper.over(others)(0) === 8 &&
    skipper.over(others, true)(0) === 6 &&
    skipper.over(escapes)(0) === 16 &&
    skipper.over(escapes, true)(0) === 16
  );
}
