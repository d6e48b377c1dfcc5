/**
 * The Replay view module, imported lazily by `<verify-export>` for a codex-exec stream: importing
 * it defines `<verify-export-replay>` (once).
 * @module
 */
import { VerifyExportReplay } from './replay-view.ts';

export { VerifyExportReplay } from './replay-view.ts';

/** The tag name of the Replay view. */
export const REPLAY_TAG = 'verify-export-replay';

if (!customElements.get(REPLAY_TAG)) customElements.define(REPLAY_TAG, VerifyExportReplay);

declare global {
  interface HTMLElementTagNameMap {
    'verify-export-replay': VerifyExportReplay;
  }
}
