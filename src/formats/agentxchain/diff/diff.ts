/**
 * `diffAgentxchain`: what `agentxchain diff --export <left> <right> --json` prints (CLI 2.159.0,
 * docs/agentxchain-diff.md), from two exports. Like the reference it does not verify them: run
 * `verifyAgentxchain` on each to know they are intact.
 *
 * Each input is read whole (bounded by `limits.maxBufferedBytes`; gzip accepted) and parsed with the
 * engine's own `JSON.parse`, as the reference reads it (last duplicate key wins, `__proto__` an
 * ordinary key), then reduced to the few values the diff compares before the next is read, so one
 * parsed document is held at a time. Hostile data never throws: it yields a refusal.
 * @module
 */
import { resolveLimits, type Limits } from '../../../limits.ts';
import type { VerifyOptions } from '../../../options.ts';
import type { VerifyInput } from '../../../stream/input.ts';
import type { GunzipFactory } from '../../../stream/gunzip/index.ts';
import type { StringSkipper } from '../../../json/_grammar.ts';
import { openInput } from '../../../stream/open.ts';
import type { ParsedValue } from '../js-semantics.ts';
import { readDocument } from '../read-document.ts';
import { coordinatorDiff, runDiff } from './build.ts';
import {
  COORDINATOR_EXPORT,
  crashRefusal,
  prepareSide,
  refOf,
  RUN_EXPORT,
  type LoadedSide,
  type PreparedSide,
} from './prepare.ts';
import type { AgentxchainDiffMode, AgentxchainDiffResult, CoordinatorDiffSide, RunDiffSide } from './types.ts';
import { interpolate, ReferenceCrash, type DiffContext } from './values.ts';

/** Options of `diffAgentxchain` and `diffAgentxchainArtifacts`. */
export interface AgentxchainDiffOptions {
  /** `reference` (default): the reference's output, bugs included; `corrected`: docs/agentxchain-diff.md §6. */
  readonly mode?: AgentxchainDiffMode;
  /** The left input's name: `left_ref` and the name in refusals (the reference uses the absolute path). */
  readonly leftName?: string;
  /** The right input's name. */
  readonly rightName?: string;
  /** Overrides of `DEFAULT_LIMITS` (`maxInputBytes`, `maxBufferedBytes`, gzip limits, `maxJsonDepth`). */
  readonly limits?: Partial<Limits>;
  /** Stops reading; the diff is then refused (`read_failed`). */
  readonly signal?: AbortSignal;
  /** Decompressor for gzip input (see `VerifyOptions.gunzip`). */
  readonly gunzip?: GunzipFactory;
  /** A faster skip over long strings (see `VerifyOptions.stringSkipper`). */
  readonly stringSkipper?: StringSkipper;
}

/**
 * Diffs two AgentXchain exports, left (older) then right (newer).
 * @throws TypeError for API misuse (an input of no accepted type, a bad limit or mode).
 * @example
 * const result = await diffAgentxchain(before, after, { leftName: 'before.json', rightName: 'after.json' });
 * if (result.ok) {
 *   result.diff.summary.outcome;       // 'unchanged' | 'changed' | 'regressed'
 *   JSON.stringify(result.diff, null, 2); // what `agentxchain diff --export --json` prints
 * } else {
 *   result.refusal.message;            // what it prints on stderr
 * }
 */
export async function diffAgentxchain(
  left: VerifyInput,
  right: VerifyInput,
  options: AgentxchainDiffOptions = {},
): Promise<AgentxchainDiffResult> {
  const leftSide = await readAgentxchainDiffSide(left, 'left', options);
  if (!leftSide.ok) return leftSide;
  const rightSide = await readAgentxchainDiffSide(right, 'right', options);
  if (!rightSide.ok) return rightSide;
  return diffAgentxchainSides(leftSide, rightSide, options);
}

/**
 * Step one of `diffAgentxchain`, for a caller that must do something between the two reads (the
 * CLI checks that the right file exists only once the left one loaded, as the reference does):
 * reads one input and reduces it to what the diff compares. With `readInputAgain` (the input's
 * bytes by offset, `VerifyOptions.readInputAgain`) an uncompressed input's file contents are not
 * kept: the diff never reads them. Not part of the public API.
 */
export async function readAgentxchainDiffSide(
  input: VerifyInput,
  which: 'left' | 'right',
  options: AgentxchainDiffOptions = {},
  readInputAgain?: VerifyOptions['readInputAgain'],
): Promise<LoadedSide> {
  const context = contextOf(options);
  const limits = resolveLimits(options.limits);
  const name = which === 'left' ? options.leftName : options.rightName;
  return readSide(context, input, which, name, limits, options, readInputAgain);
}

/** Step two of `diffAgentxchain`: the diff of two sides read by `readAgentxchainDiffSide`. */
export function diffAgentxchainSides(
  left: PreparedSide,
  right: PreparedSide,
  options: Pick<AgentxchainDiffOptions, 'mode'> = {},
): AgentxchainDiffResult {
  return diffPrepared(contextOf(options), left, right);
}

/**
 * `diffAgentxchain` for artifacts already parsed with `JSON.parse` (as `verifyAgentxchainDocument`
 * hands them out), so a page that verified both exports does not read them again.
 * @throws TypeError for a bad limit or mode.
 * @example
 * const result = diffAgentxchainArtifacts(JSON.parse(beforeText), JSON.parse(afterText));
 */
export function diffAgentxchainArtifacts(
  left: unknown,
  right: unknown,
  options: Pick<AgentxchainDiffOptions, 'mode' | 'leftName' | 'rightName' | 'limits'> = {},
): AgentxchainDiffResult {
  const context = contextOf(options);
  const { maxJsonDepth } = resolveLimits(options.limits);
  const leftSide = prepare(context, left, { which: 'left', name: options.leftName, maxJsonDepth });
  if (!leftSide.ok) return leftSide;
  const rightSide = prepare(context, right, { which: 'right', name: options.rightName, maxJsonDepth });
  if (!rightSide.ok) return rightSide;
  return diffPrepared(context, leftSide, rightSide);
}

function contextOf(options: { readonly mode?: AgentxchainDiffMode | undefined }): DiffContext {
  const mode = options.mode ?? 'reference';
  if (mode !== 'reference' && mode !== 'corrected') {
    throw new TypeError("options.mode must be 'reference' or 'corrected'");
  }
  return { mode };
}

/** Reads one input and prepares it; read and parse failures are the reference's "Failed to parse". */
async function readSide(
  context: DiffContext,
  input: VerifyInput,
  which: 'left' | 'right',
  name: string | undefined,
  limits: Limits,
  options: AgentxchainDiffOptions,
  readInputAgain: VerifyOptions['readInputAgain'],
): Promise<LoadedSide> {
  const ref = refOf({ which, name });
  const opened = await openInput(input, {
    limits,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(options.gunzip ? { gunzip: options.gunzip } : {}),
  });
  let parsed;
  try {
    parsed = await readDocument(opened.stream, {
      maxBytes: limits.maxBufferedBytes,
      maxDepth: limits.maxJsonDepth,
      // Offsets in a decompressed document are not the input's. (The diff reads no file entry.)
      readAgain: opened.gzip ? undefined : readInputAgain,
      stringSkipper: options.stringSkipper,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    // A read error (the reference's readFileSync throws inside the same try), gzip damage, a limit, an abort.
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      refusal: { code: 'read_failed', side: which, message: `Failed to parse export file ${ref}: ${message}` },
    };
  }
  if (!parsed.ok) {
    return {
      ok: false,
      refusal: { code: 'not_json', side: which, message: `Failed to parse export file ${ref}: ${parsed.message}` },
    };
  }
  return prepare(context, parsed.value, { which, name, maxJsonDepth: limits.maxJsonDepth });
}

/** `prepareSide`, with anything unexpected turned into a refusal: no crash can become a diff. */
function prepare(context: DiffContext, artifact: ParsedValue, options: Parameters<typeof prepareSide>[2]): LoadedSide {
  try {
    return prepareSide(context, artifact, options);
  } catch (error) {
    return { ok: false, refusal: internalError(options.which, error) };
  }
}

/** The kind checks, the deferred failures, then the diff (docs/agentxchain-diff.md §1). */
function diffPrepared(context: DiffContext, left: PreparedSide, right: PreparedSide): AgentxchainDiffResult {
  if (left.kind !== right.kind) {
    return refusal('kind_mismatch', `Export kinds do not match: ${left.kind} vs ${right.kind}`);
  }
  if (left.kind !== RUN_EXPORT && left.kind !== COORDINATOR_EXPORT) {
    return refusal('unsupported_kind', `Unsupported export kind for diff: ${left.kind}`);
  }
  if (left.failure) return { ok: false, refusal: left.failure };
  if (right.failure) return { ok: false, refusal: right.failure };
  const refs = { left: left.name || null, right: right.name || null };
  try {
    const diff =
      left.kind === RUN_EXPORT
        ? runDiff(context, left.normalised as RunDiffSide, right.normalised as RunDiffSide, refs)
        : coordinatorDiff(
            context,
            left.normalised as CoordinatorDiffSide,
            right.normalised as CoordinatorDiffSide,
            refs,
          );
    if (context.mode === 'reference') {
      // The text's header interpolates status and run id: where the reference's text crashes, refuse in both formats.
      for (const side of [diff.left, diff.right]) {
        const identity =
          ('run_id' in side ? side.run_id : undefined) || ('super_run_id' in side ? side.super_run_id : undefined);
        interpolate(context, side.status || '—', 'text header status');
        interpolate(context, identity || 'unknown run', 'text header run id');
      }
    }
    return { ok: true, diff };
  } catch (error) {
    if (error instanceof ReferenceCrash) return { ok: false, refusal: crashRefusal(null, error) };
    return { ok: false, refusal: internalError(null, error) };
  }
}

function refusal(code: 'kind_mismatch' | 'unsupported_kind', message: string): AgentxchainDiffResult {
  return { ok: false, refusal: { code, side: null, message } };
}

function internalError(side: 'left' | 'right' | null, error: unknown) {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { code: 'internal_error', side, message: `internal error: ${text}` } as const;
}
