/**
 * The lossless JSON value model: what Python's `json.loads` would hold, in JavaScript.
 *
 * | JSON                      | Python        | here                                   |
 * |---------------------------|---------------|----------------------------------------|
 * | integer lexeme (`10`)     | `int`         | `bigint` (exact, any size)             |
 * | `1.0`, `1e5`, `NaN`, `-Infinity` | `float` | `number` (so `1.0` and `1` stay apart) |
 * | string (lone surrogates kept) | `str`     | `string` (UTF-16; lone surrogates kept)|
 * | object                    | `dict`        | `Map` (first position, last value)     |
 * | array                     | `list`        | array                                  |
 *
 * A `Map` keeps a duplicate key at its first position with its last value, which is exactly what
 * a Python `dict` built by `json.loads` does; keys such as `__proto__` are ordinary keys.
 * @module
 */

/** A JSON object: insertion order of first occurrence, last value wins. */
export type JsonObject = Map<string, JsonValue>;

/** A JSON array. */
export type JsonArray = JsonValue[];

/** Any JSON value (see the module table for how numbers are kept). */
export type JsonValue = null | boolean | number | bigint | string | JsonArray | JsonObject;

/**
 * True for a JSON object (`Map`).
 * @example
 * isJsonObject(new Map()); // true
 * isJsonObject([]);        // false
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return value instanceof Map;
}

/**
 * Python's type name of a value, as CPython prints it in error messages.
 * @example
 * pythonTypeName(1n);   // 'int'
 * pythonTypeName(1);    // 'float'
 * pythonTypeName(null); // 'NoneType'
 */
export function pythonTypeName(value: JsonValue): 'int' | 'float' | 'bool' | 'NoneType' | 'str' | 'list' | 'dict' {
  if (value === null) return 'NoneType';
  switch (typeof value) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'str';
    default:
      return Array.isArray(value) ? 'list' : 'dict';
  }
}
