#!/usr/bin/env python3
"""Generates canonical-JSON vectors: random JSON documents (as text, with the lexemes, escapes and
key orders a hand-written or non-Python producer might use) and the bytes Python's
`json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False)` gives
for them, or the UnicodeEncodeError text when they hold lone surrogates.

    python3 test/vectors/zaxy/canonical/generate.py    # CPython 3.11, fixed seed

Writes `vectors.json`: [{text, canonical | error}], plus `pretty` (json.dumps(indent=2,
ensure_ascii=False) of the loaded value, key order kept) for the disclosure writer.
"""
from __future__ import annotations

import json
import math
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20260615)

KEY_POOL = ["a", "b", "B", "é", "e\u0301", "\uff01", "\U0001f600", "\ue000", "\ud7ff", "", "a\x00", "z", "aa", "ab", "\u2028", "k\"q", "\\", "/", "ß", "\U00010000"]


def random_float() -> str:
    choice = rng.random()
    if choice < 0.25:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isnan(value) or math.isinf(value):
            value = 1.5
        return repr(value)
    if choice < 0.5:
        return rng.choice(["1.0", "100.0", "1e15", "1e16", "1E16", "1e-5", "1e-7", "0.0001", "5e-324", "-0.0", "0.1e1", "2E0", "1.50", "1e400", "-1e400", "1e-400",
                           "123456789012345678901234567890.0", "1.2345678901234568e20", "0.30000000000000004", "9007199254740993.0", "1e21", "1e22", "1.7976931348623157e308"])
    mantissa = f"{rng.randint(0, 10**rng.randint(1, 19))}"
    frac = f".{rng.randint(0, 10**rng.randint(1, 8)):0{rng.randint(1, 9)}d}" if rng.random() < 0.7 else ""
    exp = f"{rng.choice('eE')}{rng.choice(['', '+', '-'])}{rng.randint(0, 330)}" if rng.random() < 0.4 or not frac else ""
    return f"{rng.choice(['', '-'])}{mantissa}{frac}{exp}"


def random_int() -> str:
    digits = rng.choice([1, 2, 5, 16, 17, 19, 20, 30, 60])
    value = rng.randint(0, 10**digits)
    return rng.choice(["", "-"]) + str(value)


def random_string_body() -> str:
    parts = []
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        if kind < 0.3:
            parts.append(rng.choice(["plain", "é", "版本", "\U0001f600", "\u2028", "/", "'", "\x7f", "\ue000", "\uffff"]))
        elif kind < 0.55:
            parts.append(rng.choice(["\\n", "\\t", "\\b", "\\f", "\\r", "\\\"", "\\\\", "\\/", "\\u0000", "\\u001f", "\\u00e9", "\\u2028", "\\uD83D\\uDE00", "\\u0041"]))
        elif kind < 0.62:
            parts.append(rng.choice(["\\ud800", "\\udfff", "\\udc00\\ud800", "\\ud83d", "\\ud83dx"]))
        else:
            parts.append("".join(rng.choice("abc xyz019") for _ in range(rng.randint(1, 8))))
    return "".join(parts)


def escape_key(key: str) -> str:
    return json.dumps(key, ensure_ascii=rng.random() < 0.3)[1:-1]


def random_value(depth: int) -> str:
    kind = rng.random()
    if depth > 4 or kind < 0.35:
        return rng.choice([random_int, random_float, lambda: f'"{random_string_body()}"', lambda: rng.choice(["true", "false", "null", "NaN", "Infinity", "-Infinity"])])()
    ws = rng.choice(["", " ", "\n  ", "\t"])
    if kind < 0.65:
        items = [random_value(depth + 1) for _ in range(rng.randint(0, 5))]
        return "[" + ws + ("," + ws).join(items) + ws + "]"
    members = []
    for _ in range(rng.randint(0, 6)):
        key = rng.choice(KEY_POOL) if rng.random() < 0.7 else random_string_body()
        members.append(f'"{escape_key(key) if key in KEY_POOL else key}"{rng.choice([":", ": ", " : "])}{random_value(depth + 1)}')
    return "{" + ws + ("," + ws).join(members) + ws + "}"


def main() -> None:
    vectors = []
    while len(vectors) < 400:
        text = random_value(0)
        try:
            value = json.loads(text)
        except ValueError:
            continue
        entry = {"text": text}
        dumped = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        try:
            entry["canonical"] = dumped.encode("utf-8").decode("utf-8")
            entry["pretty"] = json.dumps(value, indent=2, ensure_ascii=False)
        except UnicodeEncodeError as exc:
            entry.pop("canonical", None)
            entry["error"] = str(exc)
        vectors.append(entry)
    with open(os.path.join(HERE, "vectors.json"), "w", encoding="utf-8") as handle:
        json.dump({"generator": "test/vectors/zaxy/canonical/generate.py", "vectors": vectors}, handle, indent=1, ensure_ascii=True)
        handle.write("\n")
    print(len(vectors), "vectors,", sum("error" in v for v in vectors), "with lone surrogates")


if __name__ == "__main__":
    main()
