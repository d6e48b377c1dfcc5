/**
 * What every content view (Entries, Files, Transcript, Replay) is as an element: the properties
 * `<verify-export>` sets (`fetchPage`, `verifiedNote`, `failed`, `findings`), the `ready` promise
 * tests and hosts await, and the status line a failed page read becomes. Each view extends it with
 * its own state, styles and drawing.
 * @module
 */
import { LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { readFailure } from './list-parts.ts';
import { afterPaint } from './list-scroll.ts';
import type { FetchPage } from './paged-items.ts';
import type { ViewFinding } from './view-finding.ts';

/** The base of the content views: set `fetchPage` and the view loads; `_load` says how. */
export abstract class ContentView extends LitElement {
  static override properties: PropertyDeclarations = {
    fetchPage: { attribute: false },
    verifiedNote: { type: String, attribute: 'verified-note' },
    failed: { type: Boolean, reflect: true },
    findings: { attribute: false },
    _status: { state: true },
    _version: { state: true },
    _tools: { state: true },
  };

  /** Asks the worker for a page of this artifact's view. */
  declare fetchPage: FetchPage | undefined;
  /** What verification covered, said above the content. */
  declare verifiedNote: string;
  /** Draws the red bar: the content is shown as read, not as verified. */
  declare failed: boolean;
  /** The report's findings; those the view can point at are listed and jump to their place. */
  declare findings: readonly ViewFinding[];

  /** The status line (counts, steps, errors). */
  declare protected _status: string;
  /** Bumped when a list is replaced, so the view draws again. */
  declare protected _version: number;
  /** Whether the tools below the header (filters, tabs, search) are drawn (see `_toolsAfterPaint`). */
  declare protected _tools: boolean;

  /** Resolves once the view shows the current filter and search. */
  ready: Promise<void> = Promise.resolve();

  /** What a failed read names (`the replay`). */
  readonly #subject: string;

  constructor(subject: string) {
    super();
    this.#subject = subject;
    this.fetchPage = undefined;
    this.verifiedNote = '';
    this.failed = false;
    this.findings = [];
    this._status = '';
    this._version = 0;
    this._tools = false;
  }

  /** A new `fetchPage` (a new artifact, or new bytes) loads the view afresh. */
  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('fetchPage') && this.fetchPage !== undefined) this.ready = this._settle(this._load());
  }

  /** Forgets what the last `fetchPage` showed and loads from the new one. */
  protected abstract _load(): Promise<void>;

  /**
   * Draws a view in steps, so no one task holds the main thread long: the header already drawn is
   * painted, then the tools, and the promise resolves once they have been painted too (the list
   * comes next).
   */
  protected _toolsAfterPaint(): Promise<void> {
    return afterPaint()
      .then(() => {
        this._tools = true;
        return this.updateComplete;
      })
      .then(afterPaint);
  }

  /**
   * A page the worker could not give (the element was removed, the worker stopped, a newer
   * verification replaced the bytes) becomes the status line.
   */
  protected _settle(work: Promise<void>): Promise<void> {
    return work.catch((error: unknown) => {
      this._status = readFailure(this.#subject, error);
    });
  }
}
