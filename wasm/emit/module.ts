/**
 * Assembles a WebAssembly module from functions, globals and one memory (WebAssembly Core
 * Specification 2.0, §5.5 'Modules'): the type, function, memory, global, export and code
 * sections, in the order §5.5.16 requires. No imports, tables, data or start function: the
 * kit's generated modules need none.
 * @module
 */
import { type Bytes, concat, name, unsignedLeb128, vector } from './encoding.ts';
import { control, I32, i32, type ValueType } from './instructions.ts';

/** A function of the module; its index is its position in `ModuleDefinition.functions`. */
export interface FunctionDefinition {
  readonly params: readonly ValueType[];
  readonly results: readonly ValueType[];
  /** Locals after the parameters (their indices continue the parameters'). */
  readonly locals: readonly ValueType[];
  /** The body's bytes (`code(...)`), without the final `end` (added here). */
  readonly body: Bytes;
  /** Exported under this name when given. */
  readonly export?: string;
}

/** A mutable i32 global, starting at `initial`. */
export interface GlobalDefinition {
  readonly initial: number;
}

export interface ModuleDefinition {
  readonly functions: readonly FunctionDefinition[];
  readonly globals: readonly GlobalDefinition[];
  /** One memory of at least `minPages` pages of 64 KiB, exported as `memory` (no maximum). */
  readonly memory: { readonly minPages: number };
}

const MAGIC_AND_VERSION = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]; // §5.5.16: '\0asm', version 1
const FUNCTION_TYPE = 0x60; // §5.3.6
const MUTABLE = 0x01; // §5.3.10
const EXPORT_FUNCTION = 0x00; // §5.5.10 exportdesc
const EXPORT_MEMORY = 0x02;

/** A section (§5.5.2): its id, its size in bytes, its contents. */
const section = (id: number, contents: Bytes): Uint8Array<ArrayBuffer> =>
  concat([[id, ...unsignedLeb128(contents.length)], contents]);

/** A function type (§5.3.6): 0x60, the parameter types, the result types. */
const functionType = (fn: FunctionDefinition): number[] => [
  FUNCTION_TYPE,
  ...vector(fn.params.map((type) => [type])),
  ...vector(fn.results.map((type) => [type])),
];

/** Locals as runs of one type (§5.5.13, 'locals'). */
function localRuns(locals: readonly ValueType[]): number[][] {
  const runs: number[][] = [];
  for (let i = 0; i < locals.length;) {
    let j = i;
    while (j < locals.length && locals[j] === locals[i]) j++;
    runs.push([...unsignedLeb128(j - i), locals[i]!]);
    i = j;
  }
  return runs;
}

/**
 * The module's bytes.
 * @example
 * const bytes = encodeModule({
 *   functions: [{ params: [I32], results: [I32], locals: [], body: code(local.get(0)), export: 'id' }],
 *   globals: [],
 *   memory: { minPages: 1 },
 * });
 * WebAssembly.validate(bytes); // true
 */
export function encodeModule(definition: ModuleDefinition): Uint8Array<ArrayBuffer> {
  const types: string[] = [];
  const typeIndices = definition.functions.map((fn) => {
    const key = functionType(fn).join(',');
    if (!types.includes(key)) types.push(key);
    return types.indexOf(key);
  });
  const exports = definition.functions.flatMap((fn, index) =>
    fn.export === undefined ? [] : [[...name(fn.export), EXPORT_FUNCTION, ...unsignedLeb128(index)]],
  );
  exports.push([...name('memory'), EXPORT_MEMORY, 0]);
  // A global (§5.5.9): its type (§5.3.10) and its initial value, a constant expression (§5.4.9).
  const globals = definition.globals.map((g) => [I32, MUTABLE, ...i32.const(g.initial), ...control.end]);
  const bodies = definition.functions.map((fn) => {
    const code = concat([vector(localRuns(fn.locals)), fn.body, control.end]);
    return concat([unsignedLeb128(code.length), code]);
  });
  return concat([
    MAGIC_AND_VERSION,
    section(1, vector(types.map((key) => key.split(',').map(Number)))), // §5.5.4 type section
    section(3, vector(typeIndices.map((index) => unsignedLeb128(index)))), // §5.5.6 function section
    section(5, vector([[0x00, ...unsignedLeb128(definition.memory.minPages)]])), // §5.5.8, limits {min} (§5.3.7)
    section(6, vector(globals)), // §5.5.9 global section
    section(7, vector(exports)), // §5.5.10 export section
    section(10, vector(bodies)), // §5.5.13 code section
  ]);
}
