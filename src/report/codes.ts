/**
 * The closed list of finding codes (docs/architecture.md, 'Finding codes'). Renaming a code is a
 * breaking change. Each format owns its rows in `src/formats/<id>/codes.ts`; this module only joins
 * them, so the union type `FindingCode` stays closed and the README table is generated from one
 * place.
 * @module
 */
import { CORE_CODES } from './core-codes.ts';
import { AGENTXCHAIN_CODES } from '../formats/agentxchain/codes.ts';
import { ZAXY_CODES } from '../formats/zaxy/codes.ts';
import { AGENT_HISTORY_CODES } from '../formats/agent-history/codes.ts';
import { CODEX_EXEC_CODES } from '../formats/codex-exec/codes.ts';
import type { CodeInfo } from './code-table.ts';

export const CODES = /* @__PURE__ */ Object.freeze({
  ...CORE_CODES,
  ...AGENTXCHAIN_CODES,
  ...ZAXY_CODES,
  ...AGENT_HISTORY_CODES,
  ...CODEX_EXEC_CODES,
});

export type FindingCode = keyof typeof CODES;

/**
 * Looks up a code's row.
 * @example
 * codeInfo('limit.line_bytes').dimension; // 'input'
 */
export function codeInfo(code: FindingCode): CodeInfo {
  return CODES[code];
}
