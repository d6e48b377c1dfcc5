/**
 * Placeholder compat serializer for `agentxchain` until its verifier lands.
 * @module
 */
import type { Report } from '../../report/types.ts';

/** The reference tool's JSON output for a report. */
export function toAgentxchainJson(report: Report): Record<string, unknown> {
  return { overall: report.overall, errors: report.findings.map((f) => f.compat ?? f.message), input: report.input };
}
