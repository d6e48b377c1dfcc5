/**
 * Defensive readers of `report.details`. Each format verifier fills details with its own facts
 * (docs/architecture.md, 'The report'); any field may be missing or of another type, and every
 * string in them may come from the artifact, so the views only ever see these normalised shapes.
 * @module
 */

type Bag = Readonly<Record<string, unknown>>;

/** Longest artifact string shown in full; longer ones are clipped so a hostile 10 MB path cannot stall layout. */
const MAX_SHOWN_CHARS = 2000;

/**
 * Returns the value as display text, clipped to a sane length.
 * @example
 * text('abc'); // 'abc'
 */
export function text(value: unknown, max = MAX_SHOWN_CHARS): string | undefined {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function bag(value: unknown): Bag | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Bag) : undefined;
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export interface FileRow {
  readonly path: string;
  readonly format?: string | undefined;
  readonly bytes?: number | undefined;
  readonly sha256?: string | undefined;
  readonly status?: string | undefined;
}

export interface RepoRow {
  readonly id: string;
  readonly ok?: boolean | undefined;
  readonly overall?: string | undefined;
  readonly fileCount?: number | undefined;
}

export interface AgentxchainFacts {
  readonly schemaVersion?: string | undefined;
  readonly exportKind?: string | undefined;
  readonly fileCount?: number | undefined;
  readonly repoCount?: number | undefined;
  readonly files: readonly FileRow[];
  readonly repos: readonly RepoRow[];
}

/**
 * AgentXchain facts: `{schema_version, export_kind, file_count, repo_count, files, repos}`.
 * @example
 * agentxchainFacts({ file_count: 2 }).fileCount; // 2
 */
export function agentxchainFacts(details: Bag): AgentxchainFacts {
  const files = list(details['files']).flatMap((item): FileRow[] => {
    const row = bag(item);
    if (row === undefined) return [];
    return [{ path: text(row['path']) ?? '', format: text(row['format']), bytes: num(row['bytes']), sha256: text(row['sha256']), status: text(row['status']) }];
  });
  const repos = list(details['repos']).flatMap((item): RepoRow[] => {
    const row = bag(item);
    if (row === undefined) return [];
    const ok = row['ok'];
    return [{ id: text(row['id']) ?? '', ok: typeof ok === 'boolean' ? ok : undefined, overall: text(row['overall']), fileCount: num(row['file_count']) }];
  });
  return {
    schemaVersion: text(details['schema_version']),
    exportKind: text(details['export_kind']),
    fileCount: num(details['file_count']) ?? (files.length > 0 ? files.length : undefined),
    repoCount: num(details['repo_count']) ?? (repos.length > 0 ? repos.length : undefined),
    files,
    repos,
  };
}

export interface ZaxyEntry {
  /** Position in the bundle's `entries` (what disclosure selects by). */
  readonly position: number;
  readonly kind?: string | undefined;
  readonly grain?: string | undefined;
  /** `seq` as a number when it is an integer (big ones arrive as decimal strings). */
  readonly seq?: number | undefined;
  /** `seq` as shown (any JSON value, as text). */
  readonly seqText?: string | undefined;
  readonly validFrom?: string | undefined;
}

/** An integer `seq`, given as a number or as the decimal string of a big integer. */
function seqNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d{1,400}$/.test(value)) return Number(value);
  return undefined;
}

export interface ProofStep {
  /**
   * `L` = the sibling is on the left; any other value hashes it on the right (docs/zaxy.md,
   * 'Merkle tree').
   */
  readonly side: string;
  readonly sibling: string;
}

export interface DisclosedEntry {
  /** The element's `index` as written (it is not signed: any value, as text). */
  readonly index?: string | undefined;
  readonly kind?: string | undefined;
  readonly grain?: string | undefined;
  readonly seq?: string | undefined;
  readonly proofDepth?: number | undefined;
  readonly proof: readonly ProofStep[];
  /** Whether the proof leads to the signed root (`undefined` when it was not computed). */
  readonly included?: boolean | undefined;
}

export interface ZaxyFacts {
  readonly algorithm?: string | undefined;
  readonly publicKey?: string | undefined;
  readonly fingerprint?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly createdAt?: string | undefined;
  readonly merkleRoot?: string | undefined;
  readonly entryCount?: number | undefined;
  readonly entries: readonly ZaxyEntry[];
  /** The report lists fewer entries (or disclosed elements) than the artifact holds. */
  readonly truncated: boolean;
  /** `undefined` for a full bundle, a list (maybe empty) for a disclosed subset. */
  readonly disclosed?: readonly DisclosedEntry[] | undefined;
  readonly disclosedCount?: number | undefined;
}

/**
 * Zaxy facts: signer, root, entries of a bundle or disclosed entries of a subset.
 * @example
 * zaxyFacts({ algorithm: 'ed25519', entries: [] }).algorithm; // 'ed25519'
 */
export function zaxyFacts(details: Bag): ZaxyFacts {
  const entries = list(details['entries']).map((item, position): ZaxyEntry => {
    const row = bag(item) ?? {};
    return { position, kind: text(row['kind']), grain: text(row['grain']), seq: seqNumber(row['seq']), seqText: text(row['seq'], 40), validFrom: text(row['valid_from']) };
  });
  const disclosedList = details['disclosed'];
  const disclosed = Array.isArray(disclosedList)
    ? disclosedList.map((item): DisclosedEntry => {
        const row = bag(item) ?? {};
        const proof = list(row['proof']).flatMap((step): ProofStep[] => {
          const s = bag(step);
          if (s !== undefined) return [{ side: text(s['side'], 16) ?? '?', sibling: text(s['sibling'], 128) ?? '' }];
          // Tolerate the raw `[sibling, side]` pair shape of the subset file itself.
          if (Array.isArray(step)) return [{ side: text(step[1], 16) ?? '?', sibling: text(step[0], 128) ?? '' }];
          return [];
        });
        const included = row['included'];
        return {
          index: text(row['index'], 40),
          kind: text(row['kind']),
          grain: text(row['grain']),
          seq: text(row['seq'], 40),
          proofDepth: num(row['proof_depth']) ?? proof.length,
          proof,
          included: typeof included === 'boolean' ? included : undefined,
        };
      })
    : undefined;
  return {
    algorithm: text(details['algorithm']),
    publicKey: text(details['public_key']),
    fingerprint: text(details['fingerprint']),
    sessionId: text(details['session_id']),
    createdAt: text(details['created_at']),
    merkleRoot: text(details['merkle_root']),
    entryCount: num(details['entry_count']) ?? (entries.length > 0 ? entries.length : undefined),
    entries,
    truncated: details['entries_truncated'] === true || details['disclosed_truncated'] === true,
    disclosed,
    disclosedCount: num(details['disclosed_count']) ?? num(details['disclosed']) ?? disclosed?.length,
  };
}

export interface StreamFacts {
  readonly schema?: string | undefined;
  readonly lineCount?: number | undefined;
  readonly sessionCount?: number | undefined;
  readonly attempts?: number | undefined;
  readonly messageCount?: number | undefined;
  readonly chunkCount?: number | undefined;
  readonly bytesIn?: number | undefined;
  readonly bytesOut?: number | undefined;
  readonly compressed?: boolean | undefined;
  readonly recordsByType: readonly (readonly [string, number])[];
}

/**
 * NDJSON facts (agent-history, codex-exec): line, session or attempt and record counts.
 * @example
 * streamFacts({ line_count: 3 }).lineCount; // 3
 */
export function streamFacts(details: Bag): StreamFacts {
  const byType = bag(details['records_by_type']) ?? {};
  const compressed = details['compressed'];
  return {
    schema: text(details['schema']),
    lineCount: num(details['line_count']),
    sessionCount: num(details['session_count']),
    attempts: num(details['attempts']),
    messageCount: num(details['message_count']),
    chunkCount: num(details['chunk_count']),
    bytesIn: num(details['bytes_in']),
    bytesOut: num(details['bytes_out']),
    compressed: typeof compressed === 'boolean' ? compressed : undefined,
    recordsByType: Object.entries(byType).flatMap(([type, count]): [string, number][] => {
      const n = num(count);
      return n === undefined ? [] : [[text(type) ?? '', n]];
    }),
  };
}
