/**
 * Semantic mutations of an AgentXchain export (docs/agentxchain.md §4): change the decoded bytes
 * of a `content_base64` (digest left as is, or with `bytes`/`data` repaired so only the digest
 * disagrees), change `data` against its content, or — as controls — add base64 junk the
 * reference skips, switch to the url-safe alphabet, or re-seal a file completely (no signature:
 * a full re-seal is undetectable by design). The oracle (oracle/agentxchain.ts) decides claims.
 * @module
 */
import { createHash } from 'node:crypto';
import { parseTree, walk, type JsonNode, type JsonObject, type TreePath, member } from '../json-tree.ts';
import type { Rng } from '../rng.ts';
import { mutateBytes } from './bytes.ts';
import { mutateJson } from './json.ts';
import { trimEnd } from './lines.ts';
import type { SemanticMutation } from './zaxy.ts';

/** A file entry with string content: where it is and its parts. */
interface FileEntry {
  readonly path: TreePath;
  readonly node: JsonObject;
  readonly format: string;
  readonly content: JsonNode & { t: 'str' };
}

/** Every `files[k]` entry with string `content_base64`, in the export and in child exports. */
function fileEntries(root: JsonNode): FileEntry[] {
  const out: FileEntry[] = [];
  for (const { node, path, effective } of walk(root)) {
    if (!effective || node.t !== 'obj' || path.length < 2 || path[path.length - 2] !== 'files') continue;
    // files at the top, or under repos.<id>.export (any depth of coordinators).
    const parentPath = path.slice(0, -2);
    const topLevel = parentPath.length === 0;
    const child =
      parentPath.length >= 3 &&
      parentPath[parentPath.length - 1] === 'export' &&
      parentPath[parentPath.length - 3] === 'repos';
    if (!topLevel && !child) continue;
    const content = member(node, 'content_base64');
    const format = member(node, 'format');
    if (content?.t === 'str' && format?.t === 'str')
      out.push({ path, node, format: format.value, content: content as JsonNode & { t: 'str' } });
  }
  return out;
}

function replaceMember(text: string, entry: JsonObject, key: string, json: string): string {
  const node = member(entry, key);
  if (!node) return text;
  return text.slice(0, node.start) + json + text.slice(node.end);
}

/** Applies several member replacements of one entry, last position first. */
function replaceMembers(text: string, entry: JsonObject, values: Record<string, string>): string {
  const edits = Object.entries(values)
    .map(([key, json]) => ({ node: member(entry, key), json }))
    .filter((edit): edit is { node: JsonNode; json: string } => edit.node !== undefined)
    .sort((a, b) => b.node.start - a.node.start);
  let out = text;
  for (const { node, json } of edits) out = out.slice(0, node.start) + json + out.slice(node.end);
  return out;
}

/** The `data` the writer would store for decoded content (§4.10), as JSON text; undefined if unparsable. */
function dataFor(format: string, raw: string): string | undefined {
  try {
    if (format === 'text') return JSON.stringify(raw);
    if (format === 'json') return JSON.stringify(JSON.parse(raw));
    return JSON.stringify(
      raw
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as unknown),
    );
  } catch {
    return undefined;
  }
}

export const AGENTXCHAIN_OPS = ['content', 'content', 'data', 'data', 'digest', 'control'] as const;
export type AgentxchainOp = (typeof AGENTXCHAIN_OPS)[number];

const describe = (path: TreePath): string =>
  '$' + path.map((s) => (typeof s === 'number' ? `[${s}]` : `[${JSON.stringify(s)}]`)).join('');

/**
 * One semantic mutation of an AgentXchain export.
 * @example
 * mutateAgentxchain(text, createRng(5, 2), 'content')?.note; // e.g. 'content $["files"]["agentxchain.json"] flip-bit …
 * (digest kept)'
 */
export function mutateAgentxchain(
  text: string,
  rng: Rng,
  op: AgentxchainOp = rng.pick(AGENTXCHAIN_OPS),
): SemanticMutation | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  const entries = fileEntries(root);
  if (entries.length === 0) return undefined;
  const entry = rng.pick(entries);
  const decoded = Buffer.from(entry.content.value, 'base64');
  const where = describe(entry.path);

  switch (op) {
    case 'content': {
      // Change the covered bytes: at the byte level, or as JSON inside the decoded file.
      let changed: Uint8Array;
      let what: string;
      const asJson =
        entry.format !== 'text' && rng.chance(0.5)
          ? mutateJson(
              decoded.toString('utf8'),
              rng,
              rng.pick(['change-value', 'string-edit', 'number-edge', 'delete-member', 'proto-key'] as const),
            )
          : undefined;
      if (asJson) {
        changed = Buffer.from(asJson.text, 'utf8');
        what = asJson.note;
      } else {
        const m = mutateBytes(
          decoded,
          rng,
          rng.pick(['flip-bit', 'set-byte', 'insert', 'delete', 'truncate'] as const),
        );
        changed = m.bytes;
        what = m.note;
      }
      const base64 = Buffer.from(changed).toString(rng.chance(0.2) ? 'base64url' : 'base64');
      const repair = rng.pick(['digest-only', 'fix-bytes', 'fix-bytes-and-data', 'reseal'] as const);
      const values: Record<string, string> = { content_base64: JSON.stringify(base64) };
      if (repair !== 'digest-only') values['bytes'] = String(changed.length);
      if (repair === 'fix-bytes-and-data' || repair === 'reseal') {
        const data = dataFor(entry.format, Buffer.from(changed).toString('utf8'));
        if (data !== undefined) values['data'] = data;
      }
      if (repair === 'reseal') values['sha256'] = JSON.stringify(createHash('sha256').update(changed).digest('hex'));
      return { text: replaceMembers(text, entry.node, values), note: `content ${where} ${what} (${repair})` };
    }
    case 'data': {
      const inner = mutateJson(
        text,
        rng,
        rng.pick([
          'change-value',
          'string-edit',
          'number-edge',
          'delete-member',
          'insert-member',
          'swap-items',
          'remove-item',
          'proto-key',
          'duplicate-member',
        ] as const),
        {
          under: [...entry.path, 'data'],
          effectiveOnly: true,
        },
      );
      return inner ? { text: inner.text, note: `data ${inner.note} (digest kept)` } : undefined;
    }
    case 'digest': {
      const sha = member(entry.node, 'sha256');
      if (sha?.t !== 'str') return undefined;
      const variants = [
        sha.value.toUpperCase(),
        sha.value.slice(0, 63),
        sha.value + '\n',
        `${sha.value.slice(0, 10)}${sha.value[10] === '0' ? '1' : '0'}${sha.value.slice(11)}`,
        '',
      ];
      const value = rng.pick(variants);
      return {
        text: replaceMember(text, entry.node, 'sha256', JSON.stringify(value)),
        note: `digest ${where} -> ${JSON.stringify(value.slice(0, 12))}…`,
      };
    }
    case 'control': {
      const original = entry.content.value;
      const choice = rng.int(3);
      let base64: string;
      let what: string;
      if (choice === 0) {
        // Characters outside the alphabet are skipped by Buffer.from(…, 'base64') (§4.7).
        base64 = original.replace(/(.{1,76})/g, (chunk) => chunk + rng.pick(['\n', ' ', '\r\n', '!', '*', '\t']));
        what = 'junk between base64 characters';
      } else if (choice === 1) {
        base64 = original.replace(/\+/g, '-').replace(/\//g, '_');
        what = 'url-safe alphabet';
      } else {
        base64 = trimEnd(original, '=') + '=' + rng.pick(['junk', 'AAAA', '==', '@@']);
        what = 'data after the first =';
      }
      return {
        text: replaceMember(text, entry.node, 'content_base64', JSON.stringify(base64)),
        note: `control: ${what} in ${where}`,
        control: true,
      };
    }
  }
}
