/**
 * The reference's JSON report (`agentxchain verify export --format json`, docs/agentxchain.md §1):
 * rebuilt from a `Report` with the exact key order, so `JSON.stringify(toAgentxchainJson(r), null, 2)`
 * prints what the reference prints.
 * @module
 */
import { dimensionOf } from '../../report/codes.ts';
import type { Report } from '../../report/types.ts';

/** The reference's report object (verification ran) or its command-error object. */
export type AgentxchainJson =
  | {
      overall: 'pass' | 'fail';
      schema_version: unknown;
      export_kind: unknown;
      file_count: number;
      repo_count?: number;
      errors: string[];
      input: string;
    }
  | { overall: 'error'; input: string; message: string };

/**
 * Serialises a report as the reference does. Only findings that carry a reference text
 * (`finding.compat`) are listed, so the kit's own warnings never change this output, even with
 * `strict`. A report whose input could not be read or parsed becomes the command-error shape
 * `{overall: "error", input, message}` (exit 2).
 * @example
 * const report = await verifyAgentxchain(bytes, { name: '/tmp/export.json' });
 * JSON.stringify(toAgentxchainJson(report), null, 2);
 * // { "overall": "pass", "schema_version": "0.3", "export_kind": "agentxchain_run_export", ... }
 */
export function toAgentxchainJson(report: Report): AgentxchainJson {
  const details = report.details;
  const compat = details['compat'] as { shape?: unknown; error_count?: unknown } | undefined;
  const shape = compat?.shape;
  if (report.overall === 'error' || report.format !== 'agentxchain' || (shape !== 'report' && shape !== 'not_object')) {
    const problem = report.findings.find((f) => f.severity === 'error' && dimensionOf(f.code) === 'input');
    const message = problem?.compat ?? problem?.message ?? (report.format === 'agentxchain' ? 'the input could not be verified' : 'not an AgentXchain export report');
    return { overall: 'error', input: report.input, message };
  }
  const errors: string[] = [];
  for (const finding of report.findings) if (finding.compat !== undefined) errors.push(finding.compat);
  // Counted while verifying, so findings dropped past limits.maxFindings still fail the verdict.
  const errorCount = typeof compat?.error_count === 'number' ? compat.error_count : errors.length;
  const overall = errors.length === 0 && errorCount === 0 ? 'pass' : 'fail';
  if (shape === 'not_object') {
    return { overall, schema_version: null, export_kind: null, file_count: 0, errors, input: report.input };
  }
  return {
    overall,
    schema_version: details['schema_version'] ?? null,
    export_kind: details['export_kind'] ?? null,
    file_count: details['file_count'] as number,
    repo_count: details['repo_count'] as number,
    errors,
    input: report.input,
  };
}
