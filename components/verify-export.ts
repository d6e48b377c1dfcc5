/**
 * Registers `<verify-export>` (the class is in `verify-export.component.ts`). Importing this
 * module has that one side effect; it is listed in `package.json` `sideEffects`.
 * @module
 */
import { VerifyExportElement } from './verify-export.component.ts';

export { VerifyExportElement };
export type { VerifyExportFailure, VerifyExportProgress } from './verify-export.component.ts';

/**
 * Defines the element under `tag` unless that tag is already taken, so loading the script twice
 * (or two bundles each carrying a copy) is harmless. Returns the class registered under `tag`.
 * @example
 * import { defineVerifyExport } from 'verify-export/components/verify-export.js';
 * defineVerifyExport('my-verifier'); // <my-verifier src="bundle.json"></my-verifier>
 */
export function defineVerifyExport(tag = 'verify-export'): CustomElementConstructor {
  const existing = customElements.get(tag);
  if (existing !== undefined) return existing;
  // A tag can be registered once, and a constructor under one tag only: subclass for other tags.
  const constructor = tag === 'verify-export' ? VerifyExportElement : class extends VerifyExportElement {};
  customElements.define(tag, constructor);
  return constructor;
}

defineVerifyExport();

declare global {
  interface HTMLElementTagNameMap {
    'verify-export': VerifyExportElement;
  }
}
