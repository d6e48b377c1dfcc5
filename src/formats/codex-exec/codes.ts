/**
 * Finding codes of the `codex-exec` format. One row per code: the verdict dimension it fails and a
 * one-line meaning. Codes are stable: renaming one is a breaking change.
 * @module
 */
import type { CodeTable } from '../../report/code-table.ts';

export const CODEX_EXEC_CODES = /* @__PURE__ */ Object.freeze({
} satisfies CodeTable);
