/**
 * The WebAssembly instructions the kit's generated modules use, each as its bytes (WebAssembly
 * Core Specification 2.0, §5.4 'Instructions'; names as in the text format). Only what is used
 * is here: add an opcode from the specification's table when a generator needs it.
 * @module
 */
import { signedLeb128, unsignedLeb128 } from './encoding.ts';

/** One instruction's bytes (opcode and immediates). */
export type Instruction = readonly number[];

/** Instructions, or lists of them nested at will: what `code` flattens. */
export type Code = number | readonly Code[];

/**
 * The bytes of a sequence of instructions (nested lists flattened, in order).
 * @example
 * code([local.get(0), [i32.const(1), i32.add]]); // [0x20, 0, 0x41, 1, 0x6a]
 */
export function code(...parts: Code[]): Uint8Array<ArrayBuffer> {
  let bytes = new Uint8Array(4096);
  let length = 0;
  const walk = (list: readonly Code[]): void => {
    for (let i = 0; i < list.length; i++) {
      const part = list[i]!;
      if (typeof part !== 'number') {
        walk(part);
        continue;
      }
      if (length === bytes.length) {
        const larger = new Uint8Array(2 * length);
        larger.set(bytes);
        bytes = larger;
      }
      bytes[length++] = part;
    }
  };
  walk(parts);
  return bytes.slice(0, length);
}

/** `make(n)`, made once for each n (instructions are immutable, so one array serves every use). */
function cached(make: (n: number) => Instruction): (n: number) => Instruction {
  const made = new Map<number, Instruction>();
  return (n) => {
    let instruction = made.get(n);
    if (instruction === undefined) made.set(n, (instruction = make(n)));
    return instruction;
  };
}

/** Value types (§5.3.1, §5.3.2). */
export const I32 = 0x7f;
export const V128 = 0x7b;
export type ValueType = typeof I32 | typeof V128;

/** Block type of a block that takes and leaves nothing (§5.4.1, 'blocktype'). */
const EMPTY_BLOCK = 0x40;

/**
 * A memory argument (§5.4.6): alignment as a power of two (a hint; unaligned accesses are
 * allowed) and a constant offset added to the address operand.
 */
const memarg = (alignLog2: number, offset: number): number[] => [alignLog2, ...unsignedLeb128(offset)];

/** Control instructions (§5.4.1). Labels are relative depths, as in the binary format. */
export const control = {
  block: [0x02, EMPTY_BLOCK],
  loop: [0x03, EMPTY_BLOCK],
  if: [0x04, EMPTY_BLOCK],
  else: [0x05],
  end: [0x0b],
  br: (depth: number): Instruction => [0x0c, ...unsignedLeb128(depth)],
  brIf: (depth: number): Instruction => [0x0d, ...unsignedLeb128(depth)],
  return: [0x0f],
  call: (functionIndex: number): Instruction => [0x10, ...unsignedLeb128(functionIndex)],
} as const;

/** Parametric instructions (§5.4.3): `select` picks its first operand when the i32 is not 0. */
export const select: Instruction = [0x1b];

/** Variable instructions (§5.4.4). */
export const local = {
  get: cached((index) => [0x20, ...unsignedLeb128(index)]),
  set: cached((index) => [0x21, ...unsignedLeb128(index)]),
  tee: cached((index) => [0x22, ...unsignedLeb128(index)]),
} as const;
export const global = {
  get: (index: number): Instruction => [0x23, ...unsignedLeb128(index)],
  set: (index: number): Instruction => [0x24, ...unsignedLeb128(index)],
} as const;

/** Scalar 32-bit integer instructions (§5.4.6 memory, §5.4.7 numeric). */
export const i32 = {
  load: cached((offset) => [0x28, ...memarg(2, offset)]),
  store: cached((offset) => [0x36, ...memarg(2, offset)]),
  store8: cached((offset) => [0x3a, ...memarg(0, offset)]),
  const: cached((value) => [0x41, ...signedLeb128(value)]),
  load8U: cached((offset) => [0x2d, ...memarg(0, offset)]),
  eqz: [0x45],
  eq: [0x46],
  ne: [0x47],
  ltU: [0x49],
  gtU: [0x4b],
  geU: [0x4f],
  ctz: [0x68],
  add: [0x6a],
  sub: [0x6b],
  and: [0x71],
  or: [0x72],
  shl: [0x74],
  shrU: [0x76],
  rotl: [0x77],
  rotr: [0x78],
} as const;

/** Bulk memory instructions (§5.4.6): `memory.copy` and `memory.fill` of memory 0. */
export const memory = {
  copy: [0xfc, ...unsignedLeb128(10), 0x00, 0x00],
  fill: [0xfc, ...unsignedLeb128(11), 0x00],
} as const;

/** Vector instructions (§5.4.8): the 0xFD prefix, then the opcode as a u32. */
const simd = (opcode: number, ...immediates: number[]): Instruction => [0xfd, ...unsignedLeb128(opcode), ...immediates];

export const v128 = {
  load: cached((offset) => simd(0, ...memarg(4, offset))),
  store: cached((offset) => simd(11, ...memarg(4, offset))),
  /** The 16 bytes, little-endian lane order, as the immediate (§5.4.8, `v128.const`). */
  const: (bytes: readonly number[]): Instruction => {
    if (bytes.length !== 16) throw new RangeError('v128.const takes 16 bytes');
    return simd(12, ...bytes);
  },
  or: simd(80),
  xor: simd(81),
  /** `(v1 & c) | (v2 & ~c)` for operands v1, v2, c. */
  bitselect: simd(82),
  anyTrue: simd(83),
} as const;

export const i8x16 = {
  eq: simd(35),
  ltU: simd(38),
  /** Bit i set when lane i's top bit is (an i32). */
  bitmask: simd(100),
  /** Byte i of the result is byte `lanes[i]` of the two operands taken as one 32-byte array. */
  shuffle: (lanes: readonly number[]): Instruction => {
    if (lanes.length !== 16 || lanes.some((lane) => !Number.isInteger(lane) || lane < 0 || lane > 31))
      throw new RangeError('i8x16.shuffle takes 16 lane indices below 32');
    return simd(13, ...lanes);
  },
} as const;

export const i32x4 = {
  eq: simd(55),
  /** Shifts take the count as an i32 operand, modulo 32. */
  shl: simd(171),
  shrU: simd(173),
  add: simd(174),
  sub: simd(177),
  /** `v128.const` with the same 32-bit value in every lane. */
  splatConst: (value: number): Instruction => {
    const word = value >>> 0;
    const bytes = [word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xff, word >>> 24];
    return v128.const([...bytes, ...bytes, ...bytes, ...bytes]);
  },
} as const;
