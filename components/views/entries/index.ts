/**
 * The Entries view module, imported lazily by `<verify-export>` for a Zaxy document: importing it
 * defines `<verify-export-entries>` (once).
 * @module
 */
import { VerifyExportEntries } from './entries-view.ts';

export { VerifyExportEntries, entryPositionOf, type ViewFinding } from './entries-view.ts';
export type { FetchPage } from '../common/paged-items.ts';

/** The tag name of the Entries view. */
export const ENTRIES_TAG = 'verify-export-entries';

if (!customElements.get(ENTRIES_TAG)) customElements.define(ENTRIES_TAG, VerifyExportEntries);

declare global {
  interface HTMLElementTagNameMap {
    'verify-export-entries': VerifyExportEntries;
  }
}
