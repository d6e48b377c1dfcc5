/**
 * The reference's JSON report (`agentxchain verify export --format json`, docs/agentxchain.md §1):
 * rebuilt from a `Report` with the exact key order, so `JSON.stringify(toAgentxchainJson(r), null, 2)`
 * prints what the reference prints.
 * @module
 */
import { dimensionOf } from '../../codes.ts';
import type { Report } from '../../report.ts';

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
 * `strict`; the verdict also counts the reference errors dropped past `limits.maxFindings`
 * (`details.agentxchain.error_count`). A report whose input could not be read or parsed becomes the
 * command-error shape `{overall: "error", input, message}` (exit 2). Uses only what survives a
 * JSON round trip of the report.
 * @example
 * const report = await verifyAgentxchain(bytes, { name: '/tmp/export.json' });
 * JSON.stringify(toAgentxchainJson(report), null, 2);
 * // { "overall": "pass", "schema_version": "0.3", "export_kind": "agentxchain_run_export", ... }
 */
export function toAgentxchainJson(report: Report): AgentxchainJson {
  const errorCount = report.format === 'agentxchain' ? report.details.agentxchain?.error_count : undefined;
  if (report.overall === 'error' || report.format !== 'agentxchain' || typeof errorCount !== 'number') {
    const problem = report.findings.find((f) => f.severity === 'error' && dimensionOf(f.code) === 'input');
    const message =
      problem?.compat ??
      problem?.message ??
      (report.format === 'agentxchain' ? 'the input could not be verified' : 'not an AgentXchain export report');
    return { overall: 'error', input: report.input, message };
  }
  const details = report.details;
  const errors: string[] = [];
  for (const finding of report.findings) if (finding.compat !== undefined) errors.push(finding.compat);
  return {
    overall: errors.length === 0 && errorCount === 0 ? 'pass' : 'fail',
    schema_version: details.schema_version ?? null,
    export_kind: details.export_kind ?? null,
    file_count: details.file_count ?? 0,
    // The reference prints no repo_count when the artifact is not an object.
    ...(details.repo_count === undefined ? {} : { repo_count: details.repo_count }),
    errors,
    input: report.input,
  };
}
