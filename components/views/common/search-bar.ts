/**
 * The search of the content views: the query (what the field says, and the search the list shows,
 * applied after a pause in typing or on Enter), and its toolbar: a search field, previous and next
 * match buttons, and the live count (exact counts from the worker, or "Match 3 of 12" while
 * stepping).
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';

/** The view a query belongs to. */
export interface SearchHost {
  /** Resolves once the view shows the current search; a new search replaces it. */
  ready: Promise<void>;
  requestUpdate(): void;
}

/** What a query does besides holding the text. */
export interface SearchQueryOptions {
  /** Milliseconds of quiet typing before the search applies. */
  readonly delay: number;
  /** Shows the newly applied search (reloads the list); the view's `ready` becomes its promise. */
  readonly show: () => Promise<void>;
  /** Moves to the next (1) or previous (-1) match, after Enter or Shift+Enter. */
  readonly step: (direction: 1 | -1) => Promise<void>;
}

/**
 * A view's search query: `text` is the field, `applied` (trimmed) the search the list shows.
 * @example
 * readonly #query = new SearchQuery(this, { delay: 300, show: () => this.reload(), step: (d) => this.step(d) });
 */
export class SearchQuery {
  /** What the field says. */
  text = '';
  /** The search the list shows ('' for none). */
  applied = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: SearchHost,
    private readonly options: SearchQueryOptions,
  ) {}

  /** The field's input: keeps the text and applies it after a pause. */
  readonly onInput = (event: Event): void => {
    this.text = (event.target as HTMLInputElement).value;
    this.host.requestUpdate();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.apply(), this.options.delay);
  };

  /** Enter applies the text at once and steps to the next match (Shift+Enter: the previous). */
  readonly onKey = async (event: KeyboardEvent): Promise<void> => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    await this.apply();
    await this.options.step(event.shiftKey ? -1 : 1);
  };

  /** Applies the field's text, when it differs from the search shown; resolves once it shows. */
  apply(): Promise<void> {
    clearTimeout(this.#timer);
    if (this.text.trim() === this.applied) return this.host.ready;
    this.applied = this.text.trim();
    this.host.ready = this.options.show();
    return this.host.ready;
  }
}

/** What the search toolbar draws and whom it calls. */
export interface SearchBarOptions {
  /** The id of the count, which the field is described by (`entries-count`). */
  readonly countId: string;
  /** `search` when this toolbar is the view's search landmark. */
  readonly role?: 'search';
  /** The query the field edits. */
  readonly query: SearchQuery;
  /** The count or step status. */
  readonly status: string;
  /** Whether there are matches to step through. */
  readonly canStep: boolean;
  readonly onStep: (direction: 1 | -1) => void;
}

/**
 * The search toolbar.
 * @example
 * searchBar({ countId: 'replay-count', role: 'search', query, status, canStep: marks.length > 0, onStep });
 */
export function searchBar(options: SearchBarOptions): TemplateResult {
  return html`<div class="toolbar" role=${options.role ?? nothing}>
    <label
      >Search
      <input
        type="search"
        aria-describedby=${options.countId}
        .value=${options.query.text}
        @input=${options.query.onInput}
        @keydown=${options.query.onKey}
    /></label>
    <button type="button" aria-label="Previous match" ?disabled=${!options.canStep} @click=${() => options.onStep(-1)}>
      ↑
    </button>
    <button type="button" aria-label="Next match" ?disabled=${!options.canStep} @click=${() => options.onStep(1)}>
      ↓
    </button>
    <span id=${options.countId} class="count" role="status" aria-live="polite">${options.status}</span>
  </div>`;
}

/**
 * The position after stepping `direction` through `length` marks from `at` (wrapping; -1 is
 * before the first).
 * @example
 * stepMark(-1, 1, 4); // 0
 * stepMark(0, -1, 4); // 3
 */
export function stepMark(at: number, direction: 1 | -1, length: number): number {
  return (at + direction + length) % length;
}
