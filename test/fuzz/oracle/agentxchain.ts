/**
 * No-false-pass oracle for AgentXchain (docs/agentxchain.md §1, §3, §4, §8.6), computed from the
 * bytes alone with the reference's own primitives (JSON.parse, `Buffer.from(s, 'base64')`,
 * node:crypto SHA-256, `util.isDeepStrictEqual`): whenever the reference would report an error
 * for the file map (a digest, length or data mismatch of an entry whose `content_base64` is a
 * string, in the export or in any child export it verifies), the kit must not pass. Null-content
 * entries bypass integrity in the reference, and base64 junk is skipped, so neither is claimed.
 * @module
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isPlainObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const DECODER = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Why `bytes` must not verify as passing, or `undefined` when the reference could pass it.
 * @example
 * agentxchainMustFail(new TextEncoder().encode('[]')); // 'artifact is not a JSON object'
 */
export function agentxchainMustFail(bytes: Uint8Array): string | undefined {
  // The reference reads the file as UTF-8 (U+FFFD for bad bytes, BOM kept) and JSON.parses it.
  let artifact: unknown;
  try {
    artifact = JSON.parse(DECODER.decode(bytes));
  } catch {
    return 'not JSON (JSON.parse rejects it: command error)';
  }
  if (!isPlainObject(artifact)) return 'artifact is not a JSON object';
  if (artifact['schema_version'] !== '0.2' && artifact['schema_version'] !== '0.3')
    return 'schema_version is not "0.2" or "0.3"';
  if (typeof artifact['export_kind'] !== 'string') return 'export_kind is not a string';
  if (
    artifact['export_kind'] !== 'agentxchain_run_export' &&
    artifact['export_kind'] !== 'agentxchain_coordinator_export'
  )
    return 'unsupported export kind';
  return exportIntegrity(artifact, '');
}

/** §4 for one export, then §8.6 for each child export a coordinator verifies. Iterative over children. */
function exportIntegrity(root: { [key: string]: Json }, rootPrefix: string): string | undefined {
  const pending: { artifact: { [key: string]: Json }; prefix: string }[] = [{ artifact: root, prefix: rootPrefix }];
  while (pending.length > 0) {
    const { artifact, prefix } = pending.pop()!;
    const files = artifact['files'];
    if (isPlainObject(files)) {
      for (const [path, entry] of Object.entries(files)) {
        let problem: string | undefined;
        try {
          problem = entryProblem(entry);
        } catch (error) {
          // isDeepStrictEqual recurses: on absurd nesting, abstain rather than guess.
          if (error instanceof RangeError) continue;
          throw error;
        }
        if (problem) return `${prefix}files[${JSON.stringify(path)}]: ${problem}`;
      }
    }
    if (artifact['export_kind'] === 'agentxchain_coordinator_export' && isPlainObject(artifact['repos'])) {
      for (const [id, repo] of Object.entries(artifact['repos'])) {
        if (isPlainObject(repo) && repo['ok'] === true && isPlainObject(repo['export'])) {
          const child = repo['export'];
          // The child is verified in full, so its own top-level checks apply too (§3).
          if (child['schema_version'] !== '0.2' && child['schema_version'] !== '0.3')
            return `${prefix}repos.${id}.export: bad schema_version`;
          if (
            child['export_kind'] !== 'agentxchain_run_export' &&
            child['export_kind'] !== 'agentxchain_coordinator_export'
          )
            return `${prefix}repos.${id}.export: bad export_kind`;
          pending.push({ artifact: child, prefix: `${prefix}repos.${id}.export.` });
        }
      }
    }
  }
  return undefined;
}

/** The reference's §4 steps 1–10 for one entry, reduced to "would it emit an error". */
function entryProblem(entry: Json): string | undefined {
  if (!isPlainObject(entry)) return 'entry is not an object';
  const format = entry['format'];
  if (format !== 'json' && format !== 'jsonl' && format !== 'text') return 'unsupported format';
  const content = entry['content_base64'];
  if (content === null) return undefined; // integrity bypass by design (§4.5, §13)
  if (typeof content !== 'string') return 'content_base64 is not a string';
  const decoded = Buffer.from(content, 'base64');
  if (typeof entry['sha256'] !== 'string' || !/^[a-f0-9]{64}$/.test(entry['sha256']))
    return 'sha256 is not a lowercase hex digest';
  if (createHash('sha256').update(decoded).digest('hex') !== entry['sha256'])
    return 'sha256 does not match the decoded content';
  if (entry['bytes'] !== decoded.length) return 'bytes does not match the decoded length';
  const raw = decoded.toString('utf8');
  const data = entry['data'];
  if (format === 'text') return raw === data ? undefined : 'text data differs from the content';
  if (format === 'json') {
    try {
      return isDeepStrictEqual(JSON.parse(raw), data) ? undefined : 'json data differs from the content';
    } catch {
      return 'content is not JSON';
    }
  }
  const parsed: unknown[] = [];
  for (const line of raw.split('\n')) {
    if (line.trim() === '') continue;
    try {
      parsed.push(JSON.parse(line));
    } catch {
      return 'content has an invalid JSONL line';
    }
  }
  return isDeepStrictEqual(parsed, data) ? undefined : 'jsonl data differs from the content';
}
