/**
 * Reading single nodes of a tape (the layout is `tape.ts`'s) without materialising values: a
 * node's kind, an object's members by key, an array's elements, plain strings and integer lexemes.
 * For verifiers that look at a few members of each element of a streamed array (docs/zaxy.md,
 * 'Reading in one pass'); the slot layout stays in `json/`.
 *
 * `slot` is always the slot index of a node of a tape scanned without error.
 * @module
 */
import { nextSlot } from './canonical-tape.ts';
import { decodeString, latin1 } from './reader.ts';
import { ESCAPED, SLOTS, TAG_ARRAY, TAG_FLOAT, TAG_INT, TAG_OBJECT, TAG_STRING } from './tape.ts';

export { nextSlot };

/**
 * Whether the node at `slot` is an object.
 * @example
 * isObjectNode(tape, 0); // true for `{"a": 1}`
 */
export function isObjectNode(tape: Int32Array, slot: number): boolean {
  return tape[slot] === TAG_OBJECT;
}

/**
 * Whether the node at `slot` is an array.
 * @example
 * isArrayNode(tape, 0); // true for `[1, 2]`
 */
export function isArrayNode(tape: Int32Array, slot: number): boolean {
  return tape[slot] === TAG_ARRAY;
}

/**
 * The members of the object, or the elements of the array, at `slot`.
 * @example
 * childCount(tape, 0); // 2 for `[1, 2]`
 */
export function childCount(tape: Int32Array, slot: number): number {
  return tape[slot + 1]!;
}

/**
 * The first element of the array at `slot`, or the first key of the object at `slot` (its value
 * is the next node); `nextSlot` walks on. Only meaningful when `childCount` is not 0.
 * @example
 * let element = firstChild(slot);
 * for (let k = 0; k < childCount(tape, slot); k++, element = nextSlot(tape, element)) { … }
 */
export function firstChild(slot: number): number {
  return slot + SLOTS;
}

/**
 * Slot of the value of member `key` (UTF-8) of the object at `objectSlot`, the last one when the
 * key is repeated (as Python's `json.loads` keeps), or -1.
 * @example
 * memberValue(bytes, tape, 0, new TextEncoder().encode('content')); // a slot, or -1
 */
export function memberValue(bytes: Uint8Array, tape: Int32Array, objectSlot: number, key: Uint8Array): number {
  const count = tape[objectSlot + 1]!;
  let child = objectSlot + SLOTS;
  let found = -1;
  for (let j = 0; j < count; j++) {
    if (keyEquals(bytes, tape, child, key)) found = child + SLOTS;
    child = nextSlot(tape, child + SLOTS);
  }
  return found;
}

/**
 * `memberValue` for several distinct keys in one pass over the members: `slots[i]` becomes the
 * value slot for `keys[i]`, or -1.
 * @example
 * memberValues(bytes, tape, 0, [KIND, SEQ], slots); // slots[0], slots[1]
 */
export function memberValues(
  bytes: Uint8Array,
  tape: Int32Array,
  objectSlot: number,
  keys: readonly Uint8Array[],
  slots: Int32Array,
): void {
  slots.fill(-1, 0, keys.length);
  const count = tape[objectSlot + 1]!;
  let child = objectSlot + SLOTS;
  for (let j = 0; j < count; j++) {
    const value = child + SLOTS;
    for (let i = 0; i < keys.length; i++) {
      if (keyEquals(bytes, tape, child, keys[i]!)) {
        slots[i] = value;
        break;
      }
    }
    child = nextSlot(tape, value);
  }
}

/** Whether the key node at `keySlot` decodes to `key` (UTF-8 bytes; escaped keys are decoded). */
function keyEquals(bytes: Uint8Array, tape: Int32Array, keySlot: number, key: Uint8Array): boolean {
  const start = tape[keySlot + 1]!;
  const end = tape[keySlot + 2]!;
  if ((tape[keySlot + 3]! & ESCAPED) !== 0) return decodeString(bytes, tape, keySlot) === String.fromCharCode(...key);
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (bytes[start + i] !== key[i]) return false;
  return true;
}

/**
 * Where the text of the string at `slot` starts in the input, when the node is a string without
 * escapes of exactly `length` bytes (so its bytes are its UTF-8 text); otherwise -1.
 * @example
 * plainStringStart(tape, idSlot, 64); // the offset of a 64-byte id, or -1
 */
export function plainStringStart(tape: Int32Array, slot: number, length: number): number {
  if (tape[slot] !== TAG_STRING || (tape[slot + 3]! & ESCAPED) !== 0) return -1;
  const start = tape[slot + 1]!;
  return tape[slot + 2]! - start === length ? start : -1;
}

/**
 * The string at `slot`, or null when `slot` is -1 or the node is not a string.
 * @example
 * stringAt(bytes, tape, memberValue(bytes, tape, 0, KIND)); // 'goal.created' or null
 */
export function stringAt(bytes: Uint8Array, tape: Int32Array, slot: number): string | null {
  return slot >= 0 && tape[slot] === TAG_STRING ? decodeString(bytes, tape, slot) : null;
}

/**
 * The lexeme of the integer at `slot` (as written: digits, maybe a minus sign), or undefined
 * when `slot` is -1 or the node is not an integer.
 * @example
 * integerLexeme(bytes, tape, seqSlot); // '42'
 */
export function integerLexeme(bytes: Uint8Array, tape: Int32Array, slot: number): string | undefined {
  return slot >= 0 && tape[slot] === TAG_INT ? latin1(bytes, tape[slot + 1]!, tape[slot + 2]!) : undefined;
}

/**
 * The lexeme of the float at `slot`, exactly as written (`1.50`, `1E-7`, `-0.0`), or undefined
 * when `slot` is -1 or the node is not a float (`NaN` and `Infinity` are literals).
 * @example
 * floatLexeme(bytes, tape, slot); // '1.50'
 */
export function floatLexeme(bytes: Uint8Array, tape: Int32Array, slot: number): string | undefined {
  return slot >= 0 && tape[slot] === TAG_FLOAT ? latin1(bytes, tape[slot + 1]!, tape[slot + 2]!) : undefined;
}

/**
 * Byte offset in the input where the value at `slot` starts (the opening quote of a string).
 * @example
 * valueOffset(tape, 0); // 0 for a document that starts with its value
 */
export function valueOffset(tape: Int32Array, slot: number): number {
  const tag = tape[slot]!;
  if (tag === TAG_STRING) return tape[slot + 1]! - 1;
  if (tag === TAG_OBJECT || tag === TAG_ARRAY) return tape[slot + 3]!;
  return tape[slot + 1]!;
}
