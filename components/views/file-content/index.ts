/**
 * The Files view module, imported lazily by `<verify-export>` for an AgentXchain export: importing
 * it defines `<verify-export-files>` (once).
 * @module
 */
import { VerifyExportFiles } from './files-view.ts';

export { VerifyExportFiles } from './files-view.ts';
export type { ViewFinding } from '../entries/entries-view.ts';
export type { FetchPage } from '../common/paged-items.ts';

/** The tag name of the Files view. */
export const FILES_TAG = 'verify-export-files';

if (!customElements.get(FILES_TAG)) customElements.define(FILES_TAG, VerifyExportFiles);

declare global {
  interface HTMLElementTagNameMap {
    'verify-export-files': VerifyExportFiles;
  }
}
