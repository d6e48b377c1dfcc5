/**
 * The `codex-exec` format's public surface.
 * @module
 */
export { verifyCodexExec } from './verify.ts';
export type { CodexExecDetails } from './details.ts';
