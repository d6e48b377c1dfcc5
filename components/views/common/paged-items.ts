/**
 * Items of a view fetched page by page from the worker (`fetchPage`), cached by page, and the
 * window of them a view draws: every item up to `FULL_LIST_MAX`, past it only the rows near the
 * scroll position (own windowing: a top and a bottom spacer sized by an estimated row height),
 * so a list of 100,000 entries holds a few hundred cards in the DOM.
 * @module
 */
import type { InspectPage, InspectRequest } from '../../../src/inspect/types.ts';

/** Asks the worker for a page (the element's `fetchPage` property). */
export type FetchPage = (request: InspectRequest) => Promise<InspectPage<unknown>>;

/** Lists up to this long are drawn whole; longer ones are windowed. */
export const FULL_LIST_MAX = 2000;
/** Items fetched per request. */
export const PAGE_SIZE = 200;
/** Rows drawn above and below the visible ones in a windowed list. */
const OVERSCAN = 30;

/**
 * A cache of pages for one request shape (filter and search); a new shape needs a new cache.
 * `pageSize` is the items a request asks for (`PAGE_SIZE`; fewer for items as heavy as a
 * transcript's messages, whose page the main thread copies out of the worker's message at once).
 */
export class PagedItems<Item> {
  readonly #pages = new Map<number, readonly Item[]>();
  readonly #loading = new Map<number, Promise<void>>();
  total = 0;
  matches = 0;
  notViewable: string | undefined;

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly base: Omit<InspectRequest, 'from' | 'count'>,
    private readonly pageSize = PAGE_SIZE,
  ) {}

  /** The item at `index`, when its page is loaded. */
  get(index: number): Item | undefined {
    return this.#pages.get(Math.floor(index / this.pageSize))?.[index % this.pageSize];
  }

  /** Loads the pages covering `[start, end)` (the first call learns `total`). */
  async ensure(start: number, end: number): Promise<void> {
    const size = this.pageSize;
    const first = Math.floor(Math.max(0, start) / size);
    const last = Math.floor(Math.max(start, end - 1) / size);
    const waits: Promise<void>[] = [];
    for (let page = first; page <= last; page++) {
      if (this.#pages.has(page)) continue;
      let loading = this.#loading.get(page);
      if (loading === undefined) {
        loading = this.fetchPage({ ...this.base, from: page * size, count: size }).then((result) => {
          this.#pages.set(page, result.items as Item[]);
          this.total = result.total;
          this.matches = result.matches;
          this.notViewable = result.notViewable;
          this.#loading.delete(page);
        });
        this.#loading.set(page, loading);
      }
      waits.push(loading);
    }
    await Promise.all(waits);
  }
}

/**
 * The one item a one-item request answers (an overview, the marks, a file's content), or
 * undefined when there is none (or no `fetchPage` yet).
 * @example
 * const overview = await fetchOne<ZaxyOverview>(fetchPage, { filter: { view: 'overview' } });
 */
export async function fetchOne<Item>(
  fetchPage: FetchPage | undefined,
  request: Omit<InspectRequest, 'from' | 'count'>,
): Promise<Item | undefined> {
  const page = await fetchPage?.({ from: 0, count: 1, ...request });
  return page?.items[0] as Item | undefined;
}

/**
 * The position in the list a `locate` filter finds (a line, an entry, a file), or -1.
 * @example
 * await locate(fetchPage, { view: 'locate', line: '17' }); // 4: the fifth message
 */
export async function locate(fetchPage: FetchPage | undefined, filter: Record<string, string>): Promise<number> {
  return (await fetchOne<{ position: number }>(fetchPage, { filter }))?.position ?? -1;
}

/** The rows a windowed list draws. */
export interface ListWindow {
  readonly start: number;
  readonly end: number;
  /** Heights of the spacers standing for the rows above and below. */
  readonly before: number;
  readonly after: number;
}

/**
 * The window for a scroll position: the whole list when it is short, else the rows around the
 * visible ones.
 * @example
 * listWindow(100_000, 16_000, 800, 160); // { start: 70, end: 135, before: 11200, after: … }
 */
export function listWindow(total: number, scrollTop: number, viewport: number, rowHeight: number): ListWindow {
  if (total <= FULL_LIST_MAX) return { start: 0, end: total, before: 0, after: 0 };
  const height = Math.max(rowHeight, 1);
  const start = Math.max(0, Math.min(total, Math.floor(scrollTop / height) - OVERSCAN));
  const end = Math.min(total, Math.ceil((scrollTop + viewport) / height) + OVERSCAN);
  return { start, end, before: start * height, after: (total - end) * height };
}

/**
 * The window drawing rows `[start, end)` of a list of `total`: with spacers for the rows around
 * them when the list is windowed (longer than `FULL_LIST_MAX`), none when it is drawn whole.
 * @example
 * windowOf(100_000, 70, 135, 160); // { start: 70, end: 135, before: 11200, after: 15_978_400 }
 */
export function windowOf(total: number, start: number, end: number, rowHeight: number): ListWindow {
  if (total <= FULL_LIST_MAX) return { start, end, before: 0, after: 0 };
  const height = Math.max(rowHeight, 1);
  return { start, end, before: start * height, after: Math.max(0, total - end) * height };
}

/**
 * Offers bytes or text as a file download (the view's own link, never one from the artifact).
 * @example
 * downloadBlob(new Blob(['{}']), 'entry-3.json');
 */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
