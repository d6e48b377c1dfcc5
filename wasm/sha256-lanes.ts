/**
 * SHA-256 (FIPS 180-4) of many messages at once: four at a time, one in each 32-bit lane of
 * WebAssembly SIMD's v128 (WebAssembly Core Specification 2.0, 'Vector Instructions').
 * For the many small messages of a Zaxy bundle's entries (docs/zaxy.md, 'Merkle tree'), where
 * one call per message into hash-wasm's scalar SHA-256 is the bottleneck in browsers.
 *
 * The module is generated here at load time (`wasm/emit/`), no build step and no binary in the
 * repository; it is compiled from bytes, which a host may refuse (Cloudflare workerd; a page whose
 * CSP lacks 'wasm-unsafe-eval'): `loadSha256Many()` then resolves to undefined, as it does
 * without WebAssembly or SIMD, and the caller hashes one message at a time as before.
 *
 * How a call runs: the messages' bytes are copied into the module's memory a window at a time
 * (1 MiB of short messages and a 256 KiB segment of up to four long ones: the memory never
 * grows past ~2.3 MiB, whatever the call), with a table of jobs (where a message is, its length,
 * where its digest goes). The module's `run` gives each lane the next job as soon
 * as the lane's message ends, so messages of any lengths share the lanes; each step loads one
 * 64-byte block per lane (a finished message's padded last block(s) built in the lane's scratch
 * area, FIPS 180-4 §5.1.1), transposes the four lanes' big-endian words into W[0..15] and runs
 * the 64 rounds (§6.2.2) on all four lanes at once (about 2.8× hash-wasm's one message a call in
 * Chromium, bench/sha256-lanes.bench.ts). A message longer than a window is hashed
 * in segments over several windows, its state kept between them.
 * @module
 */
import type { Sha256Many } from '../src/crypto/sha256.ts';
import { toHex } from '../src/encoding/hex.ts';
import { encodeModule, type FunctionDefinition } from './emit/module.ts';
import {
  code,
  type Code,
  control,
  global,
  I32,
  i32,
  i32x4,
  i8x16,
  local,
  memory,
  select,
  V128,
  v128,
  type ValueType,
} from './emit/instructions.ts';

export type { Sha256Many };

/** SHA-256 constants K_0..K_63 (FIPS 180-4 §4.2.2). */
// prettier-ignore
export const K = /* @__PURE__ */ Uint32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);

/** SHA-256 initial hash value H(0) (FIPS 180-4 §5.3.3). */
// prettier-ignore
export const H0 = /* @__PURE__ */ Uint32Array.of(
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
);

// ---- Memory layout of the module (byte addresses) ----
const LANES = 4;
/** Per lane, 16 bytes: the next block's address, the end of its full blocks, the out slot, flags. */
const LANE_RECORDS = 0;
const LANE_CUR = 0;
const LANE_FULL_END = 4;
const LANE_OUT = 8;
const LANE_FLAGS = 12;
/** One v128: blocks left per lane (a lane with no job counts down from `IDLE_BLOCKS`). */
const COUNTERS = 64;
/** Eight v128: H0..H7 of the four lanes' messages, word-major (word i of lane l at 16i + 4l). */
const STATE = 128;
/** Per lane, 128 bytes: the padded last block or two of the lane's message. */
const SCRATCH = 256;
const SCRATCH_BYTES = 128;
/** 64 v128: K[t] in each lane of the t-th (written when the instance is made). */
const K_SPLATS = 1024;
/** The job table: 24 bytes a job (`writeJob`), the long messages' segments first. */
const JOBS = 2048;
const JOB_BYTES = 24;
/** Job flags: the message's first segment (start from H(0)), its last one (pad, write the digest). */
const FIRST = 1;
const LAST = 2;
/** Lane flag: the lane holds a job. */
const BUSY = 4;
const IDLE_BLOCKS = 0x7fffffff;

// ---- Windows: how much a call copies into the module at a time ----
/** Jobs per `run` at most. */
const MAX_JOBS = 4096;
/** Messages longer than this are hashed a segment per window (a multiple of 64 bytes). */
const SEGMENT_BYTES = 256 * 1024;
/** Long messages in progress at once (one segment of each per window). */
const MAX_LONG = LANES;
/** Bytes of short messages per window. */
const SHORT_WINDOW_BYTES = 1024 * 1024;
/** Bytes between two messages copied with them rather than starting another piece (waste: this much a message). */
const COPY_GAP_BYTES = 64;
/** The short messages' digests, 32 bytes each. */
const DIGESTS = JOBS + (MAX_JOBS + MAX_LONG) * JOB_BYTES;
/** A long message's state between windows, then its digest. */
const LONG_DIGESTS = DIGESTS + MAX_JOBS * 32;
/** The window: copies of the messages' bytes, short ones then one segment of each long one. */
const DATA = LONG_DIGESTS + MAX_LONG * 32;
const PAGE_BYTES = 65536;

// ---- The module ----

/** Function indices, in the order of `sha256LanesModule`'s list. */
const BSWAP = 0;
const TAKE = 1;
const FINISH = 2;
const ADVANCE = 3;
const COMPRESS = 4;
/** Global indices: the next job's address, the end of the job table, lanes holding a job. */
const NEXT_JOB = 0;
const JOBS_END = 1;
const ACTIVE = 2;

/** Locals after `params` parameters: `of(type)` adds one and returns its index. */
function localsAfter(params: number): { of(type: ValueType): number; readonly types: ValueType[] } {
  const types: ValueType[] = [];
  return { types, of: (type) => params + types.push(type) - 1 };
}

/** `bswap(x)`: the four bytes of an i32 reversed (big-endian ↔ little-endian). */
function bswapFunction(): FunctionDefinition {
  // (x rotl 8) puts bytes 0 and 2 where they belong, (x rotr 8) bytes 1 and 3.
  const body = code(
    [local.get(0), i32.const(8), i32.rotl, i32.const(0x00ff00ff), i32.and],
    [local.get(0), i32.const(8), i32.rotr, i32.const(0xff00ff00), i32.and, i32.or],
  );
  return { params: [I32], results: [I32], locals: [], body };
}

/**
 * `take(lane)`: gives the lane the next job, or marks it idle when none is left. For a job that
 * is its message's last segment, builds the padded last block(s) in the lane's scratch area
 * (FIPS 180-4 §5.1.1: the bytes after the last full block, 0x80, zeros, then the message's
 * length in bits as a 64-bit big-endian integer; one block when at most 55 bytes remain, else
 * two). Sets the lane's state words to H(0) (§5.3.3) for a first segment, else to the state the
 * previous segment left in the job's out slot.
 */
function takeFunction(): FunctionDefinition {
  const lane = 0;
  const locals = localsAfter(1);
  const [record, words, scratch, job, src, len, tail, out, flags, fullEnd, padEnd, blocks] = Array.from(
    { length: 12 },
    () => locals.of(I32),
  ) as [number, number, number, number, number, number, number, number, number, number, number, number];
  const startsAtH0 = [...H0].map((word, i) => [local.get(words), i32.const(word), i32.store(STATE + 16 * i)]);
  const startsAtSaved = [...H0].map((_, i) => [
    local.get(words),
    local.get(out),
    i32.load(4 * i),
    i32.store(STATE + 16 * i),
  ]);
  const body = code(
    [local.get(lane), i32.const(4), i32.shl, local.set(record)],
    [local.get(lane), i32.const(2), i32.shl, local.set(words)],
    [local.get(lane), i32.const(7), i32.shl, i32.const(SCRATCH), i32.add, local.set(scratch)],
    // No job left: the lane idles over its scratch block (cur + 64 == fullEnd sends it back).
    [global.get(NEXT_JOB), global.get(JOBS_END), i32.geU, control.if],
    [local.get(record), local.get(scratch), i32.store(LANE_CUR)],
    [local.get(record), local.get(scratch), i32.const(64), i32.add, i32.store(LANE_FULL_END)],
    [local.get(record), i32.const(0), i32.store(LANE_FLAGS)],
    [local.get(words), i32.const(IDLE_BLOCKS), i32.store(COUNTERS)],
    [control.return, control.end],
    [global.get(NEXT_JOB), local.tee(job), i32.const(JOB_BYTES), i32.add, global.set(NEXT_JOB)],
    [global.get(ACTIVE), i32.const(1), i32.add, global.set(ACTIVE)],
    [local.get(job), i32.load(0), local.set(src)],
    [local.get(job), i32.load(4), local.set(len)],
    [local.get(job), i32.load(8), local.set(out)],
    [local.get(job), i32.load(12), local.set(flags)],
    [local.get(len), i32.const(63), i32.and, local.set(tail)],
    [local.get(src), local.get(len), i32.add, local.get(tail), i32.sub, local.set(fullEnd)],
    // The first block: the message's first full one, or the scratch area when it has none.
    [local.get(record), local.get(src), local.get(scratch), local.get(len), i32.const(64), i32.geU, select],
    [i32.store(LANE_CUR)],
    [local.get(record), local.get(fullEnd), i32.store(LANE_FULL_END)],
    [local.get(record), local.get(out), i32.store(LANE_OUT)],
    [local.get(record), local.get(flags), i32.const(BUSY), i32.or, i32.store(LANE_FLAGS)],
    [local.get(len), i32.const(6), i32.shrU, local.set(blocks)],
    [local.get(flags), i32.const(LAST), i32.and, control.if],
    [local.get(scratch), i32.const(0), i32.const(SCRATCH_BYTES), memory.fill],
    [local.get(scratch), local.get(fullEnd), local.get(tail), memory.copy],
    [local.get(scratch), local.get(tail), i32.add, i32.const(0x80), i32.store8(0)],
    [local.get(scratch), i32.const(64), i32.const(128), local.get(tail), i32.const(56), i32.ltU, select],
    [i32.add, local.set(padEnd)],
    // The length in bits, high word then low word (the job holds them as numbers), big-endian.
    [local.get(padEnd), i32.const(8), i32.sub, local.get(job), i32.load(16), control.call(BSWAP), i32.store(0)],
    [local.get(padEnd), i32.const(4), i32.sub, local.get(job), i32.load(20), control.call(BSWAP), i32.store(0)],
    [local.get(blocks), i32.const(1), i32.const(2), local.get(tail), i32.const(56), i32.ltU, select, i32.add],
    [local.set(blocks), control.end],
    [local.get(words), local.get(blocks), i32.store(COUNTERS)],
    [local.get(flags), i32.const(FIRST), i32.and, control.if, startsAtH0, control.else, startsAtSaved, control.end],
  );
  return { params: [I32], results: [], locals: locals.types, body };
}

/**
 * `finish(lane)`: writes the lane's result to its job's out slot: the digest (its state words
 * big-endian, FIPS 180-4 §6.2.2 step 4 and §3.1) for a last segment, else the state as it is,
 * for the next segment to start from.
 */
function finishFunction(): FunctionDefinition {
  const lane = 0;
  const locals = localsAfter(1);
  const words = locals.of(I32);
  const out = locals.of(I32);
  const store = (swap: boolean): Code =>
    [...H0].map((_, i) => [
      [local.get(out), local.get(words), i32.load(STATE + 16 * i)],
      swap ? control.call(BSWAP) : [],
      i32.store(4 * i),
    ]);
  const body = code(
    [local.get(lane), i32.const(2), i32.shl, local.set(words)],
    [local.get(lane), i32.const(4), i32.shl, i32.load(LANE_OUT), local.set(out)],
    [local.get(lane), i32.const(4), i32.shl, i32.load(LANE_FLAGS), i32.const(LAST), i32.and],
    [control.if, store(true), control.else, store(false), control.end],
  );
  return { params: [I32], results: [], locals: locals.types, body };
}

/** `advance()`: every lane whose blocks are done hands in its result and takes the next job. */
function advanceFunction(): FunctionDefinition {
  const body = Array.from({ length: LANES }, (_, lane) => [
    [i32.const(0), i32.load(COUNTERS + 4 * lane), i32.eqz, control.if],
    [i32.const(0), i32.load(LANE_RECORDS + 16 * lane + LANE_FLAGS), i32.const(BUSY), i32.and, control.if],
    [i32.const(lane), control.call(FINISH), global.get(ACTIVE), i32.const(1), i32.sub, global.set(ACTIVE)],
    [control.end, i32.const(lane), control.call(TAKE), control.end],
  ]);
  return { params: [], results: [], locals: [], body: code(body) };
}

/** Byte indices for `i8x16.shuffle`: bytes of each 32-bit word reversed. */
const BSWAP_WORDS = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
/** Words 0, 1 of each operand interleaved: (a0, b0, a1, b1); words 2, 3: (a2, b2, a3, b3). */
const LOW_WORDS = [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23];
const HIGH_WORDS = [8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31];
/** The low 64 bits of each operand: (a0, a1, b0, b1); the high ones: (a2, a3, b2, b3). */
const LOW_HALVES = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
const HIGH_HALVES = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31];

/**
 * `compress()`: one step of every lane, the SHA-256 computation of FIPS 180-4 §6.2.2 on the
 * lanes' next blocks: the message schedule W[t] in a 16-entry ring of locals (step 1), the
 * working variables (step 2), the 64 rounds (step 3) as a loop over four runs of 16 (in 16
 * rounds each local plays every part and each W comes back to its place, so one run of code
 * serves all four; K[t] from `K_SPLATS`), the new intermediate hash value (step 4); then one
 * block less for every lane.
 */
function compressFunction(): FunctionDefinition {
  const locals = localsAfter(0);
  const w = Array.from({ length: 16 }, () => locals.of(V128));
  let vars = Array.from({ length: 8 }, () => locals.of(V128)); // a..h
  const t1 = locals.of(V128);
  const x = Array.from({ length: LANES }, () => locals.of(V128));
  const y = Array.from({ length: 4 }, () => locals.of(V128));
  const block = Array.from({ length: LANES }, () => locals.of(I32));
  const next = locals.of(I32);
  const k = locals.of(I32); // K_SPLATS + 16 t for the run's first t
  const parts: Code[] = [];
  const emit = (...instructions: Code[]): void => void parts.push(instructions);
  // The lanes' blocks; each lane's cur moves on 64 bytes, to its scratch area after its last full block.
  for (let lane = 0; lane < LANES; lane++) {
    const record = LANE_RECORDS + 16 * lane;
    emit(i32.const(0), i32.load(record + LANE_CUR), local.tee(block[lane]!), i32.const(64), i32.add, local.set(next));
    emit(i32.const(0), i32.const(SCRATCH + SCRATCH_BYTES * lane), local.get(next));
    emit(local.get(next), i32.const(0), i32.load(record + LANE_FULL_END), i32.eq, select, i32.store(record + LANE_CUR));
  }
  // Step 1, t < 16: W[t] is word t of the block (big-endian, §3.1); lane l of W[t] is lane l's.
  // Sixteen bytes (four words) of each lane at a time, a 4×4 transpose of 32-bit words.
  for (let quarter = 0; quarter < 4; quarter++) {
    for (let lane = 0; lane < LANES; lane++) {
      emit(local.get(block[lane]!), v128.load(16 * quarter), local.tee(x[lane]!), local.get(x[lane]!));
      emit(i8x16.shuffle(BSWAP_WORDS), local.set(x[lane]!));
    }
    const pairs: [number, number, number[], number][] = [
      [x[0]!, x[1]!, LOW_WORDS, y[0]!],
      [x[0]!, x[1]!, HIGH_WORDS, y[1]!],
      [x[2]!, x[3]!, LOW_WORDS, y[2]!],
      [x[2]!, x[3]!, HIGH_WORDS, y[3]!],
      [y[0]!, y[2]!, LOW_HALVES, w[4 * quarter]!],
      [y[0]!, y[2]!, HIGH_HALVES, w[4 * quarter + 1]!],
      [y[1]!, y[3]!, LOW_HALVES, w[4 * quarter + 2]!],
      [y[1]!, y[3]!, HIGH_HALVES, w[4 * quarter + 3]!],
    ];
    for (const [a, b, lanes, into] of pairs) emit(local.get(a), local.get(b), i8x16.shuffle(lanes), local.set(into));
  }
  // Step 2: a..h from the intermediate hash value H(i-1).
  vars.forEach((variable, i) => emit(i32.const(0), v128.load(STATE + 16 * i), local.set(variable)));
  // ROTR^n(x) = (x >> n) ∨ (x << 32 - n) (§3.2); the two halves share no bit, so ⊕ joins them as well.
  const rotr = (v: number, n: number): Code => [
    [local.get(v), i32.const(n), i32x4.shrU, local.get(v), i32.const(32 - n), i32x4.shl, v128.xor],
  ];
  const shr = (v: number, n: number): Code => [local.get(v), i32.const(n), i32x4.shrU];
  // §4.1.2, (4.4)–(4.7).
  const Σ0 = (v: number): Code => [rotr(v, 2), rotr(v, 13), v128.xor, rotr(v, 22), v128.xor];
  const Σ1 = (v: number): Code => [rotr(v, 6), rotr(v, 11), v128.xor, rotr(v, 25), v128.xor];
  const σ0 = (v: number): Code => [rotr(v, 7), rotr(v, 18), v128.xor, shr(v, 3), v128.xor];
  const σ1 = (v: number): Code => [rotr(v, 17), rotr(v, 19), v128.xor, shr(v, 10), v128.xor];
  emit(i32.const(K_SPLATS), local.set(k), control.block, control.loop);
  for (let t = 0; t < 16; t++) {
    const [a, b, c, d, e, f, g, h] = vars as [number, number, number, number, number, number, number, number];
    // Step 3: T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t];
    // Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g): f where e is 1, else g.
    emit(local.get(h), Σ1(e), i32x4.add, local.get(f), local.get(g), local.get(e), v128.bitselect, i32x4.add);
    emit(local.get(k), v128.load(16 * t), i32x4.add, local.get(w[t]!), i32x4.add, local.tee(t1));
    // e = d + T1, in d's local, which plays e from the next round on.
    emit(local.get(d), i32x4.add, local.set(d));
    // T2 = Σ0(a) + Maj(a, b, c), Maj(a, b, c) = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c): a where a = b, else c.
    // a = T1 + T2, in h's local.
    emit(Σ0(a), local.get(c), local.get(a), local.get(a), local.get(b), v128.xor, v128.bitselect, i32x4.add);
    emit(local.get(t1), i32x4.add, local.set(h));
    // h = g, g = f, f = e, d = c, c = b, b = a: the locals change parts, nothing moves.
    vars = [h, a, b, c, d, e, f, g];
  }
  // After round 63, on to step 4; else W for the next 16 rounds.
  emit(local.get(k), i32.const(K_SPLATS + 48 * 16), i32.eq, control.brIf(1));
  for (let t = 16; t < 32; t++) {
    // Step 1, t ≥ 16: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], in W[t-16]'s place in the ring.
    const wt = w[t % 16]!;
    emit(local.get(wt), σ0(w[(t - 15) % 16]!), i32x4.add, local.get(w[(t - 7) % 16]!), i32x4.add);
    emit(σ1(w[(t - 2) % 16]!), i32x4.add, local.set(wt));
  }
  emit(local.get(k), i32.const(16 * 16), i32.add, local.set(k), control.br(0), control.end, control.end);
  // Step 4: H(i) = a..h + H(i-1) (after the rounds each local plays its first part again).
  vars.forEach((variable, i) => {
    emit(i32.const(0), i32.const(0), v128.load(STATE + 16 * i), local.get(variable), i32x4.add);
    emit(v128.store(STATE + 16 * i));
  });
  emit(i32.const(0), i32.const(0), v128.load(COUNTERS), i32x4.splatConst(1), i32x4.sub, v128.store(COUNTERS));
  return { params: [], results: [], locals: locals.types, body: code(parts) };
}

/**
 * `run(jobs, jobsEnd)`: hashes the jobs at [jobs, jobsEnd), 24 bytes each: the segment's
 * address and length, its out slot's address, its flags (`FIRST`, `LAST`), and the message's
 * length in bits (high and low 32 bits). Lanes take jobs in order, each as soon as it is free.
 */
function runFunction(): FunctionDefinition {
  const [jobs, jobsEnd] = [0, 1];
  const body = code(
    [local.get(jobs), global.set(NEXT_JOB), local.get(jobsEnd), global.set(JOBS_END)],
    [i32.const(0), global.set(ACTIVE), i32.const(0), i32.const(0), i32.const(COUNTERS + 16), memory.fill],
    [control.call(ADVANCE), control.block, control.loop],
    [global.get(ACTIVE), i32.eqz, control.brIf(1), control.call(COMPRESS)],
    [i32.const(0), v128.load(COUNTERS), i32x4.splatConst(0), i32x4.eq, v128.anyTrue],
    [control.if, control.call(ADVANCE), control.end, control.br(0), control.end, control.end],
  );
  return { params: [I32, I32], results: [], locals: [], body, export: 'run' };
}

/**
 * The 4-lane SHA-256 module's bytes (~7 KB), generated (deterministic; a few milliseconds the
 * first time, while the engine compiles the generator, then a fraction of one). It
 * exports `memory` and `run(jobs, jobsEnd)`; `loadSha256Many` is its only intended user.
 * @example
 * WebAssembly.validate(sha256LanesModule()); // true where WebAssembly SIMD is supported
 */
export function sha256LanesModule(): Uint8Array<ArrayBuffer> {
  return encodeModule({
    // In the order of BSWAP, TAKE, FINISH, ADVANCE, COMPRESS, then the exported run.
    functions: [
      bswapFunction(),
      takeFunction(),
      finishFunction(),
      advanceFunction(),
      compressFunction(),
      runFunction(),
    ],
    globals: [{ initial: 0 }, { initial: 0 }, { initial: 0 }],
    memory: { minPages: Math.ceil(DATA / PAGE_BYTES) },
  });
}

// ---- The calls ----

interface LanesExports {
  readonly memory: WebAssembly.Memory;
  run(jobs: number, jobsEnd: number): void;
}

/** A message longer than `SEGMENT_BYTES`, hashed a segment per window. */
interface LongMessage {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  /** Bytes hashed so far. */
  done: number;
  /** Its slot at `LONG_DIGESTS`: the state between segments, then the digest. */
  readonly slot: number;
}

/** `digestMany` over an instance of the module. */
function lanesHasher(exports: LanesExports): Sha256Many {
  const { memory, run } = exports;
  new Uint32Array(memory.buffer, K_SPLATS, 256).set(Array.from(K, (k) => [k, k, k, k]).flat());
  let heap = new Uint8Array(memory.buffer);
  let jobs = new Uint32Array(memory.buffer);
  /** Grows the memory (never shrinks) so that [0, end) exists; views are renewed. */
  const reserve = (end: number): void => {
    if (end <= heap.length) return;
    memory.grow(Math.ceil((end - heap.length) / PAGE_BYTES));
    heap = new Uint8Array(memory.buffer);
    jobs = new Uint32Array(memory.buffer);
  };
  const writeJob = (at: number, src: number, length: number, out: number, flags: number, messageBytes: number) => {
    const word = at / 4;
    jobs[word] = src;
    jobs[word + 1] = length;
    jobs[word + 2] = out;
    jobs[word + 3] = flags;
    // The length in bits: high and low 32 bits of 8 × messageBytes (exact below 2^53).
    jobs[word + 4] = Math.floor(messageBytes / 0x20000000);
    jobs[word + 5] = (messageBytes % 0x20000000) * 8;
  };

  return {
    digestMany(data, starts, ends, out) {
      const count = starts.length;
      checkArguments(data, starts, ends, out);
      const longs: LongMessage[] = [];
      let next = 0;
      while (next < count || longs.length > 0) {
        // Short messages from `next` on, into the window; the bytes of consecutive (or overlapping,
        // or close) messages copied as one piece [pieceStart, pieceEnd) of `data` at `pieceAt`.
        const first = next;
        let shortJobs = 0;
        let pieceStart = 0;
        let pieceEnd = 0;
        let pieceAt = DATA;
        const windowEnd = DATA + SHORT_WINDOW_BYTES;
        const shortJob = (index: number) => JOBS + (MAX_LONG + index) * JOB_BYTES;
        for (; next < count && next - first < MAX_JOBS; next++) {
          const start = starts[next]!;
          const end = ends[next]!;
          const length = end - start;
          if (length > SEGMENT_BYTES) {
            if (longs.length === MAX_LONG) break;
            const used = new Set(longs.map((long) => long.slot));
            let slot = 0;
            while (used.has(slot)) slot++;
            longs.push({ index: next, start, end, done: 0, slot });
            continue;
          }
          let src: number;
          if (start >= pieceStart && end <= pieceEnd) {
            src = pieceAt + (start - pieceStart);
          } else if (
            start >= pieceStart &&
            start <= pieceEnd + COPY_GAP_BYTES &&
            pieceAt + (end - pieceStart) <= windowEnd
          ) {
            pieceEnd = end;
            src = pieceAt + (start - pieceStart);
          } else {
            const copyEnd = pieceAt + (pieceEnd - pieceStart);
            if (copyEnd + length > windowEnd) break;
            copyPiece(pieceStart, pieceEnd, pieceAt);
            [pieceStart, pieceEnd, pieceAt] = [start, end, copyEnd];
            src = pieceAt;
          }
          writeJob(shortJob(shortJobs++), src, length, DIGESTS + 32 * (next - first), FIRST | LAST, length);
        }
        copyPiece(pieceStart, pieceEnd, pieceAt);
        // A segment of each long message, their jobs before the short ones (the longest start first).
        let at = pieceAt + (pieceEnd - pieceStart);
        const firstJob = JOBS + (MAX_LONG - longs.length) * JOB_BYTES;
        longs.forEach((long, j) => {
          const total = long.end - long.start;
          const length = Math.min(SEGMENT_BYTES, total - long.done);
          const flags = (long.done === 0 ? FIRST : 0) | (long.done + length === total ? LAST : 0);
          const from = long.start + long.done;
          reserve(at + length);
          heap.set(data.subarray(from, from + length), at);
          writeJob(firstJob + j * JOB_BYTES, at, length, LONG_DIGESTS + 32 * long.slot, flags, total);
          long.done += length;
          at += length;
        });
        run(firstJob, shortJob(shortJobs));
        // Digests of the short ones (a long one's place in this range is written when it ends, later).
        out.set(heap.subarray(DIGESTS, DIGESTS + 32 * (next - first)), 32 * first);
        for (let j = longs.length - 1; j >= 0; j--) {
          const long = longs[j]!;
          if (long.done < long.end - long.start) continue;
          out.set(heap.subarray(LONG_DIGESTS + 32 * long.slot, LONG_DIGESTS + 32 * long.slot + 32), 32 * long.index);
          longs.splice(j, 1);
        }
      }

      function copyPiece(start: number, end: number, at: number): void {
        if (end === start) return;
        reserve(at + (end - start));
        heap.set(data.subarray(start, end), at);
      }
    },
  };
}

/** API misuse, not hostile data: the caller builds these arrays. */
function checkArguments(data: Uint8Array, starts: Uint32Array, ends: Uint32Array, out: Uint8Array): void {
  if (starts.length !== ends.length) throw new RangeError('digestMany: starts and ends differ in length');
  if (out.length < 32 * starts.length) throw new RangeError('digestMany: out holds fewer than 32 bytes a message');
  for (let k = 0; k < starts.length; k++) {
    if (starts[k]! > ends[k]! || ends[k]! > data.length)
      throw new RangeError(`digestMany: message ${k} [${starts[k]}, ${ends[k]}) is not within data`);
  }
}

let loading: Promise<Sha256Many | undefined> | undefined;

/**
 * Loads (once) the 4-lane hasher. Resolves to undefined where it cannot run: no WebAssembly, no
 * SIMD, a host that refuses to compile WebAssembly from bytes at run time (Cloudflare workerd, a
 * CSP without 'wasm-unsafe-eval'), or a module that fails its known-answer check. Never rejects.
 * @example
 * const many = await loadSha256Many();
 * const data = new TextEncoder().encode('abc');
 * const out = new Uint8Array(64);
 * many?.digestMany(data, Uint32Array.of(0, 3), Uint32Array.of(3, 3), out); // SHA-256('abc'), SHA-256('')
 */
export function loadSha256Many(): Promise<Sha256Many | undefined> {
  loading ??= instantiate().catch(() => undefined);
  return loading;
}

async function instantiate(): Promise<Sha256Many | undefined> {
  if (typeof WebAssembly !== 'object') return undefined;
  const bytes = sha256LanesModule();
  if (!WebAssembly.validate(bytes)) return undefined;
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const many = lanesHasher(instance.exports as unknown as LanesExports);
  return passesKnownAnswer(many) ? many : undefined;
}

/** SHA-256('abc'), FIPS 180-4's first example (NIST's SHA256.pdf, 'Examples with Intermediate Values'). */
const ABC_DIGEST = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

/** A self-test before first use: an engine that miscompiles the module must not hash for the kit. */
function passesKnownAnswer(many: Sha256Many): boolean {
  const out = new Uint8Array(32);
  many.digestMany(new TextEncoder().encode('abc'), Uint32Array.of(0), Uint32Array.of(3), out);
  return toHex(out) === ABC_DIGEST;
}
