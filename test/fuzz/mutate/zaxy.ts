/**
 * Semantic mutations of a Zaxy bundle or subset that verifies OK (docs/zaxy.md, from 'Shapes' to
 * 'verify_subset order'): change what a hash, the Merkle root or the signature covers, then
 * optionally repair the layers below (entry ids, root, even a fresh signature by an attacker's key)
 * so each layer is reached on its own. Also "controls": edits Zaxy accepts (docs/zaxy.md, 'What the
 * signature does not bind': uppercase signature hex, whitespace between hex pairs, garbage anchor,
 * a proof side "X" for "R"), which must not break a pass.
 * The oracle (oracle/zaxy.ts) decides the claim from the result; these only aim.
 * @module
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { member, parseTree, type JsonNode } from '../json-tree.ts';
import type { Rng } from '../rng.ts';
import { entryId, headerCanonical, leafHash, merkleRoot, zaxyShape } from '../zaxy-model.ts';
import { PythonRaises } from '../python-canonical.ts';
import { mutateJson, type JsonOp, type TextMutation } from './json.ts';

export interface SemanticMutation extends TextMutation {
  /** The mutation is meant to keep a passing artifact passing (a positive control). */
  readonly control?: boolean;
  /** A pin to give the verifier (the original signer's key), when the mutation re-signs. */
  readonly pin?: string;
}

/** Attacker keys, fixed so every run is reproducible. */
const ATTACKER_ED25519 = ed25519.keygen(new Uint8Array(32).fill(0xa7));
let attackerMlDsa: { publicKey: Uint8Array; secretKey: Uint8Array } | undefined;
function mlDsaKeys(): { publicKey: Uint8Array; secretKey: Uint8Array } {
  attackerMlDsa ??= ml_dsa65.keygen(new Uint8Array(32).fill(0x5e));
  return attackerMlDsa;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** Replaces the effective value of a top-level key with JSON text. */
function setTopLevel(text: string, key: string, json: string): string {
  const root = parseTree(text);
  const node = member(root, key);
  if (!node) throw new Error(`no ${key}`);
  return text.slice(0, node.start) + json + text.slice(node.end);
}

/** Rewrites every entry id to match its content (edits applied from the end). */
export function fixIds(text: string): string {
  const root = parseTree(text);
  const entries = member(root, 'entries');
  if (entries?.t !== 'arr') return text;
  const edits: { start: number; end: number; json: string }[] = [];
  for (const entry of entries.items) {
    const content = member(entry, 'content');
    const id = member(entry, 'id');
    if (content && id) edits.push({ start: id.start, end: id.end, json: JSON.stringify(entryId(content)) });
  }
  edits.sort((a, b) => b.start - a.start);
  let out = text;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.json + out.slice(edit.end);
  return out;
}

/** Rewrites `merkle_root` to the root over the current entries. */
export function fixRoot(text: string): string {
  const root = parseTree(text);
  const entries = member(root, 'entries');
  if (entries?.t !== 'arr' || entries.items.length === 0) return text;
  const leaves = entries.items
    .map((entry) => member(entry, 'content'))
    .filter((c): c is JsonNode => c !== undefined)
    .map(leafHash);
  if (leaves.length === 0) return text;
  return setTopLevel(text, 'merkle_root', JSON.stringify(hex(merkleRoot(leaves))));
}

/** Replaces the key with the attacker's and signs the header with it. */
export function resign(text: string): string | undefined {
  const algorithm = member(parseTree(text), 'algorithm');
  if (algorithm?.t !== 'str' || (algorithm.value !== 'ed25519' && algorithm.value !== 'ml-dsa-65')) return undefined;
  const keys = algorithm.value === 'ed25519' ? ATTACKER_ED25519 : mlDsaKeys();
  const withKey = setTopLevel(text, 'public_key', JSON.stringify(hex(keys.publicKey)));
  const header = headerCanonical(parseTree(withKey)!);
  if (header === undefined) return undefined;
  const message = new TextEncoder().encode(header);
  const signature =
    algorithm.value === 'ed25519'
      ? ed25519.sign(message, keys.secretKey)
      : ml_dsa65.sign(message, keys.secretKey, { extraEntropy: false });
  return setTopLevel(withKey, 'signature', JSON.stringify(hex(signature)));
}

const CONTENT_OPS: readonly JsonOp[] = [
  'change-value',
  'string-edit',
  'number-edge',
  'delete-member',
  'insert-member',
  'duplicate-member',
  'swap-items',
  'proto-key',
  'remove-item',
  'copy-subtree',
  'wrap',
];
const HEADER_FIELDS = [
  'algorithm',
  'created_at',
  'merkle_root',
  'nonce',
  'public_key',
  'session_id',
  'version',
] as const;

export const ZAXY_OPS = [
  'content',
  'content',
  'content',
  'header',
  'entries',
  'signature',
  'proof',
  'resign-only',
  'add-disclosed',
  'control',
] as const;
export type ZaxyOp = (typeof ZAXY_OPS)[number];

/**
 * One semantic mutation of a Zaxy fixture that verifies OK.
 * @example
 * mutateZaxy(text, createRng(3, 1), 'content')?.note; // e.g. 'content string-edit $.entries[4].content.payload.x … +
 * fix-id'
 */
export function mutateZaxy(text: string, rng: Rng, op: ZaxyOp = rng.pick(ZAXY_OPS)): SemanticMutation | undefined {
  try {
    return mutateZaxyOnce(text, rng, op);
  } catch (error) {
    // A repair (new ids, root or signature) that Python itself cannot compute, because the
    // mutated content holds a lone surrogate or an int over 4300 digits, is no bundle Zaxy could
    // produce: the mutation does not apply (the case falls back to a byte mutation).
    if (error instanceof PythonRaises) return undefined;
    throw error;
  }
}

function mutateZaxyOnce(text: string, rng: Rng, op: ZaxyOp): SemanticMutation | undefined {
  const root = parseTree(text);
  if (!root || root.t !== 'obj') return undefined;
  const shape = zaxyShape(root);
  const list = member(root, shape === 'bundle' ? 'entries' : 'disclosed');
  const count = list?.t === 'arr' ? list.items.length : 0;
  const originalKey = member(root, 'public_key');
  const pinOriginal = originalKey?.t === 'str' && rng.chance(0.7) ? { pin: originalKey.value } : {};

  switch (op) {
    case 'content': {
      if (count === 0) return undefined;
      const index = rng.int(count);
      const base = [shape === 'bundle' ? 'entries' : 'disclosed', index, 'content'];
      const inner = mutateJson(text, rng, rng.pick(CONTENT_OPS), { under: base, effectiveOnly: true });
      if (!inner) return undefined;
      if (shape === 'subset') return { text: inner.text, note: `content ${inner.note}` };
      // Repair the layers below so the change meets the root, or the signature, on its own.
      const repair = rng.pick(['none', 'fix-id', 'fix-id-root', 'fix-id-root-resign'] as const);
      let out = inner.text;
      if (repair !== 'none') out = fixIds(out);
      if (repair === 'fix-id-root' || repair === 'fix-id-root-resign') out = fixRoot(out);
      if (repair === 'fix-id-root-resign') {
        const signed = resign(out);
        if (!signed) return undefined;
        return { text: signed, note: `content ${inner.note} + ${repair}`, ...pinOriginal };
      }
      return { text: out, note: `content ${inner.note} + ${repair}` };
    }
    case 'header': {
      const field = rng.pick(HEADER_FIELDS);
      const inner = mutateJson(text, rng, rng.pick(['string-edit', 'string-edit', 'change-value'] as const), {
        under: [field],
        effectiveOnly: true,
      });
      if (!inner) return undefined;
      if (rng.chance(0.3)) {
        const signed = resign(inner.text);
        if (signed) return { text: signed, note: `header ${inner.note} + resign`, ...pinOriginal };
      }
      return { text: inner.text, note: `header ${inner.note}` };
    }
    case 'entries': {
      if (shape !== 'bundle' || count === 0) return undefined;
      const inner = mutateJson(
        text,
        rng,
        rng.pick(['remove-item', 'swap-items', 'copy-subtree', 'empty-container'] as const),
        { under: ['entries'], effectiveOnly: true },
      );
      if (!inner) return undefined;
      const repair = rng.pick(['none', 'fix-root', 'fix-root-resign'] as const);
      let out = inner.text;
      if (repair !== 'none') out = fixRoot(out);
      if (repair === 'fix-root-resign') {
        const signed = resign(out);
        if (!signed) return undefined;
        return { text: signed, note: `entries ${inner.note} + ${repair}`, ...pinOriginal };
      }
      return { text: out, note: `entries ${inner.note} + ${repair}` };
    }
    case 'signature': {
      const signature = member(root, 'signature');
      if (signature?.t !== 'str' || signature.value.length < 2) return undefined;
      const value = signature.value;
      const at = rng.int(value.length);
      const digit = '0123456789abcdef'[(parseInt(value[at]!, 16) + 1 + rng.int(15)) % 16]!;
      const variants: [string, string][] = [
        [value.slice(0, at) + digit + value.slice(at + 1), `hex digit ${at} changed`],
        [value.slice(0, value.length - 2), 'last byte removed'],
        [value + '00', 'byte appended'],
        ['', 'emptied'],
      ];
      const [changed, what] = rng.pick(variants);
      return { text: setTopLevel(text, 'signature', JSON.stringify(changed)), note: `signature ${what}` };
    }
    case 'proof': {
      if (shape !== 'subset' || count === 0) return undefined;
      const index = rng.int(count);
      const inner = mutateJson(
        text,
        rng,
        rng.pick(['string-edit', 'remove-item', 'swap-items', 'copy-subtree', 'change-value'] as const),
        { under: ['disclosed', index, 'proof'], effectiveOnly: true },
      );
      return inner ? { text: inner.text, note: `proof ${inner.note}` } : undefined;
    }
    case 'resign-only': {
      const signed = resign(text);
      return signed
        ? { text: signed, note: 'resign with the attacker key', ...pinOriginal, control: !('pin' in pinOriginal) }
        : undefined;
    }
    case 'add-disclosed': {
      if (shape !== 'bundle') return undefined;
      // A bundle that also carries `disclosed` is judged as a subset (docs/zaxy.md, 'Telling the
      // shapes apart'): an empty list verifies OK.
      const at = root.start + 1;
      const empty = rng.chance(0.5);
      const first = list?.t === 'arr' ? list.items[0] : undefined;
      const content = first ? member(first, 'content') : undefined;
      const disclosed =
        empty || !content
          ? '[]'
          : `[{"index":0,"content":${text.slice(content.start, content.end).replace(/"/, '"x')},"proof":[]}]`;
      return {
        text: text.slice(0, at) + `"disclosed":${disclosed},` + text.slice(at),
        note: `add disclosed ${empty ? '[]' : 'with a forged element'}`,
        control: disclosed === '[]',
      };
    }
    case 'control': {
      const choices: (() => SemanticMutation | undefined)[] = [
        () => {
          const signature = member(root, 'signature');
          return signature?.t === 'str'
            ? {
                text: setTopLevel(text, 'signature', JSON.stringify(signature.value.toUpperCase())),
                note: 'control: signature hex uppercased',
                control: true,
              }
            : undefined;
        },
        () => {
          const signature = member(root, 'signature');
          if (signature?.t !== 'str') return undefined;
          const spaced = signature.value.replace(
            /(..)(?=.)/g,
            (pair) => pair + (rng.chance(0.05) ? rng.pick([' ', '\n', '\t']) : ''),
          );
          return {
            text: setTopLevel(text, 'signature', JSON.stringify(spaced)),
            note: 'control: whitespace between signature hex pairs',
            control: true,
          };
        },
        () =>
          shape === 'bundle' && member(root, 'anchor')
            ? {
                text: setTopLevel(
                  text,
                  'anchor',
                  rng.pick(['{"type":"stub","commitment":"00"}', '"garbage"', '[1,2]', '{"__proto__":{"x":1}}']),
                ),
                note: 'control: anchor replaced',
                control: true,
              }
            : undefined,
        () => {
          const at = root.start + 1;
          return {
            text:
              text.slice(0, at) +
              `"x_unknown_field":${rng.pick(['1', '{"__proto__":{"polluted":true}}', '"ok"'])},` +
              text.slice(at),
            note: 'control: unknown top-level field',
            control: true,
          };
        },
        () => {
          if (shape !== 'subset') return undefined;
          const sides = [...text.matchAll(/"R"\s*\]/g)];
          if (sides.length === 0) return undefined;
          const hit = rng.pick(sides);
          return {
            text: text.slice(0, hit.index) + '"X"' + text.slice(hit.index + 3),
            note: 'control: proof side "R" -> "X"',
            control: true,
          };
        },
      ];
      return rng.pick(choices)();
    }
  }
}
