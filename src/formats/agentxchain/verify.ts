/**
 * `verifyAgentxchain`: AgentXchain run and coordinator export artifacts (docs/agentxchain.md),
 * with the verdict and error strings of `agentxchain verify export` (CLI 2.159.0).
 *
 * The whole document is read (bounded by `limits.maxBufferedBytes`), decoded as UTF-8 the way
 * Node's `readFileSync(…, 'utf8')` does (invalid bytes → U+FFFD, a BOM kept, so a BOM-prefixed file
 * fails to parse exactly as in the reference) and parsed once with the native `JSON.parse`, whose
 * semantics (last duplicate key wins, `__proto__` as an own key) and V8 error messages are the
 * reference's. Then every check of the contract runs in the reference's order.
 * @module
 */
import { bulkDigest } from '../../crypto/bulk-digest.ts';
import type { Sha256 } from '../../crypto/sha256.ts';
import type { VerifyOptions } from '../../options.ts';
import { jsonPath } from '../../report/path.ts';
import type { VerifyInput } from '../../stream/input.ts';
import type { OpenedInput } from '../../stream/open.ts';
import { beginVerification, finishVerification, recordThrown, resolveSha256 } from '../../verifier-lifecycle.ts';
import { ROOT_SCOPE, type CheckContext } from './context.ts';
import type { AgentxchainDetails, EchoedValue } from './details.ts';
import { checkLargeContents } from './files.ts';
import { isJsonObject, type ParsedValue } from './js-semantics.ts';
import { readDocument } from './read-document.ts';
import { verifyExportObject } from './verify-artifact.ts';
import type { FindingCollector, ReportOf } from '../../report.ts';
import { AGENTXCHAIN_CODES } from './codes.ts';

/** Each child-export level adds at least three levels of JSON (`repos` → id → `export`). */
const JSON_LEVELS_PER_CHILD = 3;

/**
 * Verifies an AgentXchain export artifact (plain or gzip).
 * Hostile data never throws: it becomes findings; `TypeError` only for API misuse.
 * @example
 * const report = await verifyAgentxchain(await (await fetch('export.json')).arrayBuffer(), { name: 'export.json' });
 * report.overall;                      // 'pass' | 'fail' | 'error'
 * toAgentxchainJson(report).errors;    // the reference's error strings
 */
export async function verifyAgentxchain(
  input: VerifyInput | OpenedInput,
  options: VerifyOptions = {},
): Promise<ReportOf<'agentxchain'>> {
  return (await verifyAgentxchainDocument(input, options)).report;
}

/** A verification and the document it read (for the governance report, which reads it again). */
export interface VerifiedDocument {
  readonly report: ReportOf<'agentxchain'>;
  /** The parsed artifact (`undefined` when the input could not be read or parsed). */
  readonly artifact: ParsedValue;
}

/**
 * `verifyAgentxchain`, also handing back the parsed artifact, so a caller that needs more than the
 * verdict (report/report.ts) does not read and parse the document a second time.
 */
export async function verifyAgentxchainDocument(
  input: VerifyInput | OpenedInput,
  options: VerifyOptions = {},
): Promise<VerifiedDocument> {
  const context = await beginVerification(input, options, AGENTXCHAIN_CODES);
  let artifact: ParsedValue = undefined;
  const { collector, limits, opened } = context;
  let details: AgentxchainDetails = {};
  let kind: string | null = null;
  let verified = false;
  try {
    const parsed = await readDocument(opened.stream, {
      maxBytes: limits.maxBufferedBytes,
      maxDepth: limits.maxJsonDepth,
      // Offsets in a decompressed document are not the input's.
      readAgain: opened.gzip ? undefined : options.readInputAgain,
      stringSkipper: options.stringSkipper,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (parsed.ok) {
      artifact = parsed.value;
      verified = true;
      if (!isJsonObject(artifact)) {
        collector.add('agentxchain.not_an_object', '$', 'must be a JSON object', {
          compat: 'artifact: must be a JSON object',
        });
        details = {
          schema_version: null,
          export_kind: null,
          file_count: 0,
          files: [],
          agentxchain: { error_count: 1 },
        };
      } else {
        const sha256: Sha256 = await resolveSha256(options);
        const checks: CheckContext = {
          collector,
          sha256,
          ...(options.decodeBase64 ? { decodeBase64: options.decodeBase64 } : {}),
          maxNesting: Math.max(1, Math.floor(limits.maxJsonDepth / JSON_LEVELS_PER_CHILD)),
          ...(options.signal ? { signal: options.signal } : {}),
          errorCount: 0,
          checkedAhead: new Map(),
        };
        kind = typeof artifact['export_kind'] === 'string' ? artifact['export_kind'] : null;
        // The header alone stays in the report if verification is interrupted (abort, kit error).
        details = headerOf(artifact, limits.maxJsonDepth, collector);
        await checkLargeContents(checks, artifact, bulkDigest(options));
        const rows = verifyExportObject(checks, ROOT_SCOPE, artifact);
        details = {
          ...details,
          files: rows.files,
          ...(rows.repos.length > 0 ? { repos: rows.repos } : {}),
          ...(rows.runner !== undefined ? { runner: rows.runner } : {}),
          // Counted while verifying, so errors dropped past limits.maxFindings still fail toAgentxchainJson.
          agentxchain: { error_count: checks.errorCount },
        };
        collector.add(
          'kit.unsigned_format',
          '$',
          'AgentXchain exports carry no signature: an edit that also rewrites bytes, sha256, content_base64 and data (re-sealed) cannot be detected',
          {
            severity: 'warning',
          },
        );
      }
    } else {
      collector.add(parsed.byteLength === 0 ? 'input.empty' : 'input.not_json', '$', parsed.message, {
        compat: `Invalid JSON export artifact: ${parsed.message}`,
      });
    }
  } catch (error) {
    recordThrown(collector, error);
  }
  const report = finishVerification<ReportOf<'agentxchain'>>(context, {
    format: 'agentxchain',
    kind,
    checked: verified ? { structure: true, integrity: true } : {},
    details,
  });
  return { report, artifact };
}

/**
 * The reference's report header (§1): `schema_version` and `export_kind` echo any truthy value,
 * the counts are own-key counts of `files`/`repos` when they are objects. An echoed value nested
 * deeper than `maxJsonDepth` (attacker-controlled) could not even be serialised (the reference
 * crashes printing it): it is replaced by a note and reported as a limit.
 */
function headerOf(
  artifact: Record<string, ParsedValue>,
  maxDepth: number,
  collector: FindingCollector,
): AgentxchainDetails {
  const files = artifact['files'];
  const repos = artifact['repos'];
  const echo = (key: string): EchoedValue => {
    const value = artifact[key] || null;
    // The report must survive a JSON round trip: echo what the reference's JSON.stringify prints
    // (Infinity → null, -0 → 0), never a value JSON cannot hold.
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    if (typeof value !== 'object' || value === null) return value as string | boolean | null;
    if (nestingDepth(value, maxDepth) <= maxDepth) return JSON.parse(JSON.stringify(value)) as EchoedValue;
    collector.add(
      'limit.json_depth',
      jsonPath([key]),
      `${key} is nested deeper than limits.maxJsonDepth (${maxDepth}) and is not echoed`,
    );
    return `[${key} nested deeper than ${maxDepth} levels]`;
  };
  return {
    schema_version: echo('schema_version'),
    export_kind: echo('export_kind'),
    file_count: isJsonObject(files) ? Object.keys(files).length : 0,
    repo_count: isJsonObject(repos) ? Object.keys(repos).length : 0,
  };
}

/** Nesting depth of a JSON value (a scalar is 0), counted iteratively and given up past `limit`. */
function nestingDepth(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Object.values(current as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}
