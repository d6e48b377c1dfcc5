/**
 * Placeholder compat serializer for `zaxy` until its verifier lands.
 * @module
 */
import type { Report } from '../../report/types.ts';

/** The reference tool's JSON output for a report. */
export function toZaxyJson(report: Report): Record<string, unknown> {
  return { ok: report.overall === "pass", reason: report.overall === "pass" ? null : (report.findings[0]?.compat ?? report.findings[0]?.message ?? null) };
}
