#!/usr/bin/env python3
"""Generates the kit's own Zaxy edge-case vectors (test/vectors/zaxy/*.json + vectors.json).

Each vector is a file named by the mutation it applies to a small signed bundle or subset:
shapes Python iterates oddly, CPython exception texts, repr() of odd versions, lone surrogates,
header fields of other types, duplicate keys, Python-only number tokens. The shared fixtures
(test/fixtures/zaxy) cover the common cases; these cover, one by one, the Python behaviours that
docs/zaxy.md describes ('Canonical JSON', 'Signing header', 'verify_export order', 'verify_subset
order', 'Python texts').

Expected verdicts are recorded by running Zaxy's own, unchanged `verify_export` /
`verify_subset` (syndicalt/zaxy `src/zaxy/portable/{export,merkle,signing}.py`, version-checked
revision) on the written bytes under CPython 3.11 with pyca/cryptography, reading each file the way
Zaxy's CLI does (UTF-8 text, `json.loads`). Zaxy's code is not part of this repository: point
PYTHONPATH at a checkout of its `src/` to regenerate:

    PYTHONPATH=/path/to/zaxy/src python3 test/vectors/zaxy/generate.py

Documents Zaxy never reaches its verifier with (not JSON, invalid UTF-8, too deep, not an object)
get `"source": "kit"` and the start of the kit's own reason instead.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys

from cryptography.hazmat.primitives.asymmetric import ed25519
from zaxy.portable.export import verify_export, verify_subset  # Zaxy's reference (see module doc)

HERE = os.path.dirname(os.path.abspath(__file__))
KEY = ed25519.Ed25519PrivateKey.from_private_bytes(bytes(range(32)))  # fixed, test-only key
PUBLIC = KEY.public_key().public_bytes_raw().hex()
VECTORS: list[dict] = []


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def leaf(content) -> bytes:
    return hashlib.sha256(b"\x00" + canonical(content)).digest()


def node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_of(leaves: list[bytes]) -> bytes:
    layer = list(leaves)
    while len(layer) > 1:
        layer = [node(layer[i], layer[i + 1]) if i + 1 < len(layer) else layer[i] for i in range(0, len(layer), 2)]
    return layer[0]


def proof_of(leaves: list[bytes], index: int) -> list[list[str]]:
    proof, layer, position = [], list(leaves), index
    while len(layer) > 1:
        partner = position ^ 1
        if partner < len(layer):
            proof.append([layer[partner].hex(), "R" if position % 2 == 0 else "L"])
        layer = [node(layer[i], layer[i + 1]) if i + 1 < len(layer) else layer[i] for i in range(0, len(layer), 2)]
        position //= 2
    return proof


def entry(seq: int, title: str, **payload) -> dict:
    citation = f"eventloom://vec/events/{seq}#{hashlib.sha256(str(seq).encode()).hexdigest()}"
    return {
        "schema_version": "zaxy.export.v1",
        "grain": "event",
        "kind": "goal.created",
        "citation": citation,
        "seq": seq,
        "valid_from": f"2026-06-0{seq}T00:00:00+00:00",
        "valid_to": None,
        "source": "eventloom",
        "content": {"type": "goal.created", "actor": "claude", "thread": "vec", "payload": {"title": title, **payload}},
    }


CONTENTS = [entry(1, "one"), entry(2, "two", score=0.5), entry(3, "three")]


def header_of(doc: dict) -> bytes:
    fields = ("version", "algorithm", "public_key", "session_id", "created_at", "nonce", "merkle_root")
    return canonical({name: doc[name] for name in fields})


def sign(doc: dict) -> dict:
    """Signs the header of `doc` as it stands (whatever the field values are)."""
    doc["signature"] = KEY.sign(header_of(doc)).hex()
    return doc


def bundle(contents=None) -> dict:
    contents = CONTENTS if contents is None else contents
    doc = {
        "version": "zaxy.portable.v1",
        "algorithm": "ed25519",
        "public_key": PUBLIC,
        "session_id": "vec",
        "created_at": "2026-06-15T00:00:00+00:00",
        "nonce": "00112233445566778899aabbccddeeff",
        "merkle_root": root_of([leaf(c) for c in contents]).hex(),
        "anchor": None,
        "entries": [{"id": hashlib.sha256(canonical(c)).hexdigest(), "content": c} for c in contents],
    }
    return sign(doc)


def subset(indices=(0, 2), contents=None) -> dict:
    contents = CONTENTS if contents is None else contents
    leaves = [leaf(c) for c in contents]
    b = bundle(contents)
    doc = {k: b[k] for k in ("version", "algorithm", "public_key", "session_id", "created_at", "nonce", "merkle_root", "signature")}
    doc["disclosed"] = [{"index": i, "content": contents[i], "proof": proof_of(leaves, i)} for i in indices]
    return doc


def add(name: str, desc: str, doc=None, *, text: str | None = None, raw: bytes | None = None, pin: str | None = None, kit_reason: str | None = None) -> None:
    """Writes one vector and records Zaxy's verdict for it (or the kit's, when Zaxy cannot read it)."""
    if raw is None:
        raw = (text if text is not None else json.dumps(doc, indent=2, ensure_ascii=False)).encode("utf-8", "surrogatepass")
    file = f"{name}.json"
    with open(os.path.join(HERE, file), "wb") as handle:
        handle.write(raw)
    vector = {"file": file, "desc": desc, "expect_public_key": pin}
    try:
        loaded = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # never reaches Zaxy's verifier
        vector.update(source="kit", expected={"ok": False, "reason_starts_with": kit_reason or "cannot read the bundle:"}, python=f"{type(exc).__name__}: {exc}")
        VECTORS.append(vector)
        return
    if not isinstance(loaded, dict):
        vector.update(source="kit", expected={"ok": False, "reason_starts_with": kit_reason or "not a Zaxy bundle:"})
        VECTORS.append(vector)
        return
    # docs/zaxy.md, 'Telling the shapes apart': disclosed → subset; entries → bundle; else no anchor
    # → subset; else bundle.
    is_subset = "disclosed" in loaded or ("entries" not in loaded and "anchor" not in loaded)
    verdict = (verify_subset if is_subset else verify_export)(loaded, expect_public_key=pin)
    vector.update(source="zaxy", shape="subset" if is_subset else "signed", expected=verdict)
    VECTORS.append(vector)


def dumps(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)


def resealed(text: str, original: dict) -> str:
    """`text` (a bundle edited as text) with ids, root and signature redone over what Python reads."""
    loaded = json.loads(text)
    contents = [e["content"] for e in loaded["entries"]]
    for old, content in zip(original["entries"], contents):
        text = text.replace(old["id"], hashlib.sha256(canonical(content)).hexdigest(), 1)
    text = text.replace(original["merkle_root"], root_of([leaf(c) for c in contents]).hex(), 1)
    return text.replace(original["signature"], KEY.sign(header_of(json.loads(text))).hex(), 1)


def main() -> None:
    for old in os.listdir(HERE):
        if old.endswith(".json"):
            os.remove(os.path.join(HERE, old))

    add("bundle-valid", "untouched 3-entry bundle", bundle(), pin=PUBLIC)

    # docs/zaxy.md, 'verify_export order', step 3: entries iterated the Python way.
    for label, value in [("string", "abc"), ("empty-string", ""), ("empty-object", {}), ("object", {"a": 1}), ("int", 5), ("null", None), ("float", 1.5), ("true", True)]:
        doc = bundle()
        doc["entries"] = value
        add(f"bundle-entries-{label}", f"entries is {label}", doc)
    for label, value in [("int", 5), ("list", [1]), ("string", "x"), ("null", None), ("bool", False), ("float", 2.5)]:
        doc = bundle()
        doc["entries"][1] = value
        add(f"bundle-entry-{label}", f"entries[1] is {label}", doc)
    doc = bundle()
    del doc["entries"][2]["id"]
    add("bundle-entry-missing-id", "entries[2] has no id", doc)
    doc = bundle()
    doc["entries"][0]["id"] = 7
    add("bundle-entry-id-int", "entries[0].id is an int", doc)
    doc = bundle()
    doc["entries"][0]["id"] = "0x" + doc["entries"][0]["id"]
    doc["entries"][2] = 5
    add("bundle-gather-before-id", "entries[2] not an object and entries[0].id wrong: the content gather fails first", doc)
    doc = bundle()
    del doc["entries"][1]["content"]
    del doc["entries"][0]["id"]
    add("bundle-missing-content-before-id", "entries[0] lacks id, entries[1] lacks content: content first", doc)

    # Lone surrogates (escaped in the file): Python raises UnicodeEncodeError when hashing.
    base = dumps(bundle())
    add("bundle-surrogate-in-content", "a lone high surrogate in entries[1].content",
        text=base.replace('"title": "two"', '"title": "tw\\ud800o"', 1))
    add("bundle-surrogate-run", "two adjacent lone surrogates, after an astral character",
        text=base.replace('"title": "two"', '"title": "\\ud83d\\ude00x\\udc00\\ud800y"', 1))
    add("bundle-surrogate-key", "a lone surrogate in a key",
        text=base.replace('"title": "two"', '"ti\\udfffle": "two"', 1))
    add("bundle-surrogate-after-id-mismatch", "entries[0].id wrong and a surrogate in entries[2]: the id decides",
        text=base.replace('"title": "three"', '"title": "\\udbff"', 1).replace('"id": "', '"id": "X', 1))
    add("bundle-surrogate-pair", "an escaped surrogate pair (one character) replaces a title: the id no longer matches",
        text=base.replace('"title": "two"', '"title": "\\ud83d\\ude00"', 1))

    # repr() of odd versions.
    for label, value in [("int", 1), ("float", 1.0), ("true", True), ("null", None), ("list", ["zaxy.portable.v1"]), ("dict", {"b": 1, "a": [2.5, None]}),
                         ("quote", "it's"), ("both-quotes", "it's \"x\""), ("control", "a\x00b\x7f"), ("line-sep", "a\u2028b"), ("unicode15", "\U0001fae8"),
                         ("cjk", "版本"), ("big-float", 1e16), ("small-float", 1e-7), ("uppercase", "ZAXY.PORTABLE.V1")]:
        doc = bundle()
        doc["version"] = value
        add(f"version-{label}", f"version is {label}", doc)
    add("version-nan", "version is NaN", text=dumps(bundle()).replace('"version": "zaxy.portable.v1"', '"version": NaN', 1))
    add("version-neg-infinity", "version is -Infinity", text=dumps(bundle()).replace('"version": "zaxy.portable.v1"', '"version": -Infinity', 1))
    add("version-dict-duplicate-key", "a dict version with a duplicate key: first position, last value",
        text=dumps(bundle()).replace('"version": "zaxy.portable.v1"', '"version": {"k": 1, "j": 2, "k": 3}', 1))
    add("version-surrogate", "version with a lone surrogate", text=dumps(bundle()).replace('"version": "zaxy.portable.v1"', '"version": "v\\udc80"', 1))
    add("version-duplicate-last-wins", "version given twice; the last (valid) wins",
        text=dumps(bundle()).replace('"version": "zaxy.portable.v1"', '"version": "nope", "version": "zaxy.portable.v1"', 1), pin=PUBLIC)

    # Pins.
    add("pin-empty", "an empty pin never matches", bundle(), pin="")
    add("pin-whitespace", "a pin with a trailing space", bundle(), pin=PUBLIC + " ")

    # Header and signature step (ids and root are right, so Zaxy gets there).
    for field in ("algorithm", "public_key", "signature", "session_id", "created_at", "nonce"):
        doc = bundle()
        del doc[field]
        add(f"bundle-missing-{field}", f"no {field}", doc)
    doc = bundle()
    del doc["merkle_root"]
    add("bundle-missing-merkle_root", "no merkle_root", doc)
    for field, value in [("public_key", 12), ("public_key", None), ("signature", ["ab"]), ("signature", 1.5)]:
        doc = bundle()
        doc[field] = value
        add(f"bundle-{field}-{type(value).__name__}", f"{field} is a {type(value).__name__}", doc)
    doc = bundle()
    doc["public_key"] = "é" + PUBLIC[1:]
    add("bundle-public_key-non-ascii", "a non-ASCII character in public_key", doc)
    doc = bundle()
    doc["public_key"] = "zz" + PUBLIC[2:10] + "é" + PUBLIC[11:]
    add("bundle-public_key-non-ascii-after-bad-hex", "bad hex first, non-ASCII later: CPython reports the non-ASCII position", doc)
    doc = bundle()
    doc["signature"] = doc["signature"][:10] + " " + doc["signature"][10:]
    add("bundle-signature-space-between-pairs", "whitespace between byte pairs is accepted", doc)
    doc = bundle()
    doc["signature"] = doc["signature"][:11] + " " + doc["signature"][11:]
    add("bundle-signature-space-inside-pair", "whitespace inside a byte pair", doc)
    doc = bundle()
    doc["signature"] = "\t" + doc["signature"].upper() + "\n\x0b\x0c"
    add("bundle-signature-python-whitespace", "tab, newline, VT and FF around an uppercase signature", doc)
    doc = bundle()
    doc["algorithm"] = 7
    add("bundle-algorithm-int", "algorithm is an int (unknown, checked last)", sign(doc))
    doc = bundle()
    doc["session_id"] = {"id": 5, "tags": [1.0, None]}
    add("bundle-session-object-signed", "session_id is an object, signed that way", sign(doc), pin=PUBLIC)
    doc = bundle()
    doc["created_at"] = 1e16
    add("bundle-created-float-signed", "created_at is a float, signed that way", sign(doc))
    add("bundle-session-surrogate", "a lone surrogate in session_id (header canonicalisation fails)",
        text=dumps(bundle()).replace('"session_id": "vec"', '"session_id": "v\\ud800\\ud801"', 1))
    doc = bundle()
    doc["merkle_root"] = doc["merkle_root"].upper()
    add("bundle-merkle-root-upper-signed", "uppercase merkle_root, even when signed that way, mismatches", sign(doc))
    doc = bundle()
    doc["merkle_root"] = 5
    add("bundle-merkle-root-int", "merkle_root is an int", doc)

    # Python-only number tokens, big ints, floats, duplicate keys, escapes: all signed, all OK.
    contents = [entry(1, "nums", big=2**70, neg=-(10**30), f=1e16, g=1e-7, z=-0.0, e=1e22, h=123456789.125)]
    add("bundle-numbers", "big ints and floats that JavaScript would print differently", bundle(contents), pin=PUBLIC)
    odd = bundle([entry(1, "tokens")])
    text = dumps(odd).replace('"title": "tokens"', '"title": "tokens", "n": NaN, "i": Infinity, "m": -Infinity, "d": 1E2, "x": -0, "y": 0.1e1, "w": 1.50, "v": 1e400', 1)
    add("bundle-python-tokens", "NaN, Infinity, -Infinity, 1E2, -0, 0.1e1, 1.50, 1e400 in a payload", text=resealed(text, odd), pin=PUBLIC)
    dup = bundle([entry(1, "dup", k="first")])
    text = dumps(dup).replace('"k": "first"', '"k": "first", "k": "second"', 1)
    add("bundle-duplicate-key-last-wins", "a duplicate key inside content: the last value is hashed", text=resealed(text, dup), pin=PUBLIC)
    keys = bundle([entry(1, "keys", **{"\uff01": 1, "\U0001f600": 2, "\ue000": 3, "a\u00e9": 4, "ae\u0301": 5})])
    add("bundle-key-order-code-points", "keys U+FF01, U+1F600, U+E000 and NFC/NFD forms: code-point order", keys, pin=PUBLIC)
    esc = bundle([entry(1, "esc")])
    text = dumps(esc).replace('"title": "esc"', '"title": "esc", "s": "\\u00e9\\/\\u0001\\u001f\\b\\f\\n\\r\\t\\"\\\\\\u2028\\ud83d\\ude00\\u007f"', 1)
    add("bundle-escapes", "every JSON escape, re-emitted Python's way", text=resealed(text, esc), pin=PUBLIC)

    # Subsets.
    add("subset-valid", "untouched subset of entries 0 and 2", subset(), pin=PUBLIC)
    for label, value in [("string", "ab"), ("empty-string", ""), ("empty-object", {}), ("object", {"x": 1}), ("int", 3), ("null", None)]:
        doc = subset()
        doc["disclosed"] = value
        add(f"subset-disclosed-{label}", f"disclosed is {label}", doc)
    for label, value in [("int", 4), ("list", []), ("string", "d"), ("null", None)]:
        doc = subset()
        doc["disclosed"][1] = value
        add(f"subset-element-{label}", f"disclosed[1] is {label}", doc)
    for field in ("content", "proof"):
        doc = subset()
        del doc["disclosed"][0][field]
        add(f"subset-element-missing-{field}", f"disclosed[0] has no {field}", doc)
    for label, proof in [("int", 5), ("null", None), ("string", "ab"), ("object", {"k": 1}), ("empty-string", "")]:
        doc = subset()
        doc["disclosed"][0]["proof"] = proof
        add(f"subset-proof-{label}", f"disclosed[0].proof is {label}", doc)
    for label, step in [("int", 9), ("empty", []), ("one", ["ab"]), ("three", ["ab", "L", 1]), ("string-2", "xy"), ("object-2", {"ab": 1, "cd": 2}),
                        ("sibling-int", [12, "L"]), ("sibling-odd", ["abc", "L"]), ("sibling-null", [None, "R"])]:
        doc = subset()
        doc["disclosed"][0]["proof"][0] = step
        add(f"subset-step-{label}", f"disclosed[0].proof[0] is {label}", doc)
    doc = subset()
    doc["disclosed"][0]["proof"][1] = 5
    doc["disclosed"][0]["proof"][0][0] = "zz"
    add("subset-step-order", "step 0 has bad hex and step 1 cannot unpack: step 0 first", doc)
    for label, index in [("float", 2.0), ("true", True), ("null", None), ("list", [1, "a"]), ("dict", {"a": 1}), ("string", "two"), ("big", 10**20), ("negative", -1)]:
        doc = subset()
        doc["disclosed"][0]["index"] = index
        doc["disclosed"][0]["proof"][0][1] = "R" if doc["disclosed"][0]["proof"][0][1] == "L" else "L"
        add(f"subset-failing-index-{label}", f"a failing proof whose index is {label}", doc)
    doc = subset()
    del doc["disclosed"][1]["index"]
    doc["disclosed"][1]["proof"] = []
    add("subset-failing-index-missing", "a failing proof without an index", doc)
    doc = subset()
    doc["disclosed"][1]["proof"] = []
    doc["disclosed"][0]["proof"] = 5
    add("subset-error-before-failure", "element 0 malformed, element 1 fails: element 0 first", doc)
    doc = subset()
    doc["merkle_root"] = "zz" + doc["merkle_root"][2:]
    add("subset-merkle-root-bad-hex-signed", "merkle_root not hex, signed that way", sign(doc))
    doc = subset()
    doc["merkle_root"] = doc["merkle_root"][:62]
    add("subset-merkle-root-short-signed", "merkle_root one byte short, signed that way: every proof fails", sign(doc))
    doc = subset()
    doc["merkle_root"] = doc["merkle_root"].upper()
    add("subset-merkle-root-upper-signed", "uppercase merkle_root signed that way: decoded case-insensitively, OK", sign(doc), pin=PUBLIC)
    doc = subset()
    doc["disclosed"][0]["proof"][0][0] = doc["disclosed"][0]["proof"][0][0] + "00"
    add("subset-sibling-long", "a sibling one byte too long is hashed as is: fails", doc)
    add("subset-content-surrogate", "a lone surrogate in a disclosed content",
        text=dumps(subset()).replace('"title": "one"', '"title": "o\\udfffne"', 1))
    doc = subset()
    del doc["disclosed"]
    del doc["signature"]
    add("subset-no-disclosed-no-signature", "no disclosed, no anchor, no signature: a subset missing its signature", doc)
    doc = subset()
    doc["algorithm"] = "ml-dsa-65"
    add("subset-algorithm-swapped", "algorithm label changed to ml-dsa-65", sign(doc))
    doc = subset()
    moved = {k: v for k, v in doc.items() if k != "merkle_root"}
    moved["merkle_root"] = doc["merkle_root"]
    add("subset-merkle-root-after-disclosed", "merkle_root written after disclosed", moved, pin=PUBLIC)
    text = dumps(moved).replace('"disclosed": [', '"merkle_root": "zz", "disclosed": [', 1)
    add("subset-merkle-root-twice-bad-first", "merkle_root given twice: an undecodable one before disclosed, the signed one last", text=text, pin=PUBLIC)
    other = subset(contents=[entry(7, "other")], indices=(0,))["merkle_root"]
    text = dumps(moved).replace('"disclosed": [', f'"merkle_root": "{other}", "disclosed": [', 1)
    add("subset-merkle-root-twice-other-first", "merkle_root given twice: another valid root before disclosed, the signed one last", text=text, pin=PUBLIC)

    # Inputs that never reach Zaxy's verifier (source: kit).
    good = dumps(bundle()).encode("utf-8")
    add("kit-bom", "a UTF-8 BOM before the document", raw=b"\xef\xbb\xbf" + good)
    add("kit-invalid-utf8", "an invalid UTF-8 byte inside a string", raw=good.replace(b'"vec"', b'"v\xffc"', 1))
    add("kit-syntax-trailing-comma", "a trailing comma", raw=good.replace(b'"anchor": null,', b'"anchor": null,,', 1))
    add("kit-raw-control", "a raw tab inside a string", raw=good.replace(b'"vec"', b'"v\tc"', 1))
    add("kit-int-4301-digits", "an integer literal of 4301 digits", raw=good.replace(b'"anchor": null', b'"anchor": ' + b"7" * 4301, 1))
    add("kit-deep-nesting", "1000 nested arrays in the anchor", raw=good.replace(b'"anchor": null', b'"anchor": ' + b"[" * 1000 + b"]" * 1000, 1))
    add("kit-top-level-array", "a top-level array", raw=b"[" + good + b"]")
    add("kit-top-level-string", "a top-level string", raw=b'"zaxy.portable.v1"')
    add("kit-empty", "an empty file", raw=b"")
    add("ok-int-4300-digits", "an integer literal of exactly 4300 digits in the anchor is fine",
        raw=good.replace(b'"anchor": null', b'"anchor": ' + b"7" * 4300, 1), pin=PUBLIC)
    add("ok-nesting-900", "900 nested arrays in the anchor are fine", raw=good.replace(b'"anchor": null', b'"anchor": ' + b"[" * 900 + b"]" * 900, 1), pin=PUBLIC)

    with open(os.path.join(HERE, "vectors.json"), "w", encoding="utf-8") as handle:
        json.dump({"generator": "test/vectors/zaxy/generate.py", "reference": "Zaxy verify_export/verify_subset (export.py version-checked), CPython "
                   + sys.version.split()[0], "public_key": PUBLIC, "vectors": VECTORS}, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    print(f"{len(VECTORS)} vectors")


if __name__ == "__main__":
    main()
