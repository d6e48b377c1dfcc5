/**
 * The `codex-exec` format (placeholder until its verifier lands: reports input.unknown_format).
 * @module
 */
import type { VerifyOptions } from '../../options.ts';
import type { Report } from '../../report/types.ts';
import type { VerifyInput } from '../../stream/input.ts';
import type { OpenedInput } from '../../stream/open.ts';
import { beginVerification, finishVerification } from '../../verification.ts';

export async function verifyCodexExec(input: VerifyInput | OpenedInput, options: VerifyOptions = {}): Promise<Report> {
  const context = await beginVerification(input, options);
  await context.opened.stream.cancel().catch(() => undefined);
  context.collector.add('input.unknown_format', '$', 'the codex-exec verifier is not built yet');
  return finishVerification(context, { format: 'codex-exec', kind: null, checked: {} });
}
