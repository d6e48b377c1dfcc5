/**
 * One side of a diff, from its parsed artifact to its normalised form (docs/agentxchain-diff.md
 * §1, §2): the reference loader's checks in its order (an object, a non-blank string
 * `export_kind`), then the normalisation of its kind. The artifact is not kept, so a diff holds one
 * parsed document at a time.
 * @module
 */
import { isJsonObject, type ParsedValue } from '../js-semantics.ts';
import { normaliseCoordinator } from './normalise-coordinator.ts';
import { normaliseRun } from './normalise-run.ts';
import type { AgentxchainDiffRefusal, CoordinatorDiffSide, RunDiffSide } from './types.ts';
import { nestingDepth, ReferenceCrash, type DiffContext } from './values.ts';

export const RUN_EXPORT = 'agentxchain_run_export';
export const COORDINATOR_EXPORT = 'agentxchain_coordinator_export';

/**
 * A side that passed the loader. `normalised` is null for a kind the diff does not support; a
 * problem met while normalising (`failure`) waits until the kinds are checked, as the reference
 * meets it only then.
 */
export interface PreparedSide {
  readonly ok: true;
  readonly name: string | undefined;
  readonly kind: string;
  readonly normalised: RunDiffSide | CoordinatorDiffSide | null;
  readonly failure?: AgentxchainDiffRefusal;
}

export type LoadedSide = PreparedSide | { readonly ok: false; readonly refusal: AgentxchainDiffRefusal };

/** What a side needs besides its artifact. */
export interface SideOptions {
  readonly which: 'left' | 'right';
  /** The ref shown in messages and as `left_ref`/`right_ref` (the CLI passes the absolute path). */
  readonly name: string | undefined;
  readonly maxJsonDepth: number;
}

/** The name messages use for a side. */
export function refOf(side: { readonly name: string | undefined; readonly which: 'left' | 'right' }): string {
  return side.name ?? side.which;
}

/** Runs the loader's checks on a parsed artifact and normalises it. */
export function prepareSide(context: DiffContext, artifact: ParsedValue, options: SideOptions): LoadedSide {
  const { which, name } = options;
  const ref = refOf(options);
  if (!isJsonObject(artifact)) {
    return refuse('not_an_object', which, `Export file ${ref} must contain a JSON object.`);
  }
  const kind = artifact['export_kind'];
  if (typeof kind !== 'string' || !kind.trim()) {
    return refuse('missing_export_kind', which, `Export file ${ref} is missing export_kind.`);
  }
  if (kind !== RUN_EXPORT && kind !== COORDINATOR_EXPORT) return { ok: true, name, kind, normalised: null };
  let normalised: RunDiffSide | CoordinatorDiffSide;
  try {
    normalised =
      kind === RUN_EXPORT ? normaliseRun(context, artifact, kind) : normaliseCoordinator(context, artifact, kind);
  } catch (error) {
    if (!(error instanceof ReferenceCrash)) throw error;
    return { ok: true, name, kind, normalised: null, failure: crashRefusal(which, error) };
  }
  // Values copied from the artifact are compared and printed as JSON: bound their nesting.
  for (const [key, value] of Object.entries(normalised)) {
    if (nestingDepth(value, options.maxJsonDepth) > options.maxJsonDepth) {
      const failure = {
        code: 'too_deep',
        side: which,
        message: `Export file ${ref}: ${key} is nested deeper than limits.maxJsonDepth (${options.maxJsonDepth})`,
      } as const;
      return { ok: true, name, kind, normalised: null, failure };
    }
  }
  return { ok: true, name, kind, normalised };
}

/** The refusal for a place where the reference throws. */
export function crashRefusal(side: 'left' | 'right' | null, crash: ReferenceCrash): AgentxchainDiffRefusal {
  return {
    code: 'reference_crash',
    side,
    message: `agentxchain diff --export crashes on this input (${crash.message}); no diff was made`,
  };
}

function refuse(
  code: AgentxchainDiffRefusal['code'],
  side: 'left' | 'right',
  message: string,
): { ok: false; refusal: AgentxchainDiffRefusal } {
  return { ok: false, refusal: { code, side, message } };
}
