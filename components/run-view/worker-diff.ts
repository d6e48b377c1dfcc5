/**
 * The worker's side of the Compare view: the core's export diff (spec `agentxchain-report.md` §8,
 * `src/formats/agentxchain/diff/`) with the reference's text. The worker imports this module only
 * when a person compares two exports.
 * @module
 */
import { agentxchainDiffText, diffAgentxchain } from '../../src/formats/agentxchain/diff/index.ts';
import type { VerifyInput } from '../../src/stream/input.ts';
import type { Comparison, ExportDiff } from './types.ts';

/**
 * The diff of two exports (the reference's `diff --export --json`) with its text, or its refusal.
 * @example
 * const comparison = await makeComparison(left, 'a.json', right, 'b.json');
 */
export async function makeComparison(
  left: VerifyInput,
  leftName: string | undefined,
  right: VerifyInput,
  rightName: string,
): Promise<Comparison> {
  const result = await diffAgentxchain(left, right, { leftName: leftName ?? 'left', rightName });
  if (!result.ok) return { ok: false, message: result.refusal.message };
  // The view reads the diff through its own structural type (components/run-view/types.ts).
  return { ok: true, diff: result.diff as unknown as ExportDiff, text: agentxchainDiffText(result.diff) };
}
