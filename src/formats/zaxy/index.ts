/**
 * The `zaxy` format's public surface: verification, Zaxy's own answer, and disclosure.
 * @module
 */
export { verifyZaxy, type ZaxyKind } from './verify.ts';
export type { ZaxyOptions } from './options.ts';
export { toZaxyJson } from './compat.ts';
export type { ZaxyDetails } from './details.ts';
export { discloseSubset, type DiscloseResult, type DisclosureSelector } from './disclose.ts';
