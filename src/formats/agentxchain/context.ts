/**
 * What every AgentXchain check needs: where findings go, how they are addressed, and the scope of
 * the export being checked (the top level, or a child export nested under `repos.<id>.export`).
 *
 * The reference builds its error strings as `"<path>: <message>"` by plain concatenation and
 * prefixes a child's errors with `repos.<id>.export: ` (docs/agentxchain.md §2). We keep that exact
 * text in `finding.compat` and address the same place with a real JSON path built by `jsonPath`.
 * @module
 */
import type { Sha256 } from '../../crypto/sha256.ts';
import type { Base64Decoder } from '../../encoding/base64.ts';
import type { FindingCode } from '../../codes.ts';
import type { FindingExtras } from '../../report/collector.ts';
import { jsonPath, type PathSegment } from '../../report/path.ts';
import { StreamProblem } from '../../stream/problem.ts';
import type { FindingCollector } from '../../report.ts';
import type { ContentCheck } from './files.ts';

/** One export being verified: the top-level artifact or a nested child export. */
export interface Scope {
  /** JSON-path segments of this export inside the top-level artifact (`[]`, `['repos', 'a', 'export']`). */
  readonly segments: readonly PathSegment[];
  /** The reference's error prefix for this export (`''`, `'repos.a.export: '`). */
  readonly prefix: string;
  /** Nesting level: 0 for the top-level artifact. */
  readonly level: number;
}

/** The top-level scope. */
export const ROOT_SCOPE: Scope = Object.freeze({ segments: Object.freeze([]), prefix: '', level: 0 });

/** The scope of the child export at `repos.<repoId>.export` of `parent`. */
export function childScope(parent: Scope, repoId: string): Scope {
  return {
    segments: [...parent.segments, 'repos', repoId, 'export'],
    prefix: `${parent.prefix}repos.${repoId}.export: `,
    level: parent.level + 1,
  };
}

/** Shared state of one verification run. */
export interface CheckContext {
  readonly collector: FindingCollector;
  readonly sha256: Sha256;
  /** The host's decoder of canonical base64 (`VerifyOptions.decodeBase64`), tried first. */
  readonly decodeBase64?: Base64Decoder;
  /** Large contents decoded, checked and hashed ahead with WebCrypto, by file entry (files.ts `checkLargeContents`). */
  readonly checkedAhead: Map<object, ContentCheck>;
  /** Deepest child-export nesting verified; deeper children get a `limit.json_depth` finding. */
  readonly maxNesting: number;
  readonly signal?: AbortSignal;
  /** Error findings emitted so far (kept or dropped), to tell whether a child export passed. */
  errorCount: number;
}

/**
 * Records a reference error. `refPath` is the reference's own path text (`files..agentxchain/state.json`,
 * `summary.phase`), `segments` the same place as JSON-path segments relative to the scope.
 * `message` is the reference's message (docs/agentxchain.md); the compat text is
 * `<prefix><refPath>: <message>`.
 */
export function reportError(
  context: CheckContext,
  scope: Scope,
  code: FindingCode,
  refPath: string,
  segments: readonly PathSegment[],
  message: string,
  extras: Omit<FindingExtras, 'compat' | 'severity'> = {},
): void {
  context.errorCount++;
  context.collector.add(code, jsonPath([...scope.segments, ...segments]), message, {
    ...extras,
    compat: `${scope.prefix}${refPath}: ${message}`,
  });
}

/** Records one of the kit's own findings (never part of the compat output). */
export function reportWarning(
  context: CheckContext,
  scope: Scope,
  code: FindingCode,
  segments: readonly PathSegment[],
  message: string,
): void {
  context.collector.add(code, jsonPath([...scope.segments, ...segments]), message, { severity: 'warning' });
}

/** Throws the abort problem when the caller cancelled; called between files and child exports. */
export function throwIfAborted(context: CheckContext): void {
  if (context.signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
}
