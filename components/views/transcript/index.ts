/**
 * The Transcript view module, imported lazily by `<verify-export>` for an agent-history export:
 * importing it defines `<verify-export-transcript>` (once).
 * @module
 */
import { VerifyExportTranscript } from './transcript-view.ts';

export { VerifyExportTranscript, findingLine, type ViewFinding } from './transcript-view.ts';

/** The tag name of the Transcript view. */
export const TRANSCRIPT_TAG = 'verify-export-transcript';

if (!customElements.get(TRANSCRIPT_TAG)) customElements.define(TRANSCRIPT_TAG, VerifyExportTranscript);

declare global {
  interface HTMLElementTagNameMap {
    'verify-export-transcript': VerifyExportTranscript;
  }
}
