/**
 * The `codex-exec` format: codex-orchestrator `exec --jsonl` event streams (`exec:begin`,
 * `exec:chunk`, `exec:retry`, `exec:end`, `run:summary`), plain or gzip, verified line by line in
 * bounded memory against docs/codex-exec.md. There is no reference verifier for this format (no
 * compat output), and it carries no signature: authenticity is `not-checked`.
 * @module
 */
import type { VerifyOptions } from '../../options.ts';
import type { VerifyInput } from '../../stream/input.ts';
import { readNdjson } from '../ndjson/reader.ts';
import type { OpenedInput } from '../../stream/open.ts';
import { beginVerification, finishVerification } from '../../verifier-lifecycle.ts';
import { createExecChecker } from './checks.ts';
import type { ReportOf } from '../../report.ts';
import { CODEX_EXEC_CODES } from './codes.ts';

/**
 * Verifies a codex-orchestrator `exec --jsonl` stream, plain or gzip.
 * @throws TypeError on API misuse (bad limits, unsupported input type).
 * @example
 * const report = await verifyCodexExec(await fetch('run.jsonl.gz'), { name: 'run.jsonl.gz' });
 * report.details.attempts; // exec attempts begun
 */
export async function verifyCodexExec(
  input: VerifyInput | OpenedInput,
  options: VerifyOptions = {},
): Promise<ReportOf<'codex-exec'>> {
  const context = await beginVerification(input, options, CODEX_EXEC_CODES);
  const { collector, opened } = context;
  const checker = createExecChecker(collector);
  const summary = await readNdjson(
    context,
    (record, line) => checker.record(record, line),
    options.signal ? { signal: options.signal } : {},
  );
  let endChecks: readonly string[] = [];
  if (summary.complete && summary.lineCount === 0) collector.add('input.empty', '$', 'the input holds no lines');
  else endChecks = checker.end(summary.ending);
  const notChecked = [...summary.notChecked, ...endChecks];
  return finishVerification<ReportOf<'codex-exec'>>(context, {
    format: 'codex-exec',
    kind: 'exec-jsonl',
    checked: { structure: true, integrity: true },
    details: {
      schema: 'exec-jsonl',
      line_count: summary.lineCount,
      ...checker.details(),
      bytes_in: opened.counters.bytesIn,
      bytes_out: opened.counters.bytesOut,
      compressed: opened.gzip,
      ...(notChecked.length > 0 ? { not_checked: notChecked } : {}),
    },
  });
}
