/**
 * Zaxy's own answer for a report: `{ok, reason}` exactly as its `verify_export` /
 * `verify_subset` return it (docs/zaxy.md, 'Compat output'). The CLI prints it for `--compat zaxy`
 * (`--format json`), or Zaxy's text line `verify: OK` / `verify: FAIL - <reason>`.
 * @module
 */

/** Zaxy's result shape. `reason` is null exactly when `ok`. */
export interface ZaxyResult {
  readonly ok: boolean;
  readonly reason: string | null;
}

/**
 * Zaxy's `{ok, reason}` for a report: the reason of the finding that decides Zaxy's verdict
 * (the one carrying `compat`), else Zaxy's answer as the report records it (`details.zaxy`); the
 * kit's extra findings and `--strict` never change it. Input Zaxy could not have read (not JSON,
 * invalid UTF-8, over a limit, a top level that is not an object) gives `ok: false` with the kit's
 * clear reason, where Zaxy itself would crash. Uses only what survives a JSON round trip of the
 * report.
 * @example
 * toZaxyJson(await verifyZaxy(bytes)); // { ok: false, reason: 'merkle root mismatch (entries added/removed/altered)' }
 */
export function toZaxyJson(report: Report): ZaxyResult {
  const deciding = report.findings.find((finding) => finding.compat !== undefined);
  if (deciding !== undefined) return { ok: false, reason: deciding.compat! };
  const recorded = report.format === 'zaxy' ? report.details.zaxy : undefined;
  if (isZaxyResult(recorded)) return { ok: recorded.ok, reason: recorded.reason };
  if (report.overall === 'pass') return { ok: true, reason: null };
  const error = report.findings.find((finding) => finding.severity === 'error');
  return { ok: false, reason: error?.message ?? `verification ${report.overall}` };
}

/** A report read back from JSON may hold anything: only a well-formed answer is used. */
function isZaxyResult(value: unknown): value is ZaxyResult {
  if (typeof value !== 'object' || value === null) return false;
  const { ok, reason } = value as Partial<ZaxyResult>;
  return typeof ok === 'boolean' && (reason === null || typeof reason === 'string');
}
import type { Report } from '../../report.ts';
