/**
 * `summary.workflow_phase_order` of run and coordinator exports (docs/agentxchain.md §7).
 * @module
 */
import { reportError, type CheckContext, type Scope } from '../context.ts';
import type { ParsedObject } from '../js-semantics.ts';

/**
 * Checks the phase order, if present: an array of distinct, trimmed, non-blank strings that
 * contains `summary.phase`. Duplicates are reported on the array's path, as the reference does.
 */
export function verifyWorkflowPhaseOrder(context: CheckContext, scope: Scope, summary: ParsedObject): void {
  const phaseOrder = summary['workflow_phase_order'];
  if (phaseOrder === undefined || phaseOrder === null) return;
  const refPath = 'summary.workflow_phase_order';
  const segments = ['summary', 'workflow_phase_order'];
  if (!Array.isArray(phaseOrder)) {
    reportError(context, scope, 'agentxchain.summary_invalid', refPath, segments, 'must be an array or null');
    return;
  }
  if (phaseOrder.length === 0) {
    reportError(context, scope, 'agentxchain.summary_invalid', refPath, segments, 'must not be empty when present');
    return;
  }
  const seen = new Set<string>();
  for (let index = 0; index < phaseOrder.length; index++) {
    const entry: unknown = phaseOrder[index];
    const entryRef = `${refPath}[${index}]`;
    const entrySegments = [...segments, index];
    if (typeof entry !== 'string') {
      reportError(context, scope, 'agentxchain.summary_invalid', entryRef, entrySegments, 'must be a string');
      continue;
    }
    const trimmed = entry.trim();
    if (!trimmed) {
      reportError(context, scope, 'agentxchain.summary_invalid', entryRef, entrySegments, 'must not be blank');
      continue;
    }
    if (trimmed !== entry) {
      reportError(context, scope, 'agentxchain.summary_invalid', entryRef, entrySegments, 'must be trimmed');
      continue;
    }
    if (seen.has(entry)) {
      reportError(
        context,
        scope,
        'agentxchain.summary_invalid',
        refPath,
        segments,
        `must not contain duplicate phase "${entry}"`,
      );
      continue;
    }
    seen.add(entry);
  }
  const phase = summary['phase'];
  if (phase !== null && phase !== undefined && !seen.has(phase as string)) {
    reportError(
      context,
      scope,
      'agentxchain.summary_mismatch',
      'summary.phase',
      ['summary', 'phase'],
      'must appear in summary.workflow_phase_order when workflow_phase_order is present',
    );
  }
}
