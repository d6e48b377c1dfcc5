/**
 * `verify`: detect the format, then dispatch to exactly one format verifier. Nothing else
 * (docs/architecture.md, 'Pipeline'). Format modules are imported on demand so a page only loads
 * the verifier (and crypto) the artifact needs.
 * @module
 */
import type { VerifyOptions } from './options.ts';
import { detectFormat } from './detect.ts';
import type { FormatId } from './report/types.ts';
import type { VerifyInput } from './stream/input.ts';
import { beginVerification, finishVerification, recordThrown } from './verifier-lifecycle.ts';
import type { EntryHasherFactory } from './formats/zaxy/entry-hashes.ts';
import type { Report } from './report.ts';

export interface AutoVerifyOptions extends VerifyOptions {
  /** Skip detection and verify as this format. */
  readonly kind?: FormatId | 'auto';
  /** Zaxy: the public key (hex) the signer must have. */
  readonly expectPublicKey?: string;
  /** Zaxy: hashes a signed bundle's entries elsewhere (see `ZaxyOptions.entryHasher`). */
  readonly entryHasher?: EntryHasherFactory;
}

const FORMATS: readonly FormatId[] = ['agentxchain', 'zaxy', 'agent-history', 'codex-exec'];

/**
 * Verifies any supported artifact.
 * @throws TypeError on API misuse (unknown `kind`, bad limits, unsupported input type).
 * @example
 * const report = await verify(await (await fetch('export.json')).arrayBuffer(), { name: 'export.json' });
 * report.overall; // 'pass' | 'fail' | 'error'
 */
export async function verify(input: VerifyInput, options: AutoVerifyOptions = {}): Promise<Report> {
  const kind = options.kind ?? 'auto';
  if (kind !== 'auto' && !FORMATS.includes(kind)) {
    throw new TypeError(`options.kind must be 'auto' or one of ${FORMATS.join(', ')}`);
  }
  const context = await beginVerification(input, options);
  const format = kind === 'auto' ? detectFormat(context.opened.head) : kind;
  switch (format) {
    case 'agentxchain':
      return (await import('./formats/agentxchain/verify.ts')).verifyAgentxchain(context.opened, options);
    case 'zaxy':
      return (await import('./formats/zaxy/verify.ts')).verifyZaxy(context.opened, options);
    case 'agent-history':
      return (await import('./formats/agent-history/verify.ts')).verifyAgentHistory(context.opened, options);
    case 'codex-exec':
      return (await import('./formats/codex-exec/verify.ts')).verifyCodexExec(context.opened, options);
    case null: {
      await context.opened.stream.cancel().catch(() => undefined);
      const { collector, opened } = context;
      if (opened.headProblem !== undefined) {
        recordThrown(collector, opened.headProblem);
      } else if (opened.head.byteLength === 0) {
        collector.add('input.empty', '$', 'the input is empty');
      } else {
        collector.add(
          'input.unknown_format',
          '$',
          'not a recognised export artifact (AgentXchain, Zaxy, agent-history NDJSON, codex-exec JSONL); pass kind to force one',
        );
      }
      return finishVerification(context, { format: null, kind: null, checked: {} });
    }
  }
}
