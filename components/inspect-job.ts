/**
 * The worker's `inspect` job: pages of plain view models out of the bytes the last verification
 * read (`verified-bytes.ts`, read by `inspect-source.ts`), by the inspector of the verified format
 * (`src/inspect/`). The bytes are read (and decompressed) once per verification, and each
 * inspector's index is built once; later pages reuse both. The inspectors come with this module
 * (the worker loads it with its other jobs, `worker-jobs.ts`): apart, each would split the core
 * code it shares with the verifiers into more chunks on the verification path.
 *
 * The job's `view` reaches the inspector as `filter.view` (a view may also name itself there). For
 * agent-history, the view `markdown`
 * is agent-history's own markdown of the session (`agentHistoryMarkdown`, which verifies the same
 * kept bytes again and renders them), at `filter.level` 1–4 and `filter.minimal` '1'.
 * @module
 */
import type { InspectPage, InspectRequest, InspectSource, Inspector } from '../src/inspect/types.ts';
import { agentHistoryInspector } from '../src/inspect/agent-history.ts';
import { codexExecInspector } from '../src/inspect/codex-exec.ts';
import { zaxyInspector } from '../src/inspect/zaxy.ts';
import { agentxchainFilesInspector } from '../src/inspect/agentxchain-files.ts';
import { inspectSourceOf } from './inspect-source.ts';
import type { KeptInput } from './verified-bytes.ts';

/** What `inspect` keeps per verification. */
interface Inspection {
  readonly source: Promise<InspectSource & { readonly notViewable?: string | undefined }>;
  index?: Promise<{ readonly inspector: Inspector<unknown, unknown>; readonly index: unknown }>;
}

const inspections = new WeakMap<KeptInput, Inspection>();

/** The `markdown` view's one item. */
export interface MarkdownItem {
  readonly kind: 'markdown';
  /** `exact`: the tool's own file, byte for byte; `reconstructed`: same layout, some things missing; else refused. */
  readonly status: 'exact' | 'reconstructed' | 'not-verified' | 'unsupported' | 'too-long' | 'unreadable';
  readonly markdown: string | null;
  readonly fileName: string;
  readonly missing: readonly string[];
  readonly message: string;
}

/**
 * Answers one `inspect` request over `kept`.
 * @example
 * const page = await inspectKept(kept, { from: 0, count: 50 }, 'transcript');
 */
export async function inspectKept(
  kept: KeptInput,
  request: InspectRequest,
  view?: string,
): Promise<InspectPage<unknown>> {
  let inspection = inspections.get(kept);
  if (inspection === undefined) {
    inspection = { source: inspectSourceOf(kept) };
    inspections.set(kept, inspection);
  }
  const source = await inspection.source;
  if ((view ?? request.filter?.['view']) === 'markdown' && kept.format === 'agent-history')
    return markdownPage(source, request);
  inspection.index ??= Promise.resolve(INSPECTORS[source.format]).then((inspector) => ({
    inspector,
    index: inspector.buildIndex(source),
  }));
  const { inspector, index } = await inspection.index;
  const filter = view === undefined ? request.filter : { ...request.filter, view };
  const page = inspector.page(source, index, { ...request, ...(filter === undefined ? {} : { filter }) });
  return source.notViewable !== undefined && page.notViewable === undefined
    ? { ...page, notViewable: source.notViewable }
    : page;
}

/** The inspector of each format, by the format's name. */
const INSPECTORS: Readonly<Record<InspectSource['format'], Inspector<unknown, unknown>>> = {
  'agent-history': agentHistoryInspector as Inspector<unknown, unknown>,
  'codex-exec': codexExecInspector as Inspector<unknown, unknown>,
  zaxy: zaxyInspector as Inspector<unknown, unknown>,
  agentxchain: agentxchainFilesInspector as Inspector<unknown, unknown>,
};

async function markdownPage(source: InspectSource, request: InspectRequest): Promise<InspectPage<MarkdownItem>> {
  const level = Number(request.filter?.['level'] ?? '4');
  if (level !== 1 && level !== 2 && level !== 3 && level !== 4)
    throw new TypeError('filter.level must be 1, 2, 3 or 4');
  const item: MarkdownItem = source.complete
    ? await renderMarkdown(source.bytes, level, request.filter?.['minimal'] === '1')
    : {
        kind: 'markdown',
        status: 'too-long',
        markdown: null,
        fileName: '',
        missing: [],
        message:
          'only part of the file was kept for viewing (limits.maxInspectBytes), so its markdown cannot be made here',
      };
  return { items: [item], total: 1, matches: 1, firstIndex: 0 };
}

async function renderMarkdown(bytes: Uint8Array, level: 1 | 2 | 3 | 4, minimal: boolean): Promise<MarkdownItem> {
  const { agentHistoryMarkdown } = await import('../src/formats/agent-history/markdown/index.ts');

  const result = await agentHistoryMarkdown(bytes, { level, minimal });
  return result.markdown === null
    ? { kind: 'markdown', status: result.status, markdown: null, fileName: '', missing: [], message: result.message }
    : {
        kind: 'markdown',
        status: result.status,
        markdown: result.markdown,
        fileName: result.fileName,
        missing: result.missing,
        message: '',
      };
}
