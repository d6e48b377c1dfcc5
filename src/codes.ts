/**
 * The closed list of finding codes (docs/architecture.md, 'Finding codes'). Renaming a code is a
 * breaking change. The core's rows are in `report/core-codes.ts`, and each format owns its rows in
 * `formats/<id>/codes.ts`; this module, beside `verify.ts` (the one module that knows every
 * format), only joins them, so the union type `FindingCode` stays closed and the README table is
 * generated from one place. Verification looks up dimensions only (`dimensionOf`, handed to the
 * collector), so bundles of the verifiers carry no summaries; `CODES`, the public table, joins
 * both.
 * @module
 */
import { CORE_CODE_SUMMARIES, CORE_CODES } from './report/core-codes.ts';
import { AGENTXCHAIN_CODE_SUMMARIES, AGENTXCHAIN_CODES } from './formats/agentxchain/codes.ts';
import { ZAXY_CODE_SUMMARIES, ZAXY_CODES } from './formats/zaxy/codes.ts';
import { AGENT_HISTORY_CODE_SUMMARIES, AGENT_HISTORY_CODES } from './formats/agent-history/codes.ts';
import { CODEX_EXEC_CODE_SUMMARIES, CODEX_EXEC_CODES } from './formats/codex-exec/codes.ts';
import { NDJSON_CODE_SUMMARIES } from './formats/ndjson/codes.ts';
import type { CodeInfo } from './report/code-table.ts';
import type { Dimension } from './report/types.ts';

const DIMENSIONS = /* @__PURE__ */ Object.freeze({
  ...CORE_CODES,
  ...AGENTXCHAIN_CODES,
  ...ZAXY_CODES,
  ...AGENT_HISTORY_CODES,
  ...CODEX_EXEC_CODES,
});

export type FindingCode = keyof typeof DIMENSIONS;

/**
 * Every finding code with the dimension it fails and what it means.
 * @example
 * CODES['limit.line_bytes']; // { dimension: 'input', summary: 'A line is longer than limits.maxLineBytes.' }
 */
export const CODES: { readonly [Code in FindingCode]: CodeInfo } = /* @__PURE__ */ joinSummaries([
  CORE_CODE_SUMMARIES,
  AGENTXCHAIN_CODE_SUMMARIES,
  ZAXY_CODE_SUMMARIES,
  NDJSON_CODE_SUMMARIES,
  AGENT_HISTORY_CODE_SUMMARIES,
  CODEX_EXEC_CODE_SUMMARIES,
]);

/** The rows of `CODES` (a list of tables, not spreads, so that bundlers can drop the unused call). */
function joinSummaries(tables: readonly Readonly<Record<string, string>>[]): {
  readonly [Code in FindingCode]: CodeInfo;
} {
  const summaries: Readonly<Record<string, string>> = Object.assign({}, ...tables);
  const rows = (Object.keys(DIMENSIONS) as FindingCode[]).map((code) => [
    code,
    Object.freeze({ dimension: dimensionOf(code), summary: summaries[code]! }),
  ]);
  return Object.freeze(Object.fromEntries(rows)) as { readonly [Code in FindingCode]: CodeInfo };
}

/**
 * The verdict dimension an error with `code` fails.
 * @example
 * dimensionOf('limit.line_bytes'); // 'input'
 */
export function dimensionOf(code: FindingCode): Dimension {
  return DIMENSIONS[code];
}
